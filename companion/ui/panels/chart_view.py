"""The end-of-game chart: a line per player (or side) over the game's turns
or rounds, drawn on the canvas, with its scale and a legend. The numbers come
from ``charts.chart_for``; this module only draws them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.graphics import Color, Ellipse, Line
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from ...games.words import Chart
from ..text.direction import Row
from ..widgets.buttons import CommandButton  # noqa: F401 - its kv rule uses one

Builder.load_file(str(Path(__file__).with_name("chart_view.kv")))

# Ten colours a table can tell apart on a dark screen, one per player.
PALETTE = [
    (0.98, 0.75, 0.25),
    (0.35, 0.7, 1.0),
    (0.95, 0.4, 0.35),
    (0.45, 0.85, 0.5),
    (0.8, 0.55, 0.95),
    (0.3, 0.9, 0.85),
    (1.0, 0.6, 0.8),
    (0.75, 0.75, 0.75),
    (0.65, 0.5, 0.3),
    (0.9, 0.9, 0.4),
]
MARGIN_LEFT, MARGIN_BOTTOM, MARGIN_TOP = dp(40), dp(28), dp(10)
TICK_WIDTH = dp(30)  # a round's number, centred under its point
MARGIN_RIGHT = TICK_WIDTH / 2 + dp(1)  # the last round's number inside the plot


def ticks(top: int) -> list[int]:
    """A few round values from 0 to at least ``top`` for the scale."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if top / step <= 6:
            return list(range(0, top + step, step)) if top else [0, 1]
    return [0, top]


class Plot(FloatLayout):
    """The lines, their points, the grid and the numbers of the scale."""

    chart = ObjectProperty(None, allownone=True)

    def on_chart(self, *_args: Any) -> None:
        self._draw()

    def on_size(self, *_args: Any) -> None:
        self._draw()

    def _draw(self) -> None:
        self.canvas.after.clear()
        self.clear_widgets()
        chart: Chart | None = self.chart
        if chart is None or not chart.series or not chart.series[0][1]:
            return
        steps = len(chart.series[0][1])
        scale = ticks(max(max(values) for _, values in chart.series))
        left, bottom = self.x + MARGIN_LEFT, self.y + MARGIN_BOTTOM
        width = max(1.0, self.width - MARGIN_LEFT - MARGIN_RIGHT)
        height = max(1.0, self.height - MARGIN_BOTTOM - MARGIN_TOP)

        def x_of(step: int) -> float:
            return left + (width * step / (steps - 1) if steps > 1 else width / 2)

        def y_of(value: float) -> float:
            return bottom + height * value / scale[-1]

        with self.canvas.after:
            Color(0.35, 0.37, 0.38, 1)
            for value in scale:
                Line(points=[left, y_of(value), left + width, y_of(value)], width=1)
            for index, (_label, values) in enumerate(chart.series):
                Color(*PALETTE[index % len(PALETTE)], 1)
                points = [c for step, v in enumerate(values) for c in (x_of(step), y_of(v))]
                if len(values) > 1:
                    Line(points=points, width=dp(1.6))
                r = dp(3)
                for step, v in enumerate(values):
                    Ellipse(pos=(x_of(step) - r, y_of(v) - r), size=(2 * r, 2 * r))
        for value in scale:
            self.add_widget(
                _tick(
                    chart.number(value),
                    (self.x, y_of(value) - dp(10)),
                    (MARGIN_LEFT - dp(6), dp(20)),
                    "right",
                )
            )
        every = max(1, steps // 10)  # at most about ten numbers along
        for step in range(0, steps, every):
            self.add_widget(
                _tick(
                    chart.number(step + 1),
                    (x_of(step) - TICK_WIDTH / 2, self.y + dp(4)),
                    (TICK_WIDTH, dp(20)),
                    "center",
                )
            )


def _tick(text: str, pos: tuple[float, float], size: tuple[float, float], halign: str) -> Label:
    return Label(
        text=text,
        pos=pos,
        size=size,
        size_hint=(None, None),
        halign=halign,
        valign="middle",
        text_size=size,
        font_size=sp(13),
        color=(0.75, 0.78, 0.8, 1),
    )


class LegendEntry(Row):
    text = StringProperty("")
    swatch = ListProperty([1, 1, 1, 1])


class ChartPanel(ModalView):
    title = StringProperty("")
    x_label = StringProperty("")
    close_text = StringProperty("")
    chart = ObjectProperty(None, allownone=True)

    def __init__(self, chart: Chart | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chart = chart
        self._show(chart)

    def on_chart(self, _panel: Any, chart: Chart | None) -> None:
        if "legend" in self.ids:  # not while the kv rule is being applied
            self._show(chart)

    def _show(self, chart: Chart | None) -> None:
        legend = self.ids.legend
        legend.clear_widgets()
        if chart is None:
            return
        self.title, self.x_label = chart.title, chart.x_label
        for index, (label, _values) in enumerate(chart.series):
            legend.add_widget(LegendEntry(text=label, swatch=[*PALETTE[index % len(PALETTE)], 1]))
