"""Spoken lines as WAV files, rendered once per voice and text and kept.

A file's name is the voice's name and a hash of what the voice is given
(the line, its names said as names: ``Voice.said``): the same line in the
same voice is rendered once, ever, and a changed line, another voice or
another way of saying a name gets a new file. A file is written beside its
place and moved in whole, so a power cut mid-render leaves no half a line
to play.
"""

from __future__ import annotations

import hashlib
import logging
import wave
from dataclasses import dataclass
from pathlib import Path

from .voices import Voice, VoiceError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rendered:
    path: Path
    seconds: float  # how long the line takes to say


class SpeechCache:
    def __init__(self, directory: Path, voice: Voice) -> None:
        self.directory = Path(directory)
        self.voice = voice

    def path_for(self, text: str) -> Path:
        digest = hashlib.sha256(self.voice.said(text).encode("utf-8")).hexdigest()[:24]
        return self.directory / f"{self.voice.name}-{digest}.wav"

    def find(self, text: str) -> Rendered | None:
        """The line's file, if a whole one is already there."""
        return wav_length(self.path_for(text))

    def render(self, text: str) -> Rendered:
        """The line's file, rendered now unless it is already there. Raises
        VoiceError when the voice fails or writes no sound."""
        found = self.find(text)
        if found is not None:
            return found
        path = self.path_for(text)
        self.directory.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.wav")
        self.voice.render(text, partial)
        rendered = wav_length(partial)
        if rendered is None:
            partial.unlink(missing_ok=True)
            raise VoiceError(f"{self.voice.name} wrote no sound for {text!r}")
        partial.replace(path)
        return Rendered(path, rendered.seconds)


def wav_length(path: Path) -> Rendered | None:
    """``path`` and its length, if it is a whole WAV file with some sound in it."""
    try:
        with wave.open(str(path), "rb") as wav:
            frames, rate = wav.getnframes(), wav.getframerate()
            whole = len(wav.readframes(frames)) == frames * wav.getsampwidth() * wav.getnchannels()
    except (OSError, EOFError, wave.Error):
        return None
    if not whole or frames == 0 or rate <= 0:
        return None
    return Rendered(path, frames / rate)
