"""The phone server fuzzed through real HTTP on 127.0.0.1, in all four games
part way through random keeper games: cookies, command bodies, headers and
socket frames of every shape the outside review found trouble with (issue
18). Whatever arrives, the answer is the usual refusal in words (or the
usual page), never a 500; a refusal changes nothing; no seat's data reaches
anyone without that seat's secret; the log gets at most one line per
request. Bounded in count and time: ``COMPANION_CAMPAIGN`` scales the counts
(campaign.py), and the figures are printed at the end (``pytest -s``)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import struct
from collections import Counter
from dataclasses import dataclass

import pytest
from aiohttp import WSMsgType, WSServerHandshakeError
from campaign import report, scaled
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from web_fuzz_helpers import (
    ENGLISH,
    GAMES,
    PLAYOUT_STEPS,
    assert_quiet,
    assert_refused_in_words,
    journal,
    mid_game,
    refusal_texts,
    seated,
    snapshot,
)
from web_helpers import seat_json, served

from companion.i18n import LANGUAGES
from companion.table import EventStore, Table, seat_source
from companion.table.ballot import ABORT, CLOSE, VOTE
from companion.table.table import MAX_COMMAND_BYTES, RENAME, UNDO
from companion.web.server import COOKIE, CSRF_HEADER, LANG_COOKIE, MAX_BODY_BYTES, PAD


def fuzz(examples: int) -> settings:
    """``examples`` examples as this run's campaign has them, with no time
    limit per example (each starts a server; the counts bound the time)."""
    return settings(
        max_examples=scaled(examples),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],  # no slow explaining
    )


TALLY: Counter[tuple[str, str]] = Counter()  # (what was sent, how it was answered): how many


@pytest.fixture(scope="module", autouse=True)
def figures():
    """The campaign's figures, printed once the module has run."""
    yield
    for what in sorted({what for what, _ in TALLY}):
        answers = {answer: n for (sent, answer), n in sorted(TALLY.items()) if sent == what}
        report(f"web fuzz, {what}", {"in all": sum(answers.values()), **answers})


def weighted(*choices: tuple[int, st.SearchStrategy]) -> st.SearchStrategy:
    """One of the strategies, each as often as its weight says (one_of
    takes equal strategies for one, so repeating one weighs nothing)."""
    picks = [index for index, (weight, _) in enumerate(choices) for _ in range(weight)]
    return st.sampled_from(picks).flatmap(lambda index: choices[index][1])


games = st.sampled_from(sorted(GAMES))
# Where in a random game the table stands: extra players, seed, commands played.
positions = st.tuples(st.integers(0, 4), st.integers(0, 10**6), st.integers(0, PLAYOUT_STEPS))
# What a client may put in a header value: no control character but tab.
header_text = st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=40)
LONE_SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
texts = st.one_of(
    st.text(max_size=12),
    st.builds(lambda a, s, b: a + s + b, st.text(max_size=3), LONE_SURROGATES, st.text(max_size=3)),
)


def table_at(game: str, position: tuple[int, int, int]) -> Table:
    extra, seed, steps = position
    return mid_game(EventStore(":memory:"), game, extra, seed, steps)


# -- cookies -------------------------------------------------------------------------------
UNICODE_DIGITS = st.sampled_from(["²", "³", "¹", "١", "۳", "३", "０", "𝟗"])
HUGE = st.one_of(
    st.integers(2**63 - 2, 2**63 + 2), st.integers(10**12, 10**60), st.integers(max_value=-1)
)
URLSAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
# A Cookie header at least this long is past the line aiohttp reads (8,190
# bytes); three of the others together stay well under it.
LINE_LIMIT = 9000


