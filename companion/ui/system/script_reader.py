"""A script read aloud to the table step by step (the Secret Hitler night):
each step's line said by the narrator, then the table left time to act,
with a soft hiss under it all so that nobody's movement is heard.

The steps move on Kivy's clock whether or not anything is heard: with
narration off, the kiosk muted or no voice for its language, each line stays
on the screen for as long as it would take to say, so the table (or whoever
reads it out) still follows the script on the screen."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock

from .kiosk_settings import DEFAULT_PAUSE
from .narrator import Narrator
from .sounds import HUSH, Sounds

BEAT_SHARE = 1 / 3  # after a step the table only settles after (eyes closing): this much of a pause
READING_PACE = 0.07  # seconds per character: how long an unrendered line stays up, beyond
READING_START = 1.0  # ... a second to find it


class ScriptReader:
    """Reads ``steps``, each (line, whether the table acts after it), calling
    ``on_step(index)`` as each begins and ``on_end()`` after the last."""

    def __init__(
        self,
        steps: Sequence[tuple[str, bool]],
        narrator: Narrator | None,
        sounds: Sounds | None,
        on_step: Callable[[int], Any],
        on_end: Callable[[], Any],
    ) -> None:
        self.steps = list(steps)
        self.narrator = narrator
        self.sounds = sounds
        self.on_step = on_step
        self.on_end = on_end
        self.index: int | None = None  # the step being read; None when not reading
        self._next: Any = None  # the Clock event that reads the next step
        self._due = 0.0  # when the step ends (time.monotonic)

    @property
    def reading(self) -> bool:
        return self.index is not None

    def start(self) -> None:
        """Read from the first step (again, if it was being read)."""
        self._cancel()
        if self.sounds is not None:
            self.sounds.loop(HUSH)
        self._read(0)

    def repeat(self) -> None:
        """Say the step being read again, and leave its time again."""
        if self.index is not None:
            self._cancel()
            self._read(self.index)

    def stop(self) -> None:
        """Stop reading, and the hiss; what is queued to be said is not said."""
        self._cancel()
        self.index = None
        if self.sounds is not None:
            self.sounds.stop_loop(HUSH)

    def _cancel(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None
        if self.narrator is not None:
            self.narrator.stop()

    def _read(self, index: int) -> None:
        self.index = index
        self.on_step(index)
        line, act = self.steps[index]
        pause = DEFAULT_PAUSE if self.narrator is None else self.narrator.pause
        seconds = self._saying(line) + (pause if act else pause * BEAT_SHARE)
        self._due = time.monotonic() + seconds
        self._next = Clock.schedule_once(self._step_done, seconds)

    def _saying(self, line: str) -> float:
        """Say ``line``; how long until it has been said (or would have been)."""
        if self.narrator is None:
            return READING_START + READING_PACE * len(line)
        heard = self.narrator.say_until(line)
        if heard is not None:
            return heard
        length = self.narrator.length(line)
        return READING_START + READING_PACE * len(line) if length is None else length

    def _step_done(self, _dt: float) -> None:
        # Kivy's clock counts from its last frame: after a long frame (the
        # sounds made on first use) it fires early, so the rest is waited out.
        left = self._due - time.monotonic()
        if left > 0:
            self._next = Clock.schedule_once(self._step_done, left)
            return
        self._next = None
        assert self.index is not None  # stop() cancels this event
        if self.index + 1 < len(self.steps):
            self._read(self.index + 1)
            return
        self.stop()
        self.on_end()
