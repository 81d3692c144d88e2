"""A seat's sockets through the real server: what a phone sends costs
nothing, and one cookie cannot hold more than a few sockets open."""

from __future__ import annotations

import asyncio

from aiohttp import WSMsgType
from web_helpers import join, served

from companion.games.base import Fate, Setup
from companion.table import Table
from companion.web.server import SEAT_SOCKETS


def _coup(store) -> Table:
    setup = Setup(game="coup", seats=["A", "B", "C"], mode="keeper", options={"first": 0})
    return Table.start(store, setup, fate=Fate(seed=3))


def test_frames_a_phone_sends_are_dropped_without_building_a_state(store):
    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client = await phone()
            assert (await join(client, server.links.token(table.game_id, 0))).status == 303
            socket = await client.ws_connect("/ws")
            first = await socket.receive_json(timeout=2)
            built = []
            seat_state = server._seat_state

            def counting(*args, **kwargs):
                built.append(args[0])
                return seat_state(*args, **kwargs)

            server._seat_state = counting
            for _ in range(500):
                await socket.send_str("x")
            await asyncio.sleep(0.2)
            quiet = list(built)
            table.execute({"type": "income", "seat": 0})
            after = await socket.receive_json(timeout=2)
            await socket.close()
        return first, quiet, after

    first, quiet, after = asyncio.run(scenario())
    assert quiet == [], "500 frames from the phone built no state"
    assert after["public"]["turn"] == first["public"]["turn"] + 1, "the socket still follows"


def test_a_seat_keeps_only_its_newest_sockets(store):
    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client = await phone()
            assert (await join(client, server.links.token(table.game_id, 1))).status == 303
            sockets = []
            for _ in range(SEAT_SOCKETS + 2):
                socket = await client.ws_connect("/ws")
                await socket.receive_json(timeout=2)
                sockets.append(socket)
            await asyncio.sleep(0.1)
            table.execute({"type": "income", "seat": 0})
            answers = []
            for socket in sockets:
                message = await socket.receive(timeout=2)
                answers.append((message.type, message.data))
            for socket in sockets:
                await socket.close()
        return answers

    answers = asyncio.run(scenario())
    closed = [kind for kind, _ in answers[:2]]
    assert all(kind in (WSMsgType.CLOSE, WSMsgType.CLOSED) for kind in closed), answers
    assert [code for _, code in answers[:2]] == [4002, 4002], "closed as an older page"
    assert [kind for kind, _ in answers[2:]] == [WSMsgType.TEXT] * SEAT_SOCKETS
