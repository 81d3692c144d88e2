"""What one commit costs the table, however many listen.

- ``commit.phone_vote.{engine_ballot,legal_commands,status_line,sql}``: one
  phone's vote in a 7-seat keeper-mode Secret Hitler election, on the real
  server on 127.0.0.1 with the 7 seats' phones and a ``/table`` page open
  (real websockets): the calls of the engine's ``ballot`` and
  ``legal_commands``, of the game's words' ``status_line``, and the SQL
  statements the store ran, from the phone's ``POST /api/command`` until
  every socket has its new state and the loop is quiet again;
- ``commit.public_view.{100,1000}_events.describe``: the engine's
  ``describe`` calls of one ``public_view`` after a commit (the view after
  the commit before it shown, as a listener shows it), on a table whose
  log holds 100 and 1,000 events (:func:`played_table`);
- ``commit.public_view.{100,1000}_events.instructions``: that commit's
  ``public_view`` in CPU instructions, counted by callgrind
  (:mod:`.callgrind`; left out where it cannot count).

The counts are of the calls themselves, by wrapping the methods of this
process's engine and words objects: what they cost does not matter here,
how often they run does.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table, seat_source
from companion.web.server import CSRF_HEADER, TableServer

from . import callgrind
from .report import figure

SEATS = 7
QUIET = 0.3  # seconds with nothing more sent: the commit's work is done
LOG_SIZES = (100, 1000)
PLAYED = 60  # events of play at the end of every log (see played_table)


def keeper_table(db: Path) -> Table:
    """Seven seats in keeper mode, every role confirmed: the first election."""
    setup = Setup(
        game="secret_hitler",
        seats=[f"P{i}" for i in range(SEATS)],
        mode="keeper",
        options={"first": 0},
    )
    table = Table.start(EventStore(db), setup, fate=Fate(seed=1))
    for seat in range(SEATS):
        table.execute({"type": "confirm", "seat": seat})
    return table


@contextmanager
def counting(table: Table, counts: Counter[str]) -> Iterator[None]:
    """Count the calls of the engine's ``ballot`` and ``legal_commands``, the
    words' ``status_line`` and the store's SQL statements while inside."""
    engine, words = table.engine, table.spec.words
    wrapped = [
        (engine, "ballot", "engine_ballot"),
        (engine, "legal_commands", "legal_commands"),
        (engine, "describe", "describe"),
        (words, "status_line", "status_line"),
    ]
    for owner, name, label in wrapped:
        setattr(owner, name, _counted(getattr(owner, name), label, counts))
    table.store.db.set_trace_callback(lambda _statement: counts.update(["sql"]))
    try:
        yield
    finally:
        table.store.db.set_trace_callback(None)
        for owner, name, _ in wrapped:
            delattr(owner, name)


def _counted(method: Any, label: str, counts: Counter[str]) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        counts[label] += 1
        return method(*args, **kwargs)

    return call


async def phone_vote(directory: Path) -> Counter[str]:
    """One phone's vote with 7 phones and a table page open: the counts."""
    table = keeper_table(directory / "vote.sqlite3")
    nominate = next(c for c in table.legal_commands() if c["type"] == "nominate")
    table.execute(dict(nominate))
    server = TableServer(table)
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    sessions: list[aiohttp.ClientSession] = []
    try:
        sockets, csrf = [], ""
        for seat in range(SEATS):
            # unsafe: keep cookies from an IP address (the phone's seat cookie)
            jar = aiohttp.CookieJar(unsafe=True)
            session = aiohttp.ClientSession(base_url=base, cookie_jar=jar)
            sessions.append(session)
            token = server.links.token(table.game_id, seat)
            async with session.post(f"/join/{token}") as seat_page:
                assert seat_page.status == 200, seat_page.status
            async with session.get("/api/seat") as state:
                csrf = csrf if seat else (await state.json())["csrf"]
            sockets.append(await session.ws_connect("/ws?frames=binary"))
        spectator = aiohttp.ClientSession(base_url=base)
        sessions.append(spectator)
        sockets.append(await spectator.ws_connect("/ws/table"))
        for socket in sockets:  # a seat's state is a binary frame, the table's a text
            assert (await socket.receive()).type in (WSMsgType.BINARY, WSMsgType.TEXT)
        await asyncio.sleep(QUIET)
        counts: Counter[str] = Counter()
        with counting(table, counts):
            vote = {"type": "vote", "choice": "ja"}
            async with sessions[0].post(
                "/api/command", json=vote, headers={CSRF_HEADER: csrf}
            ) as answer:
                assert answer.status == 200, await answer.text()
            for socket in sockets:
                message = await socket.receive(timeout=10)
                assert message.type in (WSMsgType.BINARY, WSMsgType.TEXT)
            await asyncio.sleep(QUIET)
        return counts
    finally:
        for session in sessions:
            await session.close()
        await runner.cleanup()
        table.store.close()


