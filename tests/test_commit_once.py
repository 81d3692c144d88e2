"""A commit's work is done once, however many listen and however long the
log: the public view, the open ballot, the legal commands, each seat's phone
commands and a language's status line are worked out once per change of
state, the log's lines as events are logged, and a phone's seat link once
per socket, by a getter that never writes. Undo, a rename and time still
give fresh views, and a seat's phone commands are its own.

The counts wrap the real engine's and words' methods (each call goes on to
the real one) and read SQLite's own trace of the statements it ran."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from a27_helpers import FakeClock, keeper4
from aiohttp import web
from aiohttp.test_utils import TestClient, make_mocked_request
from web_helpers import GatedTestServer, join, seat_json, served, tap_take_seat

from companion.games.base import Fate, Setup
from companion.table import Table, seat_source
from companion.web.server import COOKIE, TableServer

SEATS = 7


def _keeper(store, clock=None) -> Table:
    """Seven seats of Secret Hitler in keeper mode, every role confirmed."""
    setup = Setup(
        game="secret_hitler",
        seats=[f"P{i}" for i in range(SEATS)],
        mode="keeper",
        options={"first": 0},
    )
    extra = {} if clock is None else {"clock": clock}
    table = Table.start(store, setup, fate=Fate(seed=1), **extra)
    for seat in range(SEATS):
        table.execute({"type": "confirm", "seat": seat})
    return table


def _nominate(table: Table) -> dict[str, Any]:
    return dict(next(c for c in table.legal_commands() if c["type"] == "nominate"))


@contextmanager
def counting(table: Table) -> Iterator[Counter[str]]:
    """Calls of the engine's and words' methods while inside, by name."""
    counts: Counter[str] = Counter()
    engine, words = table.engine, table.spec.words
    names = [
        (engine, "ballot"),
        (engine, "legal_commands"),
        (engine, "public_view"),
        (engine, "describe"),
        (words, "status_line"),
    ]

    def counted(method, name):
        def call(*args, **kwargs):
            counts[name] += 1
            return method(*args, **kwargs)

        return call

    for owner, name in names:
        setattr(owner, name, counted(getattr(owner, name), name))
    try:
        yield counts
    finally:
        for owner, name in names:
            delattr(owner, name)


@contextmanager
def statements(store) -> Iterator[list[str]]:
    """The SQL statements the store runs while inside (SQLite's trace)."""
    ran: list[str] = []
    store.db.set_trace_callback(ran.append)
    try:
        yield ran
    finally:
        store.db.set_trace_callback(None)


def _describes_of_one_commit(store, taken_back: int) -> int:
    """The engine's describe calls of the public view after one commit, on a
    table whose first president took the nomination back ``taken_back``
    times (the log two events longer each time), the view shown after
    every commit before it."""
    table = _keeper(store)
    nominate = _nominate(table)
    for _ in range(taken_back):
        table.execute(nominate)
        table.execute({"type": "undo"})
    table.public_view()
    table.execute(nominate)
    with counting(table) as counts:
        view = table.public_view()
    assert view["log"][-1]["key"] == "sh.log.nominate", "the new line is there"
    return counts["describe"]


def test_the_public_view_after_a_commit_describes_only_its_events_however_long_the_log(tmp_path):
    from companion.table import EventStore

    short = _describes_of_one_commit(EventStore(tmp_path / "short.sqlite3"), 10)
    long = _describes_of_one_commit(EventStore(tmp_path / "long.sqlite3"), 200)
    assert short == long == 1, (short, long)


def test_one_commit_works_each_thing_out_once_however_many_listeners_read_it(store):
    table = _keeper(store)
    table.execute(_nominate(table))
    read: list[dict[str, Any]] = []

    def listener(committed) -> None:
        t = committed.table
        phone = {seat: t.phone_commands(seat) for seat in range(SEATS)}
        read.append(
            {
                "view": t.public_view(),
                "ballot": t.ballot(),
                "legal": t.legal_commands(),
                "shared": t.shared_commands(),
                "phone": phone,
                "status": t.status_line("en"),
                "voted": t.voted(),
            }
        )

    listeners = 5
    for _ in range(listeners):
        table.subscribe(listener)
    with counting(table) as counts:
        table.execute({"type": "vote", "seat": 2, "choice": "ja"}, source=seat_source(2))
    assert len(read) == listeners
    assert counts["public_view"] == counts["legal_commands"] == counts["status_line"] == 1, counts
    # The ballot as the vote was judged, and as it stands after the commit.
    assert counts["ballot"] == 2, counts
    assert all(r == read[0] for r in read), "every listener read the same"
    for seat, commands in read[0]["phone"].items():
        assert commands, f"seat {seat} may vote, or change its vote"
        assert {c["seat"] for c in commands} == {seat}, "a seat's phone commands are its own"
    assert read[0]["voted"] == [2]


def test_undo_a_rename_and_time_give_fresh_views(store):
    table = _keeper(store)
    before = table.public_view()
    legal = table.legal_commands()
    table.execute(_nominate(table))
    assert table.public_view()["phase"] != before["phase"]
    assert table.legal_commands() != legal
    table.execute({"type": "undo"})
    after = table.public_view()
    assert after["phase"] == before["phase"] and table.legal_commands() == legal
    assert after["log"][-1]["key"] == "log.undo" and after["log"][-2]["args"]["undone"]
    assert not after["can_undo"] or table.latest_entry is not None

    status = table.status_line("en")
    table.execute({"type": "rename", "seat": 0, "name": "Zoe"}, source="kiosk")
    renamed = table.public_view()
    assert renamed["players"][0]["name"] == "Zoe"
    assert renamed["log"][-1]["key"] == "log.rename"
    assert table.status_line("en") != status, "the status line names the president anew"

    clock = FakeClock()
    timed = keeper4(store, clock=clock)
    timed.execute({"type": "gavel"})
    first = timed.public_view()["timer"]["remaining"]
    clock.advance(2.5)
    assert timed.public_view()["timer"]["remaining"] == first - 2.5, "time moves the view"


def test_a_refused_undo_leaves_the_lines_as_they_were(store):
    table = _keeper(store)
    table.execute(_nominate(table))
    lines = table.log_lines()
    store.db.close()  # the store can take no write now
    try:
        table.execute({"type": "undo"})
    except Exception:  # noqa: BLE001 - whatever the closed store raises
        pass
    assert table.log_lines() == lines and not lines[-1][1]["undone"]
    assert table.latest_entry is not None, "the nomination may still be taken back"


async def _voted(socket) -> dict[str, Any]:
    """The first state a socket is sent with a vote cast in the ballot."""
    while True:
        state = await seat_json(socket)
        if state["public"]["ballot"]["voted"]:
            return state


def _seat_link_lookups(ran: list[str]) -> int:
    """Statements that read the seats' links (a seat's, or all for the
    phones' status): a claim or a re-pair changes them, a commit does not."""
    return sum("FROM seat_links" in s for s in ran)


def _writes(ran: list[str]) -> list[str]:
    return [s for s in ran if s.split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE")]


def test_open_sockets_cost_a_commit_no_seat_link_look_up(store):
    async def scenario():
        table = _keeper(store)
        table.execute(_nominate(table))
        async with served(table) as (server, phone):
            sockets = []
            for seat in range(3):
                client = await phone()
                assert (await join(client, server.links.token(table.game_id, seat))).status == 303
                socket = await client.ws_connect("/ws?frames=binary")
                await seat_json(socket)
                sockets.append(socket)
            await asyncio.sleep(0.3)  # each join woke the phones before it: all sent
            with statements(store) as ran:
                table.execute({"type": "vote", "seat": 4, "choice": "ja"}, seat_source(4))
                states = [await _voted(socket) for socket in sockets]
                await asyncio.sleep(0.2)
            server.repair(1)
            closed = await sockets[1].receive(timeout=5)
            while True:  # the others are told: the phones' status is read again
                seen = await seat_json(sockets[0])
                if not seen["public"]["phones"][1]["phone"]:
                    break
            for socket in sockets:
                await socket.close()
        return ran, states, closed

    ran, states, closed = asyncio.run(scenario())
    assert all(s["public"]["ballot"]["voted"] == [4] for s in states)
    assert _seat_link_lookups(ran) == 0, ran
    assert closed.data == 4001, "a re-paired seat's socket is still closed"
    assert [p["phone"] for p in states[0]["public"]["phones"]][:4] == [True] * 3 + [False]


def test_a_seat_re_paired_while_its_socket_opens_is_sent_nothing(store):
    """A re-pair cuts a lost phone off: one that lands while the phone's
    socket is being opened (after the phone was let in, before its first
    state) still closes that socket, with nothing of the seat's sent."""

    async def scenario():
        table = _keeper(store)
        server = TableServer(table)
        test_server = GatedTestServer(server, host="127.0.0.1")

        async def re_pair_as_it_opens(_request, response) -> None:
            if isinstance(response, web.WebSocketResponse):
                server.repair(1)

        test_server.app.on_response_prepare.append(re_pair_as_it_opens)
        await test_server.start_server()
        client = TestClient(test_server)
        await client.start_server()
        try:
            assert (await join(client, server.links.token(table.game_id, 1))).status == 303
            socket = await client.ws_connect("/ws?frames=binary")
            return await socket.receive(timeout=5)
        finally:
            await client.close()
            await test_server.close()

    message = asyncio.run(scenario())
    assert (message.type.name, message.data) == ("CLOSE", 4001), message


def test_the_seat_link_getter_never_writes(store):
    async def scenario():
        table = _keeper(store)
        async with served(table) as (server, phone):
            client = await phone()
            tapped = await tap_take_seat(client, server.links.token(table.game_id, 3))
            assert tapped.status == 303
            cookie = tapped.cookies[COOKIE].value
            request = make_mocked_request("GET", "/ws", headers={"Cookie": f"{COOKIE}={cookie}"})
            with statements(store) as ran:
                got = server._phone(request)
            provisional = (got, _writes(ran), server.links.claimed(table.game_id, 3))
            arrived = server._arrive(request)  # the seat's page: the join ends
            with statements(store) as ran:
                again = server._phone(request)
            return provisional, arrived, again, _writes(ran)

    (got, writes, claimed), arrived, again, writes_after = asyncio.run(scenario())
    assert got is None and writes == [] and not claimed, "a provisional claim stays so"
    assert arrived is not None and arrived.seat == 3
    assert again == arrived and writes_after == []
