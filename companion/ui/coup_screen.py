"""The first, plain table screen for the Coup family (Coup and Coup:
Rebellion G54): the public state at a glance, G54's five reference cards and
tokens, and one button per command the engine accepts now. Widgets only show
views and send commands through the table; every rule lives in the engine."""
from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView

from ..games.base import RuleError
from ..i18n import Messages
from ..table import OPERATOR, Table
from ..table.store import StoreError
from .present import command_groups, command_label, status_line, tokens_of

log = logging.getLogger(__name__)
Builder.load_file(str(Path(__file__).with_name("coup.kv")))

_RECENT_CLAIMS = 4


class CommandButton(Button):
    command = ObjectProperty(None, allownone=True)
    seat_command = BooleanProperty(True)


class PlayerPanel(BoxLayout):
    seat = NumericProperty(0)
    name = StringProperty("")
    coins_text = StringProperty("")
    influence_text = StringProperty("")
    revealed_text = StringProperty("")
    tokens_text = StringProperty("")
    claims_text = StringProperty("")
    current = BooleanProperty(False)
    waiting = BooleanProperty(False)
    out = BooleanProperty(False)


class ReferenceCard(ButtonBehavior, BoxLayout):
    """One of the five characters of a G54 game: its name and what it does.
    On a short screen the row shows only the names; a tap opens the card."""
    name = StringProperty("")
    text = StringProperty("")
    compact = BooleanProperty(False)

    def on_release(self) -> None:
        if self.compact:
            CardView(name=self.name, text=self.text).open()


class CardView(ModalView):
    """A reference card read full size; any tap closes it."""
    name = StringProperty("")
    text = StringProperty("")


class CoupTableScreen(BoxLayout):
    title_text = StringProperty("")
    info_text = StringProperty("")
    status_text = StringProperty("")
    message_text = StringProperty("")
    undo_text = StringProperty("")
    can_undo = BooleanProperty(False)
    game_over = BooleanProperty(False)
    compact_reference = BooleanProperty(False)
    new_game_text = StringProperty("")
    table = ObjectProperty(None)          # the game on screen (a new game replaces it)
    devices_text = StringProperty("")     # a device the table needs is not answering
    countdown_text = StringProperty("")   # how long an unchallenged claim has left
    phones_text = StringProperty("")
    open_phones = ObjectProperty(None, allownone=True)   # opens the phones panel, if served

    def __init__(self, table: Table, lang: str = "en", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.t = Messages(lang, table.names)
        self.undo_text = self.t("cmd.undo")
        self.new_game_text = self.t("ui.new_game")
        self.phones_text = self.t("ui.phones")
        self._panels: list[PlayerPanel] = []
        self._reference: list[str] = []
        self._attach(table)

    def _attach(self, table: Table) -> None:
        self.table = table
        self.title_text = self.t(f"game.{table.setup.game}")
        table.subscribe(lambda changed: self.refresh() if changed is self.table else None)
        self.refresh()

    # -- input --------------------------------------------------------------
    def send(self, command: dict[str, Any]) -> bool:
        """Send a command to the table; show a clear message if it is refused."""
        try:
            self.table.execute(command, source=OPERATOR)
        except RuleError as exc:
            self.message_text = self.t.error(exc)
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
        self._attach(table)
        return True

    def tick(self) -> None:
        """Let time act (an unchallenged claim's countdown ending), and show
        how long the open claim has left."""
        try:
            self.table.tick()
        except (RuleError, StoreError) as exc:
            log.warning("the table could not act on time: %s", exc)
        self._show_countdown()

    def _show_countdown(self) -> None:
        timer = self.table.engine.timer(self.table.state, self.table.clock())
        self.countdown_text = ("" if timer is None or timer.get("kind") != "response" else
                               self.t("ui.countdown", count=math.ceil(timer["remaining"])))

    def show_devices(self, statuses: list[dict[str, Any]]) -> None:
        """Say so when the button pad, once heard, stops answering (unplugged,
        hung): its seats' presses wait on the pad until it is back."""
        lost = any(status.get("device") == "pad" and status.get("session") is not None
                   and not status.get("online") for status in statuses)
        self.devices_text = self.t("ui.pad_offline") if lost else ""

    # -- output -------------------------------------------------------------
    def refresh(self) -> None:
        view = self.table.public_view()
        t = self.t
        roles = view.get("roles")           # G54: the five characters, no coin limit
        treasury = [] if roles else [t("ui.treasury", count=view["treasury"])]
        self.info_text = "   ".join([t("ui.turn", count=view["turn"]), *treasury,
                                     t("ui.court", count=view["court"])])
        self.status_text = status_line(view, t)
        self.can_undo = view["can_undo"]
        self.game_over = view["phase"] == "over"
        self._show_players(view)
        self._show_reference(roles or [])
        self._show_commands(view)
        self._show_countdown()

    def _show_reference(self, roles: list[str]) -> None:
        if roles == self._reference:
            return
        self._reference = roles
        box = self.ids.reference
        box.clear_widgets()
        for role in roles:
            box.add_widget(ReferenceCard(name=self.t(f"character.{role}"),
                                         text=self.t(f"g54.card.{role}"),
                                         compact=self.compact_reference))
        if roles:
            box.add_widget(ReferenceCard(name=self.t("action.income") + " · "
                                         + self.t("action.coup"),
                                         text=self.t("ui.general_actions"),
                                         compact=self.compact_reference))

    def on_compact_reference(self, _screen: Any, compact: bool) -> None:
        for card in self.ids.reference.children:
            card.compact = compact

    def _show_players(self, view: dict[str, Any]) -> None:
        grid = self.ids.players
        players = view["players"]
        if len(self._panels) != len(players):
            grid.clear_widgets()
            self._panels = [PlayerPanel(seat=p["seat"]) for p in players]
            for panel in self._panels:
                grid.add_widget(panel)
        t = self.t
        waiting = set(view["waiting_for"])
        for panel, p in zip(self._panels, players):
            panel.name = p["name"]
            panel.out = p["out"]
            panel.current = p["seat"] in (view["current"], view["winner"])
            panel.waiting = p["seat"] in waiting
            panel.coins_text = t("ui.coins", count=p["coins"])
            panel.influence_text = (t("ui.out") if p["out"] else
                                    "● " * p["influence"] + t("ui.influence", count=p["influence"]))
            panel.revealed_text = "  ".join(t(f"character.{c}") for c in p["revealed"])
            panel.tokens_text = "\n".join(tokens_of(view.get("tokens", {}), p["seat"], t))
            recent = p["claims"][-_RECENT_CLAIMS:]
            panel.claims_text = "\n".join(
                t(f"ui.claim.{c['result']}",
                  character=t(f"ui.claim_kind.{c['kind']}", character=c["character"]))
                for c in recent)

    def _show_commands(self, view: dict[str, Any]) -> None:
        box = self.ids.commands
        box.clear_widgets()
        for seat, commands in command_groups(self.table.shared_commands()):
            for command in commands:
                button = CommandButton(text=command_label(command, view, self.t),
                                       command=command, seat_command=seat is not None)
                button.bind(on_release=lambda b: self.send(b.command))
                box.add_widget(button)
