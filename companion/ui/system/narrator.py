"""The kiosk's voice: spoken lines played one after another, after whatever
sound is playing, through the kiosk's sounds (one volume, one mute).

Lines are rendered ahead, on a thread of their own, when a game comes on the
screen (its words list every line its screen may say, ``Words.spoken_lines``);
a line asked for before its file is ready is not synthesised then — the table
sees it captioned and hears nothing — so a Pi never renders while a timer runs.
Narration is the operator's choice (off until turned on in the settings);
speech is a courtesy like the sounds: no voice, a voice that fails or no
audio device leaves the kiosk captioning in silence.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kivy.clock import Clock

from ...speech.cache import Rendered, SpeechCache
from ...speech.voices import VoiceError, find_voice
from .kiosk_settings import DEFAULT_PAUSE
from .sounds import Sounds

log = logging.getLogger(__name__)

GAP = 0.25  # seconds of quiet between two lines, or a sound and a line


class Narrator:
    """``spoken`` lists every line started, in order (as ``Sounds.played``
    lists sounds): what the table was made to hear."""

    def __init__(
        self,
        sounds: Sounds,
        directory: Path,
        voices_dir: Path,
        enabled: bool = False,
        turns: bool = False,
        pause: float = DEFAULT_PAUSE,
    ) -> None:
        self.sounds = sounds
        self.directory = Path(directory)
        self.voices_dir = Path(voices_dir)
        self.enabled = enabled
        self.turns = turns  # whether screens say whose turn it is
        self.pause = pause  # seconds a scripted step leaves to act (the night)
        self.spoken: list[str] = []
        self._cache: SpeechCache | None = None
        self._ready: dict[str, Rendered] = {}  # text -> its file, for the voice in use
        self._lock = threading.Lock()  # _ready is filled by the render thread
        self._queue: deque[tuple[str, Rendered]] = deque()
        self._next: Any = None  # the Clock event that starts the next line
        self._language: str | None = None

    @property
    def voice_name(self) -> str | None:
        """The voice in use, or None when none can speak the kiosk's language."""
        return None if self._cache is None else self._cache.voice.name

    def use(self, language: str, lines: Iterable[str]) -> threading.Thread | None:
        """Speak ``language`` from now on, and render ``lines`` for it in the
        background (returns the rendering thread, None if nothing to render)."""
        if language != self._language:
            self._language = language
            voice = find_voice(language, self.voices_dir)
            if voice is None:
                log.warning("no voice speaks %r here: lines are only captioned", language)
            with self._lock:
                self._cache = None if voice is None else SpeechCache(self.directory, voice)
                self._ready = {}
            self.stop()
        return self.render(lines)

    def render(self, lines: Iterable[str]) -> threading.Thread | None:
        """Render, in the background, those of ``lines`` not rendered yet."""
        cache = self._cache
        if cache is None:
            return None
        with self._lock:
            missing = list(dict.fromkeys(line for line in lines if line not in self._ready))
        if not missing:
            return None
        worker = threading.Thread(
            target=self._render, args=(cache, missing), name="narrator-render", daemon=True
        )
        worker.start()
        return worker

    def _render(self, cache: SpeechCache, lines: list[str]) -> None:
        for line in lines:
            try:
                rendered = cache.render(line)
            except (OSError, VoiceError) as exc:
                log.warning("the line %r could not be rendered: %s", line, exc)
                continue
            with self._lock:
                if self._cache is not cache:  # the language changed meanwhile
                    return
                self._ready[line] = rendered

    def ready(self, lines: Iterable[str]) -> bool:
        """Whether every one of ``lines`` can be spoken at once."""
        with self._lock:
            return all(line in self._ready for line in lines)

    def length(self, line: str) -> float | None:
        """How long ``line`` takes to say, if rendered."""
        with self._lock:
            rendered = self._ready.get(line)
        return None if rendered is None else rendered.seconds

    def say(self, line: str) -> bool:
        """Speak ``line`` after what is being said or sounded; False when it
        will not be heard (narration off, muted, or not rendered yet)."""
        return self.say_until(line) is not None

    def say_until(self, line: str) -> float | None:
        """Speak ``line`` as ``say`` does, and tell how many seconds from now
        it will have been said (after what is sounding and the lines queued
        before it); None when it will not be heard. A script waits that long
        before it leaves the table its pause."""
        if not self.enabled or self.sounds.volume <= 0:
            return None
        with self._lock:
            rendered = self._ready.get(line)
        if rendered is None:
            log.info("not spoken, not rendered yet: %r", line)
            return None
        now = time.monotonic()
        start = max(now, self.sounds.busy_until + GAP) if self.sounds.busy_until > 0 else now
        start += sum(queued.seconds + GAP for _line, queued in self._queue)
        self._queue.append((line, rendered))
        self._pump()
        return start - now + rendered.seconds

    @property
    def queued(self) -> bool:
        """Whether lines wait to be said (after what is sounding)."""
        return bool(self._queue)

    def stop(self) -> None:
        """Say nothing more of what is queued."""
        self._queue.clear()
        if self._next is not None:
            self._next.cancel()
            self._next = None

    def _pump(self, _dt: float = 0.0) -> None:
        self._next = None
        if not self.enabled or self.sounds.volume <= 0:  # turned off or muted meanwhile
            self._queue.clear()
        if not self._queue:
            return
        wait = self.sounds.busy_until + GAP - time.monotonic()
        if wait > 0 and self.sounds.busy_until > 0:
            self._next = Clock.schedule_once(self._pump, wait)
            return
        line, rendered = self._queue.popleft()
        self.spoken.append(line)
        self.sounds.play_file(f"say:{line}", rendered.path, rendered.seconds)
        if self._queue:
            self._next = Clock.schedule_once(self._pump, rendered.seconds + GAP)
