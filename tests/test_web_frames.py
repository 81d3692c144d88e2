"""A seat's frames on the wire (companion/web/server.py, ``seat_frame``):
ten phones at a Secret Hitler table, seated in four languages, are sent at
most 16 kB for a change, WebSocket framing included, as a tap in front of
the real server counts it; every seat in one language is sent the same
shared part, byte for byte (deflated once, so its length is the same for
every seat's secrets); and the phones' JSON is what ``json.dumps`` writes."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import struct
from collections import defaultdict

import aiohttp
import pytest
from a27_helpers import PK, FakeClock, bribe, propose
from test_web_lengths import GAMES, lengths, seat_phone, source, tapped
from web_helpers import join, served, unframe

from companion.games import spec_for
from companion.games.article27.bribes import MAX_TEXT
from companion.games.base import Fate, Setup
from companion.i18n import LANGUAGES
from companion.table import EventStore, Table
from companion.web.server import TableServer, _text

SEATS = 10
CHANGE_BYTES = 16_000  # what ten phones may be sent for one change


def sh_ten() -> Table:
    setup = Setup(
        game="secret_hitler",
        seats=[{"name": f"Player {i + 1}", "lang": LANGUAGES[i % 4]} for i in range(SEATS)],
        mode="keeper",
        options={"first": 0},
    )
    return Table.start(EventStore(":memory:"), setup, fate=Fate(seed=5))


# Every one public: each seat's state changes with it.
COMMANDS = [
    *({"type": "confirm", "seat": seat} for seat in range(SEATS)),
    {"type": "nominate", "seat": 0, "target": 1},
    *({"type": "vote", "seat": seat, "choice": "ja"} for seat in range(SEATS)),
]


def test_ten_phones_take_at_most_16_kB_a_change_and_one_language_one_shared_part():
    async def scenario():
        table = sh_ten()
        async with tapped(table) as (server, tap, sessions):
            phones = [await seat_phone(server, tap, sessions, s) for s in range(SEATS)]
            sockets = [
                await phone.ws_connect(f"{tap.url}/ws?frames=binary", compress=15)
                for phone in phones
            ]
            frames = [[(await socket.receive(timeout=5)).data] for socket in sockets]
            for command in COMMANDS:
                table.execute(command, source=source(command))
                for socket, got in zip(sockets, frames):
                    got.append((await socket.receive(timeout=5)).data)
            for socket in sockets:
                await socket.close()
            seen = [lengths(sent) for sent in tap.sent]
        return frames, [frames for frames in seen if len(frames) > 2]

    frames, on_wire = asyncio.run(scenario())
    assert len(on_wire) == SEATS  # the sockets' connections: their head, then frames
    per_change = [sum(wire[1 + n] for wire in on_wire) for n in range(1, len(COMMANDS) + 1)]
    assert max(per_change) <= CHANGE_BYTES, per_change
    for n in range(len(COMMANDS) + 1):
        shared = defaultdict(set)
        for seat in range(SEATS):
            frame = frames[seat][n]
            based, own_bytes = struct.unpack_from(">BI", frame)
            assert (based, own_bytes) == (n > 0, table_sealed_bytes())
            shared[LANGUAGES[seat % 4]].add(frame[5 + own_bytes :])
        assert all(len(parts) == 1 for parts in shared.values()), n
    # Each page reads every state whole, each frame after the one before.
    for seat in range(SEATS):
        base = None
        for frame in frames[seat]:
            state, base = unframe(frame, base)
            assert state["seat"] == seat and state["lang"] == LANGUAGES[seat % 4]


def table_sealed_bytes() -> int:
    return spec_for("secret_hitler").sealed_bytes


@pytest.mark.parametrize("game, counts, options", GAMES, ids=[g[0] for g in GAMES])
def test_the_phones_json_is_what_json_dumps_writes(game, counts, options):
    """Every seat's state and the table's, in every language, along a
    random playout: orjson's text is ``json.dumps``'s, byte for byte."""
    players = counts[-1]
    setup = Setup(
        game=game,
        seats=[{"name": f"P{i} «ø»", "lang": "en"} for i in range(players)],
        mode="keeper",
        options={"first": 0, **options},
    )
    table = Table.start(EventStore(":memory:"), setup, fate=Fate(seed=2), clock=FakeClock())
    server = TableServer(table)
    pick = random.Random(2)
    texts = 0
    for _ in range(40):
        for lang in LANGUAGES:
            states = [server._seat_state(seat, lang) for seat in range(players)]
            for state in [*states, server._table_state(lang)]:
                assert _text(state) == json.dumps(state, ensure_ascii=False, separators=(",", ":"))
                texts += 1
        commands = list(table.legal_commands())
        if table.is_over or not commands:
            break
        command = dict(pick.choice(commands))
        table.execute(command, source=source(command))
    assert texts > 100


def test_a_seat_s_own_part_that_outgrows_its_size_is_told_in_the_log_once_a_game(caplog):
    """An Article 27 seat offered bribe after bribe, each with 200 characters
    that deflate least: once its own part outgrows ``sealed_bytes`` (on its
    socket) and ``private_bytes`` (as /api/seat sends it), its states are
    longer, and the log says so once for each size, however many states."""
    setup = Setup(game="article27", seats=["A", "B", "C", "D"], mode="keeper", options={"first": 0})
    table = Table.start(EventStore(":memory:"), setup, fate=Fate(seed=11), clock=FakeClock())
    propose(table, PK, call_vote=False)
    server = TableServer(table)
    spec, pick = table.spec, random.Random(3)
    with caplog.at_level(logging.WARNING, logger="companion.web.server"):
        frame = server.seat_frame(server.seat_message(0, "en"), None)
        text = server.seat_text(0, "en")
        assert caplog.records == [], "within its sizes: nothing to tell"
        while len(server.seat_text(0, "en")) < len(text) + spec.private_bytes:
            words = "".join(chr(0x4E00 + pick.randrange(20_000)) for _ in range(MAX_TEXT))
            bribe(table, 1 + len(table.private_view(0)["bribes"]) % 3, 0, 1, "other", text=words)
            for _ in range(3):
                server.seat_frame(server.seat_message(0, "en"), None)
                server.seat_text(0, "en")
    longer = server.seat_frame(server.seat_message(0, "en"), None)
    assert struct.unpack_from(">BI", longer)[1] > struct.unpack_from(">BI", frame)[1]
    told = [record.getMessage() for record in caplog.records]
    assert len(told) == 2, told
    assert "sealed_bytes (2048)" in told[0] and "private_bytes (4608)" in told[1]


def test_a_socket_that_asks_for_no_frames_is_closed_with_4001():
    """A page from before the frames (its script reads every message as
    JSON text) opens ``/ws`` asking for none: it is closed with 4001, on
    which such a page reloads, and gets the new scripts."""

    async def scenario():
        table = sh_ten()
        async with served(table) as (server, phone):
            client = await phone()
            await join(client, server.links.token(table.game_id, 0))
            socket = await client.ws_connect("/ws")
            message = await socket.receive(timeout=5)
            return message, socket.close_code, server._seat_sockets

    message, code, open_sockets = asyncio.run(scenario())
    assert message.type == aiohttp.WSMsgType.CLOSE
    assert code == 4001 and open_sockets == {}


def test_every_seat_in_a_language_shares_one_written_shared_part():
    """The shared part is written and encoded once per state and language,
    not once per socket: every seat's message holds the same bytes object."""
    table = sh_ten()
    server = TableServer(table)
    for lang in LANGUAGES:
        seats = [seat for seat in range(SEATS) if LANGUAGES[seat % 4] == lang]
        parts = [server.seat_message(seat, lang).shared for seat in seats]
        assert all(part is parts[0] for part in parts)
