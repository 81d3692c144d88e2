"""The operator's settings, kept in an ini file beside the game store
(Kivy's ConfigParser, as an App's config would be): the PIN that guards
them, the kiosk's language, the sound volume, the screen rotation and the
Wi-Fi the join QR offers. The PIN check refuses a burst of guesses."""
from __future__ import annotations

import configparser
import os
import time
from pathlib import Path
from typing import Callable

from kivy.config import ConfigParser

from .fonts import kiosk_languages


DEFAULT_PIN = "0000"                # documented; the settings ask to change it
ROTATIONS = (0, 90, 180, 270)
GUESSES = 5                         # wrong PINs in a row before a pause
PAUSE = 60.0                        # seconds


class KioskSettings:
    def __init__(self, path: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path)
        self.clock = clock
        self.config = ConfigParser(name="")
        self.config.setdefaults("kiosk", {"pin": DEFAULT_PIN, "language": "en",
                                          "volume": "0.8", "rotation": "0"})
        self.config.setdefaults("wifi", {"ssid": "", "password": ""})
        if self.path.exists():
            self.config.read(str(self.path))
        self._wrong: list[float] = []

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
            configparser.ConfigParser.write(self.config, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self.path)

    # -- the PIN ------------------------------------------------------------
    @property
    def default_pin(self) -> bool:
        return self.config.get("kiosk", "pin") == DEFAULT_PIN

    def locked_for(self) -> float:
        """Seconds before another guess is taken (0: now)."""
        if len(self._wrong) < GUESSES:
            return 0.0
        return max(0.0, self._wrong[-1] + PAUSE - self.clock())

    def check_pin(self, pin: str) -> bool:
        if self.locked_for() > 0:
            return False
        if pin == self.config.get("kiosk", "pin"):
            self._wrong.clear()
            return True
        if len(self._wrong) >= GUESSES:         # a pause has passed: a new burst
            self._wrong.clear()
        self._wrong.append(self.clock())
        return False

    def set_pin(self, pin: str) -> bool:
        """A new PIN: 4 to 8 digits."""
        if not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
            return False
        self._set("kiosk", "pin", pin)
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
    def wifi(self) -> tuple[str, str | None] | None:
        ssid = self.config.get("wifi", "ssid").strip()
        if not ssid:
            return None
        return ssid, self.config.get("wifi", "password") or None

    def set_wifi(self, ssid: str, password: str) -> None:
        self._set("wifi", "ssid", ssid.strip())
        self._set("wifi", "password", password)
