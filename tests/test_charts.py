"""The end-of-game chart: drawn from the public views the game went through,
for the four complete example games of docs/examples, and shown in a real
Kivy window."""

from __future__ import annotations

import pytest
from helpers import finished

from companion.games import spec_for
from companion.i18n import Messages
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from ui_helpers import SHOTS, fits_in_window, frames, show  # noqa: E402


@pytest.mark.parametrize("game", ["coup", "g54", "secret_hitler", "article27"])
def test_each_game_s_chart_ends_where_the_game_ended(window, tmp_path, game):
    from companion.ui.panels.chart_view import ChartPanel, LegendEntry

    table = finished(game, tmp_path)
    t = Messages("en", table.names)
    chart = spec_for(game).words.chart(table.public_history(), table.names, t)
    final = table.public_view()
    lasts = [values[-1] for _label, values in chart.series]
    if game in ("coup", "g54"):
        assert [label for label, _ in chart.series] == table.names
        assert lasts == [p["coins"] for p in final["players"]]
        assert len(chart.series[0][1]) == final["turn"]
    elif game == "secret_hitler":
        assert [label for label, _ in chart.series] == ["Liberal policies", "Fascist policies"]
        assert lasts == [final["liberal"], final["fascist"]]
        for _label, values in chart.series:
            assert values == sorted(values), "enacted policies never go back"
    else:
        rows = {row["agenda"]: row["value"] for row in final["track"]}
        by_seat = {r["seat"]: r["agenda"] for r in final["results"]}
        assert lasts == [rows[by_seat[seat]] for seat in sorted(by_seat)]
        assert chart.series[0][0] == f"{table.names[0]} ({t('agenda.' + by_seat[0])})"
    panel = ChartPanel(chart=chart, close_text="Close")
    show(window, panel, (800, 480))
    frames(3)
    legend = [w.text for w in panel.ids.legend.children if isinstance(w, LegendEntry)]
    assert sorted(legend) == sorted(label for label, _ in chart.series)
    assert all(fits_in_window(w, window) for w in panel.ids.legend.children)
    assert panel.ids.plot.canvas.after.length() > 0, "lines are drawn"
    panel.export_to_png(str(SHOTS / f"chart-{game}-800x480.png"))


def test_an_unfinished_game_has_no_chart(tmp_path):
    from companion.games.base import Setup

    table = Table.start(
        EventStore(tmp_path / "g.sqlite3"),
        Setup(game="coup", seats=["Ann", "Bob"], options={"first": 0}),
    )
    assert spec_for("coup").words.chart(table.public_history(), table.names, Messages("en")) is None
