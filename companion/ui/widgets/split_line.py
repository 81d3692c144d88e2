"""A line of two parts that wraps like text: the first at the line's start,
the second at its end, or under the first (still at the end) when the two do
not fit side by side; a right-to-left language starts the line at the right.
Lists of a name and its figures use it, so a long name in one language takes
a second line instead of shrinking, clipping or overlapping what stands
beside it."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.layout import Layout

from ..text.direction import writing


class SplitLine(Layout):
    """Exactly two children, each keeping its own size. With
    ``size_hint_y: None`` the line is as tall as its parts need; otherwise
    they are centred in the height it is given."""

    gap = NumericProperty(dp(8))  # the least room between the parts side by side
    stacked = BooleanProperty(False)  # the second part is under the first

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("pos", "size", "gap", "children"):
            self.fbind(name, self._trigger_layout)
        writing.bind(rtl=self._rewrite)  # a bound method: held weakly

    def _rewrite(self, *_args: Any) -> None:
        self._trigger_layout()

    def do_layout(self, *_args: Any) -> None:
        if len(self.children) != 2:
            return
        second, first = self.children  # Kivy lists children last first
        self.stacked = first.width + self.gap + second.width > self.width
        needed = first.height + second.height if self.stacked else max(first.height, second.height)
        if self.size_hint_y is None:
            self.height = needed
        top = self.center_y + needed / 2
        start_x, end_x = self.x, self.right - second.width
        if writing.rtl:
            start_x, end_x = self.right - first.width, self.x
        if self.stacked:
            first.pos = start_x, top - first.height
            second.pos = end_x, top - needed
        else:
            first.pos = start_x, self.center_y - first.height / 2
            second.pos = end_x, self.center_y - second.height / 2
