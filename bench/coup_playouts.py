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

from companion.games.coup import ENGINE

from .playout import playouts
from .report import figure

ROUNDS = 7
GAMES = {2: 2500, 4: 1000, 6: 600}


def ours(players: int, games: int, seed: int) -> tuple[int, float]:
    return playouts(ENGINE, "coup", players, games, seed)


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
            figure(
                f"coup.coupml.actions_per_s.{players}p", best["coupml"][0], "actions/s", "higher"
            )
            figure(f"coup.coupml.games_per_s.{players}p", best["coupml"][1], "games/s", "higher")
            figure(
                f"coup.ours_over_coupml.actions_per_s.{players}p",
                best["ours"][0] / best["coupml"][0],
                "ratio",
                "higher",
            )
