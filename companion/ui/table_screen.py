"""What every game's table screen shares: the table it shows, commands sent
through it with refusals in words, undo, the next game, time acting at the
table, the devices' health, and the ballot. A game's screen adds only how its
public view looks (``show``). Widgets show views and send commands; every rule
lives in the engine."""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ..games import spec_for
from ..games.base import RuleError
from ..i18n import Messages
from ..table import OPERATOR, Committed, Table
from ..table.store import StoreError
from ..table.table import UNDO
from .buttons import CommandButton  # noqa: F401 - the bar's kv rule uses it
from .direction import Row, writing
from .fonts import MEASURES_KEPT
from .help_panel import HelpPanel
from .kiosk_settings import KioskSettings
from .narrator import Narrator
from .sounds import Sounds
from .text_panel import TextPanel

log = logging.getLogger(__name__)

CAPTION_SECONDS = 4  # how long a sound's caption stays on the bar
Builder.load_file(str(Path(__file__).with_name("table_screen.kv")))


def screen_class(game: str) -> type[TableScreen]:
    """The kiosk screen a game's spec names (imported on demand), or the
    plain screen for a game that brings none."""
    screen = spec_for(game).screen()
    if screen is None:
        from .plain_screen import PlainTableScreen

        return PlainTableScreen
    return screen


class TableBar(Row):
    """The strip along the top: the game's name, a line of facts, a device
    the table misses, and the buttons for phones, the next game and undo."""

    screen = ObjectProperty(None, rebind=True)

    @staticmethod
    @lru_cache(maxsize=MEASURES_KEPT)
    def line_width(text: str, font_size: float, font_name: str) -> float:
        """The width of ``text`` on one line, in bold (what the bar says is
        missing: it wraps where that is more than the bar can spare)."""
        core = CoreLabel(text=text, font_size=font_size, font_name=font_name, bold=True)
        return float(core.get_extents(text)[0])

    @staticmethod
    @lru_cache(maxsize=MEASURES_KEPT)  # the same line measured again at every layout
    def stacks(room: float, text: str, font_size: float, font_name: str) -> bool:
        """Whether the game's line goes under the game's name: beside it,
        in ``room``, it would take more than two lines or break a word."""
        if not text or room <= 0:
            return bool(text)
        core = CoreLabel(text=text, font_size=font_size, font_name=font_name)
        if max(core.get_cached_extents()(word)[0] for word in text.split()) > room:
            return True
        wrapped = CoreLabel(
            text=text, font_size=font_size, font_name=font_name, text_size=(room, None)
        )
        wrapped.render()
        return len(wrapped._cached_lines) > 2