def forged_cookies(cookie: str, players: int, old: str):
    """Seat cookies that are no seat's: junk, Unicode digits, numbers SQLite
    cannot hold, the right shape with a wrong secret, the secret under
    another seat's or game's number, an earlier game's cookie, the empty
    one, very long ones, the real one edited by a character."""
    game, seat, secret = cookie.split(".", 2)
    old_game = old.split(".", 1)[0]
    others = st.sampled_from([n for n in range(-1, players + 3) if str(n) != seat])
    return st.one_of(
        header_text,
        st.just(""),
        st.just(old),
        UNICODE_DIGITS.map(lambda d: f"{game}.{d}.{secret}"),
        UNICODE_DIGITS.map(lambda d: f"{d}.{seat}.{secret}"),
        HUGE.map(lambda n: f"{n}.{seat}.{secret}"),
        HUGE.map(lambda n: f"{game}.{n}.{secret}"),
        st.text(URLSAFE, min_size=1, max_size=120).map(lambda s: f"{game}.{seat}.{s}"),
        others.map(lambda other: f"{game}.{other}.{secret}"),
        st.just(f"{old_game}.{seat}.{secret}"),
        st.one_of(st.integers(1, 2500), st.integers(LINE_LIMIT, 12000)).map(lambda n: "9" * n),
        st.integers(1, 60).map(lambda n: f"{game}.{seat}.{secret * n}"),
        st.tuples(st.integers(0, len(cookie)), header_text).map(
            lambda edit: cookie[: edit[0]] + edit[1] + cookie[edit[0] + 1 :]
        ),
    )


def cookie_header(real: list[str], forged) -> st.SearchStrategy[str]:
    """A Cookie header of one to three cookies: forged seat cookies, the
    real ones of the table's seats, a language cookie, a stranger's."""
    pair = weighted(
        (3, forged.map(lambda value: f"{COOKIE}={value}")),
        (2, st.sampled_from(real).map(lambda value: f"{COOKIE}={value}")),
        (1, header_text.map(lambda value: f"{LANG_COOKIE}={value}")),
        (1, st.tuples(header_text, header_text).map(lambda kv: f"{kv[0]}={kv[1]}")),
    )
    return st.lists(pair, min_size=1, max_size=3).map("; ".join)


@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str = ""
    text: str = ""
    location: str | None = None

    @classmethod
    async def of(cls, response) -> Answer:
        text = await response.text()
        return cls(response.status, response.content_type, text, response.headers.get("Location"))


async def answers_to_cookie(stranger, header: str, phone_0, token_0: str) -> dict[str, Answer]:
    """What every page and API answers a phone with this Cookie header (and
    seat 0's CSRF token, so only the cookie can be what refuses it)."""
    cookie = {"Cookie": header}
    jar = stranger.session.cookie_jar  # keeps no cookie a join sets: each request has only these
    paths = {"/api/seat": "/api/seat", "/seat": "/seat", "/": "/", "/join": f"/join/{token_0}"}
    answers = {}
    for name, path in {**paths, "/api/table": "/api/table"}.items():
        jar.clear()
        answers[name] = await Answer.of(
            await stranger.get(path, headers=cookie, allow_redirects=False)
        )
    jar.clear()
    answers["/api/command"] = await Answer.of(
        await stranger.post(
            "/api/command",
            json={"type": "no_such_command"},
            headers={**cookie, CSRF_HEADER: phone_0.csrf},
        )
    )
    try:
        socket = await stranger.ws_connect("/ws?frames=binary", headers=cookie)
    except WSServerHandshakeError as exc:
        answers["/ws"] = Answer(exc.status)
    else:
        await socket.close()
        answers["/ws"] = Answer(101)
    return answers


@fuzz(30)
@given(game=games, position=positions, data=st.data())
def test_a_cookie_opens_only_the_seat_whose_secret_it_holds(game, position, data):
    async def scenario():
        extra, seed, steps = position
        store = EventStore(":memory:")
        async with served(mid_game(store, game, extra, seed, 0)) as (server, phone):
            old = (await seated(server, phone, 0)).cookie  # an earlier game's
            table = mid_game(store, game, extra, seed, steps)
            server.session.switch(table)
            players = table.setup.players
            seats = [await seated(server, phone, seat) for seat in range(min(players, 3))]
            stranger = await phone()
            token_0 = server.links.token(table.game_id, 0)
            forged = forged_cookies(seats[0].cookie, players, old)
            headers = data.draw(
                st.lists(cookie_header([s.cookie for s in seats], forged), max_size=4)
            )
            before = snapshot(table)
            told_once_a_game(server)
            with journal() as caught:
                for header in headers:
                    answers = await answers_to_cookie(stranger, header, seats[0], token_0)
                    check_cookie_answers(table, seats, header, answers)
            assert_quiet(caught, requests=8 * len(headers))
            assert snapshot(table) == before

    asyncio.run(scenario())


