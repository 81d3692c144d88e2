"""Show of Hands in words: its status line, its secrets and its chart."""

from __future__ import annotations

from typing import Any

from companion.games.words import Chart, LastBallot, Words, last_per

CHOICES = ("yes", "no")


class HandsWords(Words):
    def status_line(self, view: dict[str, Any], t: Any) -> str:
        if view["phase"] == "over":
            return t(
                "hands.status.over",
                players=t.join(view["players"][seat]["name"] for seat in view["winners"]),
            )
        return t(f"hands.status.{view['phase']}", count=view["round"], rounds=view["rounds"])

    def seat_line(self, view: dict[str, Any], seat: int, t: Any) -> str:
        player = view["players"][seat]
        points = player["score"] if player["final"] is None else player["final"]
        return t("hands.seat", player=seat, count=points)

    def ballot_title(self, view: dict[str, Any], t: Any) -> str:
        return t("hands.ballot", count=view["round"])

    def last_ballot(self, view: dict[str, Any], t: Any) -> LastBallot | None:
        if view["last"] is None:
            return None
        yes, no = view["last"].count("yes"), view["last"].count("no")
        return LastBallot(
            t("hands.ballot.last"),
            CHOICES,
            [(seat, vote) for seat, vote in enumerate(view["last"])],
            t("hands.log.revealed", yes=yes, no=no),
        )

    def secret_lines(self, private: dict[str, Any], t: Any) -> list[str]:
        if "hunch" not in private:
            return []
        key = "hands.secret.played" if private["hunch_played"] else "hands.secret.hunch"
        return [t(key, count=private["hunch"])]

    def game_chart(self, views: list[dict[str, Any]], names: list[str], t: Any) -> Chart:
        steps = last_per(views, "round")
        return Chart(
            t("hands.chart"),
            t("chart.rounds"),
            [
                (names[seat], [v["players"][seat]["score"] for v in steps])
                for seat in range(len(names))
            ],
            t.number,
        )


WORDS = HandsWords()
