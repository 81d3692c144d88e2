"""What the end-of-game chart shows, as plain data (no Kivy): a line per
player (or side) over the rounds of the game, from the public views the game
went through. Only what was public at the time, or is at the end, is drawn:
Coup's coins turn by turn; Secret Hitler's two policy tracks round by round;
Article 27's agenda points of each player's agenda round by round (the
agendas are on the table at the end)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..i18n import Messages


@dataclass
class Chart:
    title: str
    x_label: str
    series: list[tuple[str, list[int]]]     # (label, one value per step)
    number: Callable[[int], str] = str      # a scale's number, in the reader's digits


def chart_for(game: str, views: list[dict[str, Any]], names: list[str],
              t: Messages) -> Chart | None:
    """The chart of a finished game, or None when there is nothing to draw."""
    if not views or views[-1]["phase"] != "over":
        return None
    if game in ("coup", "g54"):
        steps = _last_per(views, "turn")
        series = [(names[seat], [v["players"][seat]["coins"] for v in steps])
                  for seat in range(len(names))]
        return Chart(t("chart.coins"), t("chart.turns"), series, t.number)
    if game == "secret_hitler":
        steps = _last_per(views, "round")
        return Chart(t("chart.policies"), t("chart.rounds"),
                     [(t("chart.liberal"), [v["liberal"] for v in steps]),
                      (t("chart.fascist"), [v["fascist"] for v in steps])], t.number)
    if game == "article27":
        results = views[-1]["results"] or []
        steps = _last_per(views, "round")
        series = []
        for entry in sorted(results, key=lambda r: r["seat"]):
            agenda = entry["agenda"]
            series.append((t("chart.player_agenda", player=names[entry["seat"]],
                             agenda=t(f"agenda.{agenda}")),
                           [_track_value(v, agenda) for v in steps]))
        if not series:
            return None
        return Chart(t("chart.agenda_points"), t("chart.rounds"), series, t.number)
    return None


def _last_per(views: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The last view of each turn or round (its state when it ended), in order."""
    last: dict[Any, dict[str, Any]] = {}
    for view in views:
        last[view[key]] = view
    return [last[k] for k in sorted(last)]


def _track_value(view: dict[str, Any], agenda: str) -> int:
    return next(row["value"] for row in view["track"] if row["agenda"] == agenda)
