"""Helpers for the Coup: Rebellion G54 tests: a table with a chosen set of
characters, and ways to reach a position through the real engine."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import Fate, RuleError, Setup
from companion.table import Table, seat_source

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def g54_table(
    store, roles, players=3, mode="keeper", hands=None, draws=None, seed=7, **options
) -> Table:
    """A table playing the given five characters, seat 0 first, clockwise."""
    chosen = roles if isinstance(roles, str) else list(roles)
    options = {"direction": "clockwise", "first": 0, "set": chosen, **options}
    script: dict[str, Any] = {}
    if hands is not None:
        script["hands"] = hands
    if draws is not None:
        script["draws"] = draws
    setup = Setup(game="g54", seats=NAMES[:players], mode=mode, options=options)
    return Table.start(store, setup, fate=Fate(seed=seed, script=script))


def view(table) -> dict[str, Any]:
    return table.public_view()


def coins(table) -> list[int]:
    return [p["coins"] for p in table.public_view()["players"]]


def lives(table) -> list[int]:
    return [p["influence"] for p in table.public_view()["players"]]


def current(table) -> int:
    return table.public_view()["current"]


def run(table, *commands: dict[str, Any]) -> None:
    for command in commands:
        table.execute(command)


def refused(table, command, key) -> RuleError:
    before = table.public_view()
    events = len(table.log)
    with pytest.raises(RuleError) as err:
        table.execute(command)
    assert err.value.key == key, err.value
    assert table.public_view() == before, "a refused command changed the state"
    assert len(table.log) == events
    return err.value


def nobody_answers(table) -> None:
    """Close the open claim or window: nobody (else) challenges, blocks or joins."""
    table.execute({"type": "proceed"})


def quiet_turn(table) -> None:
    """A turn that changes no coins: the Director's exchange, unchallenged,
    keeping the same cards (the set must hold the Director)."""
    seat = current(table)
    run(table, {"type": "director", "seat": seat})
    nobody_answers(table)
    if table.public_view()["phase"] == "exchange":
        hand = table.private_view(seat)["hand"]
        run(table, {"type": "keep", "seat": seat, "cards": hand})


def reach(table, actor: int, **wanted: int) -> None:
    """Play Income (or quiet turns) until each seat named ``p<seat>=coins``
    holds that many coins and it is ``actor``'s turn. Coins only go up."""
    goal = {int(k[1:]): v for k, v in wanted.items()}
    for _ in range(200):
        seat = current(table)
        have = coins(table)
        done = all(have[s] >= c for s, c in goal.items())
        if done and seat == actor:
            assert all(have[s] == c for s, c in goal.items()), (have, goal)
            return
        if have[seat] < goal.get(seat, -1):
            run(table, {"type": "income", "seat": seat})
        else:
            quiet_turn(table)
    raise AssertionError("could not reach the position")


def challenge_lost(store) -> Table:
    """Keeper mode, the starter set: Bob challenged Ann's Banker and lost, and
    must turn up one of his two cards, chosen by number on his phone."""
    setup = Setup(
        game="g54",
        seats=["Ann", "Bob", "Cat"],
        mode="keeper",
        options={"first": 0, "set": "starter"},
    )
    deal = {
        "hands": [["banker", "director"], ["guerrilla", "politician"], ["peacekeeper", "banker"]]
    }
    table = Table.start(store, setup, fate=Fate(seed=3, script=deal))
    table.execute({"type": "banker", "seat": 0})
    table.execute({"type": "challenge", "seat": 1}, source=seat_source(1))
    table.execute({"type": "show", "seat": 0}, source=seat_source(0))
    return table
