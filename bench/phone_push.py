"""From a state change to the phones: the real server on 127.0.0.1, real
websocket clients, in one asyncio loop as on the kiosk.

- ``phones.push_to_11_sockets.{p50,p99}``: a Secret Hitler table of 10
  keeper-mode seats, each with its phone's socket, plus the table page's; the
  clock starts when a command is executed and stops when the last of the 11
  sockets has the new state (each seat's message carries its own private
  view, computed on the server);
- ``phones.frame_interval_200_sockets.{p50,p99}``: 200 table-page sockets
  open and a state change every 50 ms, while a 60 Hz task on the same loop
  (the kiosk's frames) measures the time between its ticks;
- ``phones.frame_interval_no_sockets.{p50,p99}``: the same with no page
  open, the baseline (a 60 Hz sleep never ticks at exactly 16.7 ms).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import WSMsgType, web

from companion.table import Table
from companion.web.server import TableServer

from .busy_table import SEATS, busy_table, next_change
from .report import latency_figures

CHANGES = 300
SPECTATORS = 200
FRAME = 1 / 60


async def _serve(table: Table) -> tuple[TableServer, web.AppRunner, str]:
    server = TableServer(table)
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return server, runner, f"http://127.0.0.1:{port}"


async def push_latencies(directory: Path) -> list[float]:
    table = busy_table(directory / "phones.sqlite3")
    server, runner, base = await _serve(table)
    sessions, sockets = [], []
    try:
        for seat in range(SEATS):
            # unsafe: keep cookies from an IP address (the phone's seat cookie)
            session = aiohttp.ClientSession(
                base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True)
            )
            token = server.links.token(table.game_id, seat)
            # As a person joins: the tap, then the seat's page, the cookie's
            # first use, which makes the claim final.
            async with session.post(f"/join/{token}") as seat_page:
                assert seat_page.status == 200, seat_page.status
            sessions.append(session)
            sockets.append(await session.ws_connect("/ws?frames=binary"))
        spectator = aiohttp.ClientSession(base_url=base)
        sessions.append(spectator)
        sockets.append(await spectator.ws_connect("/ws/table"))
        for socket in sockets:
            await socket.receive()
        latencies = []
        for _ in range(CHANGES):
            start = time.perf_counter()
            next_change(table)
            # Every change is public (a nomination, a vote cast), so every
            # socket is sent exactly one state: the new one.
            for socket in sockets:  # a seat's state is a binary frame, the table's a text
                assert (await socket.receive()).type in (WSMsgType.BINARY, WSMsgType.TEXT)
            latencies.append(time.perf_counter() - start)
        return latencies
    finally:
        for session in sessions:
            await session.close()
        await runner.cleanup()
        table.store.close()


async def frame_intervals(directory: Path, pages: int) -> list[float]:
    table = busy_table(directory / "phones.sqlite3")
    server, runner, base = await _serve(table)
    spectators = _Spectators(base, pages)
    spectators.start()
    intervals: list[float] = []
    try:
        await asyncio.get_running_loop().run_in_executor(None, spectators.ready.wait, 60)
        last = time.perf_counter()
        changes = 0
        while changes < CHANGES // 2:
            await asyncio.sleep(FRAME)
            now = time.perf_counter()
            intervals.append(now - last)
            last = now
            if len(intervals) % 3 == 0:
                next_change(table)
                changes += 1
        return intervals
    finally:
        spectators.stop()
        await runner.cleanup()
        table.store.close()


class _Spectators:
    """Table pages in another process (they are other devices: their
    reading is not the kiosk's work, and must not take the kiosk's GIL)."""

    def __init__(self, base: str, pages: int) -> None:
        self.ready = multiprocessing.Event()
        self._process = multiprocessing.Process(
            target=_watch, args=(base, pages, self.ready), daemon=True
        )

    def start(self) -> None:
        self._process.start()

    def stop(self) -> None:
        self._process.terminate()
        self._process.join(10)


def _watch(base: str, pages: int, ready) -> None:
    async def watch() -> None:
        # One device, one address: each page from its own loopback address
        # (127.0.0.2, 127.0.0.3, ...), as the server caps sockets per address.
        sessions = [
            aiohttp.ClientSession(
                base_url=base, connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{2 + n}", 0))
            )
            for n in range(pages)
        ]
        try:
            sockets = [await session.ws_connect("/ws/table") for session in sessions]
            ready.set()
            await asyncio.gather(*(_drain(socket) for socket in sockets))
        finally:
            for session in sessions:
                await session.close()

    asyncio.run(watch())


async def _drain(socket) -> None:
    """Read every state a spectator's page is sent, and drop it."""
    async for _ in socket:
        pass


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        latency_figures("phones.push_to_11_sockets", asyncio.run(push_latencies(Path(tmp))))
    for name, pages in (("no_sockets", 0), (f"{SPECTATORS}_sockets", SPECTATORS)):
        with tempfile.TemporaryDirectory() as tmp:
            latency_figures(
                f"phones.frame_interval_{name}", asyncio.run(frame_intervals(Path(tmp), pages))
            )


if __name__ == "__main__":
    main()
