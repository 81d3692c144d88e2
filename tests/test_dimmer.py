"""Dimming after idle and waking on touch: a backlight directory laid out as
sysfs lays it out, the kiosk's real window, and a clock the test moves."""

from __future__ import annotations

from kivy.uix.button import Button
from ui_helpers import show, tap

from companion.ui.system.dimmer import Backlight, Dimmer


def backlight(root, name="10-0045", maximum=255, brightness=200):
    path = root / name
    path.mkdir(parents=True)
    (path / "max_brightness").write_text(f"{maximum}\n")
    (path / "brightness").write_text(f"{brightness}\n")
    return path


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_the_screen_dims_after_idle_and_activity_restores_it(tmp_path):
    path = backlight(tmp_path / "backlight")
    clock = Clock()
    dimmer = Dimmer(Backlight.find(tmp_path / "backlight"), after=60, clock=clock)
    clock.now += 59
    dimmer.check()
    assert (path / "brightness").read_text().strip() == "200" and not dimmer.dim
    clock.now += 1
    dimmer.check()
    assert (path / "brightness").read_text().strip() == "26" and dimmer.dim  # 10 % of 255
    assert dimmer.activity() is True
    assert (path / "brightness").read_text().strip() == "200" and not dimmer.dim
    assert dimmer.activity() is False  # already bright: nothing to wake


def test_a_screen_left_dim_by_a_previous_run_is_brightened(tmp_path):
    # The watchdog killed a kiosk while its screen was dim: sysfs keeps the
    # level, and the next kiosk would take it for the screen's brightness.
    path = backlight(tmp_path / "backlight", maximum=255, brightness=26)
    assert Backlight(path).undo_a_dim_left_over() is True
    assert (path / "brightness").read_text().strip() == "255"
    for level in ("200", "25", "0"):  # the operator's, or off: not ours
        (path / "brightness").write_text(level)
        assert Backlight(path).undo_a_dim_left_over() is False
        assert (path / "brightness").read_text().strip() == level


def test_no_backlight_means_no_dimmer(tmp_path):
    assert Backlight.find(tmp_path / "absent") is None
    (tmp_path / "broken" / "x").mkdir(parents=True)  # no max_brightness
    assert Backlight.find(tmp_path / "broken") is None


def test_the_touch_that_wakes_the_screen_presses_nothing(window, tmp_path):  # noqa: F811
    path = backlight(tmp_path / "backlight", maximum=31, brightness=31)
    clock = Clock()
    dimmer = Dimmer(Backlight(path), after=30, clock=clock)
    presses = []
    target = Button(text="Income", on_release=lambda _b: presses.append(1))
    show(window, target, (800, 480))
    handlers = dict(
        on_touch_down=dimmer.touch_down,
        on_touch_move=dimmer.touch_move,
        on_touch_up=dimmer.touch_up,
    )
    window.bind(**handlers)
    try:
        tap(target)
        assert presses == [1]  # bright: touches go through
        clock.now += 30
        dimmer.check()
        assert (path / "brightness").read_text().strip() == "3"
        tap(target)
        assert presses == [1]  # this one only woke the screen
        assert (path / "brightness").read_text().strip() == "31"
        tap(target)
        assert presses == [1, 1]
    finally:
        window.unbind(**handlers)
