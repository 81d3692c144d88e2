"""What the phones receive per change, counted on the wire: a 10-seat
Secret Hitler keeper game played to its end with random legal commands, a
phone's socket on every seat (the seats' languages en, el, ru, fa in turn,
each socket offering compression as a browser does), through a TCP relay
in front of the real server on 127.0.0.1 that counts every byte the server
sends (WebSocket framing included).

- ``phones.bytes_per_change.10_phones``: the bytes all ten phones were sent
  for one change, the mean over the game's changes;
- ``phones.bytes_per_change.10_phones.max``: the most for one change.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

import aiohttp
from aiohttp import web

from companion.games.base import Fate, Setup
from companion.i18n import LANGUAGES
from companion.table import LOCAL, EventStore, Table, seat_source
from companion.web.server import TableServer

from .report import figure

SEATS = 10
SEED = 7
QUIET = 0.02  # seconds with nothing more on the wire: the change has arrived


class Relay:
    """A TCP relay in front of the server, counting the bytes it sends."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.received = 0  # bytes the server sent, all connections together

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def close(self) -> None:
        self._server.close()

    async def _relay(self, phone: asyncio.StreamReader, to_phone: asyncio.StreamWriter) -> None:
        from_server, to_server = await asyncio.open_connection("127.0.0.1", self.port)
        await asyncio.gather(
            self._pipe(phone, to_server, False),
            self._pipe(from_server, to_phone, True),
            return_exceptions=True,
        )

    async def _pipe(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, counted: bool
    ) -> None:
        try:
            while data := await source.read(65536):
                if counted:
                    self.received += len(data)
                sink.write(data)
                await sink.drain()
        finally:
            sink.close()


def _table(db: Path) -> Table:
    setup = Setup(
        game="secret_hitler",
        seats=[{"name": f"P{i}", "lang": LANGUAGES[i % len(LANGUAGES)]} for i in range(SEATS)],
        mode="keeper",
        options={"first": 0},
    )
    return Table.start(EventStore(db), setup, fate=Fate(seed=SEED))


async def _settled(relay: Relay) -> int:
    """The relay's count once nothing more has come for ``QUIET`` seconds."""
    seen = -1
    while seen != relay.received:
        seen = relay.received
        await asyncio.sleep(QUIET)
    return seen


async def _drain(socket: aiohttp.ClientWebSocketResponse) -> None:
    """Read a phone's socket to its end, as a phone does: what counts is
    the bytes the relay passed on, not what the messages say; a socket no
    one reads would stall the server's sends."""
    async for _ in socket:
        continue


async def bytes_per_change(directory: Path) -> list[int]:
    """The bytes the phones were sent for each change of a whole game."""
    table = _table(directory / "phones.sqlite3")
    server = TableServer(table)
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    relay = Relay(site._server.sockets[0].getsockname()[1])
    base = await relay.start()
    sessions, readers = [], []
    try:
        for seat in range(SEATS):
            # unsafe: keep cookies from an IP address (the phone's seat cookie)
            session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            sessions.append(session)
            token = server.links.token(table.game_id, seat)
            async with session.post(f"{base}/join/{token}") as page:
                assert page.status == 200, page.status
            socket = await session.ws_connect(f"{base}/ws?frames=binary", compress=15)
            readers.append(asyncio.ensure_future(_drain(socket)))
        pick = random.Random(SEED)
        changes = []
        before = await _settled(relay)
        while not table.is_over:
            command = dict(pick.choice(list(table.legal_commands())))
            seat = command.get("seat")
            table.execute(command, source=LOCAL if seat is None else seat_source(seat))
            after = await _settled(relay)
            if after > before:
                changes.append(after - before)
            before = after
        return changes
    finally:
        for reader in readers:
            reader.cancel()
        for session in sessions:
            await session.close()
        await relay.close()
        await runner.cleanup()
        table.store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        changes = asyncio.run(bytes_per_change(Path(directory)))
    figure("phones.bytes_per_change.10_phones", sum(changes) / len(changes), "bytes", "lower")
    figure("phones.bytes_per_change.10_phones.max", max(changes), "bytes", "lower")


if __name__ == "__main__":
    main()
