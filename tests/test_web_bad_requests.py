"""Requests that used to answer 500, through the real server: each now gets
the usual 400 or 401 with its JSON error, and the table goes on."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from web_helpers import join, served, state

from companion.games.base import Fate, Setup
from companion.i18n import Messages
from companion.table import Table
from companion.web.server import COOKIE, CSRF_HEADER, MAX_BODY_BYTES


def _coup(store) -> Table:
    setup = Setup(game="coup", seats=["A", "B", "C"], mode="keeper", options={"first": 0})
    return Table.start(store, setup, fate=Fate(seed=3))


# The server reads header bytes as Latin-1, so "\u00b2" arrives as "²".
@pytest.mark.parametrize(
    "cookie",
    [
        "1.\u00b2.secret",  # a Unicode digit, "²"
        "99999999999999999999999999.0.secret",  # more than SQLite's integers hold
        "1." + "9" * 5000 + ".x",
    ],
    ids=["unicode-digit", "huge-number", "5000-digits"],
)
def test_a_cookie_that_is_no_seats_is_told_so(store, cookie):
    async def scenario():
        table = _coup(store)
        async with served(table) as (_server, phone):
            client = await phone()
            header = {"Cookie": f"{COOKIE}={cookie}"}
            api = await client.get("/api/seat", headers=header)
            page = await client.get("/seat", headers=header)
            sent = await client.post("/api/command", json={"type": "income"}, headers=header)
            return api.status, (await api.json())["error"], page.status, sent.status

    assert asyncio.run(scenario()) == (401, "web.no_seat", 401, 401)


def _seated(server, phone, seat):
    async def sit():
        client = await phone()
        await join(client, server.links.token(server.table.game_id, seat))
        return client, (await state(client))["csrf"]

    return sit()


@pytest.mark.parametrize(
    "body, error",
    [
        ('{"type": "income", "x": ' + "[" * 5000 + "]" * 5000 + "}", "command.not_json"),
        ('{"type": "income", "note": "\\ud800"}', "command.not_json"),  # a lone surrogate
        ('{"type": "income", "note": Infinity}', "command.not_json"),  # Python's json reads it
    ],
    ids=["nested-5000-deep", "lone-surrogate", "infinity"],
)
def test_a_body_the_table_cannot_keep_is_refused_in_words(store, body, error):
    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client, csrf = await _seated(server, phone, 0)
            answer = await client.post(
                "/api/command",
                data=body.encode(),
                headers={CSRF_HEADER: csrf, "Content-Type": "application/json"},
            )
            reply = await answer.json()
            after = await client.post(
                "/api/command", json={"type": "income"}, headers={CSRF_HEADER: csrf}
            )
            return answer.status, reply, after.status

    status, reply, after = asyncio.run(scenario())
    assert (status, reply["error"]) == (400, error) and reply["message"]
    assert after == 200, "the table goes on"


def test_a_reaction_named_by_a_list_during_a_loss_is_refused(store):
    async def scenario():
        table = _coup(store)
        table.execute({"type": "tax", "seat": 0})
        table.execute({"type": "challenge", "seat": 1})
        table.execute({"type": "concede", "seat": 0})  # A loses an influence
        assert table.public_view()["phase"] == "lose"
        async with served(table) as (server, phone):
            client, csrf = await _seated(server, phone, 0)
            answer = await client.post(
                "/api/command",
                json={"type": "react", "character": []},
                headers={CSRF_HEADER: csrf},
            )
            return answer.status, (await answer.json())["error"]

    assert asyncio.run(scenario()) == (400, "coup.not_a_reaction")


@pytest.mark.parametrize(
    "headers, status, error",
    [
        ({"Content-Type": "application/json; charset=no-such-charset"}, 415, "web.not_json"),
        ({"Content-Type": "application/json; charset=utf-16"}, 415, "web.not_json"),
        ({"Content-Type": "text/plain"}, 415, "web.not_json"),
        ({"Content-Type": "application/json", "Content-Encoding": "gzip"}, 415, "web.not_json"),
    ],
    ids=["unknown-charset", "utf-16", "text", "gzip-that-is-not"],
)
def test_a_body_that_is_not_json_in_utf8_is_refused_in_words(store, caplog, headers, status, error):
    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client, csrf = await _seated(server, phone, 0)
            answer = await client.post(
                "/api/command", data=b'{"type": "income"}', headers={CSRF_HEADER: csrf, **headers}
            )
            return answer.status, await answer.json(), len(store.commands(table.game_id))

    with caplog.at_level("WARNING"):
        answered, reply, commands = asyncio.run(scenario())
    assert (answered, reply["error"], commands) == (status, error, 1), "nothing was stored"
    assert reply["message"] == Messages("en")(error)
    assert caplog.records == [], "nothing for the journal"


async def _chunked(body: bytes):
    for start in range(0, len(body), 8192):
        yield body[start : start + 8192]


@pytest.mark.parametrize(
    "size, chunked",
    [(MAX_BODY_BYTES + 1, False), (2 * 1024 * 1024, False), (2 * 1024 * 1024, True)],
    ids=["just-past-the-cap", "past-aiohttps-own-limit", "chunked"],
)
def test_a_body_past_the_cap_is_refused_in_words_unread(store, size, chunked):
    body = b'{"type": "income", "note": "' + b"x" * size + b'"}'

    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client, csrf = await _seated(server, phone, 0)
            answer = await client.post(
                "/api/command",
                data=_chunked(body) if chunked else body,
                headers={CSRF_HEADER: csrf, "Content-Type": "application/json"},
            )
            return answer.status, await answer.json(), len(store.commands(table.game_id))

    status, reply, commands = asyncio.run(scenario())
    assert (status, reply["error"], commands) == (413, "command.too_large", 1)
    assert reply["message"] == Messages("en")("command.too_large")


@pytest.mark.parametrize(
    "header",
    [b"Cookie: \x00", b"Accept-Language: \x7f", b"Origin: " + b"x" * 9000],
    ids=["nul", "del", "past-the-line-limit"],
)
def test_a_request_the_server_cannot_read_costs_the_log_one_line(store, caplog, header):
    async def scenario():
        table = _coup(store)
        async with served(table) as (_server, phone):
            url = (await phone()).make_url("/")
            reader, writer = await asyncio.open_connection(url.host, url.port)
            writer.write(b"GET /api/table HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n\r\n")
            answer = await reader.read()
            writer.close()
            return answer

    with caplog.at_level("INFO"):
        answer = asyncio.run(scenario())
    assert answer.startswith(b"HTTP/1.0 400 ")
    assert [(r.name, r.levelname) for r in caplog.records] == [("aiohttp.access", "INFO")]


@pytest.mark.parametrize(
    "path, headers",
    [
        ("/ws/table", b""),  # no handshake at all
        ("/ws/table", b"Upgrade: \x80\r\n"),  # bytes aiohttp's refusal could not quote
        ("/ws/table", b"Upgrade: websocket\r\nConnection: \xff\r\n"),
        ("/ws", b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: \xfe\r\n"),
        (
            "/ws/table",
            b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Protocol: x\r\n",
        ),
    ],
    ids=["no-handshake", "upgrade", "connection", "version", "sub-protocol"],
)
def test_a_socket_request_that_is_no_pages_handshake_is_refused_in_words(
    store, caplog, path, headers
):
    async def scenario():
        table = _coup(store)
        async with served(table) as (server, phone):
            client, _ = await _seated(server, phone, 0)
            cookie = client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value
            url = client.make_url("/")
            reader, writer = await asyncio.open_connection(url.host, url.port)
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: x\r\nCookie: {COOKIE}={cookie}\r\n".encode()
                + headers
                + b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
            )
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=5)
            length = re.search(rb"Content-Length: ([0-9]+)", head)
            body = await reader.readexactly(int(length[1])) if length else b"{}"
            writer.close()
            return head, json.loads(body)

    with caplog.at_level("INFO"):
        head, reply = asyncio.run(scenario())
    assert head.startswith(b"HTTP/1.1 400 ")
    assert reply == {"error": "web.not_a_socket", "message": Messages("en")("web.not_a_socket")}
    loud = [r for r in caplog.records if r.levelname != "INFO" or r.exc_info]
    assert loud == [], "no traceback, no warning"
