"""The kiosk's screens: home, and the table screen of the game being played.
The kiosk follows the table's session (companion/table/session.py): whatever
starts a game (home, the table's own "new game", the console) switches the
session to it, and the kiosk shows it; the devices and phones follow the
session too."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import ObjectProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from ..i18n import Messages, direction
from ..paths import cache_dir, data_dir
from ..table import OPERATOR, EventStore, Session, Table, Update
from ..table.damage import StoreDamage, resume_active
from .screens.table_screen import TableScreen, screen_class
from .system.collector import freeze_what_lives, freeze_when_settled
from .system.kiosk_settings import KioskSettings, settings_path
from .system.narrator import Narrator
from .system.sounds import Sounds
from .text.direction import writing
from .text.fonts import kiosk_languages
from .widgets.touch_keyboard import keyboard

HOME, TABLE = "home", "table"
AHEAD_SECONDS = 4.0  # nothing happening this long: a screen in another language is built


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
        build_ahead: bool = False,
        **kwargs: Any,
    ) -> None:
        """``session``: the host's, which the kiosk follows (None: one of its
        own). ``build_ahead``: build the table screen in the kiosk's other
        languages while nothing happens (the app's kiosk; a kiosk measured
        or tested frame by frame builds them when it says, prepare_language)."""
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
        # The table screens of the game shown, by language: the one in sight
        # and those built ahead (see set_language).
        self.kept: dict[str, TableScreen] = {}
        self._ahead: Any = None  # the next one's trigger, if the kiosk builds them ahead
        self._quiet_since = 0.0  # when the last thing happened (time.monotonic)
        if build_ahead:
            self._ahead = Clock.create_trigger(self._build_ahead, AHEAD_SECONDS)
            # Every touch, the panels' and the touch keyboard's on the
            # window above the kiosk too (bound weakly: Kivy's WeakMethod).
            Window.bind(on_touch_down=self._touched, on_touch_move=self._touched)
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
        follows it (its own "New game"); either way the screens kept in
        other languages showed another game, and go."""
        self._postpone_ahead()
        if not update.switched:
            return
        if self.table_screen is not None and self.table_screen.table is update.table:
            if update.table is not self.table and len(self.kept) > 1:
                self._let_kept_go(but=self.table_screen)
                freeze_when_settled()  # the screens let go were frozen: thawed, they go
            self.table = update.table
        else:
            self._show(update.table)

    def _let_kept_go(self, but: TableScreen | None = None) -> None:
        """Forget the screens kept for the game shown until now (``but``
        the one in sight, which follows the new game itself)."""
        for kept in self.kept.values():
            if kept is not but:
                kept.detach()
                _stop_animations(kept)
        self.kept = {} if but is None else {but.lang: but}

    def _show(self, table: Table) -> None:
        """Put a new screen for ``table`` in sight; the screens kept in other
        languages showed another game, and go."""
        self._hide()
        self._let_kept_go()
        self.table = table
        self._put(self._build(table, self.lang), built=True)

    def _build(self, table: Table, lang: str, in_sight: bool = True) -> TableScreen:
        """A table screen in ``lang``, following the session; one built out
        of sight has no voice while it is built (it would take the kiosk's
        voice to its language)."""
        screen = screen_class(table.setup.game)(
            table,
            lang=lang,
            sounds=self.sounds,
            narrator=self.narrator if in_sight else None,
            settings=self.settings,
            session=self.session,
        )
        screen.go_home = self.go_home
        screen.open_phones = self.open_phones
        screen.open_buttons = self.open_buttons
        if self.device_statuses:
            screen.show_devices(self.device_statuses)
        self.kept[lang] = screen
        return screen

    def _hide(self) -> None:
        """The table screen in sight stops following its table (kept, if
        it is, out of sight)."""
        if self.table_screen is not None:
            self.table_screen.detach()
            self.table_screen = None

    def _put(self, screen: TableScreen, built: bool) -> None:
        """Put ``screen`` in sight; one just ``built`` is frozen once
        settled (a kept one was when it was built)."""
        page = self.get_screen(TABLE)
        page.clear_widgets()
        page.add_widget(screen)
        self.table_screen = screen
        self.current = TABLE
        if built:
            freeze_when_settled()
        self._postpone_ahead()

    def _in_language(self) -> None:
        """The table screen in the kiosk's language in sight: the one kept,
        shown the table as it is now, else one built now."""
        assert self.table is not None
        kept = self.kept.get(self.lang)
        self._hide()
        if kept is None:
            self._put(self._build(self.table, self.lang), built=True)
            return
        kept.attach(self.table)
        kept.open_phones, kept.open_buttons = self.open_phones, self.open_buttons
        kept.show_devices(self.device_statuses)
        self._put(kept, built=False)

    # -- the table screen in the other languages, built ahead ---------------
    def _postpone_ahead(self) -> None:
        """Something happened: the next screen built ahead waits for
        another quiet spell."""
        if self._ahead is None:
            return
        self._quiet_since = time.monotonic()
        self._ahead.cancel()
        if self.table is not None:
            self._ahead()

    def _touched(self, _window: Any, _touch: Any) -> bool:
        self._postpone_ahead()
        return False  # the touch goes on to what it touched

    def _busy(self) -> bool:
        """Whether something is going on that a build would stall: a panel
        or the touch keyboard open over the kiosk, a ballot being revealed,
        a sound or a spoken line playing."""
        if any(child is not self for child in Window.children):
            return True
        ballot = self.table_screen.ids.get("ballot") if self.table_screen else None
        if ballot is not None and ballot.revealing:
            return True
        return time.monotonic() < self.sounds.busy_until or self.narrator.queued

    def _build_ahead(self, _dt: float = 0) -> None:
        """While the table screen is in sight and nothing happens, build it
        in one more of the kiosk's languages, out of sight, so a switch to
        that language only puts it in sight (set_language)."""
        if self.current != TABLE or self.table is None:
            return
        # Kivy's clock counts from its last frame: a trigger armed while the
        # kiosk was built (before the first frame) comes too soon.
        if self._busy() or time.monotonic() - self._quiet_since < AHEAD_SECONDS:
            self._postpone_ahead()  # after the next quiet spell
            return
        missing = [lang for lang in kiosk_languages() if lang not in self.kept]
        if missing:
            self.prepare_language(missing[0])
            self._postpone_ahead()  # the next one after another quiet spell

    def prepare_language(self, lang: str) -> TableScreen:
        """The table screen in ``lang`` built out of sight, in that
        language's writing direction and at the page's size, laid out and
        its texts drawn as if it were shown; it follows nothing until it is
        (the one kept, if there is one)."""
        assert self.table is not None
        if lang in self.kept:
            return self.kept[lang]
        page = self.get_screen(TABLE)
        Clock.tick_draw()  # what waits to be drawn in sight, in its direction
        writing.use(lang)
        self._keep_drawn()
        try:
            screen = self._build(self.table, lang, in_sight=False)
            screen.detach()
            screen.narrator = self.narrator
            screen.size = page.size
            _lay_out(screen)
            _draw_texts(screen)
        finally:
            writing.use(self.lang)
            self._keep_drawn()
        # A kept screen lives as long as its game: frozen now, in the
        # stall this build takes anyway, rather than in a frame to come.
        freeze_what_lives()
        return screen

    def _keep_drawn(self) -> None:
        """The kiosk's writing direction just changed, and every label of
        the kept table screens that follows it (``halign:
        writing.start``) would be drawn again at the next frame, for
        nothing: each screen's texts are drawn in its own language's
        direction already, whether out of sight (it is only ever shown in
        that direction) or about to go out of sight (the table screen in
        the old language). Whatever waited to be drawn before the change was
        drawn first (``Clock.tick_draw``), so only that redraw is spared; a
        text a kept screen changes when back in sight is drawn as ever.

        A screen out of sight may still have laid a text out in the other
        direction (``laid_out_rtl``, :func:`.text.direction.note_laid_out_direction`):
        when its own direction comes back, that label is drawn again."""
        for screen in self.kept.values():
            own = direction(screen.lang) == "rtl"
            back = own == writing.rtl  # its direction again: it may be shown
            for widget in screen.walk(restrict=True):
                if not isinstance(widget, Label):
                    continue
                if back and getattr(widget._label, "laid_out_rtl", None) != own:
                    widget._trigger_texture()
                else:
                    widget._trigger_texture.cancel()

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
                self._in_language()  # the language changed while home was shown
            self.current = TABLE
            self._postpone_ahead()
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
        turned = writing.rtl != (direction(self.lang) == "rtl")
        if turned:
            Clock.tick_draw()  # what waits to be drawn, in the old direction (_keep_drawn)
        writing.use(self.lang)
        if turned:
            self._keep_drawn()
        keyboard().close()
        keyboard().use_language(self.lang, kiosk_languages())
        # Only the screen in sight changes now: the other does when next
        # shown (go_home refreshes home; resume puts the table screen in
        # this language in sight). The table screen in a language shown
        # before, or built ahead while nothing happened, is kept and only
        # put back in sight, showing the table as it is now; in a language
        # not built yet it is built now.
        if self._home is not None:
            self._home.choice.lang = self.lang
            if self.current == HOME:
                self._home.refresh()
        if self.table is not None and self.current == TABLE:
            self._in_language()

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


