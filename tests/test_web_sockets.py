"""A seat's sockets through the real server: what a phone sends costs
nothing, one cookie cannot hold more than a few sockets open, and a flood
of sockets, from one address or many, leaves every open one connected.
``COMPANION_CAMPAIGN`` makes the floods longer (campaign.py)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time

import aiohttp
import pytest
from aiohttp import WSMsgType, WSServerHandshakeError
from campaign import report, scaled
from web_helpers import join, seat_json, served

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table
from companion.web.server import ADDRESS_SOCKETS, ALL_SOCKETS, SEAT_SOCKETS, SEND_WAIT

MOVES = 400  # changes of the floor: far more than a stuck socket's buffers hold
FRAMES = scaled(500)  # a phone's frames that must cost nothing
REFUSED = scaled(5)  # sockets past an address's cap


def _coup(store) -> Table:
    setup = Setup(game="coup", seats=["A", "B", "C"], mode="keeper", options={"first": 0})
    return Table.start(store, setup, fate=Fate(seed=3))


def test_frames_a_phone_sends_are_dropped_without_building_a_state(store):
    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client = await phone()
            assert (await join(client, server.links.token(table.game_id, 0))).status == 303
            socket = await client.ws_connect("/ws?frames=binary")
            first = await seat_json(socket, timeout=2)
            built = []
            seat_state = server._seat_state

            def counting(*args, **kwargs):
                built.append(args[0])
                return seat_state(*args, **kwargs)

            server._seat_state = counting
            for _ in range(FRAMES):
                await socket.send_str("x")
            await asyncio.sleep(0.2)
            quiet = list(built)
            table.execute({"type": "income", "seat": 0})
            after = await seat_json(socket, timeout=2)
            await socket.close()
        return first, quiet, after

    first, quiet, after = asyncio.run(scenario())
    assert quiet == [], f"{FRAMES} frames from the phone built no state"
    assert after["public"]["turn"] == first["public"]["turn"] + 1, "the socket still follows"
    report("seat socket frames", {"frames sent": FRAMES, "states built for them": len(quiet)})


def test_a_seat_keeps_only_its_newest_sockets(store):
    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client = await phone()
            assert (await join(client, server.links.token(table.game_id, 1))).status == 303
            sockets = []
            for _ in range(SEAT_SOCKETS + 2):
                socket = await client.ws_connect("/ws?frames=binary")
                await seat_json(socket, timeout=2)
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
    assert [kind for kind, _ in answers[2:]] == [WSMsgType.BINARY] * SEAT_SOCKETS


def test_a_table_page_that_stops_reading_holds_up_no_other():
    """A raw socket with a tiny receive buffer takes the table page's
    socket and never reads again: the other table pages still get every
    change at once, and the stuck one is dropped."""
    from a27_helpers import PK, SM, keeper4, propose

    async def scenario():
        table = keeper4(EventStore(":memory:"))  # thousands of changes, quickly
        propose(table, PK, call_vote=False)
        async with served(table) as (server, phone):
            client = await phone()
            healthy = await client.ws_connect("/ws/table")
            received = [await healthy.receive_json(timeout=2)]

            async def read() -> None:
                async for message in healthy:
                    received.append(json.loads(message.data))

            reading = asyncio.ensure_future(read())
            url = client.make_url("/ws/table")
            loop = asyncio.get_running_loop()
            stuck = socket.socket()
            stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            stuck.setblocking(False)
            await loop.sock_connect(stuck, (url.host, url.port))
            key = base64.b64encode(os.urandom(16)).decode()
            await loop.sock_sendall(
                stuck,
                (
                    f"GET /ws/table HTTP/1.1\r\nHost: {url.host}:{url.port}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                ).encode(),
            )
            assert b" 101 " in await loop.sock_recv(stuck, 256)  # and never reads again
            await asyncio.sleep(0.05)
            assert len(server._table_sockets) == 2
            # The Pi's side of it keeps little in flight too, as on a weak
            # Wi-Fi link (kernel buffers would otherwise hold megabytes).
            for page in server._table_sockets:
                if page.get_extra_info("peername")[1] == stuck.getsockname()[1]:
                    page.get_extra_info("socket").setsockopt(
                        socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
                    )
            for n in range(MOVES):
                to = "floor" if n % 2 == 0 else "table"
                table.execute({"type": "move", "issue": SM, "to": to})
                await asyncio.sleep(0)
            last = table.public_view()["floor"]
            started = time.monotonic()
            while received[-1]["public"]["floor"] != last and time.monotonic() - started < 2:
                await asyncio.sleep(0.01)
            caught_up = time.monotonic() - started
            while len(server._table_sockets) > 1 and time.monotonic() - started < SEND_WAIT + 2:
                await asyncio.sleep(0.05)
            dropped = len(server._table_sockets) == 1
            reading.cancel()
            stuck.close()
        return received, last, caught_up, dropped

    received, last, caught_up, dropped = asyncio.run(scenario())
    assert received[-1]["public"]["floor"] == last, "the healthy page has the latest state"
    assert caught_up < 1.0, f"it came {caught_up:.2f} s after the last change"
    assert dropped, "the page that stopped reading was dropped"


def test_sockets_are_capped_per_address_and_the_open_ones_stay(store):
    """A flood of table pages from one address: past the cap each new one is
    told to wait (503, in words), every socket already open keeps its
    updates, and another address still gets in."""

    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client = await phone()
            assert (await join(client, server.links.token(table.game_id, 0))).status == 303
            seat = await client.ws_connect("/ws?frames=binary")
            await seat_json(seat, timeout=2)
            pages = []
            for _ in range(ADDRESS_SOCKETS - 1):
                page = await client.ws_connect("/ws/table")
                await page.receive_json(timeout=2)
                pages.append(page)
            refused = []
            for _ in range(REFUSED):
                try:
                    await client.ws_connect("/ws/table")
                except WSServerHandshakeError as exc:
                    refused.append(exc.status)
            answer = await client.get("/ws/table", headers={"Upgrade": "websocket"})
            busy = (answer.status, (await answer.json())["error"])
            url = client.make_url("/ws/table")
            other = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
            )
            try:
                elsewhere = await other.ws_connect(url)
                first_elsewhere = await elsewhere.receive_json(timeout=2)
                table.execute({"type": "income", "seat": 0})
                updates = [await seat_json(seat, timeout=2)]
                updates += [await s.receive_json(timeout=2) for s in (*pages, elsewhere)]
                await elsewhere.close()
            finally:
                await other.close()
            for s in (seat, *pages):
                await s.close()
        return refused, busy, first_elsewhere, updates

    refused, busy, first_elsewhere, updates = asyncio.run(scenario())
    assert refused == [503] * REFUSED
    assert busy == (503, "web.busy")
    assert first_elsewhere["type"] == "state", "another address still gets in"
    assert len(updates) == ADDRESS_SOCKETS + 1 and all(u["public"]["turn"] == 2 for u in updates)
    report(
        "address flood",
        {
            "sockets opened": ADDRESS_SOCKETS + 1,
            "refused (503)": len(refused) + 1,
            "kept connected and updated": len(updates),
        },
    )


@pytest.mark.slow  # 512 sockets
def test_sockets_are_capped_in_all_and_the_open_ones_stay(store):
    """A flood of table pages from many addresses, each under its own cap:
    past ``ALL_SOCKETS`` every new page is told to wait, even from an
    address that has none open, and every socket already open (the seat's
    phone among them) keeps its updates."""
    flooders = -(-(ALL_SOCKETS - 1) // ADDRESS_SOCKETS)  # addresses the flood takes
    addresses = [f"127.0.0.{2 + n}" for n in range(flooders + 1)]  # and one fresh

    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client = await phone()
            assert (await join(client, server.links.token(table.game_id, 0))).status == 303
            seat = await client.ws_connect("/ws?frames=binary")
            await seat_json(seat, timeout=2)
            url = client.make_url("/ws/table")
            sessions = [
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(a, 0), limit=0))
                for a in addresses
            ]
            pages = []
            try:
                for n in range(ALL_SOCKETS - 1):
                    page = await sessions[n // ADDRESS_SOCKETS].ws_connect(url)
                    await page.receive_json(timeout=5)
                    pages.append(page)
                refused = []
                for _ in range(REFUSED):
                    try:
                        await sessions[-1].ws_connect(url)
                    except WSServerHandshakeError as exc:
                        refused.append(exc.status)
                table.execute({"type": "income", "seat": 0})
                updates = [await seat_json(seat, timeout=10)]
                updates += [await s.receive_json(timeout=10) for s in pages]
            finally:
                for page in pages:
                    await page.close()
                for session in sessions:
                    await session.close()
            await seat.close()
        return refused, updates

    refused, updates = asyncio.run(scenario())
    assert refused == [503] * REFUSED
    assert len(updates) == ALL_SOCKETS and all(u["public"]["turn"] == 2 for u in updates)
    report(
        "flood from many addresses",
        {
            "addresses": len(addresses),
            "sockets opened": ALL_SOCKETS,
            "refused (503)": len(refused),
            "kept connected and updated": len(updates),
        },
    )


def test_the_service_has_far_more_descriptors_than_the_server_takes_sockets():
    from deploy_helpers import REPO

    unit = (REPO / "deploy" / "table-companion.service").read_text()
    limit = int(
        next(line for line in unit.splitlines() if line.startswith("LimitNOFILE=")).split("=")[1]
    )
    assert limit >= 8 * ALL_SOCKETS, "room for the store, the devices and the sockets' cap"
