"""Property tests over random legal G54 playouts with random character sets,
in both modes, through a real table and store: the game ends, coins and
cards are conserved, no hidden card leaks, and the store replays exactly."""

from __future__ import annotations

import random

from claim_playouts import property_tests
from helpers import cards_on_table, coins_in_game

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table


def start(players: int, mode: str, seed: int) -> Table:
    rng = random.Random(seed)
    options = {
        "direction": rng.choice(["clockwise", "counterclockwise"]),
        "advanced": rng.random() < 0.7,
        "treaty_two_players": rng.choice(["lifted", "binding"]),
        "tax_on": rng.choice(["every_claim", "actions"]),
    }
    setup = Setup(game="g54", seats=[f"P{i}" for i in range(players)], mode=mode, options=options)
    return Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed))


def conserved(table: Table) -> None:
    # The treasury has no limit in G54 (it may owe coins), but coins are
    # never made or lost: players' coins plus the treasury stay at 50.
    assert coins_in_game(table) == 50
    assert cards_on_table(table) == 15
    assert all(c >= 0 for c in table.state.coins)


(
    test_keeper_playouts_conserve_end_and_keep_secrets,
    test_physical_playouts_conserve_and_end,
    test_playouts_with_undo_replay_exactly,
) = property_tests(start, conserved)


def test_every_character_comes_up_in_random_sets():
    seen: set[str] = set()
    for seed in range(60):
        table = start(4, "physical", seed)
        seen |= set(table.public_view()["roles"])
    assert len(seen) == 25
