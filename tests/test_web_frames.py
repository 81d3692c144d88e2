"""A seat's frames on the wire (companion/web/server.py, ``seat_frame``):
ten phones at a Secret Hitler table, seated in four languages, are sent at
most 16 kB for a change, WebSocket framing included, as a tap in front of
the real server counts it; every seat in one language is sent the same
shared part, byte for byte (deflated once, so its length is the same for
every seat's secrets); and the phones' JSON is what ``json.dumps`` writes."""

from __future__ import annotations

import asyncio
import json
import random
import struct
from collections import defaultdict

import pytest
from a27_helpers import FakeClock
from test_web_lengths import GAMES, lengths, seat_phone, source, tapped
from web_helpers import unframe

from companion.games import spec_for
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
            sockets = [await phone.ws_connect(f"{tap.url}/ws", compress=15) for phone in phones]
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