def check_cookie_answers(table: Table, seats, header: str, answers: dict[str, Answer]) -> None:
    """Every page and API answers as for the seat whose secret the header
    holds (the last seat cookie that is one), or as for no seat at all."""
    for path, answer in answers.items():
        TALLY["requests with fuzzed cookies", f"{path} {answer.status}"] += 1
    if len(header) >= LINE_LIMIT:  # past what aiohttp reads of a header: refused before us
        assert {answer.status for answer in answers.values()} == {400}
        return
    mine = answers["/api/seat"]
    holder = json.loads(mine.text)["seat"] if mine.status == 200 else None
    if holder is None:
        refusal = json.loads(mine.text)
        assert (mine.status, refusal["error"]) == (401, "web.no_seat")
        assert refusal["message"] in refusal_texts("web.no_seat"), refusal
    else:
        holds = seats[holder] if holder < len(seats) else None
        assert holds is not None and holds.cookie.split(".", 2)[2] in header, "no secret, no seat"
        private = json.loads(mine.text)["private"]
        assert private == json.loads(json.dumps(table.private_view(holder)))
    for seat in seats:
        if seat.seat != holder:
            for path, answer in answers.items():
                assert seat.csrf not in answer.text, (path, "another seat's token")
                assert seat.cookie not in answer.text, (path, "another seat's cookie")
    page = answers["/seat"]
    if holder is None:
        assert (page.status, page.content_type) == (401, "text/html")
        assert any(words in page.text for words in refusal_texts("web.no_seat")), page.text
    else:
        assert (page.status, page.content_type) == (200, "text/html")
    home = answers["/"]
    assert (home.status, home.location) == (303, "/table" if holder is None else "/seat")
    join = answers["/join"].status
    assert join == 303 if holder == 0 else join in (403, 429), join
    public = answers["/api/table"]
    assert public.status == 200 and '"private"' not in public.text and '"csrf"' not in public.text
    command = answers["/api/command"]
    if holder is None:
        assert (command.status, json.loads(command.text)["error"]) == (401, "web.no_seat")
    elif holder == 0:
        assert_refused_in_words(command.status, json.loads(command.text), {400})
    else:
        assert (command.status, json.loads(command.text)["error"]) == (403, "web.forged")
    assert answers["/ws"].status == (101 if holder is not None else 401)


# -- command bodies ------------------------------------------------------------------------
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),  # seats, this one's and others'
    st.integers(),
    st.integers(2**63 - 1, 2**80),  # past SQLite's integers
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
)
SPECIAL_TYPES = [UNDO, RENAME, VOTE, ABORT, CLOSE, "start", "", "__proto__"]
LENGTHS = st.sampled_from(
    [
        MAX_COMMAND_BYTES - 40,
        MAX_COMMAND_BYTES,
        MAX_COMMAND_BYTES + 1,
        MAX_BODY_BYTES - 40,
        MAX_BODY_BYTES + 1,
        3 * 1024 * 1024,
    ]
)
JSON = "application/json"
CONTENT_TYPES = st.one_of(
    st.sampled_from(
        [
            "application/json; charset=utf-8",
            "application/json; charset=UTF-8",
            "Application/JSON",
            "application/json; charset=latin-1",
            "application/json; charset=utf-16",
            "application/json; charset=no-such",
            "text/plain",
            "text/plain; charset=utf-8",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "",
            "*/*",
        ]
    ),
    header_text,
)
CODINGS = st.one_of(st.none(), st.sampled_from(["gzip", "deflate", "br", "identity", "x-no-such"]))
# How a body says what it is: mostly as the seat's page does, else any way.
DECLARATIONS = weighted((4, st.just((JSON, None))), (1, st.tuples(CONTENT_TYPES, CODINGS)))
LANGUAGE = st.sampled_from(LANGUAGES)  # the refusal is worded in it


def json_values(keys) -> st.SearchStrategy:
    return st.recursive(
        LEAVES,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
        max_leaves=8,
    )


def edited(command: dict, edits: list[tuple[bool, str, object]]) -> dict:
    """The command with fields set to other values or dropped."""
    command = dict(command)
    for drop, field, value in edits:
        if drop:
            command.pop(field, None)
        else:
            command[field] = value
    return command


