"""The operator's settings, kept in an ini file beside the game store: the
PIN that guards them (as a salted hash), the kiosk's language, the sound
volume, the narration (on or off, whose turn, its pace), the screen
rotation, the log level and the Wi-Fi the join QR offers; and the steps of
the game under way whose first-game guide was shown (so a restart does not
show them again). The PIN check refuses a burst of guesses.

Reading them needs no Kivy (the command line reads the log level before
Kivy starts); only the language check asks what the kiosk can draw."""

from __future__ import annotations

import configparser
import hmac
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from ...logs import DEFAULT_LEVEL, LEVELS
from ...secret_hash import hash_pin, is_pin_hash, pin_matches
from ..text.fonts import kiosk_languages

DEFAULT_PAUSE = 6.0  # seconds
PAUSES = (3.0, 20.0)  # the range the settings offer

log = logging.getLogger(__name__)


DEFAULT_PIN = "0000"  # documented; the settings ask to change it
ROTATIONS = (0, 90, 180, 270)
GUESSES = 5  # wrong PINs in a row before a pause
PAUSE = 60.0  # seconds


class KioskSettings:
    def __init__(self, path: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path)
        self.clock = clock
        # Raw: a Wi-Fi password may hold a "%".
        self.config = configparser.RawConfigParser()
        self.config.read_dict(
            {
                "kiosk": {
                    "pin": "",
                    "language": "en",
                    "volume": "0.8",
                    "rotation": "0",
                    "log_level": DEFAULT_LEVEL,
                    "narration": "off",
                    "announce_turns": "off",
                    "pause": str(DEFAULT_PAUSE),
                },
                "wifi": {"ssid": "", "password": ""},
                "guide": {"game": "", "seen": ""},
            }
        )
        self.set_aside: Path | None = None  # a damaged file, kept for support
        if self.path.exists():
            self._read()
        self._wrong: list[float] = []
        stored = self.config.get("kiosk", "pin")
        if stored and not is_pin_hash(stored):
            # A kiosk.ini from before PINs were hashed: hash it now, once.
            try:
                self._set("kiosk", "pin", hash_pin(stored))
            except OSError as exc:  # kept hashed in memory; saved with the next change
                log.warning(
                    "the settings could not be saved (%s): the PIN is hashed on the next change",
                    exc,
                )

    def _read(self) -> None:
        """Take the file's settings, all or none. A file that cannot be read
        whole (no section, a key or a section twice, binary, UTF-16: a
        half-read one would leave broken values behind) is moved aside and
        the defaults apply, the PIN 0000; the settings screen says so."""
        found = configparser.RawConfigParser()
        try:
            found.read(self.path, encoding="utf-8")
        except (configparser.Error, UnicodeError, ValueError) as exc:
            aside = self.path.with_name(f"{self.path.name}.bad-{int(time.time())}")
            try:
                os.replace(self.path, aside)
                self.set_aside = aside
            except OSError as move:
                log.warning("%s could not be moved aside (%s)", self.path, move)
            log.warning(
                "%s cannot be read (%s): set aside as %s; the defaults apply, the PIN is 0000",
                self.path,
                exc,
                aside,
            )
            return
        for section in found.sections():
            for key, value in found.items(section):
                if not self.config.has_section(section):
                    self.config.add_section(section)
                self.config.set(section, key, value)

    def _set(self, section: str, key: str, value: object) -> None:
        """Change one setting and save them all: a whole new file put in
        place at once, so a power cut leaves the old file or the new one.
        Only its owner may read it: it holds the PIN and the Wi-Fi password."""
        self.config.set(section, key, str(value))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".partial")
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(descriptor, 0o600)
        with open(descriptor, "w", encoding="utf-8") as file:
            self.config.write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self.path)

    # -- the PIN ------------------------------------------------------------
    @property
    def default_pin(self) -> bool:
        """No PIN chosen yet (or the default chosen again)."""
        return self._matches(DEFAULT_PIN)

    def _matches(self, pin: str) -> bool:
        stored = self.config.get("kiosk", "pin")
        if not stored:  # none chosen yet: the default
            return hmac.compare_digest(pin.encode("utf-8"), DEFAULT_PIN.encode())
        return pin_matches(pin, stored)

    def locked_for(self) -> float:
        """Seconds before another guess is taken (0: now)."""
        if len(self._wrong) < GUESSES:
            return 0.0
        return max(0.0, self._wrong[-1] + PAUSE - self.clock())

    def check_pin(self, pin: str) -> bool:
        if self.locked_for() > 0:
            return False
        if self._matches(pin):
            self._wrong.clear()
            return True
        if len(self._wrong) >= GUESSES:  # a pause has passed: a new burst
            self._wrong.clear()
        self._wrong.append(self.clock())
        return False

    def set_pin(self, pin: str) -> bool:
        """A new PIN: 4 to 8 digits."""
        if not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
            return False
        self._set("kiosk", "pin", hash_pin(pin))
        return True

    # -- the rest -------------------------------------------------------------
    @property
    def language(self) -> str:
        lang = self.config.get("kiosk", "language")
        return lang if lang in kiosk_languages() else "en"

    @language.setter
    def language(self, lang: str) -> None:
        if lang in kiosk_languages():
            self._set("kiosk", "language", lang)

    @property
    def volume(self) -> float:
        try:
            return min(1.0, max(0.0, self.config.getfloat("kiosk", "volume")))
        except ValueError:
            return 0.8

    @volume.setter
    def volume(self, value: float) -> None:
        self._set("kiosk", "volume", round(min(1.0, max(0.0, float(value))), 2))

    @property
    def narration(self) -> bool:
        """Whether the kiosk speaks its cues and scripts (off until chosen)."""
        return self._flag("narration")

    @narration.setter
    def narration(self, on: bool) -> None:
        self._set("kiosk", "narration", "on" if on else "off")

    @property
    def announce_turns(self) -> bool:
        """Whether the narration says whose turn it is, where a game says so."""
        return self._flag("announce_turns")

    @announce_turns.setter
    def announce_turns(self, on: bool) -> None:
        self._set("kiosk", "announce_turns", "on" if on else "off")

    def _flag(self, key: str) -> bool:
        return self.config.get("kiosk", key).strip().lower() in ("on", "true", "yes", "1")

    @property
    def pause(self) -> float:
        """Seconds a spoken script leaves the table to act in each step."""
        low, high = PAUSES
        try:
            return min(high, max(low, self.config.getfloat("kiosk", "pause")))
        except ValueError:
            return DEFAULT_PAUSE

    @pause.setter
    def pause(self, seconds: float) -> None:
        low, high = PAUSES
        self._set("kiosk", "pause", round(min(high, max(low, float(seconds))), 1))

    @property
    def rotation(self) -> int:
        try:
            rotation = self.config.getint("kiosk", "rotation")
        except ValueError:
            return 0
        return rotation if rotation in ROTATIONS else 0

    @rotation.setter
    def rotation(self, value: int) -> None:
        if value in ROTATIONS:
            self._set("kiosk", "rotation", value)

    @property
    def log_level(self) -> str:
        level = self.config.get("kiosk", "log_level").strip().lower()
        return level if level in LEVELS else DEFAULT_LEVEL

    @log_level.setter
    def log_level(self, level: str) -> None:
        if level in LEVELS:
            self._set("kiosk", "log_level", level)

    @property
    def wifi(self) -> tuple[str, str | None] | None:
        ssid = self.config.get("wifi", "ssid").strip()
        if not ssid:
            return None
        return ssid, self.config.get("wifi", "password") or None

    def set_wifi(self, ssid: str, password: str) -> None:
        self._set("wifi", "ssid", ssid.strip())
        self._set("wifi", "password", password)

    # -- the first-game guide -------------------------------------------------
    def guided(self, game_id: int) -> set[str]:
        """The steps of game ``game_id`` whose guide was shown (only the
        latest game's are kept)."""
        if self.config.get("guide", "game") != str(game_id):
            return set()
        return set(self.config.get("guide", "seen").split())

    def set_guided(self, game_id: int, steps: set[str]) -> None:
        self.config.set("guide", "game", str(game_id))
        self._set("guide", "seen", " ".join(sorted(steps)))


def settings_path(store_path: str | Path) -> Path:
    """The settings live beside the game store (one data directory to keep)."""
    if str(store_path) == ":memory:":
        return Path.home() / ".config" / "table-companion" / "kiosk.ini"
    return Path(store_path).with_name("kiosk.ini")
