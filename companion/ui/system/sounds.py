"""The kiosk's sounds, made by the project itself: a gavel knock, an expiry
chime, a warning tick and a soft hiss to mask movement are synthesised here
(standard library only) into WAV files in a cache directory at start-up,
then played with Kivy's ``SoundLoader``. No sound file of unknown licence
ships with the app.

Sound is a courtesy, never a condition: a cache that cannot be written, a
machine with no audio device or a player that fails is logged and the kiosk
carries on in silence.
"""

from __future__ import annotations

import array
import logging
import math
import os
import random
import sys
import time
import wave
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

RATE = 22050  # samples per second: plenty for knocks and chimes
PEAK = 32767
DEFAULT_VOLUME = 0.8
FILES_KEPT = 200  # spoken lines kept loaded: a game's lines, with room to spare

GAVEL, EXPIRY, WARNING, HUSH = "gavel", "expiry", "warning", "hush"
LOOP_LEVEL = 0.2  # a loop's share of the volume: the hush under the voice, over a creak


def _samples(seconds: float, shape: Callable[[float], float]) -> array.array:
    """``shape`` (time in seconds -> -1..1) sampled as 16-bit integers."""
    out = array.array("h")
    for n in range(int(seconds * RATE)):
        value = max(-1.0, min(1.0, shape(n / RATE)))
        out.append(int(value * PEAK))
    return out


def gavel_knock() -> array.array:
    """Wood on wood: a low thump (two damped partials) under a short burst of
    noise for the crack, all gone within a quarter of a second."""
    noise = random.Random(27)  # the same knock every start

    def shape(t: float) -> float:
        thump = 0.7 * math.sin(2 * math.pi * 170 * t) + 0.3 * math.sin(2 * math.pi * 420 * t)
        crack = noise.uniform(-1, 1) * math.exp(-t * 90)
        return 0.9 * (thump * math.exp(-t * 22) + 0.6 * crack)

    return _samples(SECONDS[GAVEL], shape)


def expiry_chime() -> array.array:
    """Time is up: two bell strokes, high then low (a "ding-dong"), each with
    the slightly inharmonic partials of a bell and a long decay."""

    def bell(t: float, pitch: float) -> float:
        if t < 0:
            return 0.0
        partials = sum(
            level * math.sin(2 * math.pi * pitch * ratio * t)
            for ratio, level in ((1.0, 0.6), (2.0, 0.25), (2.76, 0.15))
        )
        return partials * math.exp(-t * 3.2) * min(1.0, t * 400)  # no click at the onset

    return _samples(SECONDS[EXPIRY], lambda t: 0.8 * (bell(t, 784.0) + bell(t - 0.5, 523.3)))


def warning_tick() -> array.array:
    """The last 30 seconds: two short, bright ticks."""

    def tick(t: float) -> float:
        if not 0 <= t < 0.06:
            return 0.0
        return math.sin(2 * math.pi * 1760 * t) * math.exp(-t * 70)

    return _samples(SECONDS[WARNING], lambda t: 0.8 * (tick(t) + tick(t - 0.15)))


def hush_noise() -> array.array:
    """A soft, even hiss (pink noise: as much sound in each octave, like
    rain) that hides a chair's creak or a rustle while eyes are closed.
    Played in a loop, so its end runs into its start: the last fifth of a
    second of a longer stretch is faded into its opening."""
    noise = random.Random(20)
    fade = int(0.2 * RATE)
    total = int(SECONDS[HUSH] * RATE)
    b0 = b1 = b2 = 0.0
    raw = []
    for _ in range(total + fade):
        white = noise.uniform(-1, 1)  # Paul Kellet's economy filter, white to pink
        b0 = 0.99765 * b0 + white * 0.0990460
        b1 = 0.96300 * b1 + white * 0.2965164
        b2 = 0.57000 * b2 + white * 1.0526913
        raw.append(b0 + b1 + b2 + white * 0.1848)
    for n in range(fade):
        share = n / fade
        raw[n] = raw[n] * share + raw[total + n] * (1 - share)
    peak = max(abs(v) for v in raw[:total])
    return array.array("h", (int(0.7 * PEAK * v / peak) for v in raw[:total]))


