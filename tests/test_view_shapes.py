"""The shapes games/views.py declares hold for what every game's table gives
at run time: its open ballot and that ballot's public part, its timer, its
open claim and the facts the table adds to its public view, over random
legal playouts of all four games in both modes (with the timers some games
have switched on). mypy checks the annotated engines against these shapes;
this checks every engine, annotated or not, by what it returns."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games.base import Fate, Setup
from companion.games.views import BallotSpec, Claim, LogLine, PublicBallot, TableFacts, Timer
from companion.table import EventStore, Table

MAX_COMMANDS = 1500
TABLES = [
    ("article27", 3, {}),
    ("article27", 5, {"lie_cheat_steal": True}),
    ("secret_hitler", 5, {}),
    ("secret_hitler", 7, {}),
    ("coup", 3, {"response_seconds": 10}),
    ("coup", 2, {}),
    ("g54", 4, {"advanced": True}),
]


def fits(value: Any, shape: Any) -> None:
    """``value`` is a dict with every required key of the TypedDict
    ``shape`` and no key it does not declare."""
    assert isinstance(value, dict), value
    keys = set(value)
    missing = shape.__required_keys__ - keys
    unknown = keys - shape.__required_keys__ - shape.__optional_keys__
    assert not missing, f"{shape.__name__} without {sorted(missing)}: {value}"
    assert not unknown, f"{shape.__name__} with undeclared {sorted(unknown)}: {value}"


def check_shapes(table: Table, seen: set[str]) -> None:
    ballot = table.ballot()
    if ballot is not None:
        seen.add("ballot")
        fits(ballot, BallotSpec)
        assert isinstance(ballot["id"], str)
        assert all(isinstance(s, int) for s in ballot["eligible"])
        assert all(isinstance(c, str) for c in ballot["choices"])
    timer = table.timer()
    if timer is not None:
        seen.add("timer")
        fits(timer, Timer)
        assert isinstance(timer["running"], bool)
        assert isinstance(timer["remaining"], int | float)
    claim = table.open_claim()
    if claim is not None:
        seen.add("claim")
        fits(claim, Claim)
        assert claim["key"][0] == table.game_id
        assert isinstance(claim["claimant"], int) and claim["step"] in (1, -1)
    view = table.public_view()
    facts = {key: view[key] for key in TableFacts.__required_keys__ if key in view}
    fits(facts, TableFacts)
    assert view["game_id"] == table.game_id and isinstance(view["can_undo"], bool)
    assert view["timer"] == timer
    if view["ballot"] is not None:
        fits(view["ballot"], PublicBallot)
        assert set(view["ballot"]["voted"]) <= set(view["ballot"]["eligible"])
    for line in view["log"]:
        fits(line, LogLine)
        assert isinstance(line["key"], str) and isinstance(line["args"], dict)


@pytest.mark.parametrize("mode", ["physical", "keeper"])
@pytest.mark.parametrize(("game", "players", "options"), TABLES)
def test_every_table_gives_the_declared_shapes(
    game: str, players: int, options: dict[str, Any], mode: str
) -> None:
    seen: set[str] = set()
    now = [0.0]  # the tables' clock
    for seed in range(3):
        setup = Setup(game=game, seats=[f"P{i}" for i in range(players)], mode=mode)
        setup.options = dict(options)
        table = Table.start(
            EventStore(":memory:"), setup, fate=Fate(seed=seed), clock=lambda: now[0]
        )
        rng = random.Random(seed)
        check_shapes(table, seen)
        for _ in range(MAX_COMMANDS):
            if table.is_over:
                break
            now[0] += rng.choice((0.0, 1.0, 30.0))  # let timers run, and run out
            table.tick()
            if table.is_over:
                break
            table.execute(rng.choice(table.legal_commands()))
            check_shapes(table, seen)
        assert table.is_over, "the game did not end"
    expected = {"ballot"} if game in ("article27", "secret_hitler") else set()
    if game == "article27" or options.get("response_seconds"):
        expected.add("timer")
    if game in ("coup", "g54"):
        expected.add("claim")
    assert expected <= seen, f"never seen: {expected - seen}"
