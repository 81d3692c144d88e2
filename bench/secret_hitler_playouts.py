"""Random-legal-command Secret Hitler playouts through the engine alone (no
table, no store), in keeper mode (the engine deals roles and holds the deck).

Votes belong to the table's ballot, not the engine: when the engine opens an
election, the playout draws every living player's Ja or Nein at random (one
random bit each) and gives the engine the closing ``ballot`` command, which
counts as one action.
Each figure is the best of several rounds (this machine's speed wanders)."""
from __future__ import annotations

import random
import time

from companion.games.base import Fate, Setup
from companion.games.secret_hitler import ENGINE

from .report import figure

ROUNDS = 5
GAMES = {5: 1500, 7: 1200, 10: 900}
VOTES = ("ja", "nein")


def playouts(players: int, games: int, seed: int) -> tuple[int, float]:
    engine = ENGINE
    pick = random.Random(seed)
    setup = Setup(game="secret_hitler", seats=[f"P{i}" for i in range(players)],
                  mode="keeper")
    engine.check_setup(setup)
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        fate = Fate(seed=seed * 100003 + g)
        state = engine.new_state(setup)
        event = engine.chance(state, fate)
        while event is not None:
            engine.apply(state, event)
            event = engine.chance(state, fate)
        while not engine.is_over(state):
            ballot = engine.ballot(state)
            if ballot is None:
                command = pick.choice(engine.legal_commands(state))
            else:
                alive = set(ballot["eligible"])
                bits = pick.getrandbits(players)     # one random Ja/Nein per seat
                command = {"type": "ballot", "votes": [
                    VOTES[bits >> i & 1] if i in alive else None for i in range(players)]}
            for event in engine.decide(state, command):
                engine.apply(state, event)
            event = engine.chance(state, fate)
            while event is not None:
                engine.apply(state, event)
                event = engine.chance(state, fate)
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    for players, games in GAMES.items():
        best = max((playouts(players, games, seed=r + 1) for r in range(ROUNDS)),
                   key=lambda run: run[0] / run[1])
        actions, seconds = best
        figure(f"secret_hitler.actions_per_s.{players}p", actions / seconds,
               "actions/s", "higher")
        figure(f"secret_hitler.games_per_s.{players}p", games / seconds, "games/s", "higher")
