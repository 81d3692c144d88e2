"""The table's time: what every timer of a game is measured on.

A Pi has no real-time clock, and a café Pi on its own access point may never
reach a time server, so its wall clock can be off by minutes and can jump when
it is set. A game's time therefore never reads the wall clock: it moves with a
monotonic clock while the app runs, and after a restart it goes on from the
latest time the store holds for the game (the last command's time, or the
time a running timer last saved). Downtime does not count: a timer resumes
with what it had left when the table last saw it, less than
:data:`SAVE_EVERY` seconds before the power went.

The store's own timestamps (when a game started and ended, shown in the
history) are wall-clock times, kept apart from the game's time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

SAVE_EVERY = 1.0  # seconds of a running timer between saves of the game's time


class GameClock:
    """The time of one game: ``start`` now, then moving as ``elapsed`` (a
    monotonic clock) moves, never backwards."""

    def __init__(self, start: float, elapsed: Callable[[], float] = time.monotonic) -> None:
        self.elapsed = elapsed
        self._offset = start - elapsed()
        self._latest = start

    def __call__(self) -> float:
        # max(): a monotonic clock never goes back, but a test's or a
        # replay's might, and no countdown may grow because of it.
        self._latest = max(self._latest, self._offset + self.elapsed())
        return self._latest
