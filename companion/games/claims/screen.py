"""The table screen of the claim games (their specs name it,
``..claims.SCREEN``): the public state at a glance, the reference cards
and the tokens the game's words give, and one button per command the engine
accepts now. Widgets only show views and send commands through the table;
every rule lives in the engine, every word in the game's words."""

from __future__ import annotations

import math
from functools import partial
from pathlib import Path
from typing import Any

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
from kivy.uix.modalview import ModalView

from ...table import Table
from ...ui.screens.table_screen import TableScreen
from ...ui.text.measures import line_width
from ...ui.widgets.buttons import CommandButton
from ...ui.widgets.command_strip import StripItem
from ...ui.widgets.icon import IconView
from ..words import ReferenceCard as Card
from .words import CHALLENGE_CUE, COIN, command_groups, countdown_text

Builder.load_file(str(Path(__file__).with_name("screen.kv")))


class PlayerPanel(BoxLayout):
    """A seat's panel: its words (the game's ``panel_texts``), the coin
    beside its coins and the icons of the characters it turned up."""

    seat = NumericProperty(0)
    name = StringProperty("")
    spec = ObjectProperty(None, allownone=True)  # the game's, for its icons
    coin = StringProperty(COIN)
    revealed_pieces = ListProperty([])
    coins_text = StringProperty("")
    influence_text = StringProperty("")
    revealed_text = StringProperty("")
    tokens_text = StringProperty("")
    claims_text = StringProperty("")
    state_text = StringProperty("")  # the panel's colour in words: its turn, to answer, won
    current = BooleanProperty(False)
    waiting = BooleanProperty(False)
    out = BooleanProperty(False)
    scale = NumericProperty(1.0)  # the words' size, larger where the screen has room

    @staticmethod
    def coins_size(text: str, room: float, font_name: str, scale: float = 1.0) -> float:
        """The coins' type: the largest of three that sets them on one line
        in ``room`` beside the coin; where none does (six cards at 800 px
        are narrow: "10 νομίσματα"), the largest that sets each word whole,
        the words on two lines."""
        for size in (sp(26) * scale, sp(19) * scale, sp(15) * scale):
            if line_width(text, size, font_name) <= room:
                return size
        for size in (sp(19) * scale, sp(15) * scale, sp(14)):
            if ReferenceCard.word_width(text, size, font_name, False) <= room:
                return size
        return sp(13)

    @staticmethod
    def name_size(text: str, room: float, font_name: str, scale: float = 1.0) -> float:
        """The name's type: the largest of four whose longest word fits
        ``room`` ("Konstantinos" in one of six panels at 800 px); a name of
        several words wraps between them, never inside one, and is never
        shortened."""
        sizes = [sp(20) * scale, sp(18) * scale, sp(16) * scale, sp(14)]
        for size in sizes:
            if ReferenceCard.word_width(text, size, font_name, True) <= room:
                return size
        return sizes[-1]

    def on_revealed_pieces(self, _panel: Any, pieces: list[str]) -> None:
        self._show_revealed()

    def on_scale(self, _panel: Any, _scale: float) -> None:
        self._show_revealed()

    def _show_revealed(self) -> None:
        row = self.ids.revealed
        row.clear_widgets()
        for piece in self.revealed_pieces:
            row.add_widget(
                IconView(piece=piece, spec=self.spec, size_hint_x=None, width=dp(26) * self.scale)
            )


class ReferenceCard(ButtonBehavior, BoxLayout):
    """A character of the game the words keep in sight: its name (its icon
    before it, where the name leaves the room) and what it does. On a short
    screen the row shows only the names; a tap opens the card."""

    name = StringProperty("")
    text = StringProperty("")
    piece = StringProperty("")
    spec = ObjectProperty(None, allownone=True)  # the game's, for its icons
    compact = BooleanProperty(False)
    name_width = NumericProperty(0)  # the name's width on one line
    needed_height = NumericProperty(0)  # the height its name and words take

    @staticmethod
    def word_width(text: str, font_size: float, font_name: str, bold: bool) -> float:
        """The width of the text's longest word."""
        return max((line_width(w, font_size, font_name, bold) for w in text.split()), default=0)

    def on_release(self) -> None:
        if self.compact:
            CardView(name=self.name, text=self.text).open()


class CardView(ModalView):
    """A reference card read full size; any tap closes it."""

    name = StringProperty("")
    text = StringProperty("")


