"""The operator's settings, behind the PIN: end the game, phones and
re-pairing, language, sound volume, narration and its pace, screen rotation, the Wi-Fi the join QR
offers, the PIN itself, and the devices with the pin map (what `companion
doctor` checks, as the running kiosk sees it)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from ...i18n import Messages
from ...logs import LEVELS
from ..system.kiosk_settings import DEFAULT_PAUSE, PAUSES, ROTATIONS, KioskSettings
from ..text.fonts import kiosk_languages
from ..widgets.buttons import fill_choices
from ..widgets.touch_keyboard import TextField  # noqa: F401 - the kv rules use it

# The narration's choices: (catalog name, (narration on, whose turn said)).
NARRATION = (("off", (False, False)), ("cues", (True, False)), ("turns", (True, True)))

Builder.load_file(str(Path(__file__).with_name("settings_view.kv")))

PIN_LENGTH = 8


class PinPad(ModalView):
    """Digits on screen (no keyboard at a kiosk); the PIN shows as dots,
    under why it is asked. Cancel is the one way out: a touch outside the
    pad does nothing (a hand resting on a shared table's screen, or a
    player's reach across it, must not close what the operator is typing,
    and a pad gone without a word leaves the table wondering whether the
    game started)."""

    title = StringProperty("")
    reason = StringProperty("")  # why the PIN is asked ("": the title says)
    entered = StringProperty("")
    message = StringProperty("")
    ok_text = StringProperty("")
    clear_text = StringProperty("")
    cancel_text = StringProperty("")
    numerals = ListProperty("0123456789")  # the keys' digits as the reader writes them

    def __init__(
        self,
        settings: KioskSettings,
        t: Messages,
        on_unlock: Callable[[], Any],
        reason: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(auto_dismiss=False, **kwargs)
        self.numerals = [t.number(n) for n in range(10)]
        self.settings, self.t, self.on_unlock = settings, t, on_unlock
        self.title, self.reason = t("settings.enter_pin"), reason
        self.ok_text, self.clear_text = t("settings.ok"), t("settings.clear")
        self.cancel_text = t("ui.cancel")

    def digit(self, digit: str) -> None:
        if len(self.entered) < PIN_LENGTH:
            self.entered += digit

    def clear(self) -> None:
        self.entered = ""

    def submit(self) -> bool:
        pin, self.entered = self.entered, ""
        wait = self.settings.locked_for()
        if wait > 0 or not self.settings.check_pin(pin):
            wait = self.settings.locked_for()
            self.message = (
                self.t("settings.pin_paused", count=int(wait) + 1)
                if wait > 0
                else self.t("settings.wrong_pin")
            )
            return False
        self.dismiss(animation=False)
        self.on_unlock()
        return True


class OperatorSettings(ModalView):
    title = StringProperty("")
    labels = ListProperty([])  # texts of the panel, in kv order
    volume = NumericProperty(0.8)
    pause = NumericProperty(DEFAULT_PAUSE)  # seconds each step of a spoken script leaves
    pauses = ListProperty(PAUSES)
    pin_warning = StringProperty("")
    message = StringProperty("")
    devices_text = StringProperty("")
    voice_text = StringProperty("")  # the voice the narration speaks with, or that none can

    def __init__(self, kiosk: Any, **kwargs: Any) -> None:
        self.kiosk = kiosk
        self.settings: KioskSettings = kiosk.settings
        super().__init__(**kwargs)
        self.volume = self.settings.volume
        self.pause = self.settings.pause
        self.refresh()

    @property
    def t(self) -> Messages:
        return Messages(self.kiosk.lang)

    def refresh(self) -> None:
        t = self.t
        self.title = t("settings.title")
        self.labels = [
            t("settings.end_game"),
            t("settings.phones"),
            t("settings.language"),
            t("settings.volume"),
            t("settings.rotation"),
            t("settings.wifi"),
            t("settings.wifi_name"),
            t("settings.wifi_password"),
            t("settings.save"),
            t("settings.new_pin"),
            t("settings.devices"),
            t("ui.phones.close"),
            t("settings.close_app"),
            t("settings.log_level"),
            t("settings.narration"),
        ]
        self.pin_warning = self._warnings()
        table = self.kiosk.table
        self.ids.end_game.disabled = table is None or table.is_over
        self.ids.phones.disabled = self.kiosk.open_phones is None
        self.ids.close_app.disabled = self.kiosk.close_app is None
        fill_choices(
            self.ids.languages,
            [
                (t(f"language.{code}"), code == self.kiosk.lang, partial(self.language, code))
                for code in kiosk_languages()
            ],
        )
        fill_choices(
            self.ids.rotations,
            [
                (
                    t("settings.degrees", count=r),
                    r == self.settings.rotation,
                    partial(self.rotate, r),
                )
                for r in ROTATIONS
            ],
        )
        fill_choices(
            self.ids.log_levels,
            [
                (
                    t(f"settings.log.{level}"),
                    level == self.settings.log_level,
                    partial(self.log_level, level),
                )
                for level in LEVELS
            ],
        )
        narration = (self.settings.narration, self.settings.announce_turns)
        fill_choices(
            self.ids.narration,
            [
                (t(f"settings.narration.{name}"), narration == on, partial(self.narrate, *on))
                for name, on in NARRATION
            ],
        )
        voice = self.kiosk.narrator.voice_name
        self.voice_text = t("settings.voice", name=voice) if voice else t("settings.no_voice")
        ssid, password = self.settings.wifi or ("", None)
        self.ids.ssid.value, self.ids.password.value = ssid, password or ""
        self.devices_text = "\n".join(self.kiosk.device_lines(t))

    def _warnings(self) -> str:
        """What the operator should know first: a settings file that could
        not be read (kept aside for support), a PIN still the default."""
        t, settings = self.t, self.settings
        lines = []
        if settings.set_aside is not None:
            lines.append(t("settings.file_set_aside", name=settings.set_aside.name))
        if settings.default_pin:
            lines.append(t("settings.default_pin"))
        return "\n".join(lines)

    def volume_text(self, volume: float) -> str:
        return self.t(
            "settings.volume_level", label=self.labels[3], percent=int(round(volume * 100))
        )

    def pause_text(self, seconds: float) -> str:
        return self.t("settings.pause", count=int(round(seconds)))

    # -- the operator's actions ---------------------------------------------
    def end_game(self) -> None:
        self.kiosk.end_game()
        self.dismiss(animation=False)

    def phones(self) -> None:
        self.dismiss(animation=False)
        self.kiosk.open_phones()

    def language(self, lang: str) -> None:
        self.kiosk.set_language(lang)
        self.refresh()

    def close_app(self) -> None:
        """The operator closes the kiosk (under its service, systemd opens it again)."""
        self.dismiss(animation=False)
        self.kiosk.close_app()

    def log_level(self, level: str) -> None:
        self.kiosk.set_log_level(level)
        self.refresh()

    def rotate(self, degrees: int) -> None:
        self.kiosk.rotate(degrees)
        self.refresh()

    def narrate(self, on: bool, turns: bool) -> None:
        self.kiosk.set_narration(on, turns)
        self.refresh()

    def on_volume(self, _panel: Any, value: float) -> None:
        self.kiosk.sounds.volume = value  # heard at once; saved on closing

    def on_dismiss(self) -> None:
        self.kiosk.set_volume(self.volume)
        self.kiosk.set_pause(self.pause)

    def save_wifi(self) -> None:
        self.settings.set_wifi(self.ids.ssid.value, self.ids.password.value)
        self.message = self.t("settings.saved")

    def save_pin(self) -> None:
        pin = self.ids.pin.value
        self.ids.pin.value = ""
        self.message = (
            self.t("settings.pin_changed")
            if self.settings.set_pin(pin)
            else self.t("settings.bad_pin")
        )
        self.pin_warning = self._warnings()
