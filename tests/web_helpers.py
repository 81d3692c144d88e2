"""Phones as aiohttp test clients (each with its own cookie jar) against a
real server on 127.0.0.1."""

from __future__ import annotations

import json
import struct
import weakref
import zlib
from contextlib import asynccontextmanager

from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from companion.web.gate import GateRunner
from companion.web.server import COOKIE, TableServer


class GatedTestServer(TestServer):
    """A test server run as the kiosk runs the phone server: behind its
    door (companion/web/gate.py)."""

    def __init__(self, server: TableServer, **kwargs) -> None:
        super().__init__(server.app(), **kwargs)
        self.table_server = server

    async def _make_runner(self, **kwargs) -> GateRunner:
        server = self.table_server
        return GateRunner(self.app, server.limits, server.seated, **kwargs)


@asynccontextmanager
async def served(table):
    """The phone server for ``table``, and a way to open phones on it."""
    server = TableServer(table)
    test_server = GatedTestServer(server, host="127.0.0.1")
    await test_server.start_server()
    clients: list[TestClient] = []

    async def phone() -> TestClient:
        client = TestClient(test_server)
        await client.start_server()
        # A browser sends a GET again on a new connection when the server
        # has closed the kept-alive one under it (RFC 9112, 9.3.1): the door
        # closes idle ones after ``header_seconds``, and a test whose loop
        # stood still that long while the kiosk drew would otherwise meet
        # the close. aiohttp's own client does so too; its TestClient turns
        # it off.
        client.session._retry_connection = True
        clients.append(client)
        return client

    try:
        yield server, phone
    finally:
        for client in clients:
            await client.close()
        await test_server.close()


async def open_link(phone, token: str):
    """Open a join link (a look: it claims nothing), not following a redirect."""
    return await phone.get(f"/join/{token}", allow_redirects=False)


async def tap_take_seat(phone, token: str):
    """Tap the join page's button (the form posts to the link itself), not
    following the redirect: a provisional claim, its cookie not used yet."""
    return await phone.post(f"/join/{token}", allow_redirects=False)


async def join(phone, token: str):
    """Join as a person does: open the link and, if it offers the seat, tap
    its button; the browser then follows to the seat's page, the cookie's
    first use, which makes the claim final. Returns the tap's answer (303,
    the cookie), or the link's own when it offered no button (a refusal, or
    the seat's page for the phone that holds it)."""
    opened = await open_link(phone, token)
    if opened.status != 200:
        return opened
    assert 'method="post"' in await opened.text()
    tapped = await tap_take_seat(phone, token)
    if tapped.status == 303:
        await phone.get(tapped.headers["Location"])
    return tapped


def seat_cookie(phone) -> str | None:
    """The seat cookie a phone keeps, if any."""
    return next((c.value for c in phone.session.cookie_jar if c.key == COOKIE), None)


async def state(phone) -> dict:
    response = await phone.get("/api/seat")
    assert response.status == 200, await response.text()
    return await response.json()


# -- a seat's frames (companion/web/server.py: seat_frame) ----------------------------
_SHARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # by socket: the last shared part


def unframe(frame: bytes, base: bytes | None) -> tuple[dict, bytes]:
    """A seat's frame read as its page reads it: the whole state, and its
    shared part (the next frame's ``base``). Its own part's padding is
    zeros and nothing else."""
    based, own_bytes = struct.unpack_from(">BI", frame)
    (packed,) = struct.unpack_from(">I", frame, 5)
    own = zlib.decompress(frame[9 : 9 + packed], wbits=-15)
    assert frame[9 + packed : 5 + own_bytes] == bytes(own_bytes - 4 - packed)
    window = {"zdict": base} if based else {}
    inflater = zlib.decompressobj(-15, **window)
    shared = inflater.decompress(frame[5 + own_bytes :]) + inflater.flush()
    assert inflater.eof and not inflater.unused_data
    return {**json.loads(own), **json.loads(shared)}, shared


async def seat_json(socket, timeout: float = 5) -> dict:
    """A seat socket's next state (what ``receive_json`` reads of a page's)."""
    message = await socket.receive(timeout=timeout)
    assert message.type == WSMsgType.BINARY, (message, socket.close_code)
    state, _SHARED[socket] = unframe(message.data, _SHARED.get(socket))
    return state