def commands_near(legal: list[dict]) -> st.SearchStrategy:
    """Objects near the table's legal commands, and JSON of any shape: a
    legal command with fields changed or dropped (lists and objects where
    strings belong, other seats' numbers, huge numbers, NaN, lone
    surrogates), any type with any fields, any JSON value at all."""
    fields = sorted({field for command in legal for field in command} | {"seat", "type", "name"})
    keys = st.one_of(st.sampled_from(fields), texts)
    values = json_values(keys)
    types = st.sampled_from(sorted({c["type"] for c in legal} | set(SPECIAL_TYPES)))
    edits = st.lists(st.tuples(st.booleans(), keys, values), min_size=1, max_size=3)
    real = st.sampled_from(legal) if legal else st.just({"type": "no_such_command"})
    return st.one_of(
        real,
        st.builds(edited, real, edits),
        st.fixed_dictionaries(
            {"type": st.one_of(types, values)},
            optional={field: values for field in fields if field != "type"},
        ),
        values,
    )


def encoded(value, escape: bool) -> bytes:
    """JSON as a client may write it: NaN and Infinity as Python writes
    them, lone surrogates escaped (\\ud800) or as their raw, invalid bytes."""
    text = json.dumps(value, ensure_ascii=escape, allow_nan=True)
    return text.encode("utf-8", "surrogatepass")


def raw_bodies(kind: str) -> st.SearchStrategy[bytes]:
    """Bodies no encoder writes: bytes, JSON nested about a thousand deep and
    far deeper, integers of thousands of digits, strings past the command's
    and the body's caps, a byte-order mark, JSON cut short or with more after."""
    start = b'{"type": "%s", ' % kind.encode()
    valid = b'{"type": "%s"}' % kind.encode()
    return st.one_of(
        st.binary(max_size=64),
        st.integers(1, 6000).map(lambda d: start + b'"x": ' + b"[" * d + b"]" * d + b"}"),
        st.integers(1, 3000).map(lambda d: b'{"a": ' * d + b"0" + b"}" * d),
        st.integers(15, 6000).map(lambda n: start + b'"target": ' + b"9" * n + b"}"),
        LENGTHS.map(lambda n: start + b'"name": "' + b"x" * n + b'"}'),
        st.just(b"\xef\xbb\xbf" + valid),
        st.integers(0, len(valid) - 1).map(lambda n: valid[:n]),
        st.binary(min_size=1, max_size=8).map(lambda junk: valid + junk),
    )


def bodies(legal: list[dict]) -> st.SearchStrategy[bytes]:
    kinds = sorted({c["type"] for c in legal} | {"income"})
    return st.one_of(
        st.builds(encoded, commands_near(legal), st.booleans()),
        st.sampled_from(kinds).flatmap(raw_bodies),
    )


@fuzz(60)
@given(game=games, position=positions, data=st.data())
def test_any_command_body_is_carried_out_or_refused_in_words_changing_nothing(game, position, data):
    async def scenario():
        table = table_at(game, position)
        async with served(table) as (server, phone):
            seat = data.draw(seats_of(table), label="seat")
            mine = await seated(server, phone, seat)
            legal = table.phone_commands(seat) + [
                c for c in table.legal_commands() if c.get("seat") == seat
            ]
            sent = data.draw(st.lists(st.tuples(bodies(legal), DECLARATIONS, LANGUAGE), max_size=5))
            told_once_a_game(server)
            with journal() as caught:
                for body, (content_type, coding), lang in sent:
                    headers = {
                        CSRF_HEADER: mine.csrf,
                        "Content-Type": content_type,
                        "Accept-Language": lang,
                    }
                    if coding is not None:
                        headers["Content-Encoding"] = coding
                    before = snapshot(table)
                    answer = await mine.client.post("/api/command", data=body, headers=headers)
                    reply = await answer.json()  # every answer is JSON
                    TALLY["command bodies", f"{answer.status} {reply.get('error', 'ok')}"] += 1
                    if answer.status == 200:
                        assert content_type.lower().startswith(JSON), "taken only as JSON"
                        assert (coding or "identity").lower() == "identity", "and uncompressed"
                        carried_out(table, seat, before, reply)
                    else:
                        assert_refused_in_words(answer.status, reply, {400, 413, 415})
                        assert snapshot(table) == before, "a refusal changed nothing"
            assert_quiet(caught, requests=len(sent))

    asyncio.run(scenario())


