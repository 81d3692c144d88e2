"""Helpers for tests in a real Kivy window (rendered headless with Mesa):
let frames pass, show a widget at a size, tap it, save a screenshot, check
that it lies inside the window. The ``window`` fixture is in conftest.py."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("kivy.base")
from kivy.base import EventLoop  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

SIZES = [(800, 480), (1280, 720)]
PORTRAIT = (720, 1280)  # Touch Display 2, turned
SHOTS = Path(os.environ.get("COMPANION_SCREENSHOTS", "screenshots"))


def frames(n: int = 3) -> None:
    for _ in range(n):
        EventLoop.idle()


def wait_for(condition, seconds: float = 10.0) -> bool:
    """Let frames pass until ``condition()`` holds (or ``seconds`` are up),
    for what the kiosk's clock and threads do in their own time; returns it."""
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        frames(1)
        time.sleep(0.02)
    return condition()


def show(window, widget, size):
    window.size = size
    for child in list(window.children):
        window.remove_widget(child)
    window.add_widget(widget)
    frames(4)
    return widget


def tap(widget) -> None:
    """A finger's tap at the widget's centre. A button in a scrolling list
    gets the release 0.2 s later (Kivy's ScrollView waits to tell a tap
    from a drag): frames pass until the button is up again."""
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    frames(1)
    touch.touch_up()
    frames(2)
    if getattr(widget, "state", None) == "down":
        wait_for(lambda: widget.state != "down", seconds=2.0)
        frames(1)


def screenshot(window, name: str) -> Path:
    """Render the screen to a PNG through an offscreen framebuffer (a window
    screenshot after a resize reads the old framebuffer size)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    frames(2)
    path = SHOTS / f"{name}.png"
    window.children[0].export_to_png(str(path))
    assert path.stat().st_size > 5000
    return path


def fits_in_window(widget, window) -> bool:
    x, y = widget.to_window(widget.x, widget.y)
    return (
        x >= -1
        and y >= -1
        and x + widget.width <= window.width + 1
        and y + widget.height <= window.height + 1
    )