class StripButton(CommandButton):
    """A command in the strip: a third of the strip wide (its kv rule)."""

    widest = NumericProperty(0)  # a third of the strip
    tall = BooleanProperty(False)  # a tall screen: larger type and buttons


class ClaimTableScreen(TableScreen):
    picking: tuple | None = None  # (seat, action) tapped, waiting for its target
    status_text = StringProperty("")
    compact_reference = BooleanProperty(False)
    portrait = BooleanProperty(False)
    panels_height = NumericProperty(0)  # the height the fullest player panel needs
    reference_height = NumericProperty(0)  # the height the fullest reference card needs
    room = NumericProperty(0)  # the height the panels may take
    spare = NumericProperty(0)  # the height the panels and the reference cards may take
    MIN_CARDS = dp(130)  # the least height of the seats' cards (a name, coins, influence)
    countdown_text = StringProperty("")  # how long an unchallenged claim has left

    def __init__(self, table: Table, lang: str = "en", **kwargs: Any) -> None:
        self._panels: list[PlayerPanel] = []
        self._reference: list[Card] = []
        self._response_left: float | None = None  # the countdown at the last look
        self._turn_said: int | None = None  # the turn whose player was last called
        super().__init__(table, lang=lang, **kwargs)

    def on_attach(self) -> None:
        """Put back in sight: the countdown and the turn as if just shown
        (nothing to say of them until they change)."""
        self._response_left = self._turn_said = None

    def show_time(self) -> None:
        timer = self.table.timer()
        if timer is not None and timer.get("kind") != "response":
            timer = None  # only a claim's response countdown shows here
        left = None if timer is None else timer["remaining"]
        self.countdown_text = "" if timer is None else countdown_text(timer, self.t)
        before, self._response_left = self._response_left, left
        if left is not None and before is not None and before > CHALLENGE_CUE >= left:
            self.say("speech.claim.challenge_left", count=CHALLENGE_CUE)

    def _call_turn(self, view: dict[str, Any]) -> None:
        """Say whose turn it is, once a turn, where the operator asked for it."""
        if view["phase"] != "action" or self._turn_said == view["turn"]:
            return
        first = self._turn_said is None  # the screen just shown: nothing new to say
        self._turn_said = view["turn"]
        if not first and self.narrator is not None and self.narrator.turns:
            self.say("speech.claim.turn", player=view["current"])

    def show(self, view: dict[str, Any]) -> None:
        t, words = self.t, self.table.spec.words
        # A figure and its words stay on one line when the bar's line wraps.
        self.info_text = "   ".join(
            item.replace(" ", "\u00a0") for item in words.bar_items(view, t)
        )
        self.status_text = words.status_line(view, t)
        self._show_players(view)
        self._show_reference(words.reference_cards(view, t))
        self._show_commands(view)
        self._call_turn(view)

    def _show_reference(self, cards: list[Card]) -> None:
        if cards == self._reference:
            return
        self._reference = cards
        box = self.ids.reference
        box.clear_widgets()
        for card in cards:
            shown = ReferenceCard(
                name=card.name,
                text=card.text,
                piece=card.piece,
                spec=self.table.spec,
                compact=self.compact_reference,
            )
            shown.bind(needed_height=self._fit_reference)
            box.add_widget(shown)
        self._fit_reference()

    def reference_columns(
        self, cards: list[ReferenceCard], width: float, portrait: bool, compact: bool
    ) -> int:
        """The reference row's columns: three on a portrait screen; all the
        cards on a short one where their names and icons fit side by side,
        else half of them (two rows); all of them elsewhere."""
        if not cards:
            return 1
        if portrait:
            return min(3, len(cards))
        spacing = dp(6) * (len(cards) - 1)
        if compact and sum(card.size_hint_min_x or 0 for card in cards) + spacing > width:
            return math.ceil(len(cards) / 2)
        return len(cards)

    def _fit_reference(self, *_args: Any) -> None:
        self.reference_height = max(
            (card.needed_height for card in self.ids.reference.children), default=0
        )

    def on_compact_reference(self, _screen: Any, compact: bool) -> None:
        for card in self.ids.reference.children:
            card.compact = compact

    def _show_players(self, view: dict[str, Any]) -> None:
        grid = self.ids.players
        players = view["players"]
        if len(self._panels) != len(players):
            grid.clear_widgets()
            self._panels = [PlayerPanel(seat=p["seat"], spec=self.table.spec) for p in players]
            for panel in self._panels:
                panel.scale = self._scale()
                panel.ids.content.bind(minimum_height=self._fit_panels)
                grid.add_widget(panel)
        t, words = self.t, self.table.spec.words
        waiting = set(view["waiting_for"])
        for panel, p in zip(self._panels, players):
            texts = words.panel_texts(view, p, t)
            panel.name = p["name"]
            panel.out = p["out"]
            panel.current = p["seat"] in (view["current"], view["winner"])
            panel.waiting = p["seat"] in waiting
            panel.state_text = texts["state"]
            panel.coins_text = texts["coins"]
            panel.influence_text = texts["influence"]
            panel.revealed_text = texts["revealed"]
            panel.revealed_pieces = texts["revealed_pieces"]
            panel.tokens_text = "\n".join(texts["tokens"])
            panel.claims_text = "\n".join(texts["claims"])

    def _fit_panels(self, *_args: Any) -> None:
        self.panels_height = max(
            panel.ids.content.minimum_height + panel.padding[1] + panel.padding[3]
            for panel in self._panels
        )

    def _scale(self) -> float:
        """Larger words on a portrait screen, which has the height for them
        (larger still in a row of three cards or fewer: they are wider)."""
        if not self.portrait:
            return 1.0
        return 1.5 if len(self._panels) <= 3 else 1.25

    def on_portrait(self, _screen: Any, portrait: bool) -> None:
        for panel in self._panels:
            panel.scale = self._scale()
        for button in self.ids.commands.children:
            button.tall = portrait

    def _show_commands(self, view: dict[str, Any]) -> None:
        """One button per command, except where several differ only in a
        player: an action aimed at a player ("Steal from …") or
        helping one (a variant's command given ``to`` a player), or the same
        answer from each seat ("… challenges"). Those are two taps,
        the button then the player, so the choices fit the screen however
        many players and however long their names."""
        self.ids.commands.show(
            [
                StripItem(
                    text,
                    partial(self._pressed, command),
                    StripButton,
                    {"seat_command": seat_command, "tall": self.portrait},
                )
                for text, command, seat_command in self._command_buttons(view)
            ]
        )

    def _command_buttons(self, view: dict[str, Any]) -> list[tuple[str, Any, bool]]:
        """(text, command, whether a seat's) for each button of the strip."""
        label = self.table.spec.words.command_label
        commands = self.table.shared_commands()
        members = [c for c in commands if _pick_key(c) == self.picking]
        if self.picking is not None and members:
            picks = [(label(command, view, self.t), command, True) for command in members]
            return [*picks, (self.t("ui.cancel"), None, False)]
        self.picking = None
        counts: dict[tuple | None, int] = {}
        for command in commands:
            counts[_pick_key(command)] = counts.get(_pick_key(command), 0) + 1
        buttons: list[tuple[str, Any, bool]] = []
        picked = set()
        for seat, group in command_groups(commands):
            for command in group:
                key = _pick_key(command)
                if key is None or counts[key] < 2:
                    buttons.append((label(command, view, self.t), command, seat is not None))
                elif key not in picked:
                    picked.add(key)
                    # The dots stand for the player to tap next.
                    text = label({**command, key[0]: "…"}, view, self.t)
                    buttons.append((text, {"pick": key}, True))
        return buttons

    def _pressed(self, command: dict[str, Any] | None) -> None:
        """A command is sent; an action to aim waits for its target; Cancel
        (no command) drops the action chosen."""
        if command is None or "pick" in command:
            self.picking = None if command is None else command["pick"]
            self._show_commands(self.table.public_view())
            return
        self.picking = None
        self.send(command)


# The fields that name a player, in the order a command is grouped by them:
# whom an action aims at, whom it helps ("Cooperation with …"), who answers.
_PLAYER_FIELDS = ("target", "to", "seat")


def _pick_key(command: dict[str, Any]) -> tuple | None:
    """What a command shares with those that differ from it only in a
    player: ("target", the rest) for an aimed action, ("to", the rest) for
    one that helps a player, ("seat", the rest) for a seat's answer; None
    for a command of the whole table."""
    varying = next((field for field in _PLAYER_FIELDS if field in command), None)
    if varying is None:
        return None
    return (varying, tuple(sorted((k, repr(v)) for k, v in command.items() if k != varying)))
