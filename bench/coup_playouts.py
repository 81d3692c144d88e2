"""Random-legal-command Coup playouts through the engine alone (no table, no
store), side by side with coupml, a published Coup engine built for
machine-learning simulation, on the same machine and the same Python.

Both engines play keeper-style (the engine deals and holds the cards) and pick
uniformly among their legal actions with Python's random module. Each figure
is the best of several rounds, taken in alternation so both engines see the
same machine load."""
from __future__ import annotations

import random
import time

from companion.games.base import Fate, Setup
from companion.games.coup import ENGINE

from .report import figure

ROUNDS = 7
GAMES = {2: 2500, 4: 1000, 6: 600}


def ours(players: int, games: int, seed: int) -> tuple[int, float]:
    engine = ENGINE
    pick = random.Random(seed)
    setup = Setup(game="coup", seats=[f"P{i}" for i in range(players)], mode="keeper")
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
            command = pick.choice(engine.legal_commands(state))
            for event in engine.decide(state, command):
                engine.apply(state, event)
            event = engine.chance(state, fate)
            while event is not None:
                engine.apply(state, event)
                event = engine.chance(state, fate)
            actions += 1
    return actions, time.perf_counter() - start


class _NumpyStyleRandom(random.Random):
    """coupml draws with numpy's RandomState API, where choice(n) picks an
    index below n; this gives it that API on Python's generator (faster for
    coupml than numpy itself on these tiny lists)."""

    def choice(self, seq):
        if isinstance(seq, int):
            return self.randrange(seq)
        return super().choice(seq)


def coupml(players: int, games: int, seed: int) -> tuple[int, float]:
    from coupml import Coup

    dealer = _NumpyStyleRandom(seed)
    pick = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Coup(players, dealer)
        game.init_game()
        while not game.is_game_over():
            game.play_action(pick.choice(game.get_legal_actions()))
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    try:
        import coupml as _  # noqa: F401
        have_coupml = True
    except ImportError:
        have_coupml = False
    for players, games in GAMES.items():
        best = {"ours": (0.0, 0.0), "coupml": (0.0, 0.0)}
        for round_ in range(ROUNDS):
            runs = [("ours", ours)] + ([("coupml", coupml)] if have_coupml else [])
            for name, run in runs:
                actions, seconds = run(players, games, seed=round_ + 1)
                rate = (actions / seconds, games / seconds)
                if rate[0] > best[name][0]:
                    best[name] = rate
        figure(f"coup.ours.actions_per_s.{players}p", best["ours"][0], "actions/s", "higher")
        figure(f"coup.ours.games_per_s.{players}p", best["ours"][1], "games/s", "higher")
        if have_coupml:
            figure(f"coup.coupml.actions_per_s.{players}p", best["coupml"][0],
                   "actions/s", "higher")
            figure(f"coup.coupml.games_per_s.{players}p", best["coupml"][1],
                   "games/s", "higher")
            figure(f"coup.ours_over_coupml.actions_per_s.{players}p",
                   best["ours"][0] / best["coupml"][0], "ratio", "higher")
