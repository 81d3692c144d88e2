"""A private deal reaches its two phones and nobody else, through the real
server: no message to any other seat or to the table pages, and no number
(a state's version) that moves with it."""

from __future__ import annotations

import asyncio
import json

from a27_helpers import PK, keeper4, propose
from web_helpers import join, served

from companion.table import seat_source

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
                sockets.append(await client.ws_connect("/ws"))
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
