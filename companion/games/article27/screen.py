"""The Article 27 table screen: the round and the Secretary-General, the
negotiation's countdown with the on-screen gavel and the pause, the five
issues on the floor or the table (the SG taps one to move it), the agenda
track, the bribes on the board, the ballot, and the final scores.

Every command is at most two taps away: the board offers the gavel, the
pause and the issues itself; the strip below offers the rest, where a
command that needs a target (a player, an agenda, a score) is its action
then its target. Entering the final influence is the one exception: a
number is typed on a keypad before the agenda is tapped.

Sounds follow the table, not the buttons: a strike from the hardware gavel
or from the screen knocks alike, because both are a ``gavel`` event in the
table's log; so is time running out, whoever's tick noticed it."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from ...i18n import Messages
from ...paths import cache_dir
from ...table import Table
from ...ui.screens.table_screen import TableScreen
from ...ui.system.sounds import EXPIRY, GAVEL, WARNING, Sounds
from ...ui.text.direction import Row
from ...ui.widgets.ballot_view import BallotView  # noqa: F401 - the kv below places one
from ...ui.widgets.buttons import ChoiceButton, refill
from ...ui.widgets.command_strip import SCREEN_OWN, StripItem
from ...ui.widgets.icon import IconView
from ...ui.widgets.split_line import SplitLine
from ..palette import hex_colour
from ..views import PublicBallot
from .palette import (
    DISK_DOWN,
    DISK_DOWN_SIGN,
    DISK_LEFT_SIGN,
    DISK_UP,
    DISK_UP_SIGN,
    LEGEND,
    VOTES,
)
from .rules import AGENDAS
from .words import (
    WARNING_SECONDS,
    Action,
    actions,
    bribe_lines,
    clock_text,
    disks_left,
    floor_title,
    in_warning,
    info_line,
    issue_agenda,
    outcome_line,
    result_lines,
    sg_line,
    status_line,
    timer_caption,
    track_rows,
    vote_words,
)

MINUTE = 60  # seconds: the spoken "one minute left"
Builder.load_file(str(Path(__file__).with_name("screen.kv")))

MAX_INFLUENCE_DIGITS = 3  # the box holds 378 influence in all


class PieceWords(Row):
    """Words (its child ``Label``, sized to its text) with the icon of the
    piece they name before them, as tall as the words; no icon without a
    piece. It takes the size of both, for a :class:`SplitLine`."""

    piece = StringProperty("")
    spec = ObjectProperty(None, allownone=True)  # the game's, for its icons

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("spacing", dp(4))
        super().__init__(**kwargs)
        self._icon = IconView(size_hint=(None, None), size=(0, 0))
        self.add_widget(self._icon)  # the first child: at the start of the line
        self.bind(piece=self._fit, spec=self._fit, children=self._follow)

    def _follow(self, *_args: Any) -> None:
        for child in self.children:
            if child is not self._icon:
                child.bind(size=self._fit)
        self._fit()

    def _fit(self, *_args: Any) -> None:
        words = [child for child in self.children if child is not self._icon]
        height = max((child.height for child in words), default=0)
        # As tall as a line of the words (words on two lines keep it so).
        line = min((child.font_size * 1.2 for child in words), default=height)
        side = min(height, line) if self.piece and self.spec is not None else 0
        self._icon.piece, self._icon.spec = (self.piece, self.spec) if side else ("", None)
        self._icon.size = side, side
        # The icon is always a child, of no width without a piece: the row
        # still sets its spacing after it, and the size counts it.
        gaps = self.spacing * len(words)
        self.size = side + gaps + sum(child.width for child in words), height


class IssueTile(ButtonBehavior, BoxLayout):
    """One issue: its name and the agenda its disk shows; a tap moves it
    between the table and the floor when the SG may."""

    name = StringProperty("")
    agenda = StringProperty("")
    issue = StringProperty("")  # its piece, and the agenda's once revealed, for their icons
    agenda_piece = StringProperty("")
    spec = ObjectProperty(None, allownone=True)
    revealed = BooleanProperty(False)
    in_proposal = BooleanProperty(False)  # on the floor
    command = ObjectProperty(None, allownone=True)  # the move a tap sends
    share = NumericProperty(0)  # the height each tile has of the board


class TrackRow(SplitLine):
    agenda = StringProperty("")
    piece = StringProperty("")  # the agenda's, for its icon
    spec = ObjectProperty(None, allownone=True)
    disks = StringProperty("")
    value = StringProperty("")
    in_play = BooleanProperty(True)
    one_line = NumericProperty(0)  # the width that holds the agenda and its figures side by side


class LegendItem(Row):
    """One of the track legend's items: a disk, then what it means (a row
    of its own, so that a right-to-left language puts the disk first on
    the right; one markup label lays its parts out left to right)."""

    sign = StringProperty("")
    sign_colour = ListProperty(list(LEGEND))
    words = StringProperty("")


class DigitButton(Button):
    """A key of a keypad (the influence, the scores to announce): narrow, so
    ten fit a row at 800 px."""


class Prompt(Label):
    """What the strip asks for, before its choices."""


class Article27TableScreen(TableScreen):
    status_text = StringProperty("")
    sg_text = StringProperty("")
    countdown_text = StringProperty("")
    timer_caption = StringProperty("")
    timer_warning = BooleanProperty(False)  # the last 30 seconds
    clock_shown = BooleanProperty(False)  # before and during negotiation
    gavel_text = StringProperty("")
    gavel_command = ObjectProperty(None, allownone=True)
    pause_text = StringProperty("")
    pause_command = ObjectProperty(None, allownone=True)
    floor_title = StringProperty("")
    table_title = StringProperty("")
    board_shown = BooleanProperty(True)  # the issues (hidden once the rounds are over)
    compact_board = BooleanProperty(False)  # beside the ballot: the floor only
    tile_share = NumericProperty(0)
    track_title = StringProperty("")
    track_head = StringProperty("")
    track_width = NumericProperty(0)  # what the track's widest row needs on one line
    bribes_title = StringProperty("")
    bribes_text = StringProperty("")
    results_title = StringProperty("")
    results_text = StringProperty("")

    def __init__(
        self, table: Table, lang: str = "en", sounds: Sounds | None = None, **kwargs: Any
    ) -> None:
        # The kiosk's sounds, at the volume of its settings (a screen on its
        # own makes its own).
        sounds = sounds or Sounds(cache_dir() / "sounds")
        self._following: Table | None = None  # the table shown last
        self._remaining: float | None = None  # the countdown at the last look
        self._result_key: tuple | None = None  # the ballot result on screen
        self._tiles: dict[str, IssueTile] = {}
        self._rows: list[TrackRow] = []
        self._view: dict[str, Any] = {}
        self._commands: list[dict[str, Any]] = []
        self._picking: str | None = None  # the action waiting for its target
        self._unused: list[str] = []  # agendas tapped as put aside
        self._entry = ""  # influence typed for the final tally
        self._entry_seat: int | None = None
        super().__init__(table, lang=lang, sounds=sounds, **kwargs)

    # -- input ---------------------------------------------------------------------------
    def strike_gavel(self) -> bool:
        """The on-screen gavel: the very command the hardware gavel sends."""
        return self.gavel_command is not None and self.send(dict(self.gavel_command))

    def toggle_timer(self) -> bool:
        return self.pause_command is not None and self.send(dict(self.pause_command))

    def move_issue(self, tile: IssueTile) -> bool:
        return tile.command is not None and self.send(dict(tile.command))

    # -- output --------------------------------------------------------------------------
    def show(self, view: dict[str, Any]) -> None:
        first = self._following is not self.table
        self._hear(first)
        t = self.t
        self._view = view
        self._commands = self.table.shared_commands()
        self.info_text = info_line(view, t)
        self.status_text = status_line(view, t)
        self.sg_text = sg_line(view, t)
        self._show_clock(view)
        self._show_issues(view)
        self._show_ballot(view, animate=not first)
        self._show_track(view)
        self.bribes_title = t("a27.ui.bribes") if view["bribes"] else ""
        self.bribes_text = "\n".join(bribe_lines(view, t))
        over = view["phase"] == "over"
        self.results_title = t("a27.ui.results") if over else ""
        self.results_text = "\n".join(result_lines(view, t)) if over else ""
        self._show_commands()

    def on_attach(self) -> None:
        """Put back in sight: the table as if just shown (the countdown and
        the ballot's result already heard, _hear)."""
        self._following = None

    def show_time(self) -> None:
        timer = self.table.timer()
        self.clock_shown = timer is not None
        if timer is None:
            self.countdown_text = self.timer_caption = ""
            self.timer_warning = False
            self._remaining = None
            return
        remaining = timer["remaining"]
        self.countdown_text = clock_text(remaining, self.t)
        self.timer_caption = timer_caption(timer, self.t)
        self.timer_warning = in_warning(timer)
        if timer["running"] and self._remaining is not None:
            if self._remaining > MINUTE >= remaining > WARNING_SECONDS:
                self.say("speech.a27.one_minute")
            if self._remaining > WARNING_SECONDS >= remaining:
                self.sound(WARNING, count=WARNING_SECONDS)
                self.say("speech.a27.seconds_left", caption=False, count=WARNING_SECONDS)
        self._remaining = remaining

    def _hear(self, first: bool) -> None:
        """Sound what the update being shown committed (its events): a
        strike of the gavel (start or "Vote!"), time running out. A table
        just shown (the app restarted, a new game) has nothing new to sound."""
        if first:
            self._following, self._remaining = self.table, None
            return
        new = [event["type"] for event in self.news.events] if self.news is not None else []
        if "gavel" in new or "vote_called" in new:
            self.sound(GAVEL)
            key = "speech.a27.gavel.vote" if "vote_called" in new else "speech.a27.gavel.start"
            self.say(key, caption=False)
        if "timer_expired" in new:
            self.sound(EXPIRY)
            self.say("speech.a27.time_up", caption=False)

    def _show_clock(self, view: dict[str, Any]) -> None:
        t = self.t
        by_type = {
            c["type"]: c for c in self._commands if c["type"] in ("gavel", "pause", "resume")
        }
        self.gavel_command = by_type.get("gavel")
        self.gavel_text = t(
            "a27.ui.gavel.start" if view["phase"] == "ready" else "a27.ui.gavel.vote"
        )
        self.pause_command = by_type.get("pause") or by_type.get("resume")
        self.pause_text = t("a27.ui.resume" if "resume" in by_type else "a27.ui.pause")

    def _show_issues(self, view: dict[str, Any]) -> None:
        t = self.t
        phase = view["phase"]
        self.board_shown = phase not in ("final", "over")
        self.compact_board = view["ballot"] is not None or view["votes"] is not None
        self.floor_title = floor_title(view, t)
        self.table_title = t("a27.ui.table")
        moves = {c["issue"]: c for c in self._commands if c["type"] == "move"}
        if not self._tiles:
            self._tiles = {
                i["issue"]: IssueTile(share=self.tile_share, issue=i["issue"], spec=self.table.spec)
                for i in view["issues"]
            }
            for tile in self._tiles.values():
                tile.bind(on_release=self.move_issue)
        floor_box, table_box = self.ids.floor, self.ids.table
        floor_box.clear_widgets()
        table_box.clear_widgets()
        on_floor = {issue: n for n, issue in enumerate(view["floor"])}
        for issue in sorted(view["issues"], key=lambda i: on_floor.get(i["issue"], -1)):
            tile = self._tiles[issue["issue"]]
            tile.name = t(f"issue.{issue['issue']}")
            tile.revealed = issue["agenda"] is not None
            tile.agenda = issue_agenda(issue, t)
            tile.agenda_piece = issue["agenda"] or ""
            tile.in_proposal = issue["place"] == "floor"
            tile.command = moves.get(issue["issue"])
            if tile.in_proposal:
                floor_box.add_widget(tile)
            elif not self.compact_board:
                table_box.add_widget(tile)

    def on_tile_share(self, _screen: Any, share: float) -> None:
        for tile in self._tiles.values():
            tile.share = share

    def _show_ballot(self, view: dict[str, Any], animate: bool) -> None:
        """Who has voted while the ballot is open; every vote at once when
        it closes (shown still after a restart), with the outcome in words."""
        t, ballot = self.t, self.ids.ballot
        voted_text = t("ui.ballot.voted")
        open_ballot: PublicBallot | None = view["ballot"]
        if open_ballot is not None:
            voted = set(open_ballot["voted"])
            ballot.show_open(
                t("a27.ui.ballot_title"),
                [(t.names[s], s in voted) for s in open_ballot["eligible"]],
                voted_text,
                t("ui.ballot.waiting"),
                [vote_words(choice, t) for choice in open_ballot["choices"]],
            )
            self._result_key = None
            return
        if view["votes"] is None or view["phase"] == "over":
            ballot.clear()
            self._result_key = None
            return
        key = (self.table.game_id, view["round"], tuple(view["votes"]))
        if key == self._result_key:
            return
        self._result_key = key
        votes = [
            (t.names[seat], vote_words(choice, t), VOTES[choice])
            for seat, choice in enumerate(view["votes"])
        ]
        ballot.reveal(
            t("a27.ui.ballot_title"),
            votes,
            outcome_line(view, t),
            voted_text,
            animate=animate,
            waiting_text=t("ui.ballot.waiting"),
            choices=[vote_words(choice, t) for choice in VOTES],
        )

    def _show_track(self, view: dict[str, Any]) -> None:
        t = self.t
        self.track_title = t("a27.ui.track")
        self.track_head = t("a27.ui.track_head")
        refill(self.ids.legend, LegendItem, _legend_items(t), lambda _item: None)
        rows = track_rows(view, t)
        if not self._rows:
            self._rows = [TrackRow(spec=self.table.spec) for _ in AGENDAS]
            for widget in self._rows:
                self.ids.track.add_widget(widget)
                widget.bind(one_line=self._fit_track)
        for widget, row in zip(self._rows, rows):
            widget.agenda, widget.value = row["agenda"], row["value"]
            widget.piece = row["piece"]
            widget.in_play = row["in_play"]
            widget.disks = (
                _disk(True, row["up"])
                + _disk(False, row["down"])
                + DISK_LEFT_SIGN * disks_left(row)
            )

    def _fit_track(self, *_args: Any) -> None:
        self.track_width = max(row.one_line for row in self._rows)

    # -- the command strip -------------------------------------------------------------
    def _show_commands(self) -> None:
        types = {c["type"] for c in self._commands}
        if "unused" in types:
            items = self._unused_items()
        elif "final_tally" in types:
            items = self._final_items()
        else:
            items = self._action_items()
        self.ids.commands.show(items)

    def _action_items(self) -> list[StripItem]:
        menu = actions(self._commands, self._view, self.t)
        picking = next((a for a in menu if a.label == self._picking), None)
        lone = len(menu) == 1 and bool(menu[0].prompt)
        if picking is None and lone:
            picking = menu[0]  # its choices at once: one tap
        if picking is None:
            self._picking = None
            return [StripItem(action.label, partial(self._open, action)) for action in menu]
        kind = DigitButton if picking.scores else ChoiceButton
        items = [StripItem(picking.prompt, kind=Prompt)]
        items += [
            StripItem(label, partial(self._send_choice, command), kind)
            for label, command in picking.choices
        ]
        if not lone:
            items.append(StripItem(self.t("a27.ui.cancel"), self._cancel, properties=SCREEN_OWN))
        return items

    def _open(self, action: Action) -> None:
        if not action.prompt:  # no target to ask for
            self.send(dict(action.choices[0][1]))
            return
        self._picking = action.label
        self._show_commands()

    def _send_choice(self, command: dict[str, Any]) -> None:
        self._picking = None
        if not self.send(dict(command)):
            self._show_commands()

    def _cancel(self) -> None:
        self._picking = None
        self._show_commands()

    def _unused_items(self) -> list[StripItem]:
        """4-5 players: tap the agendas the table put aside; the last one
        needed sends them (a tap on a chosen one takes it back)."""
        return [
            StripItem(
                self.t(f"agenda.{agenda}"),
                partial(self._toggle_unused, agenda),
                ChoiceButton,
                {"chosen": agenda in self._unused},
            )
            for agenda in AGENDAS
        ]

    def _toggle_unused(self, agenda: str) -> None:
        if agenda in self._unused:
            self._unused.remove(agenda)
        else:
            self._unused.append(agenda)
        needed = len(next(c for c in self._commands if c["type"] == "unused")["agendas"])
        if len(self._unused) == needed:
            chosen, self._unused = sorted(self._unused), []
            if self.send({"type": "unused", "agendas": chosen}):
                return
        self._show_commands()

    def _final_items(self) -> list[StripItem]:
        """After the last round each player in turn types the influence
        behind their screen on the keypad, then taps their agenda."""
        tallies = [c for c in self._commands if c["type"] == "final_tally"]
        seat = tallies[0]["seat"]
        if seat != self._entry_seat:
            self._entry, self._entry_seat = "", seat
        entry = self.t("a27.ui.influence_entry", player=seat, amount=self._entry or "—")
        items = [StripItem(entry, kind=Prompt)]
        items += [
            StripItem(self.t.number(digit), partial(self._type, str(digit)), DigitButton)
            for digit in range(10)
        ]
        items.append(
            StripItem(self.t("a27.ui.erase"), partial(self._type, ""), properties=SCREEN_OWN)
        )
        agendas = list(dict.fromkeys(c["agenda"] for c in tallies))
        items += [
            StripItem(
                self.t(f"agenda.{agenda}"),
                partial(self._tally, seat, agenda),
                ChoiceButton,
                {"disabled": not self._entry},
            )
            for agenda in agendas
        ]
        return items

    def _type(self, digit: str) -> None:
        """A digit typed, or the last one erased ("")."""
        if not digit:
            self._entry = self._entry[:-1]
        elif len(self._entry) < MAX_INFLUENCE_DIGITS:
            self._entry = (self._entry + digit).lstrip("0") or "0"
        self._show_commands()

    def _tally(self, seat: int, agenda: str) -> None:
        if self.send(
            {"type": "final_tally", "seat": seat, "influence": int(self._entry), "agenda": agenda}
        ):
            return
        self._show_commands()


def _legend_items(t: Messages) -> list[dict[str, Any]]:
    """The track legend's items in reading order, each a disk sign, its
    colour and its words: the catalog's legend, whose items two spaces part."""
    signs = {DISK_UP_SIGN: DISK_UP, DISK_DOWN_SIGN: DISK_DOWN, DISK_LEFT_SIGN: LEGEND}
    legend = t("a27.ui.track_legend", up=DISK_UP_SIGN, down=DISK_DOWN_SIGN, left=DISK_LEFT_SIGN)
    items = []
    for item in legend.split("  "):
        sign = next(s for s in signs if s in item)
        words = item.replace(sign, "").strip()
        items.append({"sign": sign, "sign_colour": list(signs[sign]), "words": words})
    return items


def _disk(up: bool, count: int = 1) -> str:
    """Track disks in Kivy markup: face up and face down differ in shape and
    in colour."""
    sign, colour = (DISK_UP_SIGN, DISK_UP) if up else (DISK_DOWN_SIGN, DISK_DOWN)
    return f"[color={hex_colour(colour)}]{sign * count}[/color]" if count else ""
