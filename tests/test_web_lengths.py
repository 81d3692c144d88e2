"""What the lengths of a seat's messages tell someone who sees the Wi-Fi's
frames but not what they carry (WPA2 hides content, not length): nothing
but public things. Through the real server on 127.0.0.1, with a tap in
front of it that keeps every byte the server sends: two tables that differ
only in a secret send every socket frames of the same lengths and answer
every ``/api/seat`` with as many bytes; a seat's socket is never
compressed by the socket (its frames carry their own part deflated alone
and padded, and the public part deflated once per language); a command's
answer is as long taken as refused. And over random playouts of every
game, in every language, with the longest names, no seat's own part of its
state outgrows its game's ``private_bytes``, nor ``sealed_bytes`` as its
socket sends it."""

from __future__ import annotations

import asyncio
import base64
import os
import random
import struct
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from a27_helpers import FOUR, PK, FakeClock, quiet_slots
from aiohttp.test_utils import TestServer
from web_helpers import join, served, state, unframe

from companion.games import spec_for
from companion.games.base import Fate, RuleError, Setup
from companion.i18n import LANGUAGES, Messages
from companion.table import LOCAL, Table, seat_source
from companion.table.seats import MAX_NAME
from companion.table.store import EventStore
from companion.web.server import (
    ANSWER_BYTES,
    CSRF_HEADER,
    OWN_HEAD,
    OWN_MEM_LEVEL,
    OWN_WINDOW_BITS,
    TableServer,
    answer,
    deflate,
    private_bytes,
)

NAMES = {"en": "Player", "el": "Παίκτης", "ru": "Игрок", "fa": "بازیکن"}
L, F, H = "liberal", "fascist", "hitler"


class Tap:
    """A TCP relay in front of the server that keeps, per connection in the
    order they were opened, every byte the server sent on it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sent: list[bytearray] = []
        self.url = ""

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def close(self) -> None:
        self._server.close()
        await self._server.wait_closed()

    async def _relay(self, phone: asyncio.StreamReader, to_phone: asyncio.StreamWriter) -> None:
        kept = bytearray()
        self.sent.append(kept)
        from_server, to_server = await asyncio.open_connection("127.0.0.1", self.port)
        await asyncio.gather(
            _pipe(phone, to_server), _pipe(from_server, to_phone, kept), return_exceptions=True
        )


async def _pipe(
    source: asyncio.StreamReader, sink: asyncio.StreamWriter, kept: bytearray | None = None
) -> None:
    try:
        while data := await source.read(65536):
            if kept is not None:
                kept += data
            sink.write(data)
            await sink.drain()
    finally:
        sink.close()


def lengths(sent: bytes) -> list[int]:
    """What a watcher sees of one connection: the length of the server's
    HTTP head, then of each WebSocket frame (header and payload) after a
    101, or of the body otherwise."""
    head, _, rest = bytes(sent).partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        return [len(head), len(rest)]
    frames = [len(head)]
    while rest:
        size, start = rest[1] & 0x7F, 2  # a server's frames are never masked
        if size >= 126:
            width = 2 if size == 126 else 8
            size, start = int.from_bytes(rest[2 : 2 + width], "big"), 2 + width
        frames.append(start + size)
        rest = rest[start + size :]
    return frames


@asynccontextmanager
async def tapped(table: Table):
    """The table's phone server on 127.0.0.1, behind a tap."""
    server = TableServer(table)
    test_server = TestServer(server.app(), host="127.0.0.1")
    await test_server.start_server()
    tap = Tap(test_server.port)
    await tap.start()
    sessions: list[aiohttp.ClientSession] = []
    try:
        yield server, tap, sessions
    finally:
        for session in sessions:
            await session.close()
        await tap.close()
        await test_server.close()


async def seat_phone(server, tap, sessions, seat: int) -> aiohttp.ClientSession:
    """A phone that has claimed ``seat``; every request on a new connection,
    so that the tap keeps each answer apart."""
    session = aiohttp.ClientSession(
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        connector=aiohttp.TCPConnector(force_close=True),
        headers={"Accept-Encoding": "gzip, deflate"},
    )
    sessions.append(session)
    token = server.links.token(server.table.game_id, seat)
    async with session.get(f"{tap.url}/join/{token}") as response:
        assert response.status == 200  # the join page: it claims nothing
    # The tap, and the seat's page it leads to, which makes the claim final.
    async with session.post(f"{tap.url}/join/{token}") as response:
        assert response.status == 200 and response.url.path == "/seat"
    return session


