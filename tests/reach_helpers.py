"""Taps as a finger makes them: a touch put through the window at a
widget's centre, and whether that widget got it (nothing over it, hidden,
disabled or of no size, took it first)."""

from __future__ import annotations

from kivy.tests.common import UnitTestTouch
from kivy.uix.modalview import ModalView
from ui_helpers import frames, wait_for


def press(window, widget) -> bool:
    """Touch the window at ``widget``'s centre and lift: whether the touch
    went to ``widget`` (it grabbed it, as a button does on its press)."""
    widget = widget.__self__  # the widget itself, not a proxy of it (from ``ids``)
    x, y = widget.to_window(*widget.center)
    assert 0 <= x <= window.width and 0 <= y <= window.height, "the centre is on the screen"
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    got = any(ref() is widget for ref in touch.grab_list)
    frames(1)
    touch.touch_up()
    frames(2)
    if getattr(widget, "state", None) == "down":  # a button in a scrolling list
        wait_for(lambda: widget.state != "down", seconds=2.0)
        frames(1)
    return got


def open_panels_of(window) -> list[ModalView]:
    """The panels (log, rules at hand, settings...) open over the screen."""
    return [w for w in window.children if isinstance(w, ModalView)]
