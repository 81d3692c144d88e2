"""Debouncing one button from periodic samples of its level.

Shared by the pad (MicroPython) and the host tests (CPython).
"""

SETTLE_MS = 10  # the level must hold this long before the button changes state


class Debouncer:
    """A button that changes state only once its raw level has held for
    SETTLE_MS. A contact bounces for a few milliseconds when it closes or
    opens; every bounce restarts the wait, so a storm of edges makes one
    change. A press is reported with the time of the storm's *first* edge,
    the moment the finger closed the contact.
    """

    def __init__(self):
        self.pressed = False
        self._raw = False
        self._raw_since = 0  # when the raw level last changed
        self._first_edge = None  # first edge since the state last settled

    def sample(self, now_ms, level):
        """Feed the raw level (True = closed) seen at ``now_ms``. Returns the
        press time in ms when this sample completes a press, else None."""
        if level != self._raw:
            self._raw = level
            self._raw_since = now_ms
            if self._first_edge is None:
                self._first_edge = now_ms
        if self._first_edge is None or now_ms - self._raw_since < SETTLE_MS:
            return None
        first_edge = self._first_edge
        self._first_edge = None
        if self._raw == self.pressed:  # bounced back: nothing happened
            return None
        self.pressed = self._raw
        return first_edge if self.pressed else None