def seats_of(table: Table) -> st.SearchStrategy[int]:
    """Any seat, as often one that has something to do as not."""
    busy = [seat for seat in range(table.setup.players) if table.phone_commands(seat)]
    anyone = st.integers(0, table.setup.players - 1)
    return st.one_of(st.sampled_from(busy), anyone) if busy else anyone


def carried_out(table: Table, seat: int, before, reply: dict) -> None:
    """A command taken from the seat's phone is the seat's, stored once, and
    a restart rebuilds the same table. (Its answer is padded with spaces,
    as every answer to a command is: see test_web_lengths.py.)"""
    assert reply.pop(PAD).strip() == ""
    assert reply == {"ok": True, "events": reply["events"]} and reply["events"] >= 0
    commands = table.store.commands(table.game_id)
    added = len(commands) - before[2]
    assert added in (0, 1) and (added == 1 or reply["events"] == 0)
    if added:
        assert commands[-1]["source"] == seat_source(seat)
        assert commands[-1]["command"]["seat"] == seat
        resumed = Table.resume(table.store, table.game_id, clock=table.clock)
        assert resumed.public_view() == table.public_view()


# -- socket frames -------------------------------------------------------------------------
# How the server may close a socket whose page wrote what no page writes:
# normally, going away, a protocol error, data it cannot take, invalid UTF-8.
CLEAN_CLOSES = {1000, 1001, 1002, 1003, 1007}
FOLLOWED = "followed the next change"
TOO_BIG = 4 * 1024 * 1024 + 1  # past a socket's largest message: the server closes it
frames = st.one_of(
    st.tuples(st.just("text"), st.text(st.characters(exclude_categories=("Cs",)), max_size=200)),
    st.tuples(st.just("text"), st.just('{"type": "income", "seat": 0}')),  # a command: ignored
    st.tuples(st.just("binary"), st.binary(max_size=200)),
    st.tuples(st.just("big"), st.sampled_from([125, 126, 65535, 65536, 1024 * 1024, TOO_BIG])),
    st.tuples(st.just("pings"), st.integers(1, 200)),
    st.tuples(st.just("pong"), st.binary(max_size=125)),
)


async def send(socket, frame) -> None:
    """Send one of ``frames``; a socket the server has closed takes nothing."""
    with contextlib.suppress(ConnectionError):
        await _send(socket, *frame)


async def _send(socket, kind: str, what) -> None:
    if kind == "text":
        await socket.send_str(what)
    elif kind == "binary":
        await socket.send_bytes(what)
    elif kind == "big":
        await socket.send_bytes(b"x" * what)
    elif kind == "pings":
        for _ in range(what):
            await socket.ping()
    else:
        await socket.pong(what)


@fuzz(25)
@given(game=games, position=positions, data=st.data())
def test_frames_a_page_sends_build_no_state_and_leave_its_socket_usable_or_closed_cleanly(
    game, position, data
):
    async def scenario():
        table = table_at(game, position)
        async with served(table) as (server, phone):
            seat = data.draw(st.integers(0, table.setup.players - 1), label="seat")
            mine = await seated(server, phone, seat)
            sockets = [
                await mine.client.ws_connect("/ws?frames=binary"),
                await mine.client.ws_connect("/ws/table"),
            ]
            firsts = [await seat_json(sockets[0]), await sockets[1].receive_json(timeout=5)]
            server.sent = []
            before = snapshot(table)
            too_big = set()
            told_once_a_game(server)
            with journal() as caught:
                for socket, frame in data.draw(
                    st.lists(st.tuples(st.sampled_from(sockets), frames), max_size=8)
                ):
                    TALLY["socket frames sent", frame[0]] += 1
                    await send(socket, frame)
                    if frame == ("big", TOO_BIG):
                        too_big.add(socket)
                await asyncio.sleep(0.05)
                assert server.sent == [], "a page's frames built and sent no state"
                assert snapshot(table) == before
                # Another seat's phone joins: news for every page.
                await seated(server, phone, (seat + 1) % table.setup.players)
                outcomes = [
                    await (closed_for_size(s) if s in too_big else news(s, first))
                    for s, first in zip(sockets, firsts)
                ]
                assert len(server.sent) == outcomes.count(FOLLOWED), "one state each, no other"
                await until_holding(server, outcomes.count(FOLLOWED))
                TALLY.update(("sockets after frames", outcome) for outcome in outcomes)
            assert_quiet(caught, requests=4)  # two sockets, a join and its state
            for socket in sockets:
                await socket.close()

    asyncio.run(scenario())


