"""Random-legal-command Article 27 playouts through the engine alone (no
table, no store), in keeper mode (the engine holds agendas, slots, influence
and bribes in escrow).

Votes belong to the table's ballot: when the engine opens the vote, the
playout draws a random choice for every player among those open to them and
gives the engine the closing ``ballot`` command, which counts as one action.
The negotiation timer is left alone (the clock does not move), so every round
ends with "Vote!". Each figure is the best of several rounds."""
from __future__ import annotations

import random
import time

from companion.games.article27 import ENGINE
from companion.games.base import Fate, Setup

from .report import figure

ROUNDS = 5
TIMED = frozenset(("gavel", "pause", "resume"))
GAMES = {3: 150, 4: 150, 6: 100}


def playouts(players: int, games: int, seed: int) -> tuple[int, float]:
    engine = ENGINE
    pick = random.Random(seed)
    setup = Setup(game="article27", seats=[f"P{i}" for i in range(players)], mode="keeper")
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
                if command["type"] in TIMED:          # the table's clock stamp
                    command = dict(command, at=0.0)
            else:
                allowed = ballot.get("allowed", {})
                command = {"type": "ballot", "votes": [
                    pick.choice(allowed.get(seat, ballot["choices"]))
                    for seat in range(players)]}
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
        actions, seconds = max((playouts(players, games, seed=r + 1) for r in range(ROUNDS)),
                               key=lambda run: run[0] / run[1])
        figure(f"article27.actions_per_s.{players}p", actions / seconds, "actions/s", "higher")
        figure(f"article27.games_per_s.{players}p", games / seconds, "games/s", "higher")