async def watch(
    table: Table, commands: list[dict[str, Any]], frames: str = "binary"
) -> tuple[list[Any], list[list[int]]]:
    """Phones on every seat and a table page, through a tap, their sockets
    offering compression as browsers do and asking for ``frames`` (the
    deflated binary frames, or the plain text a browser that cannot inflate
    them asks for): ``commands`` played one by one;
    after each, every socket takes its new state and every phone asks for
    ``/api/seat``. The public views the table went through, and the lengths
    a watcher saw on every connection."""
    async with tapped(table) as (server, tap, sessions):
        phones = [await seat_phone(server, tap, sessions, s) for s in range(table.setup.players)]
        sockets = [
            await phone.ws_connect(f"{tap.url}/ws?frames={frames}", compress=15) for phone in phones
        ]
        kind = aiohttp.WSMsgType.BINARY if frames == "binary" else aiohttp.WSMsgType.TEXT
        sockets.append(await phones[0].ws_connect(f"{tap.url}/ws/table", compress=15))
        publics = []
        for command in [None, *commands]:
            if command is not None:
                table.execute(command, source=source(command))
            for socket in sockets[:-1]:
                assert (await socket.receive(timeout=5)).type == kind
            assert (await sockets[-1].receive(timeout=5)).type == aiohttp.WSMsgType.TEXT
            for phone in phones:
                async with phone.get(f"{tap.url}/api/seat") as response:
                    assert response.status == 200
                    await response.read()
            publics.append(table.public_view())
        for socket in sockets:
            await socket.close()
        return publics, [lengths(sent) for sent in tap.sent]


def source(command: dict[str, Any]) -> str:
    """A seat's command from its own channel, the table's from the kiosk."""
    return seat_source(command["seat"]) if "seat" in command else LOCAL


def both(tables: tuple[Table, Table], commands: list[dict[str, Any]], frames: str = "binary"):
    return [asyncio.run(watch(table, commands, frames)) for table in tables]


def assert_same_lengths(
    tables: tuple[Table, Table], commands: list[dict[str, Any]], frames: str = "binary"
) -> None:
    (publics_a, seen_a), (publics_b, seen_b) = both(tables, commands, frames)
    assert publics_a == publics_b, "the two tables differ only in a secret"
    assert len(seen_a) == len(seen_b)
    for connection, (a, b) in enumerate(zip(seen_a, seen_b)):
        assert a == b, f"connection {connection}: the lengths tell the tables apart"


def seats(players: int, lang: str) -> list[dict[str, str]]:
    return [{"name": f"{NAMES[lang]} {i + 1}", "lang": lang} for i in range(players)]


# -- two tables, one secret apart -------------------------------------------------------
def twins(setup: Setup, deals: tuple[dict[str, Any], dict[str, Any]]) -> tuple[Table, Table]:
    """Two tables of one setup, each dealt by its own script."""
    a, b = (
        Table.start(
            EventStore(":memory:"), setup, fate=Fate(seed=1, script=deal), clock=FakeClock()
        )
        for deal in deals
    )
    return a, b


def sh_tables(lang: str) -> tuple[Table, Table]:
    """Seven players: seat 0 (the first President) a liberal at one table
    and a fascist at the other, its three tiles holding one liberal or two."""
    setup = Setup(game="secret_hitler", seats=seats(7, lang), mode="keeper", options={"first": 0})
    return twins(
        setup,
        (
            {"roles": [L, L, L, L, F, F, H], "deck": [L, F, F] + [L] * 5 + [F] * 9},
            {"roles": [F, L, L, L, L, F, H], "deck": [L, L, F] + [L] * 4 + [F] * 10},
        ),
    )