def told_once_a_game(server) -> None:
    """Every seat's state in every language made once, so that an own part
    past its game's size (an Article 27 seat in many bribes), which the log
    tells once a game, is told before what the test listens to."""
    for seat in range(server.table.setup.players):
        for lang in LANGUAGES:
            server.seat_frame(server.seat_message(seat, lang), None)
            server.seat_text(seat, lang)


async def news(socket, first: dict) -> str:
    """The socket's next message is the newer state (a seat's frame, or
    the table page's text)."""
    if "seat" in first:
        news = await seat_json(socket)
    else:
        message = await socket.receive(timeout=5)
        assert message.type == WSMsgType.TEXT, (message, socket.close_code)
        news = json.loads(message.data)
    assert news["type"] == "state" and news["version"] > first["version"], news
    return FOLLOWED


async def closed_for_size(socket) -> str:
    """A socket sent a message past its size is closed: with 1009 ("too
    big"), or reset while the page was still writing it."""
    message = await socket.receive(timeout=5)
    assert message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR), message
    assert socket.close_code in (1009, 1006), socket.close_code
    return f"closed {socket.close_code} (a message too big)"


def frame_bytes(opcode: int, payload: bytes, fin: bool, rsv: int, mask: bytes | None) -> bytes:
    """A WebSocket frame as a client writes it, right or wrong."""
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    size = len(payload)
    masked = 0x80 if mask is not None else 0
    if size < 126:
        head += bytes([masked | size])
    elif size < 65536:
        head += bytes([masked | 126]) + struct.pack("!H", size)
    else:
        head += bytes([masked | 127]) + struct.pack("!Q", size)
    if mask is None:
        return head + payload
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# Mostly frames a page could send, often one thing wrong: an opcode no
# frame has, reserved bits, no mask, a fragment, a control frame too long.
raw_frames = st.one_of(
    st.builds(
        frame_bytes,
        opcode=st.one_of(st.sampled_from([1, 2, 9, 10]), st.integers(0, 15)),
        payload=st.binary(max_size=300),
        fin=st.one_of(st.just(True), st.booleans()),
        rsv=st.one_of(st.just(0), st.integers(0, 7)),
        mask=st.one_of(st.binary(min_size=4, max_size=4), st.none()),
    ),
    st.binary(min_size=1, max_size=40),  # not a frame at all
)


