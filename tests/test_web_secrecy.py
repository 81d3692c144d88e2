"""Secrecy over random playouts of every game, through the real server: a
phone on every seat and a table page, each on its own socket; random legal
commands from the right channels; every message the server sends is
recorded. Each seat's messages carry that seat's private view and nothing
private of anyone else's; the table page's carry only the public view."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from a27_helpers import FakeClock
from web_helpers import join, served

from companion.games import spec_for
from companion.games.base import Fate, Setup
from companion.i18n import Messages
from companion.table import LOCAL, Table, seat_source
from companion.web.words import secret_lines

GAMES = [
    ("coup", 4, {"direction": "clockwise"}),
    ("g54", 4, {"advanced": True}),
    ("secret_hitler", 5, {}),
    ("article27", 4, {}),
]
STEPS = 120


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("game, players, options", GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_seat_ever_receives_another_seats_secret(store, game, players, options, seed):
    async def scenario():
        clock = FakeClock()
        setup = Setup(
            game=game,
            seats=[f"P{i}" for i in range(players)],
            mode="keeper",
            options={"first": 0, **options},
        )
        table = Table.start(store, setup, fate=Fate(seed=seed), clock=clock)
        pick = random.Random(seed)
        async with served(table) as (server, phone):
            server.sent = []
            privates = {seat: set() for seat in range(players)}
            publics = set()

            def note() -> None:
                """Every view that exists now, as phones may be sent it."""
                public = table.public_view()
                public["phones"] = server.links.status(table.game_id, players)
                publics.add(canonical(public))
                for seat in range(players):
                    privates[seat].add(canonical(table.private_view(seat)))

            sockets = []
            for seat in range(players):
                client = await phone()
                assert (await join(client, server.links.token(table.game_id, seat))).status == 303
                note()
                sockets.append(await client.ws_connect("/ws?frames=binary"))
            sockets.append(await (await phone()).ws_connect("/ws/table"))
            for _ in range(STEPS):
                if table.is_over:
                    break
                commands = list(table.legal_commands())
                if not commands:
                    break
                command = dict(pick.choice(commands))
                seat = command.get("seat")
                source = seat_source(seat) if isinstance(seat, int) else LOCAL
                table.execute(command, source=source)
                note()
                await asyncio.sleep(0)
            await asyncio.sleep(0.05)
        return table, server.sent, privates, publics

    table, sent, privates, publics = asyncio.run(scenario())
    assert len(sent) > 2 * players
    t = {seat: Messages("en", table.names) for seat in range(players)}
    for audience, text in sent:
        message = json.loads(text)
        assert canonical(message["public"]) in publics
        if audience == "table":
            assert set(message) == {
                "type",
                "version",
                "game",
                "names",
                "public",
                "status",
                "facts",
                "board",
                "reference",
                "explain",
                "rules",
                "log",
            }
            public, words = message["public"], spec_for(game).words
            assert message["log"] == [
                t[0].log_line(line["key"], line["args"]) for line in public["log"]
            ], "the worded log says only what the public view holds"
            assert message["status"] == words.status_line(public, t[0])
            assert message["facts"] == words.bar_items(public, t[0])
            assert message["board"] == words.board(public, t[0])
            assert message["explain"] == words.explain(public, t[0])
            assert message["rules"] == [
                {"name": name, "text": text} for name, text in words.quick_reference(public, t[0])
            ]
            assert message["reference"] == [
                card._asdict() for card in words.reference_cards(public, t[0])
            ], "the table's words come from the public view alone"
            continue
        seat = int(audience.split(":")[1])
        assert message["seat"] == seat
        assert canonical(message["private"]) in privates[seat], "only this seat's own view"
        assert message["secrets"] == secret_lines(spec_for(game).words, message["private"], t[seat])
        assert all(action["command"]["seat"] == seat for action in message["actions"])
        # The board and the rules at hand under its secrets: the table's, from
        # the public view alone.
        words = spec_for(game).words
        assert message["board"] == words.board(message["public"], t[seat])
        assert message["explain"] == words.explain(message["public"], t[seat])
