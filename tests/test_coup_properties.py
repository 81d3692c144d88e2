"""Property tests over random legal playouts, in both modes, through a real
table and store: conservation of coins and cards, termination, secrecy, and
replay equality."""

from __future__ import annotations

import random

from claim_playouts import property_tests
from helpers import cards_on_table, coins_in_game

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table


def start(players: int, mode: str, seed: int) -> Table:
    setup = Setup(
        game="coup",
        seats=[f"P{i}" for i in range(players)],
        mode=mode,
        options={"direction": random.Random(seed).choice(["clockwise", "counterclockwise"])},
    )
    return Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed))


def conserved(table: Table) -> None:
    assert coins_in_game(table) == 50
    assert cards_on_table(table) == 15
    assert all(c >= 0 for c in table.state.coins) and table.state.treasury >= 0
    view = table.public_view()
    assert view["treasury"] + sum(p["coins"] for p in view["players"]) == 50


(
    test_keeper_playouts_conserve_end_and_keep_secrets,
    test_physical_playouts_conserve_and_end,
    test_playouts_with_undo_replay_exactly,
) = property_tests(start, conserved)