async def raw_seat_socket(client, cookie: str):
    """A seat socket opened by hand, to write bytes no client library would."""
    url = client.make_url("/ws")
    reader, writer = await asyncio.open_connection(url.host, url.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws?frames=binary HTTP/1.1\r\nHost: {url.host}:{url.port}\r\n"
            f"Cookie: {COOKIE}={cookie}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert b" 101 " in await reader.readuntil(b"\r\n\r\n")
    return reader, writer


async def server_frames(reader) -> list[tuple[int, bytes]]:
    """The frames the server writes until it closes the connection:
    (opcode, payload)."""
    received = []
    try:
        while True:
            head = await asyncio.wait_for(reader.readexactly(2), timeout=2)
            size = head[1] & 0x7F
            if size == 126:
                size = struct.unpack("!H", await reader.readexactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", await reader.readexactly(8))[0]
            received.append((head[0] & 0x0F, await reader.readexactly(size)))
    except (asyncio.IncompleteReadError, TimeoutError, ConnectionError):
        return received


@fuzz(25)
@given(game=games, position=positions, data=st.data())
def test_bytes_a_page_writes_on_its_socket_build_no_state_and_close_it_cleanly(
    game, position, data
):
    async def scenario():
        table = table_at(game, position)
        async with served(table) as (server, phone):
            mine = await seated(server, phone, 0)
            server.sent = []
            told_once_a_game(server)
            with journal() as caught:
                reader, writer = await raw_seat_socket(mine.client, mine.cookie)
                written = data.draw(st.lists(raw_frames, min_size=1, max_size=6))
                for frame in written:
                    writer.write(frame)
                TALLY["raw socket writes", "frames or bytes"] += len(written)
                writer.write_eof()  # and nothing more: the server closes
                await writer.drain()
                answered = await server_frames(reader)
                writer.close()
                states = [payload for opcode, payload in answered if opcode == 2]  # binary
                assert len(states) == len(server.sent) == 1, "the first state, and no other"
                closes = [struct.unpack("!H", p[:2])[0] for o, p in answered if o == 8 and p]
                assert set(closes) <= CLEAN_CLOSES, closes
                TALLY[
                    "raw sockets", f"closed {closes[0]}" if closes else "closed at their end"
                ] += 1
                await until_holding(server, 0)
                assert (await mine.client.get("/api/seat")).status == 200, "the server goes on"
            assert_quiet(caught, requests=2)

    asyncio.run(scenario())


async def until_holding(server, sockets: int) -> None:
    """Wait until the server holds just this many sockets, and counts just
    as many from the address (a count left behind would lock it out)."""
    for _ in range(500):
        held = len(server._seat_sockets) + len(server._table_sockets)
        if held == sockets == sum(server._open_by_address.values()):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the server holds {held} sockets, counts {server._open_by_address}")


# -- headers -------------------------------------------------------------------------------
def origins(own: str) -> st.SearchStrategy[str | None]:
    host = own.split("://", 1)[1]
    return weighted(
        (3, st.sampled_from([None, own])),
        (1, st.sampled_from([f"https://{host}", own + "/", own.upper(), "null", "", "http://x"])),
        (1, header_text),
    )


def csrf_values(real: str) -> st.SearchStrategy[str | None]:
    return weighted(
        (3, st.just(real)),
        (1, st.sampled_from([None, real.upper(), f" {real}", real[:-1], real + "0"])),
        (1, header_text),
    )


q_values = st.one_of(
    st.sampled_from(["1", "0", "0.5", "nan", "inf", "-1", "1e999", "", "x"]), header_text
)
languages = st.one_of(st.sampled_from([*LANGUAGES, "EL", "ru-RU", "fa-IR", "*", "de"]), header_text)
accept_languages = st.one_of(
    st.none(),
    st.lists(
        st.tuples(languages, st.one_of(st.none(), q_values)).map(
            lambda lq: lq[0] if lq[1] is None else f"{lq[0]};q={lq[1]}"
        ),
        max_size=4,
    ).map(", ".join),
    header_text,
)


@fuzz(40)
@given(game=games, position=positions, data=st.data())
def test_origin_csrf_and_language_headers_never_forge_a_command_nor_break_a_page(
    game, position, data
):
    async def scenario():
        table = table_at(game, position)
        async with served(table) as (server, phone):
            mine = await seated(server, phone, 0)
            own = str(mine.client.make_url("")).rstrip("/")
            legal = table.phone_commands(0) or [{"type": "no_such_command"}]
            requests = data.draw(
                st.lists(
                    st.tuples(
                        origins(own),
                        csrf_values(mine.csrf),
                        accept_languages,
                        st.sampled_from(legal),
                    ),
                    max_size=4,
                )
            )
            told_once_a_game(server)
            with journal() as caught:
                for origin, csrf, accept, command in requests:
                    await check_headers(mine, table, own, origin, csrf, accept, command)
            assert_quiet(caught, requests=4 * len(requests))

    asyncio.run(scenario())


def trimmed(value: str | None) -> str | None:
    return None if value is None else value.strip(" \t")


async def check_headers(mine, table, own, origin, csrf, accept, command) -> None:
    headers = {
        name: value
        for name, value in (("Origin", origin), (CSRF_HEADER, csrf), ("Accept-Language", accept))
        if value is not None
    }
    origin, csrf = trimmed(origin), trimmed(csrf)  # as HTTP reads a header's value
    forged = csrf != mine.csrf or origin not in (None, own)
    before = snapshot(table)
    answer = await mine.client.post("/api/command", json=command, headers=headers)
    reply = await answer.json()
    TALLY["requests with fuzzed headers", f"/api/command {answer.status}"] += 1
    if forged:
        assert (answer.status, reply["error"]) == (403, "web.forged")
        assert reply["message"] in refusal_texts("web.forged")
        if accept is None:
            assert reply["message"] == ENGLISH["web.forged"]
        assert snapshot(table) == before
    else:
        assert answer.status in (200, 400), reply
    page_headers = {name: value for name, value in headers.items() if name != CSRF_HEADER}
    public = await mine.client.get("/api/table", headers=page_headers)
    assert public.status == 200 and (await public.json())["lang"] in LANGUAGES
    seat = await mine.client.get("/api/seat", headers=page_headers)
    assert seat.status == 200 and (await seat.json())["lang"] in LANGUAGES
    TALLY["requests with fuzzed headers", f"/api/table {public.status}"] += 1
    TALLY["requests with fuzzed headers", f"/api/seat {seat.status}"] += 1
    try:
        socket = await mine.client.ws_connect("/ws?frames=binary", headers=page_headers)
    except WSServerHandshakeError as exc:
        assert (exc.status, origin not in (None, own)) == (401, True)
        TALLY["requests with fuzzed headers", f"/ws {exc.status}"] += 1
    else:
        assert origin in (None, own)
        await socket.close()
        TALLY["requests with fuzzed headers", "/ws 101"] += 1


# Header values as bytes, not text: what no browser sends (bytes that are no
# UTF-8, NUL), and so what only a raw connection can.
header_bytes = st.binary(max_size=60).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b""))
HEADER_NAMES = [
    "Cookie",
    "Origin",
    "Accept-Language",
    CSRF_HEADER,
    "Host",
    "Content-Type",
    "Content-Encoding",
    "Upgrade",
    "Connection",
    "Sec-WebSocket-Version",
    "Sec-WebSocket-Protocol",
]
ROUTES = [
    ("GET", "/"),
    ("GET", "/seat"),
    ("GET", "/api/seat"),
    ("GET", "/table"),
    ("GET", "/api/table"),
    ("GET", "/api/messages/en"),
    ("GET", "/join/no-such-link"),
    ("GET", "/ws"),
    ("GET", "/ws/table"),
    ("POST", "/api/command"),
]
STATUS_LINE = re.compile(rb"HTTP/1\.[01] ([0-9]{3}) ")