def _stop_animations(screen: Any) -> None:
    """Stop what Kivy still animates on a screen let go, so that the
    collection of the next freeze finds it dead (collector.py): Kivy holds
    a widget it animates until the animation ends, and a ScrollView greys
    its bars half a second after it last moved (once in an animation, which
    kept the old game's table screen through the freeze 3 frames after the
    next game's was shown, frozen with all its widgets)."""
    from kivy.animation import Animation
    from kivy.uix.scrollview import ScrollView

    for widget in screen.walk(restrict=True):
        Animation.cancel_all(widget)
        if isinstance(widget, ScrollView) and widget._bind_inactive_bar_color_ev is not None:
            widget._bind_inactive_bar_color_ev.cancel()


def _lay_out(widget: Any, most: int = 12) -> None:
    """Lay ``widget`` out and set its texts' lines now, as frames would (a
    layout that sizes a label makes its lines be set again, and that may
    grow the layout, and so on): Kivy's before-frame work, until it moves
    nothing more."""
    boxes = None
    for _ in range(most):
        Clock.tick_draw()
        now = [(*w.pos, *w.size) for w in widget.walk(restrict=True)]
        if now == boxes:
            return
        boxes = now


def _draw_texts(widget: Any) -> None:
    """Draw ``widget``'s texts into their textures now: Kivy draws a
    label's text only when its texture is first bound to be drawn, so a
    screen never shown would draw all of them in the frame that first shows
    it (a language switch: 205 M instructions instead of 28 M, 2026-12-06)."""
    for label in widget.walk(restrict=True):
        if isinstance(label, Label) and label.texture is not None:
            label.texture.bind()
