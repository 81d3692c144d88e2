"""Article 27 property tests over random legal playouts in keeper mode,
through a real table (votes through its ballot, the timer on a moving clock):
influence is conserved and never negative, the game ends after the right
number of rounds, and nobody sees another's agenda, slots or influence."""

from __future__ import annotations

import copy
import random

from a27_helpers import FakeClock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.article27.rules import INFLUENCE_IN_THE_BOX, PRIVILEGE
from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

MAX_COMMANDS = 20000
playouts = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def start(players: int, seed: int, options: dict, clock: FakeClock) -> Table:
    setup = Setup(
        game="article27", seats=[f"P{i}" for i in range(players)], mode="keeper", options=options
    )
    return Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed), clock=clock)


def play(table: Table, clock: FakeClock, seed: int, check) -> int:
    rng = random.Random(seed)
    steps = 0
    while not table.is_over:
        assert steps < MAX_COMMANDS, "the game did not end"
        if rng.random() < 0.01:
            clock.advance(rng.choice((30, 120, 400)))
            table.tick()
        else:
            table.execute(rng.choice(table.legal_commands()))
        steps += 1
        check(table)
    return steps


def conserved(table: Table) -> None:
    s = table.state
    total = sum(s.influence) + s.bank + s.held() + (PRIVILEGE if s.privilege else 0)
    assert total == INFLUENCE_IN_THE_BOX
    assert min(s.influence) >= 0
    assert all(b["held"] >= 0 for b in s.bribes.values())


def _perturbed(table: Table, rng: random.Random, keep: int | None):
    """A copy of the state where what ``keep`` may not know is changed: the
    other players' agendas, slots and influence, and the terms of open offers
    and escrow it is not party to."""
    s = copy.deepcopy(table.state)
    others = [i for i in range(s.players) if i != keep]
    agendas = [s.agendas[i] for i in others]
    rng.shuffle(agendas)
    for i, agenda in zip(others, agendas):
        s.agendas[i] = agenda
    if s.slots is not None:
        rows = [s.slots[i] for i in others]
        rng.shuffle(rows)
        for i, row in zip(others, rows):
            s.slots[i] = list(reversed(row)) if rng.random() < 0.5 else row
    for i in others:
        s.influence[i] += rng.randint(0, 7)
    for bribe in s.bribes.values():
        if keep not in (bribe["from"], bribe["to"]) and bribe["number"] is None:
            bribe["amount"] += 1
            bribe["held"] += 1
    return s


def secret(table: Table) -> None:
    engine = table.engine
    rng = random.Random(len(table.log))
    if engine.is_over(table.state):
        return  # the end shows every agenda and score
    public = engine.public_view(table.state)
    assert all(p["agenda"] is None for p in public["players"])
    assert engine.public_view(_perturbed(table, rng, None)) == public
    for seat in range(table.state.players):
        mine = engine.private_view(table.state, seat)
        assert engine.private_view(_perturbed(table, rng, seat), seat) == mine


@playouts
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    come_and_go=st.booleans(),
    lie_cheat_steal=st.booleans(),
)
def test_keeper_playouts_conserve_influence_end_on_time_and_keep_secrets(
    players, seed, come_and_go, lie_cheat_steal
):
    clock = FakeClock()
    table = start(
        players, seed, {"come_and_go": come_and_go, "lie_cheat_steal": lie_cheat_steal}, clock
    )

    def check(t):
        conserved(t)
        if len(t.log) % 6 == 0 or t.public_view()["phase"] != "negotiation":
            secret(t)  # every state outside negotiation, a sample inside

    play(table, clock, seed, check)
    view = table.public_view()
    assert len(view["history"]) == (6 if players == 3 else players)
    assert sorted(r["seat"] for r in view["results"]) == list(range(players))
    rebuilt = Table.resume(table.store, table.game_id, clock=clock)
    assert rebuilt.public_view() == view


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_physical_playouts_end_on_time(players, seed):
    clock = FakeClock()
    setup = Setup(game="article27", seats=[f"P{i}" for i in range(players)], mode="physical")
    table = Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed), clock=clock)
    play(table, clock, seed, lambda t: None)
    view = table.public_view()
    assert len(view["history"]) == (6 if players == 3 else players)
    # Every disk in play has reached the agenda track.
    assert all(row["up"] + row["down"] == 5 for row in view["track"] if row["in_play"])