class TableScreen(BoxLayout):
    title_text = StringProperty("")
    info_text = StringProperty("")
    message_text = StringProperty("")
    undo_text = StringProperty("")
    can_undo = BooleanProperty(False)
    game_over = BooleanProperty(False)
    new_game_text = StringProperty("")
    table = ObjectProperty(None)  # the game on screen (a new game replaces it)
    devices_text = StringProperty("")  # a device the table needs is not answering
    caption_text = StringProperty("")  # the sound just played, in words
    phones_text = StringProperty("")
    open_phones = ObjectProperty(None, allownone=True)  # opens the phones panel, if served
    go_home = ObjectProperty(None, allownone=True)  # back to the home screen, if any
    open_buttons = ObjectProperty(None, allownone=True)  # simulated seat buttons, if no GPIO
    buttons_text = StringProperty("")
    home_text = StringProperty("")
    log_text = StringProperty("")
    chart_text = StringProperty("")
    help_text = StringProperty("")

    def __init__(
        self,
        table: Table,
        lang: str = "en",
        sounds: Sounds | None = None,
        narrator: Narrator | None = None,
        settings: KioskSettings | None = None,
        **kwargs: Any,
    ) -> None:
        self.sounds = sounds  # the kiosk's sounds, for games that sound
        self.narrator = narrator  # the kiosk's voice, for cues and scripts
        self.settings = settings  # the kiosk's, where "Got it" is remembered
        self.lang = lang
        self._ballot_open = False  # whether the table's ballot was open at the last look
        self._caption_end: Any = None  # the Clock event that clears the caption
        self._help: HelpPanel | None = None  # the rules at hand or the guide, while open
        self._guided: dict[int, set[str]] = {}  # by game: the steps the guide has shown
        writing.use(lang)  # before the kv rules lay the screen out
        super().__init__(**kwargs)
        self.t = Messages(lang, table.names)
        self.undo_text = self.t("cmd.undo")
        self.new_game_text = self.t("ui.new_game")
        self.phones_text = self.t("ui.phones")
        self.home_text = self.t("ui.home")
        self.log_text = self.t("ui.log")
        self.chart_text = self.t("ui.chart")
        self.buttons_text = self.t("ui.seat_buttons")
        self.help_text = self.t("help.button")
        self.follow(table)

    def follow(self, table: Table) -> None:
        """Show ``table`` from now on, and follow what it commits (a new
        game takes the place of the one shown)."""
        if self.table is not None:
            self.table.unsubscribe(self._changed)
        self.table = table
        self.title_text = self.t(f"game.{table.setup.game}")
        table.subscribe(self._changed)
        self._ballot_open = table.ballot() is not None
        if self.narrator is not None:
            self.narrator.use(self.lang, table.spec.words.spoken_lines(self.t))
        self.refresh()

    def detach(self) -> None:
        """Stop following the table (the kiosk put another screen on it)."""
        if self.table is not None:
            self.table.unsubscribe(self._changed)
        self.leave()

    def leave(self) -> None:
        """The kiosk shows another page: say nothing more of what is queued
        (a screen reading a script aloud stops it), and close the rules at
        hand."""
        if self.narrator is not None:
            self.narrator.stop()
        if self._help is not None:
            self._help.dismiss()

    def _changed(self, committed: Committed) -> None:
        if committed.table is self.table:
            self._cue_ballot(committed)
            self.refresh(committed.view)

    def _cue_ballot(self, committed: Committed) -> None:
        """Say that a ballot opened, or that its last vote revealed them all
        (not when an undo closes or reopens one: nothing was voted)."""
        was_open, self._ballot_open = self._ballot_open, self.table.ballot() is not None
        if was_open == self._ballot_open or any(e["type"] == UNDO for e in committed.events):
            return
        self.say("speech.ballot.open" if self._ballot_open else "speech.ballot.revealed")

    # -- input --------------------------------------------------------------
    def send(self, command: dict[str, Any]) -> bool:
        """Send a command to the table; show a clear message if it is refused."""
        try:
            self.table.execute(command, source=OPERATOR)
        except RuleError as exc:
            self.message_text = self.table.spec.words.refusal(exc, self.table.public_view(), self.t)
            return False
        except StoreError:
            log.exception("the store refused a write")
            self.message_text = self.t("error.unexpected")
            return False
        except Exception:
            log.exception("unexpected error while executing %s", command.get("type"))
            self.message_text = self.t("error.unexpected")
            return False
        self.message_text = ""
        return True

    def undo(self) -> bool:
        return self.send({"type": "undo"})

    def new_game(self) -> bool:
        """Start the next game at the same table: same seats, mode and options."""
        try:
            table = self.table.next_game(source=OPERATOR)
        except (RuleError, StoreError) as exc:
            log.warning("could not start a new game: %s", exc)
            self.message_text = self.t.error(exc)
            return False
        self.message_text = ""
        self.follow(table)
        return True

    def open_log(self) -> TextPanel:
        """The whole game's log, in words, newest last."""
        lines = [self.t.log_line(key, args) for key, args in self.table.log_lines()]
        panel = TextPanel(
            lines=lines,
            title=self.t("ui.log"),
            empty="",
            close_text=self.t("ui.phones.close"),
            from_end=True,
        )
        panel.open()
        return panel

    def open_help(self) -> HelpPanel:
        """The rules at hand: what is happening now and what each player may
        do, then the game's quick reference; it follows the table while open."""
        return self._open_help(
            HelpPanel(
                title=self.t("help.now"),
                reference_title=self.t("help.reference"),
                close_text=self.t("ui.phones.close"),
            )
        )

    def _guide(self, view: dict[str, Any]) -> None:
        """A first game (the table's ``guide`` setting): the first time a
        kind of step comes, say what it is, low on the screen, until a tap.
        Each kind once a game; nothing waits for the tap but the kiosk's own
        buttons (the timer runs on, the ballot takes votes)."""
        if not self.table.setup.table.get("guide"):
            return
        game = self.table.game_id
        if game not in self._guided:  # what the guide showed before a restart
            self._guided[game] = self.settings.guided(game) if self.settings else set()
        shown = self._guided[game]
        if view["phase"] in shown:
            return
        shown.add(view["phase"])
        if self._help is None:
            # Once the screen is in place (a new game's screen is shown after it follows).
            Clock.schedule_once(lambda _dt: self._open_guide(), 0)

    def _open_guide(self) -> None:
        if self._help is None and self.parent is not None:
            self._open_help(
                HelpPanel(title=self.t("help.guide"), close_text=self.t("help.got_it"), docked=True)
            )

    def _open_help(self, panel: HelpPanel) -> HelpPanel:
        if self._help is not None:
            self._help.dismiss()
        self._help = panel
        panel.bind(on_dismiss=self._help_closed)
        self._show_help(self.table.public_view())
        panel.open(animation=False)
        return panel

    def _help_closed(self, panel: HelpPanel) -> None:
        if self._help is panel:
            self._help = None
        if panel.docked and panel.acknowledged and self.settings is not None:
            game = self.table.game_id  # "Got it": not shown again, even after a restart
            self.settings.set_guided(game, self._guided.get(game, set()))

    def _show_help(self, view: dict[str, Any]) -> None:
        """The open panel says what the table's view is now."""
        if self._help is None:
            return
        words = self.table.spec.words
        self._help.now = words.explain(view, self.t)
        timer = self.table.timer()
        self._help.compact = self._help.docked and bool(timer and timer["running"])
        if not self._help.docked:
            self._help.reference = words.quick_reference(view, self.t)

    def open_chart(self) -> Any:
        """The finished game drawn round by round (its words say how)."""
        from .chart_view import ChartPanel

        chart = self.table.spec.words.chart(self.table.public_history(), self.table.names, self.t)
        panel = ChartPanel(chart=chart, close_text=self.t("ui.phones.close"))
        panel.open(animation=False)
        return panel

    def tick(self) -> None:
        """Let time act at the table (a countdown ending) and show the time."""
        try:
            self.table.tick()
        except (RuleError, StoreError) as exc:
            log.warning("the table could not act on time: %s", exc)
        self.show_time()

    def show_time(self) -> None:
        """Show the table's running time; a game with a clock says how."""

    def sound(self, name: str, **args: Any) -> None:
        """Play a sound and say it on the bar for a few seconds: a player
        who cannot hear it, or a muted kiosk, still sees what it meant."""
        if self.sounds is not None:
            self.sounds.play(name)
        self._caption(self.t(f"sound.{name}", **args))

    def say(self, key: str, caption: bool = True, **args: Any) -> None:
        """Say a line aloud, if the kiosk narrates, and on the bar (unless
        ``caption`` is False: a sound's caption just said the same). The line
        must be among the game's ``spoken_lines``, rendered ahead."""
        line = self.t(key, **args)
        if self.narrator is not None:
            self.narrator.say(line)
        if caption:
            self._caption(line)

    def _caption(self, text: str) -> None:
        self.caption_text = text
        if self._caption_end is not None:
            self._caption_end.cancel()
        self._caption_end = Clock.schedule_once(self._end_caption, CAPTION_SECONDS)

    def _end_caption(self, _dt: float) -> None:
        self.caption_text, self._caption_end = "", None

    def show_devices(self, statuses: list[dict[str, Any]]) -> None:
        """Say so when the button pad, once heard, stops answering (unplugged,
        hung): its seats' presses wait on the pad until it is back; and when
        the phones are off (their port could not be opened)."""
        missing = []
        for status in statuses:
            if status.get("device") == "pad" and status.get("link") == "lost":
                missing.append(self.t("ui.pad_offline"))
            elif status.get("device") == "phones" and not status.get("online"):
                missing.append(self.t("ui.phones_off", port=status["port"]))
        self.devices_text = " · ".join(missing)

    # -- output -------------------------------------------------------------
    def refresh(self, view: dict[str, Any] | None = None) -> None:
        """Show the table: ``view`` is its public view just committed (None:
        ask the table for it)."""
        self.t.names = list(self.table.names)  # a player may have renamed themselves
        if view is None:
            view = self.table.public_view()
        self.can_undo = view["can_undo"]
        self.game_over = view["phase"] == "over"
        self.show(view)
        self.show_time()
        self._show_help(view)
        self._guide(view)

    def show(self, view: dict[str, Any]) -> None:
        """How the game's public view looks: each game's screen says (the
        one its spec names, or PlainTableScreen); the base class alone draws
        no game."""
        raise NotImplementedError
