"""Debouncing a mechanical contact from its edges alone.

We debounce in our own code rather than with gpiozero's ``bounce_time``: the
pin libraries do it differently (lgpio waits for the level to settle, so it
reports a press late; RPi.GPIO drops edges after the first) and mock pins not
at all, so neither could be tested here.

The rule: a press edge starts a press only if the contact had been released
and quiet (no edge at all) for ``settle`` seconds. The press is reported at
once, timed at that first edge: a challenge race is won by whoever touched
first, not by whose contact stopped bouncing first. Every later edge of the
same bounce storm, and every edge of the release's bounce, comes less than
``settle`` after the edge before it, so none can start a second press.

The rule needs no timer thread: whether the contact was quiet is decided when
the next edge arrives. Its limit: one noise spike on a long unshielded wire
counts as a press, as it would for any first-edge scheme.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

SETTLE = 0.02  # seconds; contacts bounce for 1-10 ms, a quick double tap is ~100 ms


class Debouncer:
    """One contact's edges in, press times out. Thread-safe: edges may come
    from any library thread."""

    def __init__(
        self,
        settle: float = SETTLE,
        clock: Callable[[], float] = time.monotonic,
        pressed: bool = False,
    ) -> None:
        self._settle = settle
        self._clock = clock
        self._pressed = pressed  # the level after the last edge
        self._last_edge = float("-inf")
        self._lock = threading.Lock()

    def edge(self, pressed: bool) -> float | None:
        """Record an edge to ``pressed`` (True: contact closed). Returns the
        time of the press it starts, or None."""
        with self._lock:
            now = self._clock()
            starts = pressed and not self._pressed and now - self._last_edge >= self._settle
            self._pressed = pressed
            self._last_edge = now
            return now if starts else None