SYNTHS: dict[str, Callable[[], array.array]] = {
    GAVEL: gavel_knock,
    EXPIRY: expiry_chime,
    WARNING: warning_tick,
    HUSH: hush_noise,
}
# How long each sound lasts, so a file can be checked without making the
# sound again (making them all takes half a second on a desktop).
SECONDS = {GAVEL: 0.25, EXPIRY: 1.6, WARNING: 0.3, HUSH: 3.0}
# Part of every file name: a new version of a sound gets a new file.
VERSION = 1


def wav_bytes(samples: array.array) -> bytes:
    """Mono 16-bit little-endian PCM, as a WAV file's frames."""
    frames = array.array("h", samples)
    if sys.byteorder != "little":
        frames.byteswap()
    return frames.tobytes()


def write_sounds(directory: Path) -> dict[str, Path]:
    """Synthesise every sound into ``directory``, unless a whole file of it
    is already there (the kiosk's SD card is spared a write per start, and
    the start the work). Returns each sound's path."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, synth in SYNTHS.items():
        path = directory / f"{name}-{VERSION}.wav"
        if not _holds(path, int(SECONDS[name] * RATE)):
            partial = path.with_suffix(".tmp")
            with wave.open(str(partial), "wb") as out:
                out.setnchannels(1)
                out.setsampwidth(2)
                out.setframerate(RATE)
                out.writeframes(wav_bytes(synth()))
            partial.replace(path)
        paths[name] = path
    return paths


def _holds(path: Path, frames: int) -> bool:
    """Whether ``path`` is a whole WAV file of ``frames`` frames as we write them."""
    try:
        with wave.open(str(path), "rb") as old:
            return (
                old.getframerate(),
                old.getnchannels(),
                old.getsampwidth(),
                old.getnframes(),
            ) == (RATE, 1, 2, frames) and len(old.readframes(frames)) == 2 * frames
    except (OSError, EOFError, wave.Error):
        return False


def audio_output_present(
    environ: Mapping[str, str] = os.environ, devices: Path = Path("/dev/snd")
) -> bool:
    """Whether this machine has somewhere to play a sound: an ALSA playback
    device, or a PulseAudio or PipeWire server. Asked before SDL opens its
    audio: with none, ALSA writes a dozen lines of errors on stderr and SDL
    logs a CRITICAL, for a machine that is simply silent (a desktop without
    a sound card, a Pi with no speaker configured)."""
    if not sys.platform.startswith("linux") or environ.get("SDL_AUDIODRIVER"):
        return True  # not ALSA's, or the operator chose a driver
    if any(devices.glob("pcmC*D*p")):
        return True
    runtime = environ.get("XDG_RUNTIME_DIR")
    servers = [Path(runtime) / "pulse" / "native", Path(runtime) / "pipewire-0"] if runtime else []
    return bool(environ.get("PULSE_SERVER")) or any(path.exists() for path in servers)


class Sounds:
    """The kiosk's sounds at a volume from 0 (silent) to 1.

    ``played`` lists every sound started, in order: what the table was made
    to hear. (On a machine without an audio device the sound is silent but
    still listed, so the screen's choices can be checked anywhere.)"""

    def __init__(self, directory: Path, volume: float = DEFAULT_VOLUME) -> None:
        self.directory = Path(directory)
        self.played: list[str] = []
        self.busy_until = 0.0  # when what was started last ends (time.monotonic)
        self.looping: set[str] = set()  # sounds asked to loop until stopped, under the rest
        self._volume = min(1.0, max(0.0, volume))
        self._sounds: dict[str, Any] | None = None  # loaded on first need
        self._audio = False  # whether this machine can play at all (prepare() asks)
        self._files: dict[Path, Any] = {}  # other files played (spoken lines), loaded
        self._playing_loops: set[str] = set()  # those of ``looping`` heard now

    @property
    def volume(self) -> float:
        return self._volume

    @volume.setter
    def volume(self, volume: float) -> None:
        """A new volume reaches a loop that is playing at once (a one-shot
        sound is over before it matters); 0 silences it, more starts it again."""
        self._volume = min(1.0, max(0.0, volume))
        for name in sorted(self.looping):
            self._sound_loop(name)

    def prepare(self) -> None:
        """Make (or find) the files and load them. The kiosk does this just
        after its first frame, so its start does not wait for it; a sound
        played before then prepares them itself."""
        if self._sounds is not None:
            return
        self._sounds = {}
        directory = self.directory
        try:
            paths = write_sounds(directory)
        except OSError:
            log.exception(
                "the sounds could not be written to %s; the kiosk stays silent", directory
            )
            return
        self._audio = audio_output_present()
        if not self._audio:
            log.info("no audio output here: the sounds are only captioned on screen")
            return
        for name, path in paths.items():
            sound = _load(path)
            if sound is not None:
                self._sounds[name] = sound

    def play(self, name: str) -> None:
        if name not in SYNTHS:
            raise ValueError(f"no sound named {name!r}")
        if self.volume <= 0:
            return
        self.prepare()
        assert self._sounds is not None  # prepare() made it, even if left empty
        self._start(name, self._sounds.get(name), SECONDS[name])

    def loop(self, name: str) -> None:
        """Play ``name`` over and over, softly (``LOOP_LEVEL`` of the volume),
        until ``stop_loop``: a bed under the voice that never makes it wait
        (``busy_until`` is untouched). Muted, it waits silently for a volume."""
        if name not in SYNTHS:
            raise ValueError(f"no sound named {name!r}")
        self.looping.add(name)
        self._sound_loop(name)

    def stop_loop(self, name: str) -> None:
        self.looping.discard(name)
        self._sound_loop(name)

    def _sound_loop(self, name: str) -> None:
        """Make what is heard of the loop ``name`` what is asked: playing at
        its share of the volume while asked for and not muted, else silent."""
        heard = name in self.looping and self.volume > 0
        self.prepare()
        assert self._sounds is not None  # prepare() made it, even if left empty
        sound = self._sounds.get(name)
        starts = heard and name not in self._playing_loops
        stops = not heard and name in self._playing_loops
        if starts:
            self._playing_loops.add(name)
            self.played.append(name)
        if stops:
            self._playing_loops.discard(name)
        if sound is None:
            return
        try:
            sound.volume = self.volume * LOOP_LEVEL
            if starts:
                sound.loop = True
                sound.play()
            if stops:
                sound.stop()
        except Exception:  # noqa: BLE001 - no audio device, a busy one, a driver error
            log.exception("the %s loop could not be played or stopped", name)

    def play_file(self, label: str, path: Path, seconds: float) -> None:
        """Play a WAV file made elsewhere (a spoken line) as a sound: at the
        same volume, silent when muted, listed in ``played`` as ``label``."""
        if self.volume <= 0:
            return
        self.prepare()
        sound = self._files.get(path)
        if sound is None and self._audio:
            sound = _load(path)
            if sound is not None:
                if len(self._files) >= FILES_KEPT:
                    self._files.pop(next(iter(self._files))).unload()
                self._files[path] = sound
        self._start(label, sound, seconds)

    def _start(self, label: str, sound: Any, seconds: float) -> None:
        self.played.append(label)
        self.busy_until = max(self.busy_until, time.monotonic() + seconds)
        if sound is None:
            return
        try:
            sound.volume = self.volume
            sound.stop()  # a strike right after a strike starts over
            sound.play()
        except Exception:  # noqa: BLE001 - no audio device, a busy one, a driver error
            log.exception("%s could not be played", label)


def _load(path: Path) -> Any:
    """Kivy's player for ``path``, or None (logged) when it cannot have one."""
    from kivy.core.audio import SoundLoader

    try:
        sound = SoundLoader.load(str(path))
    except Exception:  # noqa: BLE001 - any failure of the audio library
        log.exception("%s could not be loaded", path)
        return None
    if sound is None:
        log.warning("no audio player for %s; it stays silent", path)
    return sound
