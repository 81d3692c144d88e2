"""What every game's table screen shares: the table it shows, commands sent
through it with refusals in words, undo, the next game, time acting at the
table, the devices' health, and the ballot. A game's screen adds only how its
public view looks (``show``). Widgets show views and send commands; every rule
lives in the engine."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.widget import Widget

from ...games import spec_for
from ...games.base import RuleError
from ...i18n import Messages
from ...table import OPERATOR, Session, Table, Update
from ...table.store import StoreError
from ...table.table import UNDO
from ..panels.help_panel import HelpPanel
from ..panels.text_panel import TextPanel
from ..system.kiosk_settings import KioskSettings
from ..system.narrator import Narrator
from ..system.sounds import Sounds
from ..text.direction import writing
from ..text.measures import kept_measure
from ..widgets.buttons import CommandButton  # noqa: F401 - the bar's kv rule uses it

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


class TableBar(Layout):
    """The strip along the top: the game's name, a line of facts, a device
    the table misses, and the buttons for home, the rules, the log, phones,
    the next game and undo.

    Everything goes on one line where it fits: the name and its figures
    between Home and the other buttons, the figures beside the name (on up
    to two lines) or under it. Where the buttons leave the name too little
    room (a game's end adds Chart and New game; a portrait screen, a long
    language) the buttons take the whole width, in as many rows as they
    need, and the name and its figures follow the last row's buttons where
    they fit beside them, else go on their own line under them.
    The figures wrap only between figures (the game's words join a figure's
    parts with no-break spaces), never inside a word, and nothing is
    shortened. The buttons keep their place at the bar's top while its
    line grows or shrinks (a sound's caption)."""

    screen = ObjectProperty(None, rebind=True)
    spacing = NumericProperty(dp(6))
    button_height = NumericProperty(dp(52))
    apart = BooleanProperty(False)  # the name and figures on a line under the buttons
    height: float  # Kivy's, set by the layout (named for the type checker)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("pos", "size", "spacing", "children"):
            self.fbind(name, self._trigger_layout)
        writing.bind(rtl=self._rewrite)  # a bound method: held weakly

    def _rewrite(self, *_args: Any) -> None:
        self._trigger_layout()

    def on_kv_post(self, _base: Any) -> None:
        for label in (self.ids.title, self.ids.info):
            label.fbind("text", self._trigger_layout)
            label.fbind("font_size", self._trigger_layout)

    @staticmethod
    @kept_measure  # the same line measured again at every layout
    def measure(text: str, font_size: float, font_name: str, bold: bool) -> tuple[float, float]:
        """(the text's width on one line, its widest word's): the figures
        break only at plain spaces."""
        extents = CoreLabel(
            text=text, font_size=font_size, font_name=font_name, bold=bold
        ).get_cached_extents()
        words = [word for word in text.replace("\n", " ").split(" ") if word]
        return extents(text)[0], max((extents(word)[0] for word in words), default=0)

    @staticmethod
    @kept_measure
    def wrapped(
        text: str, font_size: float, font_name: str, bold: bool, width: float
    ) -> tuple[int, float]:
        """(lines, height) of the text wrapped at ``width``."""
        core = CoreLabel(
            text=text, font_size=font_size, font_name=font_name, bold=bold, text_size=(width, None)
        )
        height = core.render()[1]
        return len(core._cached_lines), height

    def _size(self, label: Label, width: float) -> tuple[int, float]:
        return self.wrapped(label.text, label.font_size, label.font_name, label.bold, width)

    def _widths(self, label: Label) -> tuple[float, float]:
        return self.measure(label.text, label.font_size, label.font_name, label.bold)

    def do_layout(self, *_args: Any) -> None:
        ids = self.ids
        if not ids:
            return
        title, info, gap = ids.title, ids.info, self.spacing
        shown = [w for w in self._buttons() if w.width > 0]
        hidden = [w for w in self._buttons() if w.width <= 0]
        home = [ids.home] if ids.home in shown else []
        tools = [w for w in shown if w is not ids.home]
        title_width = self._widths(title)[0] + dp(8)
        info_word = self._widths(info)[1] if info.text else 0
        # The heading in one row with every button; else the buttons in
        # rows and the heading after the last row's, where it fits there,
        # or on a line of its own under them (``apart``).
        rows: list[list[Widget | None]] = [[*home, None, *tools]]  # None: the heading's place
        room = self.width - sum(w.width + gap for w in shown)
        heading = self._heading(room, title_width, info_word, lines=2)
        self.apart = False
        if heading is None:
            rows = self._rows(home + tools, self.width)
            room = self.width - sum(w.width + gap for w in rows[-1] if w is not None)
            heading = self._heading(room, title_width, info_word, lines=2)
            if heading is None:
                self.apart = True
                room = self.width
                heading = self._heading(room, title_width, info_word, lines=None)
                assert heading is not None
            else:
                rows[-1].append(None)
        beside, heading_height = heading
        heights = [
            max(self.button_height, heading_height) if None in row else self.button_height
            for row in rows
        ]
        needed: float = sum(heights) + gap * (len(rows) - 1)
        if self.apart:
            needed += gap + heading_height
        if self.height != needed:
            self.height = needed
            return  # laid out again at the new height
        top = self.top
        for row, height in zip(rows, heights):
            x = self.x
            for widget in row:
                if widget is None:  # the name and figures centred beside the buttons
                    self._place_heading(x, top, room, height, beside, title_width)
                    x += room + gap
                    continue
                widget.size = widget.width, self.button_height
                widget.pos = x, top - self.button_height
                x += widget.width + gap
            top -= height + gap
        if self.apart:
            self._place_heading(self.x, top, room, heading_height, beside, title_width)
        for widget in hidden:  # out of the way of every touch
            widget.size = 0, 0
            widget.pos = self.x, self.top
        if writing.rtl:
            for widget in [title, info, *shown]:
                widget.x = self.x + self.right - widget.right

    def _buttons(self) -> list[Widget]:
        """Home, then the rest in order (the devices' alert among them)."""
        ids = self.ids
        return [
            ids[name]
            for name in (
                "home",
                "devices",
                "chart",
                "help",
                "log",
                "buttons",
                "phones",
                "new_game",
                "undo",
            )
        ]

    def _heading(
        self, room: float, title_width: float, info_word: float, lines: int | None
    ) -> tuple[bool, float] | None:
        """(the figures beside the name, the heading's height) in
        ``room``, with the figures on at most ``lines`` lines (None: as many
        as they need); None where the heading does not fit so."""
        title, info = self.ids.title, self.ids.info
        title_height = self._size(title, max(room, title_width))[1]
        if not info.text:
            return (True, title_height) if title_width <= room or lines is None else None
        beside = room - title_width - self.spacing
        if beside >= info_word:
            count, height = self._size(info, beside)
            if lines is None or count <= lines:
                return True, max(title_height, height)
        if max(title_width, info_word) <= room or lines is None:
            count, height = self._size(info, max(room, info_word))
            if lines is None or count <= lines:
                return False, title_height + height
        return None

    def _place_heading(
        self, x: float, top: float, width: float, height: float, beside: bool, title_width: float
    ) -> None:
        title, info = self.ids.title, self.ids.info
        if beside:
            title.text_size = title_width, None
            title.size = title_width, height
            title.pos = x, top - height
            info.text_size = max(0, width - title_width - self.spacing), None
            info.size = info.text_size[0], height
            info.pos = x + title_width + self.spacing, top - height
            return
        title.text_size = width, None
        title.size = width, self._size(title, width)[1]
        title.pos = x, top - title.height
        info.text_size = width, None
        info.size = width, height - title.height
        info.pos = x, top - height

    def _rows(self, widgets: list[Widget], width: float) -> list[list[Widget | None]]:
        """The buttons in rows of ``width``, in order."""
        rows: list[list[Widget | None]] = [[]]
        used = 0.0
        for widget in widgets:
            if rows[-1] and used + self.spacing + widget.width > width:
                rows.append([])
                used = 0.0
            used += (self.spacing if rows[-1] else 0) + widget.width
            rows[-1].append(widget)
        return rows


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
        session: Session | None = None,
        **kwargs: Any,
    ) -> None:
        """``session``: the kiosk's, whose updates the screen shows (None: a
        session of ``table`` alone)."""
        self.session = session or Session.around(table)
        self.news: Update | None = None  # the update being shown, while it is
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
        self.session.subscribe(self.updated)
        self.follow(table)

    def follow(self, table: Table) -> None:
        """Show ``table`` from now on (a new game takes the place of the one
        shown); the session follows it too (the kiosk keeps this screen for
        it), and its updates say what it commits."""
        self.table = table
        self.session.switch(table, OPERATOR)
        self.title_text = self.t(f"game.{table.setup.game}")
        self._ballot_open = table.ballot() is not None
        if self.narrator is not None:
            self.narrator.use(self.lang, table.spec.words.spoken_lines(self.t))
        self.refresh()

    def detach(self) -> None:
        """Stop following the session (the kiosk put another screen on it)."""
        self.session.unsubscribe(self.updated)
        if self._caption_end is not None:
            self._caption_end.cancel()  # the caption ends when back in sight (attach)
        self.leave()

    def attach(self, table: Table) -> None:
        """Follow the session again (the kiosk kept this screen out of
        sight, in its language, and shows it again): ``table`` as it is now,
        whatever it committed meanwhile, or a new game of it."""
        self.session.subscribe(self.updated)
        self.message_text = ""  # said to the table before it was hidden
        if self._caption_end is not None:
            self._caption_end.cancel()
            self._end_caption(0)
        self.on_attach()
        self.follow(table)

    def on_attach(self) -> None:
        """About to be put back in sight (attach): forget what this screen
        last saw, so that it takes the table as it is now as already heard,
        as a screen just built does: no cue the table made while it was out
        of sight (a timer's warning, a turn called) sounds or is said again.
        Each game's screen that cues what changed since its last look says
        what it forgets."""

    def leave(self) -> None:
        """The kiosk shows another page: say nothing more of what is queued
        (a screen reading a script aloud stops it), and close the rules at
        hand."""
        if self.narrator is not None:
            self.narrator.stop()
        if self._help is not None:
            self._help.dismiss()

    def updated(self, update: Update) -> None:
        """The session's news: a commit to show (``news`` while it is shown:
        its events say what just happened), or another game to follow."""
        if update.switched:
            if update.table is not self.table:
                self.follow(update.table)
            return
        self._cue_ballot(update)
        self.news = update
        try:
            self.refresh(update.view)
        finally:
            self.news = None

    def _news_holds(self, kind: str) -> bool:
        """Whether the update being shown committed an event of ``kind``."""
        return self.news is not None and any(e["type"] == kind for e in self.news.events)

    def _cue_ballot(self, update: Update) -> None:
        """Say that a ballot opened, or that its last vote revealed them all
        (not when an undo closes or reopens one: nothing was voted)."""
        was_open, self._ballot_open = self._ballot_open, update.ballot is not None
        if was_open == self._ballot_open or any(e["type"] == UNDO for e in update.events):
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
        buttons (the timer runs on, the ballot takes votes). A step counts
        as shown once this screen showed it in sight: one built ahead, out
        of sight, explains it when put in sight (in its language)."""
        if not self.table.setup.table.get("guide"):
            return
        if self._help is None and view["phase"] not in self._guided_steps():
            # Once the screen is in place (a new game's screen is shown after it follows).
            phase = view["phase"]
            Clock.schedule_once(lambda _dt: self._open_guide(phase), 0)

    def _guided_steps(self) -> set[str]:
        """The steps of the game shown whose guide this screen showed."""
        game = self.table.game_id
        if game not in self._guided:  # what the guide showed before a restart
            self._guided[game] = self.settings.guided(game) if self.settings else set()
        return self._guided[game]

    def _open_guide(self, phase: str) -> None:
        shown = self._guided_steps()
        if self._help is None and self.parent is not None and phase not in shown:
            shown.add(phase)
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
        from ..panels.chart_view import ChartPanel

        chart = self.table.spec.words.chart(self.table.public_history(), self.table.names, self.t)
        panel = ChartPanel(chart=chart, close_text=self.t("ui.phones.close"))
        panel.open(animation=False)
        return panel

    def tick(self) -> None:
        """Let time act at the table (a countdown ending) and show the time:
        what the host's tick does for the screen, for a test that moves the
        clock without a host."""
        self.session.tick()
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
