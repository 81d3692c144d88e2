"""The Secret Hitler table screen: both policy tracks with the power on each
slot, the election tracker, the danger zone and the veto, every seat with
what the table knows of it, the ballot, and the commands the table enters.

A command aimed at a seat (a nomination, a power, a vote or a night
confirmation entered for a seat) takes two taps: its button, then the seat's
panel (Cancel takes back the first tap; once votes are entered, Done keeps
them and Cancel takes them back). Every other command is one tap. Widgets only
show views and send commands through the table; every rule lives in the
engine, and the words in ``sh_words``.

In physical mode, before the first nomination, the screen offers to read the
night aloud (``night``): the rulebook's script for the table's size over the
screen, spoken, shown and paced (``ScriptView``). In keeper mode the night is
on the phones."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ...table import Table
from ...table.ballot import CLOSE, VOTE
from ...ui.panels.script_view import ScriptView
from ...ui.screens.table_screen import TableScreen
from ...ui.text.measures import kept_measure, words_fit_size
from ...ui.widgets.ballot_view import BallotView  # noqa: F401 - the kv rule below uses it
from ...ui.widgets.buttons import CommandButton
from ...ui.widgets.command_strip import SCREEN_OWN, StripItem
from ..views import PublicBallot
from .night import WRONG, night_script
from .palette import FASCIST, JA, LIBERAL, NEIN, NIGHT, PILES, ROLE_TEXT
from .words import (
    ballot_title,
    command_label,
    election_result,
    fascist_track,
    info_line,
    liberal_track,
    offices,
    pick_key,
    pick_label,
    pick_prompt,
    picked_seat,
    role_word,
    seat_details,
    seat_office,
    shown_waiting,
    status_line,
)

Builder.load_file(str(Path(__file__).with_name("screen.kv")))

VOTE_COLORS = {"ja": JA, "nein": NEIN}
ICON_GAP = dp(2)  # between a slot's icon and its word
EDGE = dp(3)  # a slot's margin either side of its word
MIN_ICON = dp(14)  # a slot's icon is never smaller

# Commands by pick key, and the seat each names. The waiting pick (None when
# there is none) is looked up in it directly: None is never a key.
PickGroups = dict[tuple | None, list[tuple[int, dict[str, Any]]]]


class TintedButton(CommandButton):
    """A command button in a colour of its own (a policy's party)."""

    tint = ListProperty(LIBERAL)


class PolicySlot(Label):
    """One cell of a track row: a policy slot, filled when a policy lies on
    it, with the power (or the win) it grants; the fascist slots of the
    Hitler zone are marked as the danger zone. Also the tracker's and the
    piles' cells."""

    filled = BooleanProperty(False)
    color_on = ListProperty(LIBERAL)
    danger = BooleanProperty(False)
    piece = StringProperty("")  # its tile or power, drawn where it fits
    spec = ObjectProperty(None, allownone=True)  # the game's, for its icons
    tall = BooleanProperty(False)
    side = NumericProperty(0)  # the icon's side
    shows_icon = BooleanProperty(False)

    @staticmethod
    @kept_measure  # the same words measured again at every layout
    def icon_fits(
        text: str,
        width: float,
        height: float,
        side: float,
        tall: bool,
        font_size: float,
        bold: bool,
        font_name: str,
    ) -> bool:
        """Whether the icon fits with the word (above it, or before it),
        the word as large as without it and no word broken."""
        if not text:
            return side <= min(width, height)
        room = width if tall else width - side - ICON_GAP
        if room < side:
            return False
        label = CoreLabel(
            text=text, font_size=font_size, bold=bold, font_name=font_name, text_size=(room, None)
        )
        if max(label.get_cached_extents()(word)[0] for word in text.split()) > room:
            return False  # a word would break
        label.refresh()
        return label.content_height + (side + ICON_GAP if tall else 0) <= height

    @staticmethod
    @kept_measure
    def short_side(
        text: str, width: float, height: float, font_size: float, bold: bool, font_name: str
    ) -> float:
        """The icon's side before the words in a short slot: the slot's
        height, or less where its longest word needs the room (an icon
        smaller than ``MIN_ICON`` is left out)."""
        longest = max(
            (
                CoreLabel(font_size=font_size, bold=bold, font_name=font_name).get_cached_extents()(
                    word
                )[0]
                for word in text.split()
            ),
            default=0,
        )
        side = min(height - dp(10), width - longest - ICON_GAP if text else height - dp(10))
        return side if side >= MIN_ICON else 0

    @staticmethod
    def word_size(text: str, width: float, largest: float, bold: bool, font_name: str) -> float:
        """The slot's type: ``largest``, or smaller (to sp(12), the size of
        a short slot's word) where its longest word would not fit the slot
        ("Φιλελευθέρων" in a portrait screen's narrow slot)."""
        return words_fit_size(text, width, largest, sp(12), bold, font_name)

    @staticmethod
    def icon_padding(beside_words: bool, side: float, tall: bool, rtl: bool) -> list[float]:
        """The word's room left to the icon: above it, or at its start."""
        if not beside_words:
            return [0, 0, 0, 0]
        if tall:
            return [0, side + ICON_GAP, 0, 0]
        return [0, 0, side + ICON_GAP, 0] if rtl else [side + ICON_GAP, 0, 0, 0]

    @staticmethod
    def icon_pos(
        pos: list[float],
        size: list[float],
        texture: list[float],
        side: float,
        tall: bool,
        words: bool,
        rtl: bool,
    ) -> tuple[float, float]:
        """Where the icon goes: centred alone, atop the words' block, or at
        the start of the words' line."""
        (x, y), (width, height) = pos, size
        centre_x, centre_y = x + width / 2, y + height / 2
        if not words:
            return centre_x - side / 2, centre_y - side / 2
        if tall:
            return centre_x - side / 2, centre_y + texture[1] / 2 - side
        start = x + width - EDGE - side if rtl else x + EDGE
        return start, centre_y - side / 2


class PolicyTrack(BoxLayout):
    """A track in one row: its name and state beside its cells."""

    stacked = BooleanProperty(False)
    title = StringProperty("")
    state_text = StringProperty("")
    state_color = ListProperty((1, 0.86, 0.45, 1))

    def fill(self, cells: list[dict[str, Any]]) -> None:
        """``cells``: each cell's PolicySlot properties, in order."""
        row = self.ids.slots
        if len(row.children) != len(cells):
            row.clear_widgets()
            for _ in cells:
                row.add_widget(PolicySlot())
        for slot, cell in zip(reversed(row.children), cells):
            for name, value in cell.items():
                setattr(slot, name, value)


class SeatPanel(ButtonBehavior, BoxLayout):
    """A seat: name, office and what the table knows of it; during a
    two-tap command the seats it may pick stand out and take the tap."""

    seat = NumericProperty(0)
    name = StringProperty("")
    details = StringProperty("")
    role_text = StringProperty("")
    role_color = ListProperty((1, 1, 1, 1))
    office = StringProperty("")
    badge = StringProperty("")  # beside the name: the role once known, else the office
    badge_color = ListProperty((1, 1, 1, 1))
    alive = BooleanProperty(True)
    in_office = BooleanProperty(False)
    waiting = BooleanProperty(False)
    picking = BooleanProperty(False)  # a two-tap command waits for a seat
    selectable = BooleanProperty(False)  # ... and this seat may be picked
    pick_action = ObjectProperty(None, allownone=True)
    tall = BooleanProperty(False)  # the seats' rows are tall: larger type
    role_under = BooleanProperty(False)  # the role shares no line with the name
    need = NumericProperty(0)  # the height that shows the seat's texts whole

    @staticmethod
    @kept_measure  # the same words measured again at every layout
    def text_height(text: str, font_size: float, font_name: str, width: float) -> float:
        """A text's height wrapped at ``width``."""
        if not text or width <= 1:
            return 0
        return CoreLabel(
            text=text, font_size=font_size, font_name=font_name, text_size=(width, None)
        ).render()[1]

    def on_release(self) -> None:
        if self.selectable and self.pick_action is not None:
            self.pick_action(self.seat)


class SecretHitlerTableScreen(TableScreen):
    status_text = StringProperty("")
    player_count = NumericProperty(5)
    picking = BooleanProperty(False)
    seat_growth = NumericProperty(0)  # what the seats' rows grow by in all, to show them whole

    def __init__(self, table: Table, lang: str = "en", **kwargs: Any) -> None:
        self._panels: list[SeatPanel] = []
        self.night: ScriptView | None = None  # the night being read, over the screen
        # A commit sets the seats one by one, each one's need moving: the
        # rows are fitted once, to what they all need, before the next frame.
        self._fit_soon = Clock.create_trigger(self._fit_seats, -1)
        super().__init__(table, lang=lang, **kwargs)

    def follow(self, table: Table) -> None:
        self._pick: tuple | None = None  # the two-tap command waiting for a seat
        self._entered: list[int] = []  # the votes this pick entered: their commands
        self._open_ballot: PublicBallot | None = None  # the open ballot last shown
        self._result_shown = False  # the last election's result is on screen
        super().follow(table)

    def leave(self) -> None:
        super().leave()
        self.close_night()

    # -- the night, read aloud (physical mode) -----------------------------------------
    @staticmethod
    def night_offered(view: dict[str, Any]) -> bool:
        """Before the first nomination of a physical game: the real envelopes
        were just opened. (Keeper mode's night is on the phones.)"""
        return (
            view["mode"] == "physical"
            and view["phase"] == "nominate"
            and view["round"] == 1
            and view["last_election"] is None
        )

    def read_night(self) -> ScriptView:
        """Read the rulebook's night for this table's size, over the screen."""
        self.close_night()
        t = self.t
        steps = [(t(step.key), step.act) for step in night_script(len(self.table.names))]
        night = ScriptView(t("sh.ui.night.title"), steps, t(WRONG), t, self.narrator, self.sounds)
        night.bind(on_dismiss=self._night_closed)
        self.night = night
        night.start()
        return night

    def close_night(self) -> None:
        if self.night is not None:
            self.night.close()

    def _night_closed(self, night: ScriptView) -> None:
        if self.night is night:
            self.night = None

    # -- two taps ---------------------------------------------------------------
    def start_pick(self, key: tuple) -> None:
        self._pick, self._entered = key, []
        self.refresh()

    def finish_pick(self) -> None:
        """The votes entered are kept; back to the table's commands."""
        self._pick, self._entered = None, []
        self.message_text = ""
        self.refresh()

    def cancel_pick(self) -> None:
        """Take back the first tap, and the votes it entered: newest first,
        each undone (the log says so) while it is still the table's latest
        entry (a phone's vote after it stays, and so do the ones before)."""
        entered, self._entered = self._entered, []
        self._pick = None
        self.message_text = ""
        for number in reversed(entered):
            if self.table.latest_entry != number or not self.undo():
                break
        self.refresh()

    def pick_seat(self, seat: int) -> bool:
        """The second tap: send the waiting command for ``seat``. A vote or
        a confirmation stays ready for the next seat while seats are left."""
        groups = self._pick_groups(self.table.shared_commands())
        command = dict(groups.get(self._pick, [])).get(seat)
        if command is None:
            return False
        vote = command["type"] == VOTE
        if vote:  # known before it is sent: the screen shows Done as it refreshes
            self._entered.append(self.table.next_command)
        if self.send(command):
            return True
        if vote:
            self._entered.pop()
        return False

    @staticmethod
    def _pick_groups(commands: list[dict[str, Any]]) -> PickGroups:
        groups: PickGroups = {}
        for command in commands:
            key = pick_key(command)
            if key is not None:
                groups.setdefault(key, []).append((picked_seat(command), command))
        return groups

    # -- output ------------------------------------------------------------------
    def show(self, view: dict[str, Any]) -> None:
        commands = self.table.shared_commands()
        groups = self._pick_groups(commands)
        if self._pick not in groups:
            self._pick, self._entered = None, []
        self.picking = self._pick is not None
        self.info_text = info_line(view, self.t)
        self.status_text = (
            pick_prompt(groups[self._pick][0][1], self.t)
            if self.picking
            else status_line(view, self.t)
        )
        self._show_tracks(view)
        self._show_players(view, {seat for seat, _ in groups.get(self._pick, [])})
        self._show_ballot(view)
        self._show_commands(commands, self.night_offered(view))

    def _show_tracks(self, view: dict[str, Any]) -> None:
        """Both tracks as on the boards (the game's words say each slot):
        the liberal one with the election tracker and the piles beside it,
        the fascist one with the power of each slot, the danger zone, and
        the veto's state."""
        t, spec = self.t, self.table.spec
        for widget, track, color in (
            (self.ids.liberal_track, liberal_track(view, t), LIBERAL),
            (self.ids.fascist_track, fascist_track(view, t), FASCIST),
        ):
            widget.title, widget.state_text = track["title"], track["state"]
            cells = [{**cell, "color_on": color, "spec": spec} for cell in track["cells"]]
            if "piles" in track:
                cells.append(
                    {"text": track["piles"], "filled": True, "color_on": PILES, "danger": False}
                )
            widget.fill(cells)

    def _show_players(self, view: dict[str, Any], pickable: set[int]) -> None:
        players = view["players"]
        self.player_count = len(players)
        grid = self.ids.players
        if len(self._panels) != len(players):
            grid.clear_widgets()
            self._panels = [SeatPanel(seat=p["seat"], pick_action=self.pick_seat) for p in players]
            for panel in self._panels:
                grid.add_widget(panel)
                panel.bind(need=self._fit_soon)
        waiting, in_office = shown_waiting(view), offices(view)
        for panel, p in zip(self._panels, players):
            panel.name = p["name"]
            panel.alive = p["alive"]
            # The office goes beside the name (the badge), unless the role
            # takes that place at a game's end: then it is said below.
            panel.role_text = role_word(p, self.t)
            panel.office = seat_office(view, p, self.t)
            panel.details = seat_details(view, p, self.t, office=bool(panel.role_text))
            panel.role_color = ROLE_TEXT.get(p["role"], (1, 1, 1, 1))
            panel.in_office = p["seat"] in in_office
            panel.waiting = p["seat"] in waiting
            panel.picking = self.picking
            panel.selectable = p["seat"] in pickable

    def _fit_seats(self, *_args: Any) -> None:
        """Grow each row of seats to what its fullest seat needs (a row
        whose seats fit keeps its height), by no more in all than the
        commands below can spare (they stay whole in sight). Where that is
        not enough, the ballot's chips fold away to give their room, an
        open one's too (the status line still counts the votes): a seat's
        name and badge never shorten, so rows short of their need would
        cut them. While the votes turn (the chips cannot fold), where the
        commands are cut anyway, the seats keep what they need."""
        grid, view, ballot = self.ids.players, self.ids.command_view, self.ids.ballot
        cols = max(1, grid.cols or 1)
        rows = [self._panels[start : start + cols] for start in range(0, len(self._panels), cols)]
        wanted = [max(0.0, max(p.need for p in row) - grid.base_row) for row in rows]
        room = view.height - self.ids.commands.height + self.seat_growth
        chips = ballot.chips_height + ballot.spacing  # the room folded chips give
        rest = ballot.ids.heading.height + ballot.ids.result.height + ballot.spacing * 2
        given = (chips if ballot.folded else 0) + (rest if ballot.put_away else 0)
        unfolded = room - given
        # Never a reveal's chips: the table is watching the votes turn.
        shown = bool(ballot.chips) and not ballot.revealing
        short = unfolded < -0.5 or sum(wanted) > unfolded + 0.5
        ballot.folded = shown and short
        # Still out of sight, folded: a closed ballot gives the rest of its room.
        closed = self._open_ballot is None and not ballot.revealing
        ballot.put_away = closed and ballot.folded and unfolded + chips < -0.5
        free = unfolded + (chips if ballot.folded else 0) + (rest if ballot.put_away else 0)
        if ballot.revealing and free < -0.5:
            # The commands are cut whatever the seats give up until the chips
            # may fold, when the votes have turned: the seats keep what they
            # need rather than shrink for nothing as the votes turn.
            free = sum(wanted)
        share = min(1.0, max(0.0, free) / sum(wanted)) if sum(wanted) else 0.0
        growths = [need * share for need in wanted]
        grid.rows_minimum = {row: grid.base_row + growth for row, growth in enumerate(growths)}
        if abs(sum(growths) - self.seat_growth) > 0.5:
            self.seat_growth = sum(growths)

    def _show_ballot(self, view: dict[str, Any]) -> None:
        """While the ballot is open: who has voted. When the last vote closes
        it: every vote turned at once, then the result. Otherwise the last
        election's result, still (after a restart, or an undone nomination)."""
        t, names = self.t, self.table.names
        ballot: PublicBallot | None = view["ballot"]
        was_open, self._open_ballot = self._open_ballot, ballot
        if ballot is not None:
            voted = set(ballot["voted"])
            self.ids.ballot.show_open(
                ballot_title(view["candidate"], view["nominee"], t),
                [(names[s], s in voted) for s in ballot["eligible"]],
                t("ui.ballot.voted"),
                t("ui.ballot.waiting"),
                [t(f"choice.{choice}") for choice in ballot["choices"]],
            )
            self._result_shown = False
            return
        election = view["last_election"]
        if election is None:
            self.ids.ballot.clear()
            return
        if self._result_shown:
            return
        # The last vote closed the ballot just shown: the update being
        # shown holds the closing (an undone nomination closes none).
        just_closed = was_open is not None and self._news_holds(CLOSE)
        title = ballot_title(election["president"], election["chancellor"], t)
        votes = [
            (names[seat], t(f"choice.{vote}"), VOTE_COLORS[vote])
            for seat, vote in enumerate(election["votes"])
            if vote is not None
        ]
        self.ids.ballot.reveal(
            title,
            votes,
            election_result(election, t),
            t("ui.ballot.voted"),
            animate=just_closed,
            waiting_text=t("ui.ballot.waiting"),
            choices=[t(f"choice.{choice}") for choice in VOTE_COLORS],
        )
        self._result_shown = True

    def _show_commands(self, commands: list[dict[str, Any]], night: bool) -> None:
        self.ids.commands.show(self._strip(commands, night))

    def _strip(self, commands: list[dict[str, Any]], night: bool) -> list[StripItem]:
        """While a pick waits for its seats: Done (once a vote is in) and
        Cancel. Otherwise the night (when offered), then each command: one
        tap, or the first of two for a command aimed at a seat."""
        if self._pick is not None:
            done = StripItem(self.t("sh.ui.done"), self.finish_pick, properties=SCREEN_OWN)
            cancel = StripItem(self.t("sh.ui.cancel"), self.cancel_pick, properties=SCREEN_OWN)
            return [done, cancel] if self._entered else [cancel]
        items = []
        if night:
            tint = {"tint": NIGHT}
            items.append(StripItem(self.t("sh.ui.night.read"), self.read_night, TintedButton, tint))
        offered: set[tuple] = set()
        for command in commands:
            key = pick_key(command)
            if key is None:
                items.append(self._one_tap(command))
            elif key not in offered:
                offered.add(key)
                items.append(StripItem(pick_label(command, self.t), partial(self.start_pick, key)))
        return items

    def _one_tap(self, command: dict[str, Any]) -> StripItem:
        policy = command.get("policy")
        text, send = command_label(command, self.t), partial(self.send, command)
        if policy is None:
            return StripItem(text, send)
        tint = {"tint": LIBERAL if policy == "liberal" else FASCIST}
        return StripItem(text, send, TintedButton, tint)
