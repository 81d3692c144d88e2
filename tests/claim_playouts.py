"""Random legal playouts of the Coup family through a real table, and the
secrecy check they share: what a seat may not see never changes what it is
shown."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable

import pytest
from helpers import replays_exactly
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import RuleError
from companion.table import Table

MAX_COMMANDS = 3000


def play(table: Table, seed: int, check, undo_rate: float = 0.0) -> int:
    rng = random.Random(seed)
    steps = 0
    while not table.is_over:
        assert steps < MAX_COMMANDS, "the game did not end"
        if undo_rate and rng.random() < undo_rate:
            try:
                table.execute({"type": "undo"})
            except RuleError as exc:
                assert exc.key in ("undo.nothing", "undo.would_rehide")
        else:
            table.execute(rng.choice(table.legal_commands()))
        steps += 1
        check(table)
    return steps


def shuffled_hidden(table: Table, keep_seat: int | None, rng: random.Random):
    """A copy of the state where every hidden card the given seat may not see
    is dealt again at random (hand sizes and court size unchanged)."""
    state = copy.deepcopy(table.state)
    state.turn.drawn = list(state.turn.drawn)
    slots = [(state.court, i) for i in range(len(state.court))]
    for seat, hand in enumerate(state.hands):
        if seat != keep_seat:
            slots += [(hand, i) for i in range(len(hand))]
    if keep_seat is None or state.turn.actor != keep_seat:
        slots += [(state.turn.drawn, i) for i in range(len(state.turn.drawn))]
    cards = [pile[i] for pile, i in slots]
    rng.shuffle(cards)
    for (pile, i), card in zip(slots, cards):
        pile[i] = card
    return state


def secret(table: Table) -> None:
    """No hidden card reaches anyone who may not see it: the public view and
    every other seat's private view stay the same however the hidden cards
    a seat may not see are dealt."""
    engine, rng = table.engine, random.Random(len(table.log))
    public = engine.public_view(table.state)
    text = json.dumps(public)
    assert '"hand"' not in text and '"drawn"' not in text
    assert engine.public_view(shuffled_hidden(table, None, rng)) == public
    for seat in range(table.state.players):
        mine = engine.private_view(table.state, seat)
        assert engine.private_view(shuffled_hidden(table, seat, rng), seat) == mine


PLAYOUTS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def property_tests(start: Callable[[int, str, int], Table], conserved: Callable[[Table], None]):
    """The three property tests every claim game runs, over its own set-up
    (``start(players, mode, seed)``) and conservation check: keeper playouts
    end, conserve and keep secrets; physical ones end and conserve; playouts
    with undo replay exactly. A test module binds them to test_ names."""

    @pytest.mark.slow
    @PLAYOUTS
    @given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
    def keeper(players, seed):
        table = start(players, "keeper", seed)

        def check(t):
            conserved(t)
            secret(t)

        play(table, seed, check)
        assert table.public_view()["winner"] is not None
        replays_exactly(table)

    @PLAYOUTS
    @given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
    def physical(players, seed):
        table = start(players, "physical", seed)
        play(table, seed, conserved)
        view = table.public_view()
        assert sum(not p["out"] for p in view["players"]) == 1
        replays_exactly(table)

    @PLAYOUTS
    @given(
        players=st.integers(2, 6),
        seed=st.integers(0, 2**32),
        mode=st.sampled_from(["keeper", "physical"]),
    )
    def with_undo(players, seed, mode):
        table = start(players, mode, seed)
        play(table, seed, conserved, undo_rate=0.1)
        replays_exactly(table)

    return keeper, physical, with_undo
