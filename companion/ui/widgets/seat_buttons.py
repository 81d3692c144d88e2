"""Seat buttons on the screen, for a desktop with no GPIO header: each one
drives a simulated pin of the real pin map (gpiozero's mock pins), so a press
travels the same road as a real one (debounce, press, the table's controls).
A newcomer can play a whole game with the mouse; a developer can watch the
hardware path work without hardware.

Each button is labelled with what a press means now (the ballot's choice, a
challenge), read from the table (``Table.ballot``, ``Table.open_claim``,
which a game's traits enable), as the controls answer it: a button that does
nothing now is disabled and says so. Each seat's row says what its presses
did ("voted", never what) since the panel covers the table's ballot row.
The panel is its game's: when the session moves to another game (the
console's next game) it closes.
The seats the pin map does not wire are named: they vote on their phones
or at the kiosk. The gavel is offered only in a game that declares one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView

from ...devices.pinmap import PinMap
from ...i18n import Messages
from ...table import Session, Table, Update, seat_source
from ..text.direction import Row

Builder.load_file(str(Path(__file__).with_name("seat_buttons.kv")))

DEVICE = "gpio"  # the channel the simulated header's presses come from


class PinButton(Button):
    """Held down, its pin is low (pressed: the buttons pull to ground). Its
    word stays on one line, in smaller type where the button is narrow
    ("Challenge" in two columns at 800 px), never broken."""

    def __init__(self, factory: MockFactory, pin: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pin = factory.pin(pin)
        self.bind(text=self._fit, width=self._fit)
        self._fit()

    def _fit(self, *_args: Any) -> None:
        self.font_size = sp(16)
        self.texture_update()
        while self.texture_size[0] > self.width - dp(8) and self.font_size > sp(12):
            self.font_size = max(sp(12), self.font_size * 0.9)
            self.texture_update()

    def on_press(self) -> None:
        self.pin.drive_low()

    def on_release(self) -> None:
        self.pin.drive_high()


class SeatName(BoxLayout):
    """A seat's name before its buttons, shortened rather than spilling
    over, and under it what its presses did (``status``)."""

    name = StringProperty("")
    status = StringProperty("")


class SeatButtons(ModalView):
    title = StringProperty("")
    close_text = StringProperty("")
    unwired_text = StringProperty("")  # the seats that have no buttons, and where they vote

    def __init__(
        self,
        pinmap: PinMap,
        factory: MockFactory,
        table: Table,
        lang: str,
        session: Session | None = None,
        **kwargs: Any,
    ) -> None:
        """``session``: the one the kiosk follows (None: ``table``'s alone)."""
        super().__init__(**kwargs)
        self.pinmap, self.factory, self.table = pinmap, factory, table
        self.t = Messages(lang, table.names)
        self.title = self.t("sim.title")
        self.close_text = self.t("ui.phones.close")
        self._buttons: list[tuple[int, int, PinButton]] = []  # seat, index, button
        self._names: dict[int, SeatName] = {}
        self._taken: int | None = None  # the seat whose press the last commit was
        self.gavel: PinButton | None = None
        self._build()
        self.session = session or Session.around(table)
        self.session.subscribe(self._updated)
        self.bind(on_dismiss=lambda *_: self._stop_following(own=session is None))

    def _build(self) -> None:
        rows = self.ids.rows
        players = self.table.setup.players
        wired = [seat for seat in self.pinmap.seats if seat.seat < players]
        for seat in wired:
            row = Row(spacing="6dp", size_hint_y=None, height="52dp")
            name = SeatName(name=self.table.names[seat.seat])
            self._names[seat.seat] = name
            row.add_widget(name)
            for index, pin in enumerate(seat.buttons):
                button = PinButton(self.factory, pin)
                self._buttons.append((seat.seat, index, button))
                row.add_widget(button)
            rows.add_widget(row)
        unwired = sorted(set(range(players)) - {seat.seat for seat in wired})
        if unwired:
            self.unwired_text = self.t(
                "sim.unwired", players=self.t.join(self.table.names[s] for s in unwired)
            )
        if self.pinmap.gavel is not None and self.table.spec.traits.gavel:
            self.gavel = PinButton(
                self.factory,
                self.pinmap.gavel,
                text=self.t("sim.gavel"),
                size_hint_x=None,
                width="120dp",
            )
            self.ids.header.add_widget(self.gavel, index=1)
        self._label()

    def _stop_following(self, own: bool) -> None:
        self.session.unsubscribe(self._updated)
        if own:  # the panel's own session of its table: done with it
            self.session.close()

    def _updated(self, update: Update) -> None:
        if update.switched:  # another game: its seats and buttons are not these
            self.dismiss()
            return
        self._taken = next(
            (seat for seat in self._names if update.source == seat_source(seat, DEVICE)),
            None,
        )
        self._label()

    def _label(self) -> None:
        """Each button says what it does now, or is disabled; each row says
        what the seat's presses did."""
        table, t = self.table, self.t
        ballot = table.ballot()
        claim = None if ballot is not None else table.open_claim()
        voted = set(table.voted()) if ballot is not None else set()
        for seat, index, button in self._buttons:
            meaning = None
            if ballot is not None:
                if seat in ballot["eligible"] and index < len(ballot["choices"]):
                    meaning = t(f"choice.{ballot['choices'][index]}")
            elif claim is not None and seat != claim["claimant"]:
                meaning = t("sim.challenge")
            button.text = meaning or t("sim.idle")
            button.disabled = meaning is None
        for seat, name in self._names.items():
            name.status = (
                t("ui.ballot.voted")
                if seat in voted
                else t("sim.taken")
                if seat == self._taken and ballot is None
                else ""
            )
        if self.gavel is not None:
            self.gavel.disabled = table.gavel_command() is None
