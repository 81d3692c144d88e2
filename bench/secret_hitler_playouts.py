"""Random-legal-command Secret Hitler playouts through the engine alone (no
table, no store), keeper mode. When the engine opens an election, every
living player's Ja or Nein is one random bit, and the closing ``ballot``
command counts as one action."""

from __future__ import annotations

from companion.games.secret_hitler import ENGINE

from .playout import best_rate, playouts
from .report import figure

ROUNDS = 5
GAMES = {5: 1500, 7: 1200, 10: 900}
VOTES = ("ja", "nein")


def vote(ballot, pick, players):
    alive = set(ballot["eligible"])
    bits = pick.getrandbits(players)
    return {
        "type": "ballot",
        "votes": [VOTES[bits >> i & 1] if i in alive else None for i in range(players)],
    }


def main() -> None:
    for players, games in GAMES.items():
        rate, seconds = best_rate(
            ROUNDS,
            lambda seed, players=players, games=games: playouts(
                ENGINE, "secret_hitler", players, games, seed, vote=vote
            ),
        )
        figure(f"secret_hitler.actions_per_s.{players}p", rate, "actions/s", "higher")
        figure(f"secret_hitler.games_per_s.{players}p", games / seconds, "games/s", "higher")
