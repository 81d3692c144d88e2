"""Widgets a screen hides in place. Kivy's own ways take touches still: a
widget of no opacity is only not drawn, and a ``disabled`` one swallows
every touch that lands on it; a box given no height keeps children of
their own heights, lying over its neighbours. Hidden, a :class:`Hideable`
draws nothing and takes no touch, nor does anything it holds: the touch
goes on to whatever lies beneath it."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout


class Hideable:
    """Mixed in before a widget class: ``shown`` False hides it (its size
    is its kv rule's to set: kept, as a place held, or none). A hidden
    widget may be ``disabled`` too, for what it means: it no longer
    swallows the touches."""

    shown = BooleanProperty(True)

    def on_shown(self, _widget: Any, shown: bool) -> None:
        self.opacity = 1 if shown else 0

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_down(touch))  # type: ignore[misc]

    def on_touch_move(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_move(touch))  # type: ignore[misc]

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_up(touch))  # type: ignore[misc]


class HidingBox(Hideable, BoxLayout):
    """A box hidden with all it holds."""


Factory.register("Hideable", cls=Hideable)
