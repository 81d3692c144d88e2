"""Dim the screen after a while without a touch; the next touch wakes it.

The panel's backlight is a sysfs device (``/sys/class/backlight/<name>/``:
``brightness`` and ``max_brightness``); the Raspberry Pi displays have one,
an HDMI monitor does not, and there the kiosk simply never dims. The
service's udev rule (``deploy/70-table-companion.rules``) lets the ``video``
group write it. The touch that wakes the screen is swallowed: a player
tapping a dark screen must not press whatever button lies under the finger.
Anything the table does (a press on a seat's button, a phone's vote, a clock
running out) wakes it too.

The dim level outlives the kiosk: sysfs keeps it until the next boot. So the
kiosk brightens the screen when it stops, and, in case it died dim (the
watchdog, a crash), when it starts and finds the backlight at exactly the
dim level, dimming or not: an upgrade or a restart of an idle, dimmed table
must not leave it dim for good.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# COMPANION_BACKLIGHTS names another directory (tests).
BACKLIGHTS = Path(os.environ.get("COMPANION_BACKLIGHTS") or "/sys/class/backlight")
DIM_LEVEL = 0.1  # of the panel's full brightness
CHECK_EVERY = 1.0  # seconds between looks at the idle time


class Backlight:
    """One backlight device in sysfs."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.maximum = int((self.path / "max_brightness").read_text())

    @classmethod
    def find(cls, root: Path = BACKLIGHTS) -> Backlight | None:
        """The first backlight with a readable maximum, or None (HDMI)."""
        for path in sorted(root.glob("*")) if root.is_dir() else ():
            try:
                return cls(path)
            except (OSError, ValueError):
                continue
        return None

    @property
    def brightness(self) -> int:
        return int((self.path / "brightness").read_text())

    @brightness.setter
    def brightness(self, value: int) -> None:
        (self.path / "brightness").write_text(str(value))

    @property
    def dim_level(self) -> int:
        """The brightness of a dimmed screen."""
        return max(1, round(self.maximum * DIM_LEVEL))

    def undo_a_dim_left_over(self) -> bool:
        """Full brightness if the backlight is at the dim level, as a kiosk
        that died dim leaves it. True if it was."""
        try:
            if self.brightness != self.dim_level:
                return False
            self.brightness = self.maximum
        except (OSError, ValueError) as exc:
            log.warning("cannot brighten the screen a previous run left dim: %s", exc)
            return False
        log.info("the screen was left dim: brightened")
        return True


class Dimmer:
    """Dims ``backlight`` after ``after`` seconds of no activity, and
    restores the brightness it found when activity returns."""

    def __init__(
        self, backlight: Backlight, after: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.backlight = backlight
        self.after = after
        self.clock = clock
        self.last_activity = clock()
        self.bright: int | None = None  # the brightness to restore, while dim
        self._waking: set[Any] = set()  # the touches that woke the screen

    @property
    def dim(self) -> bool:
        return self.bright is not None

    def check(self) -> None:
        """Dim if idle long enough (called every second from the Clock)."""
        if self.dim or self.clock() - self.last_activity < self.after:
            return
        try:
            bright = self.backlight.brightness
            self.backlight.brightness = self.backlight.dim_level
        except OSError as exc:  # no permission: the udev rule is missing
            log.warning("cannot dim the screen (%s); it stays bright", exc)
            self.after = float("inf")
            return
        self.bright = bright

    def activity(self) -> bool:
        """Something happened: the screen stays or turns bright. True when
        this woke a dim screen."""
        self.last_activity = self.clock()
        if self.bright is None:
            return False
        try:
            self.backlight.brightness = self.bright
        except OSError as exc:
            log.warning("cannot restore the screen's brightness: %s", exc)
        self.bright = None
        return True

    # -- the window's touches: bound before its children see them -----------
    def touch_down(self, _window: Any, touch: Any) -> bool:
        if self.activity():
            self._waking.add(touch.uid)
            return True
        return False

    def touch_move(self, _window: Any, touch: Any) -> bool:
        return touch.uid in self._waking

    def touch_up(self, _window: Any, touch: Any) -> bool:
        if touch.uid in self._waking:
            self._waking.discard(touch.uid)
            return True
        return False


def undo_a_dim_left_over(root: Path = BACKLIGHTS) -> None:
    """At start, without dimming: full brightness if a previous run died with
    the screen dim."""
    backlight = Backlight.find(root)
    if backlight is not None:
        backlight.undo_a_dim_left_over()


def dim_when_idle(after: float, root: Path = BACKLIGHTS) -> Dimmer | None:
    """Watch the window's touches and dim the screen after ``after``
    seconds without one (None: no backlight to dim, logged). The caller
    calls the dimmer's ``activity()`` when the kiosk stops, so that it does
    not stay dim."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    backlight = Backlight.find(root)
    if backlight is None:
        log.info("no backlight under %s: the screen is never dimmed", root)
        return None
    backlight.undo_a_dim_left_over()
    dimmer = Dimmer(backlight, after)
    Window.bind(
        on_touch_down=dimmer.touch_down,
        on_touch_move=dimmer.touch_move,
        on_touch_up=dimmer.touch_up,
    )
    Clock.schedule_interval(lambda _dt: dimmer.check(), CHECK_EVERY)
    return dimmer
