"""Random-legal-command Article 27 playouts through the engine alone (no
table, no store), keeper mode (the engine holds agendas, slots, influence and
bribes in escrow). The clock does not move, so every round ends with "Vote!";
each player's vote is drawn among the choices open to them, and the closing
``ballot`` command counts as one action."""

from __future__ import annotations

from companion.games.article27 import ENGINE

from .playout import best_rate, playouts
from .report import figure

ROUNDS = 5
GAMES = {3: 150, 4: 150, 6: 100}
TIMED = frozenset(("gavel", "pause", "resume"))


def vote(ballot, pick, players):
    allowed = ballot.get("allowed", {})
    return {
        "type": "ballot",
        "votes": [pick.choice(allowed.get(seat, ballot["choices"])) for seat in range(players)],
    }


def main() -> None:
    for players, games in GAMES.items():
        rate, seconds = best_rate(
            ROUNDS,
            lambda seed, players=players, games=games: playouts(
                ENGINE, "article27", players, games, seed, vote=vote, timed=TIMED
            ),
        )
        figure(f"article27.actions_per_s.{players}p", rate, "actions/s", "higher")
        figure(f"article27.games_per_s.{players}p", games / seconds, "games/s", "higher")