async def raw_request(url, method: str, path: str, headers: list[tuple[str, bytes]]) -> int:
    """Send a request written by hand and return the status it gets."""
    reader, writer = await asyncio.open_connection(url.host, url.port)
    names = {name.lower() for name, _ in headers}
    lines = [f"{method} {path} HTTP/1.1".encode()]
    if "host" not in names:
        lines.append(f"Host: {url.host}:{url.port}".encode())
    lines += [name.encode() + b": " + value for name, value in headers]
    body = b'{"type": "no_such_command"}' if method == "POST" else b""
    lines += [b"Content-Length: %d" % len(body), b"Connection: close", b"", body]
    writer.write(b"\r\n".join(lines))
    answer = await asyncio.wait_for(reader.read(), timeout=10)
    writer.close()
    found = STATUS_LINE.match(answer)
    assert found is not None, answer[:200]
    return int(found[1])


@fuzz(25)
@given(game=games, position=positions, data=st.data())
def test_header_bytes_that_no_browser_sends_get_an_answer_never_a_500(game, position, data):
    async def scenario():
        table = table_at(game, position)
        async with served(table) as (server, phone):
            mine = await seated(server, phone, 0)
            cookie = f"{COOKIE}={mine.cookie}".encode()
            url = mine.client.make_url("/")
            requests = data.draw(
                st.lists(
                    st.tuples(
                        st.sampled_from(ROUTES),
                        st.lists(
                            st.tuples(st.sampled_from(HEADER_NAMES), header_bytes), max_size=4
                        ),
                        st.booleans(),  # with the seat's cookie too
                    ),
                    min_size=1,
                    max_size=5,
                )
            )
            before = snapshot(table)
            told_once_a_game(server)
            with journal() as caught:
                for (method, path), headers, seat_cookie in requests:
                    sent = [*headers, ("Cookie", cookie)] if seat_cookie else headers
                    status = await raw_request(url, method, path, sent)
                    TALLY["raw requests with fuzzed header bytes", f"{path} {status}"] += 1
                    assert status < 500, (method, path, sent)
            assert_quiet(caught, requests=len(requests))
            assert snapshot(table) == before

    asyncio.run(scenario())
