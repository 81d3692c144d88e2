"""Property tests over random legal G54 playouts with random character sets,
in both modes, through a real table and store: the game ends, coins and
cards are conserved, no hidden card leaks, and the store replays exactly."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claim_playouts import play, secret
from companion.games.base import Fate, Setup
from companion.table import EventStore, Table
from helpers import cards_on_table, coins_in_game, replays_exactly

playouts = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def start(players: int, mode: str, seed: int) -> Table:
    rng = random.Random(seed)
    options = {"direction": rng.choice(["clockwise", "counterclockwise"]),
               "advanced": rng.random() < 0.7,
               "treaty_two_players": rng.choice(["lifted", "binding"]),
               "tax_on": rng.choice(["every_claim", "actions"])}
    setup = Setup(game="g54", seats=[f"P{i}" for i in range(players)], mode=mode,
                  options=options)
    return Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed))


def conserved(table: Table) -> None:
    # The treasury has no limit in G54 (it may owe coins), but coins are
    # never made or lost: players' coins plus the treasury stay at 50.
    assert coins_in_game(table) == 50
    assert cards_on_table(table) == 15
    assert all(c >= 0 for c in table.state.coins)


@playouts
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_keeper_playouts_conserve_end_and_keep_secrets(players, seed):
    table = start(players, "keeper", seed)

    def check(t):
        conserved(t)
        secret(t)

    play(table, seed, check)
    assert table.public_view()["winner"] is not None
    replays_exactly(table)


@playouts
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_physical_playouts_conserve_and_end(players, seed):
    table = start(players, "physical", seed)
    play(table, seed, conserved)
    view = table.public_view()
    assert sum(not p["out"] for p in view["players"]) == 1
    replays_exactly(table)


@playouts
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32),
       mode=st.sampled_from(["keeper", "physical"]))
def test_playouts_with_undo_replay_exactly(players, seed, mode):
    table = start(players, mode, seed)
    play(table, seed, conserved, undo_rate=0.1)
    replays_exactly(table)


def test_every_character_comes_up_in_random_sets():
    seen: set[str] = set()
    for seed in range(60):
        table = start(4, "physical", seed)
        seen |= set(table.public_view()["roles"])
    assert len(seen) == 25
