"""Random-legal-command Coup: Rebellion G54 playouts through the engine alone
(no table, no store), keeper mode. Every game draws its own random set of
five from all 25 characters (advanced ones included), so the figure covers
every action, reaction, join window and token; the ruleset of a set is built
once and cached, as at a table that plays many games."""

from __future__ import annotations

from companion.games.g54 import ENGINE

from .playout import best_rate, playouts
from .report import figure

ROUNDS = 7
GAMES = {2: 2000, 4: 800, 6: 500}
OPTIONS = {"set": "random", "advanced": True}


def main() -> None:
    for players, games in GAMES.items():
        rate, seconds = best_rate(
            ROUNDS,
            lambda seed, players=players, games=games: playouts(
                ENGINE, "g54", players, games, seed, options=OPTIONS
            ),
        )
        figure(f"g54.actions_per_s.{players}p", rate, "actions/s", "higher")
        figure(f"g54.games_per_s.{players}p", games / seconds, "games/s", "higher")


if __name__ == "__main__":
    main()