def played_table(db: Path, events: int, seed: int = 7) -> Table:
    """A keeper-mode game whose log holds ``events`` events: its first
    president nominates and takes the nomination back (with Undo) until
    ``PLAYED`` events are left to go, then the game is played on at random
    (nominations, every seat's vote from its phone, what the game then
    asks). Every log size ends in the same play: the logs differ in length
    only."""
    pick = random.Random(seed)
    table = keeper_table(db)
    nominate = next(c for c in table.legal_commands() if c["type"] == "nominate")
    while len(table.log) < events - PLAYED:
        table.execute(dict(nominate))
        table.execute({"type": "undo"})
    while len(table.log) < events:
        assert not table.is_over, "the game ended before its log was long enough"
        ballot = table.ballot()
        if ballot is not None:
            voted = set(table.voted())
            seat = next(s for s in ballot["eligible"] if s not in voted)
            choice = pick.choice(ballot["choices"])
            table.execute({"type": "vote", "seat": seat, "choice": choice}, seat_source(seat))
        else:
            table.execute(dict(pick.choice(list(table.legal_commands()))))
    return table


def _next_commit(table: Table) -> None:
    """A commit that changes the public view: a nomination, or a vote."""
    ballot = table.ballot()
    if ballot is None:
        commands = table.legal_commands()
        table.execute(dict(next((c for c in commands if c["type"] == "nominate"), commands[0])))
        return
    seat = next(s for s in ballot["eligible"] if s not in table.voted())
    table.execute({"type": "vote", "seat": seat, "choice": "nein"}, seat_source(seat))


def view_describes(directory: Path, events: int) -> int:
    """The engine's describe calls of one public view after one commit."""
    table = played_table(directory / f"log{events}.sqlite3", events)
    table.public_view()  # as shown after the commit before (a listener's)
    _next_commit(table)
    counts: Counter[str] = Counter()
    with counting(table, counts):
        table.public_view()
    table.store.close()
    return counts["describe"]


def _child(directory: Path) -> None:
    """Under callgrind: each log size's commit and public view, as a stretch."""
    meter = callgrind.Meter()
    for events in LOG_SIZES:
        table = played_table(directory / f"log{events}.sqlite3", events)
        table.public_view()
        _next_commit(table)
        with meter.stretch(f"public_view.{events}"):
            table.public_view()
        table.store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        counts = asyncio.run(phone_vote(Path(tmp)))
    for label in ("engine_ballot", "legal_commands", "status_line", "sql"):
        figure(f"commit.phone_vote.{label}", counts[label], "calls", "lower")
    for events in LOG_SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            describes = view_describes(Path(tmp), events)
        figure(f"commit.public_view.{events}_events.describe", describes, "calls", "lower")
    reason = callgrind.available()
    if reason is not None:
        print(f"commit_cost: instructions skipped: {reason}", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        found = callgrind.run(
            ["-m", "bench.commit_cost", "--child", tmp],
            Path(tmp) / "callgrind",
            env={"PYTHONHASHSEED": "0"},
        )
    for count in found:
        events = count.name.rsplit(".", 1)[1]
        figure(
            f"commit.public_view.{events}_events.instructions", count.cpu, "instructions", "lower"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(Path(sys.argv[2]))
    else:
        main()
