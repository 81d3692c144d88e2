"""Secret Hitler property tests over random legal playouts through a real
table (votes through its ballot), in both modes: the game always ends, the
17 tiles are always all somewhere, and nobody sees a role, party or tile the
rules do not let them see."""

from __future__ import annotations

import copy
import json
import random

import pytest
from helpers import replays_exactly
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import Fate, Setup
from companion.games.secret_hitler.rules import HITLER, LIBERAL, party_of
from companion.table import EventStore, Table

MAX_COMMANDS = 4000
playouts = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def start(players: int, mode: str, seed: int) -> Table:
    setup = Setup(game="secret_hitler", seats=[f"P{i}" for i in range(players)], mode=mode)
    return Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed))


def play(table: Table, seed: int, check) -> int:
    rng = random.Random(seed)
    steps = 0
    while not table.is_over:
        assert steps < MAX_COMMANDS, "the game did not end"
        table.execute(rng.choice(table.legal_commands()))
        steps += 1
        check(table)
    return steps


def tiles_conserved(table: Table) -> None:
    s = table.state
    assert s.liberal + s.fascist + len(s.deck) + len(s.discard) + len(s.hand) == 17
    v = table.public_view()
    in_hand = 17 - v["liberal"] - v["fascist"] - v["draw"] - v["discard"]
    assert in_hand in (0, 2, 3)
    if v["phase"] in ("nominate", "election", "over"):
        assert in_hand == 0
    if v["phase"] in ("nominate", "election"):
        assert v["draw"] >= 3, "every round starts with at least 3 tiles to draw"


def _known_roles(s, seat: int) -> set[int]:
    """Seats whose role ``seat`` knows (its own, and its teammates')."""
    known = {seat}
    role = s.roles[seat]
    if role != LIBERAL and (role != HITLER or s.players <= 6):
        known |= {i for i, r in enumerate(s.roles) if r != LIBERAL}
    if role != LIBERAL and known != {seat}:
        known = set(range(s.players))  # knowing the fascists is knowing all
    return known


def _reshuffled(table: Table, rng: random.Random, keep_seat: int | None):
    """A copy of the state where everything ``keep_seat`` may not know is
    dealt again: roles (keeping the parties it investigated), and tiles
    (keeping its hand and its peek)."""
    s = copy.deepcopy(table.state)
    known = _known_roles(s, keep_seat) if keep_seat is not None else set()
    if keep_seat is not None:
        for item in s.knowledge[keep_seat]:
            if item["kind"] == "investigate":
                known.add(item["target"])  # keeps party and role: stricter, still fair
    free = [i for i in range(s.players) if i not in known]
    roles = [s.roles[i] for i in free]
    rng.shuffle(roles)
    for i, role in zip(free, roles):
        s.roles[i] = role
    holder = (
        s.president
        if s.phase == "president_discard"
        else s.chancellor
        if s.phase in ("chancellor_enact", "veto")
        else None
    )
    piles = []
    if keep_seat is None or keep_seat != holder:
        piles.append(s.hand)
    peeking = s.phase == "peek" and keep_seat == s.president
    piles.append(s.deck if not peeking else None)
    piles.append(s.discard)
    slots = [(pile, i) for pile in piles if pile is not None for i in range(len(pile))]
    if peeking:
        slots += [(s.deck, i) for i in range(3, len(s.deck))]
    tiles = [pile[i] for pile, i in slots]
    rng.shuffle(tiles)
    for (pile, i), tile in zip(slots, tiles):
        pile[i] = tile
    return s


def secret(table: Table) -> None:
    """The public view, and each seat's private view, stay the same however
    everything they may not know is dealt; and the serialized public view
    names no role before the end."""
    engine = table.engine
    rng = random.Random(len(table.log))
    public = engine.public_view(table.state)
    if public["phase"] != "over":
        assert all(p["role"] is None for p in public["players"])
        assert engine.public_view(_reshuffled(table, rng, None)) == public
    for seat in range(table.state.players):
        mine = engine.private_view(table.state, seat)
        assert engine.private_view(_reshuffled(table, rng, seat), seat) == mine
        text = json.dumps(mine)
        for other in range(table.state.players):
            if other not in _known_roles(table.state, seat) and other != seat:
                assert f'"seat": {other}, "role"' not in text


@pytest.mark.slow
@playouts
@given(players=st.integers(5, 10), seed=st.integers(0, 2**32))
def test_keeper_playouts_end_conserve_tiles_and_keep_secrets(players, seed):
    table = start(players, "keeper", seed)

    def check(t):
        tiles_conserved(t)
        secret(t)

    play(table, seed, check)
    assert table.public_view()["winner"] in ("liberal", "fascist")
    replays_exactly(table)


@playouts
@given(players=st.integers(5, 10), seed=st.integers(0, 2**32))
def test_physical_playouts_end_and_conserve_tiles(players, seed):
    table = start(players, "physical", seed)
    play(table, seed, tiles_conserved)
    assert table.public_view()["winner"] in ("liberal", "fascist")
    replays_exactly(table)


def test_investigation_results_match_the_party_cards():
    for seed in range(60):
        table = start(9 + seed % 2, "keeper", seed)
        play(table, seed, lambda t: None)
        s = table.state
        for seat in range(s.players):
            for item in s.knowledge[seat]:
                if item["kind"] == "investigate":
                    assert item["party"] == party_of(s.roles[item["target"]])
