"""The kiosk's screens: home, and the table screen of the game being played.
The kiosk follows the table's session (companion/table/session.py): whatever
starts a game (home, the table's own "new game", the console) switches the
session to it, and the kiosk shows it; the devices and phones follow the
session too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from ..i18n import Messages
from ..paths import cache_dir, data_dir
from ..table import OPERATOR, EventStore, Session, Table, Update
from ..table.damage import StoreDamage, resume_active
from .screens.table_screen import TableScreen, screen_class
from .system.collector import freeze_when_settled
from .system.kiosk_settings import KioskSettings, settings_path
from .system.narrator import Narrator
from .system.sounds import Sounds
from .text.direction import writing
from .text.fonts import kiosk_languages
from .widgets.touch_keyboard import keyboard

HOME, TABLE = "home", "table"


class Kiosk(ScreenManager):
    table = ObjectProperty(None, allownone=True)  # the game on the table screen (the session's)
    open_phones = ObjectProperty(None, allownone=True)  # the phones panel, when served
    open_buttons = ObjectProperty(None, allownone=True)  # simulated seat buttons, if no GPIO
    close_app = ObjectProperty(None, allownone=True)  # the operator's way out (settings)

    def __init__(
        self,
        store: EventStore,
        table: Table | None,
        lang: str | None = None,
        settings: KioskSettings | None = None,
        sounds_dir: Path | None = None,
        damage: StoreDamage | None = None,
        session: Session | None = None,
        **kwargs: Any,
    ) -> None:
        """``session``: the host's, which the kiosk follows (None: one of its own)."""
        super().__init__(transition=NoTransition(), **kwargs)
        self.store = store
        self.session = session or Session(store)
        self.session.subscribe(self._updated)
        self.damage = damage or StoreDamage()  # what opening the store found: home tells
        self.settings = settings or KioskSettings(settings_path(store.path))
        self.lang = lang if lang in kiosk_languages() else self.settings.language
        writing.use(self.lang)
        keyboard().use_language(self.lang, kiosk_languages())
        self.table_screen: TableScreen | None = None
        sounds_dir = sounds_dir or cache_dir() / "sounds"
        self.sounds = Sounds(sounds_dir, self.settings.volume)
        self.narrator = Narrator(
            self.sounds,
            sounds_dir.with_name("speech"),  # spoken lines, beside the sounds
            data_dir() / "voices",
            enabled=self.settings.narration,
            turns=self.settings.announce_turns,
            pause=self.settings.pause,
        )
        self.device_statuses: list[dict[str, Any]] = []
        self.pinmap: Any = None  # the header's pin map, when it is used
        self._home: Any = None  # the HomeScreen, once shown
        self.add_widget(Screen(name=HOME))
        self.add_widget(Screen(name=TABLE))
        if self.settings.rotation:  # a portrait panel turned, as last set
            Window.rotation = self.settings.rotation
        if table is not None:
            self.show_table(table)
        else:
            self.go_home()
        # After the first frame: the sounds' files, so a start never waits on them.
        Clock.schedule_once(lambda _dt: self.sounds.prepare(), 0.5)

    @property
    def home(self) -> Any:
        """The home screen, built when first shown (a kiosk that resumes a
        game starts faster without it)."""
        if self._home is None:
            from .screens.home import HomeScreen

            self._home = HomeScreen(
                self.store,
                self.lang,
                damage=self.damage,
                on_table=self.show_table,
                on_resume=self.resume,
                on_settings=self.open_settings,
                on_language=self.set_language,
                with_pin=self.with_pin,
            )
            self.get_screen(HOME).add_widget(self._home)
            freeze_when_settled()
        return self._home

    def show_table(self, table: Table) -> None:
        """Put ``table`` on the table screen, in the kiosk's language (the
        session switches to it, which shows it)."""
        if table is self.session.table:
            self._show(table)
        else:
            self.session.switch(table, OPERATOR)

    def _updated(self, update: Update) -> None:
        """Another game at the table: shown, unless the table screen already
        follows it (its own "New game")."""
        if not update.switched:
            return
        if self.table_screen is not None and self.table_screen.table is update.table:
            self.table = update.table
        else:
            self._show(update.table)

    def _show(self, table: Table) -> None:
        if self.table_screen is not None:
            self.table_screen.detach()  # the old screen stops following its table
        screen = screen_class(table.setup.game)(
            table,
            lang=self.lang,
            sounds=self.sounds,
            narrator=self.narrator,
            settings=self.settings,
            session=self.session,
        )
        screen.go_home = self.go_home
        screen.open_phones = self.open_phones
        screen.open_buttons = self.open_buttons
        page = self.get_screen(TABLE)
        page.clear_widgets()
        page.add_widget(screen)
        self.table_screen = screen
        self.table = table
        self.current = TABLE
        freeze_when_settled()

    def on_open_phones(self, _kiosk: Any, opener: Callable[[], Any] | None) -> None:
        if self.table_screen is not None:
            self.table_screen.open_phones = opener

    def on_open_buttons(self, _kiosk: Any, opener: Callable[[], Any] | None) -> None:
        if self.table_screen is not None:
            self.table_screen.open_buttons = opener

    def go_home(self) -> None:
        if self.table_screen is not None:
            self.table_screen.leave()  # nothing read aloud over the home screen
        self.home.refresh()
        self.current = HOME

    def resume(self) -> None:
        """Back to the unfinished game: the one on the table screen if that is
        it (one Table per game, never two), else rebuilt from the store; one
        that cannot be rebuilt is set aside, and home says so."""
        active = self.store.active_game()
        if self.table is not None and active is not None and self.table.game_id == active.id:
            if self.table_screen is not None and self.table_screen.lang != self.lang:
                self.show_table(self.table)  # the language changed while home was shown
            self.current = TABLE
            return
        table, set_aside = resume_active(self.store)
        if table is None:
            self.home.damage = self.home.damage.and_set_aside(set_aside)
            self.go_home()
            return
        self.show_table(table)

    def show_time(self) -> None:
        """The table's time, as the host's tick has let it act."""
        if self.table_screen is not None:
            self.table_screen.show_time()

    def show_devices(self, statuses: list[dict[str, Any]]) -> None:
        self.device_statuses = statuses
        if self.table_screen is not None:
            self.table_screen.show_devices(statuses)

    # -- the operator's settings ---------------------------------------------
    def open_settings(self) -> Any:
        """The PIN pad, then the operator's settings (built on demand)."""
        from .panels.settings_view import OperatorSettings

        return self.with_pin(lambda: OperatorSettings(self).open(animation=False))

    def with_pin(self, action: Callable[[], Any], reason: str = "") -> Any:
        """Ask for the operator's PIN, saying why (``reason``; "": the
        settings, which the pad's title names), then do ``action``."""
        from .panels.settings_view import PinPad

        pad = PinPad(self.settings, Messages(self.lang), on_unlock=action, reason=reason)
        pad.open(animation=False)
        return pad

    def end_game(self) -> None:
        """The operator ends the unfinished game (kept in the history)."""
        self.session.end()
        self.go_home()

    def set_language(self, lang: str) -> None:
        """The kiosk's language, for home and the table screen alike."""
        self.settings.language = lang
        self.lang = self.settings.language
        writing.use(self.lang)
        keyboard().close()
        keyboard().use_language(self.lang, kiosk_languages())
        # Only the screen in sight is built again now: the other is, when
        # next shown (go_home refreshes home; resume rebuilds a table screen
        # in another language), so a switch costs one screen, not two.
        if self._home is not None:
            self._home.choice.lang = self.lang
            if self.current == HOME:
                self._home.refresh()
        if self.table is not None and self.current == TABLE:
            self.show_table(self.table)

    def set_log_level(self, level: str) -> None:
        """How much the log says, from now on and at every start."""
        from ..logs import configure_logging

        self.settings.log_level = level
        configure_logging(self.settings.log_level)

    def set_volume(self, volume: float) -> None:
        self.settings.volume = volume
        self.sounds.volume = self.settings.volume

    def set_narration(self, on: bool, turns: bool) -> None:
        """Whether the kiosk speaks, and whether it says whose turn it is."""
        self.settings.narration, self.settings.announce_turns = on, turns
        self.narrator.enabled, self.narrator.turns = on, turns
        if not on:
            self.narrator.stop()

    def set_pause(self, seconds: float) -> None:
        """How long each step of a spoken script leaves the table to act."""
        self.settings.pause = seconds
        self.narrator.pause = self.settings.pause

    def rotate(self, degrees: int) -> None:
        """Turn the picture (Touch Display 2 is a portrait panel; the kernel's
        rotation does not reach an app drawing through DRM)."""
        self.settings.rotation = degrees
        Window.rotation = self.settings.rotation

    def device_lines(self, t: Messages) -> list[str]:
        """The devices as the settings show them: each one's state, then the
        pin map's seats."""
        lines = []
        for status in self.device_statuses:
            # A pad never heard is none at this table: no fault to report.
            if status.get("device") == "pad" and status.get("link") is not None:
                online = status["link"] == "connected"
                lines.append(t("settings.pad_online" if online else "settings.pad_offline"))
            elif status.get("device") == "phones":
                lines.append(t("settings.phones_off", port=status["port"]))
        lines = lines or [t("settings.no_devices")]
        if self.pinmap is not None:
            lines += [
                t(
                    "settings.pinmap_seat",
                    number=seat.seat + 1,
                    pins=", ".join(str(pin) for pin in seat.buttons),
                )
                for seat in self.pinmap.seats
            ]
            if self.pinmap.gavel is not None:
                lines.append(t("settings.pinmap_gavel", pin=self.pinmap.gavel))
        return lines