SH_COMMANDS = [
    *({"type": "confirm", "seat": seat} for seat in range(7)),
    {"type": "nominate", "seat": 0, "target": 1},
    *({"type": "vote", "seat": seat, "choice": "ja"} for seat in range(7)),
    {"type": "discard", "seat": 0, "policy": F},
    {"type": "enact", "seat": 1, "policy": L},
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_secret_hitler_roles_and_tiles_do_not_show_in_any_frame_s_length(lang):
    tables = sh_tables(lang)
    assert tables[0].private_view(0)["party"] != tables[1].private_view(0)["party"]
    assert_same_lengths(tables, SH_COMMANDS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plain_text_states_of_a_browser_that_cannot_inflate_hide_them_too(lang):
    """A page without ``DecompressionStream("deflate-raw")`` asks its socket
    for the text ``/api/seat`` sends (``/ws?frames=text``): its own part
    padded with spaces, never compressed, as long whatever the secrets."""
    tables = sh_tables(lang)
    assert_same_lengths(tables, SH_COMMANDS, frames="text")


def coup_tables(lang: str) -> tuple[Table, Table]:
    """Three players, seats 1 and 2 holding other cards at each table."""
    options = {"first": 0, "direction": "clockwise"}
    setup = Setup(game="coup", seats=seats(3, lang), mode="keeper", options=options)
    return twins(
        setup,
        (
            {"hands": [["assassin", "contessa"], ["captain", "duke"], ["contessa", "duke"]]},
            {"hands": [["assassin", "contessa"], ["ambassador", "duke"], ["captain", "duke"]]},
        ),
    )


COUP_COMMANDS = [
    *(
        [
            {"type": "tax", "seat": 0},
            {"type": "pass", "seat": 1},
            {"type": "pass", "seat": 2},
            {"type": "income", "seat": 1},
            {"type": "income", "seat": 2},
        ]
        * 2
    ),
    {"type": "coup", "seat": 0, "target": 1},
    {"type": "lose", "seat": 1, "card": "duke"},
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_coup_hands_do_not_show_in_any_frame_s_length(lang):
    tables = coup_tables(lang)
    assert tables[0].private_view(1)["hand"] != tables[1].private_view(1)["hand"]
    assert_same_lengths(tables, COUP_COMMANDS)


def a27_tables(lang: str) -> tuple[Table, Table]:
    """Four players, the agendas dealt otherwise at each table."""
    setup = Setup(game="article27", seats=seats(4, lang), mode="keeper", options={"first": 0})
    return twins(
        setup,
        (
            {"agendas": list(FOUR), "slots": [quiet_slots(4)]},
            {"agendas": list(reversed(FOUR)), "slots": [quiet_slots(4)]},
        ),
    )


A27_COMMANDS = [
    {"type": "gavel"},
    {"type": "move", "issue": PK, "to": "floor"},
    {"type": "gavel"},
    *({"type": "vote", "seat": seat, "choice": "yes"} for seat in range(4)),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_article_27_agendas_do_not_show_in_any_frame_s_length(lang):
    tables = a27_tables(lang)
    assert tables[0].private_view(1)["agenda"] != tables[1].private_view(1)["agenda"]
    assert_same_lengths(tables, A27_COMMANDS)


# -- no compression on a seat's socket or state ------------------------------------------
def upgrade_headers() -> dict[str, str]:
    """A browser's upgrade to a WebSocket that offers to compress it."""
    return {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
        "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits",
    }


def test_a_seat_s_socket_and_state_are_never_compressed_the_table_s_may_be():
    async def scenario():
        table = sh_tables("en")[0]
        async with served(table) as (server, phone):
            client = await phone()
            await join(client, server.links.token(table.game_id, 0))
            upgrade = await client.get("/ws?frames=binary", headers=upgrade_headers())
            assert upgrade.status == 101
            assert "Sec-WebSocket-Extensions" not in upgrade.headers
            upgrade.close()
            mine = await client.get("/api/seat", headers={"Accept-Encoding": "gzip, deflate"})
            assert mine.status == 200
            assert "Content-Encoding" not in mine.headers
            socket = await client.ws_connect("/ws?frames=binary", compress=15)  # offered, refused
            assert socket.compress == 0
            frame = (await socket.receive(timeout=5)).data
            # Its own part deflated alone and padded to the game's size.
            assert struct.unpack_from(">BI", frame) == (0, table.spec.sealed_bytes)
            assert unframe(frame, None)[0]["seat"] == 0
            await socket.close()
            public = await client.ws_connect("/ws/table", compress=15)
            assert public.compress == 15, "the public table's may be: it says nothing private"
            await public.close()

    asyncio.run(scenario())


# -- a command's answer ------------------------------------------------------------------
def test_a_command_s_answer_is_as_long_taken_as_refused_and_its_padding_is_dropped():
    async def scenario():
        table = sh_tables("ru")[0]
        executed = []
        carry_out = table.execute

        def execute(command, **how):
            executed.append(command)
            return carry_out(command, **how)

        table.execute = execute
        async with served(table) as (server, phone):
            client = await phone()
            await join(client, server.links.token(table.game_id, 0))
            headers = {CSRF_HEADER: (await state(client))["csrf"]}
            answers = []
            for command in (
                {"type": "confirm", "pad": " " * 300},  # taken
                {"type": "confirm"},  # refused: seen already
                {"type": "nominate", "target": 1},  # refused: not now
            ):
                response = await client.post("/api/command", json=command, headers=headers)
                answers.append((response.status, len(await response.read())))
        return answers, executed

    answers, executed = asyncio.run(scenario())
    assert [status for status, _ in answers] == [200, 400, 400]
    assert {size for _, size in answers} == {ANSWER_BYTES}
    assert executed[0] == {"type": "confirm", "seat": 0}


# -- every game's size covers its seats' own parts ---------------------------------------
GAMES = [
    ("coup", (2, 6), {}),
    ("g54", (2, 6), {"advanced": True}),
    ("secret_hitler", (5, 10), {}),
    ("article27", (3, 6), {"lie_cheat_steal": True}),
]
STEPS = 150


def longest_names(players: int) -> list[str]:
    """Names of MAX_NAME characters of four bytes each, no two alike
    anywhere (the names deflate least)."""
    return [
        "".join(chr(0x1F300 + i * MAX_NAME + n) for n in range(MAX_NAME)) for i in range(players)
    ]


def at_most_two_bribes(private: dict[str, Any]) -> bool:
    return len(private.get("bribes", ())) <= 2


def not_now(spec, state: dict[str, Any], names: list[str]):
    """The answer to a seat's command refused as "not now", which says what
    the table waits for (the longest refusal)."""
    t = Messages(state["lang"], names)
    error = RuleError(f"{spec.name}.not_now")
    return answer({"error": error.key, "message": spec.words.refusal(error, state["public"], t)})


@pytest.mark.parametrize("game, counts, options", GAMES, ids=[g[0] for g in GAMES])
def test_no_seat_s_own_part_outgrows_its_game_s_size(game, counts, options):
    """Random legal commands from every seat; after each, every seat's
    state in every language, with the longest refusal it may be told: its
    own fields (and a refusal's answer) fit its game's size, and its own
    part as its socket sends it (deflated on its own) fits its game's
    ``sealed_bytes``. An Article 27 seat in more
    than two bribes of a round may outgrow them (see its spec)."""
    spec = spec_for(game)
    worst = worst_sealed = 0
    for players in counts:
        setup = Setup(
            game=game, seats=longest_names(players), mode="keeper", options={"first": 0, **options}
        )
        table = Table.start(
            EventStore(":memory:"), setup, fate=Fate(seed=players), clock=FakeClock()
        )
        server = TableServer(table)
        pick = random.Random(players)
        for _ in range(STEPS):
            for seat in range(players):
                if not at_most_two_bribes(table.private_view(seat)):
                    continue
                for lang in LANGUAGES:
                    # With the longest refusal the phone is told (tell_seat),
                    # which its next state carries in its own part.
                    server.tell_seat(seat, RuleError(f"{spec.name}.not_now"))
                    seat_state = server._seat_state(seat, lang)
                    assert "notice" in seat_state
                    worst = max(worst, private_bytes(seat_state))
                    server.tell_seat(seat, RuleError(f"{spec.name}.not_now"))
                    own = server.seat_message(seat, lang).own
                    assert b'"notice"' in own
                    packed = deflate(own, window_bits=OWN_WINDOW_BITS, mem_level=OWN_MEM_LEVEL)
                    worst_sealed = max(worst_sealed, OWN_HEAD.size + len(packed))
                    assert len(not_now(spec, seat_state, table.names).body) == ANSWER_BYTES
            commands = list(table.legal_commands())
            if table.is_over or not commands:
                break
            command = pick.choice(commands)
            table.execute(dict(command), source=source(command))
    print(f"{game}: {worst} bytes, {worst_sealed} sealed")
    assert worst <= spec.private_bytes
    assert worst_sealed <= spec.sealed_bytes
