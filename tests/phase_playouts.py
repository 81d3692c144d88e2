"""A real table in every phase of every game: random legal playouts, with
the table's clock let run out now and then (a negotiation's time, a claim's
countdown), over table sizes and variants chosen so that together they
reach every phase a game's public view can show, in both secrecy modes.

``PHASES`` is each game's full list, by mode: a test that walks them asserts
it met them all, so a phase the playouts stop reaching fails it rather than
going unchecked."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from a27_helpers import FakeClock

from companion.games.base import Fate, Setup
from companion.games.g54.roles import ROLES
from companion.table import EventStore, Table

MAX_COMMANDS = 3000
TIME_PASSES = 0.15  # how often a playout lets a running timer run out instead of acting

_G54_SETS = [[role.name for role in ROLES[i : i + 5]] for i in range(0, len(ROLES), 5)]

# (players, options) for each game's playouts, seeds 0, 1, 2... in turn.
CONFIGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "coup": [(3, {}), (6, {"response_seconds": 10}), (2, {})],
    "g54": [(4, {"set": chosen}) for chosen in _G54_SETS],
    "secret_hitler": [(5, {}), (7, {}), (9, {}), (10, {})],
    "article27": [(4, {}), (3, {"come_and_go": True, "lie_cheat_steal": True}), (6, {})],
}
_CLAIMS = {"action", "block", "challenge", "prove", "lose", "over"}
PHASES: dict[str, dict[str, set[str]]] = {
    "coup": {"physical": _CLAIMS, "keeper": _CLAIMS | {"exchange"}},
    "g54": {
        mode: _CLAIMS | {"join", "choice", "elimination", "disappear"} | extra
        for mode, extra in (("physical", set()), ("keeper", {"exchange"}))
    },
    "secret_hitler": {
        "physical": {
            "nominate",
            "election",
            "legislative",
            "veto",
            "chaos",
            "investigate",
            "special_election",
            "peek",
            "execute",
            "execution_reveal",
            "hitler_reveal",
            "over",
        },
        "keeper": {
            "night",
            "nominate",
            "election",
            "president_discard",
            "chancellor_enact",
            "veto",
            "investigate",
            "special_election",
            "peek",
            "execute",
            "over",
        },
    },
    "article27": {
        "physical": {
            "unused",
            "reveal",
            "ready",
            "negotiation",
            "place_one",
            "voting",
            "scored",
            "final",
            "over",
        },
        "keeper": {
            "ready",
            "negotiation",
            "place_one",
            "settle_other",
            "voting",
            "scored",
            "announce",
            "challenge",
            "over",
        },
    },
}


NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]


def new_table(
    path: Path,
    game: str,
    mode: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    names: list[str] = NAMES,
):
    """A table on its own SQLite file, with a clock moved by hand."""
    clock = FakeClock()
    setup = Setup(
        game=game,
        seats=names[:players],
        mode=mode,
        options={"first": 0, **options},
    )
    return Table.start(EventStore(path), setup, fate=Fate(seed=seed), clock=clock), clock


def play(table: Table, clock: FakeClock, rng: random.Random) -> Iterator[Table]:
    """Play at random to the end, yielding the table after each step."""
    yield table
    for _ in range(MAX_COMMANDS):
        if table.is_over:
            return
        timer = table.timer()
        if timer and timer.get("running") and rng.random() < TIME_PASSES:
            clock.advance(timer["remaining"] + 1)
            table.tick()
        else:
            table.execute(rng.choice(table.legal_commands()))
        yield table
    raise AssertionError("the game did not end")


def first_of_each_phase(
    directory: Path, game: str, mode: str
) -> Iterator[tuple[str, Table, FakeClock]]:
    """(phase, table, its clock) at the first moment each phase of
    ``PHASES`` shows, over as many playouts as it takes (each on a new
    table); the caller may look at the table, but must not change it.
    Raises if the playouts do not reach them all."""
    wanted, seen = PHASES[game][mode], set()
    for seed in range(60):
        players, options = CONFIGS[game][seed % len(CONFIGS[game])]
        path = directory / f"{game}-{mode}-{seed}.sqlite3"
        table, clock = new_table(path, game, mode, players, options, seed)
        for step in play(table, clock, random.Random(seed)):
            phase = step.public_view()["phase"]
            if phase in wanted and phase not in seen:
                seen.add(phase)
                yield phase, step, clock
        table.store.close()
        if seen == wanted:
            return
    raise AssertionError(f"{game} ({mode}): no playout reached {sorted(wanted - seen)}")
