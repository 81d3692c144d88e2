"""A private deal reaches its two phones and nobody else, through the real
server: no message to any other seat or to the table pages, and no number
(a state's version) that moves with it."""

from __future__ import annotations

import asyncio
import json
import math
import time

import aiohttp
import pytest
from a27_helpers import PK, keeper4, propose
from web_helpers import join, served, state, unframe

from companion.table import seat_source
from companion.web.server import CSRF_HEADER, TableServer

A, B, C, D = range(4)
PRIVATE = [
    {"type": "offer", "seat": B, "to": C, "amount": 2, "kind": "yes"},
    {"type": "counter", "seat": C, "bribe": 112, "amount": 3, "kind": "yes"},  # B's 1st to C
    {"type": "withdraw", "seat": B, "bribe": 112},
    {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "veto"},
    {"type": "refuse", "seat": C, "bribe": 212},
]


def test_private_offers_send_nothing_to_anyone_but_their_two_seats(store):
    async def scenario():
        table = keeper4(store)
        propose(table, PK, call_vote=False)  # negotiation: deals may be made
        async with served(table) as (server, phone):
            sockets = []
            for seat in range(4):
                client = await phone()
                assert (await join(client, server.links.token(table.game_id, seat))).status == 303
                sockets.append(await client.ws_connect("/ws?frames=binary"))
            spectator = await phone()
            sockets.append(await spectator.ws_connect("/ws/table"))
            before = await (await spectator.get("/api/table")).json()
            await asyncio.sleep(0.05)
            server.sent = []
            for command in PRIVATE:
                table.execute(command, source=seat_source(command["seat"]))
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)
            private = list(server.sent)
            after = await (await spectator.get("/api/table")).json()

            server.sent = []
            table.execute(
                {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"},
                source=seat_source(B),
            )
            table.execute({"type": "accept", "seat": C, "bribe": 312}, source=seat_source(C))
            await asyncio.sleep(0.05)
            public = list(server.sent)
            for socket in sockets:
                await socket.close()
        return private, public, before, after

    private, public, before, after = asyncio.run(scenario())
    audiences = [audience for audience, _ in private]
    assert set(audiences) == {f"seat:{B}", f"seat:{C}"}, "only the two parties hear of it"
    assert len(audiences) >= len(PRIVATE), "each party's phone followed the deal"
    assert after["version"] == before["version"] and after["public"] == before["public"]
    # An accepted bribe is public: every phone and the table page hear of it.
    assert {audience for audience, _ in public} == {
        "table",
        *(f"seat:{seat}" for seat in range(4)),
    }
    table_states = [json.loads(text) for audience, text in public if audience == "table"]
    assert table_states[-1]["version"] > before["version"]


def test_a_seats_version_counts_only_what_that_seat_was_sent(store):
    async def scenario():
        table = keeper4(store)
        propose(table, PK, call_vote=False)
        async with served(table) as (server, phone):
            clients = []
            for seat in (A, B):
                client = await phone()
                assert (await join(client, server.links.token(table.game_id, seat))).status == 303
                clients.append(client)
            first = [await (await c.get("/api/seat")).json() for c in clients]
            again = [await (await c.get("/api/seat")).json() for c in clients]
            for command in PRIVATE[:2]:
                table.execute(command, source=seat_source(command["seat"]))
            later = [await (await c.get("/api/seat")).json() for c in clients]
        return first, again, later

    first, again, later = asyncio.run(scenario())
    assert [s["version"] for s in again] == [s["version"] for s in first], "nothing changed"
    assert later[0]["version"] == first[0]["version"], "A was not party to the deal"
    assert later[1]["version"] > first[1]["version"], "B made the offer"


# Twelve private steps, each between B and C only: offers, counters,
# refusals and withdrawals (a bribe's number: its pair's count, from, to).
TWELVE = [
    *PRIVATE,
    {"type": "offer", "seat": C, "to": B, "amount": 1, "kind": "yes"},
    {"type": "counter", "seat": B, "bribe": 121, "amount": 2, "kind": "yes"},
    {"type": "withdraw", "seat": C, "bribe": 121},
    {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"},
    {"type": "refuse", "seat": C, "bribe": 312},
    {"type": "offer", "seat": C, "to": B, "amount": 2, "kind": "veto"},
    {"type": "withdraw", "seat": C, "bribe": 221},
]
QUIET = 0.3  # seconds after a private step in which no other page may hear a thing


async def frames_of(socket, heard: list[tuple[float, dict]]) -> None:
    """Keep every state a socket is sent, with when it came (a seat's
    frame read as its page reads it)."""
    shared = None
    async for message in socket:
        if message.type == aiohttp.WSMsgType.BINARY:
            seen, shared = unframe(message.data, shared)
        else:
            seen = json.loads(message.data)
        heard.append((time.monotonic(), seen))


@pytest.mark.slow  # twelve steps a timer's tick apart
def test_private_steps_wake_nobody_else_while_the_timer_runs(store):
    """The negotiation timer runs (the table's real clock): its time left
    reaches every page on the timer's own schedule, once a second, and a
    private step between B and C, sent from their phones, reaches their two
    phones only. The third seat, the Secretary-General (A, no party to the
    deal) and the table page hear nothing in the moment after each of twelve
    steps: what they are sent, and when, is the same whether two players
    deal or not."""

    async def scenario():
        table = keeper4(store, clock=time.monotonic)
        propose(table, PK, call_vote=False)  # the gavel: the timer runs
        assert table.public_view()["timer"]["running"]
        async with served(table) as (server, phone):
            clients, heard, readers = [], {}, []
            for seat in range(4):
                client = await phone()
                assert (await join(client, server.links.token(table.game_id, seat))).status == 303
                clients.append(client)
            csrf = [(await state(client))["csrf"] for client in clients]
            spectator = await phone()
            for name, client, path in [
                *((f"seat:{seat}", clients[seat], "/ws?frames=binary") for seat in range(4)),
                ("table", spectator, "/ws/table"),
            ]:
                heard[name] = []
                socket = await client.ws_connect(path)
                readers.append(asyncio.ensure_future(frames_of(socket, heard[name])))
            others = ["seat:0", "seat:3", "table"]  # the SG, the third seat, /table
            steps = []
            for command in TWELVE:
                # Just after a tick of the timer, if one comes: a step is
                # never taken for the timer's own news.
                ticks = len(heard["table"])
                for _ in range(30):
                    if len(heard["table"]) > ticks:
                        break
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.1)
                before = {name: len(heard[name]) for name in heard}
                seat = command["seat"]
                answered = await clients[seat].post(
                    "/api/command", json=command, headers={CSRF_HEADER: csrf[seat]}
                )
                assert answered.status == 200, await answered.text()
                at = time.monotonic()
                await asyncio.sleep(QUIET)
                steps.append((at, {name: heard[name][before[name] :] for name in heard}))
            for reader in readers:
                reader.cancel()
        return steps, heard, others

    steps, heard, others = asyncio.run(scenario())
    woken = [
        (number, name, round(when - at, 3))
        for number, (at, after) in enumerate(steps, 1)
        for name in others
        for when, _ in after[name]
        if when - at < QUIET
    ]
    assert woken == [], "a private step woke a page that is no party to it"
    for _, after in steps:  # each party's phone followed the deal
        assert after["seat:1"] and after["seat:2"]
    # The timer's time left reached the table page on its own, once a second.
    shown = [s["public"]["timer"]["remaining"] for _, s in heard["table"]]
    assert len(shown) >= len(TWELVE), shown
    assert shown == sorted(shown, reverse=True) and len(set(map(math.ceil, shown))) == len(shown)
    ticks = [when for when, _ in heard["table"][1:]]  # after the state the page opened with
    gaps = [later - earlier for earlier, later in zip(ticks, ticks[1:])]
    assert all(0.25 < gap < 2.0 for gap in gaps), gaps  # a second, as the loop keeps time


@pytest.mark.parametrize("locale, size", [("en-GB", (720, 1280)), ("fa-IR", (800, 480))])
def test_the_table_page_counts_the_negotiation_down_on_its_own(store, phones, locale, size):
    """Nobody touches the table: the public page's clock still counts down,
    in the page's language, sent on the timer's own schedule."""
    from browser import serve_in_thread, shot
    from playwright.sync_api import expect

    table = keeper4(store, clock=time.monotonic)
    propose(table, PK, call_vote=False)  # the gavel: the timer runs
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = phones(locale)
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto(f"{base}/table")
        clock = page.locator(".part-clock")
        expect(clock).to_be_visible()
        first = clock.inner_text()
        page.wait_for_timeout(2500)
        later = clock.inner_text()
        shot(page, f"a27-table-clock-{locale}-{size[0]}x{size[1]}")
    assert first != later
