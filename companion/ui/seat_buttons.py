"""Seat buttons on the screen, for a desktop with no GPIO header: each one
drives a simulated pin of the real pin map (gpiozero's mock pins), so a press
travels the same road as a real one (debounce, press, the table's controls).
A newcomer can play a whole game with the mouse; a developer can watch the
hardware path work without hardware. Each button is labelled with what a
press means now: the ballot's choice, a challenge, or its number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from ..devices.pinmap import PinMap
from ..i18n import Messages
from ..table import Committed, Table
from .direction import Row

Builder.load_file(str(Path(__file__).with_name("seat_buttons.kv")))


class PinButton(Button):
    """Held down, its pin is low (pressed: the buttons pull to ground)."""

    def __init__(self, factory: MockFactory, pin: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pin = factory.pin(pin)

    def on_press(self) -> None:
        self.pin.drive_low()

    def on_release(self) -> None:
        self.pin.drive_high()


class SeatButtons(ModalView):
    title = StringProperty("")
    close_text = StringProperty("")

    def __init__(
        self, pinmap: PinMap, factory: MockFactory, table: Table, lang: str, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.pinmap, self.factory, self.table = pinmap, factory, table
        self.t = Messages(lang, table.names)
        self.title = self.t("sim.title")
        self.close_text = self.t("ui.phones.close")
        self._buttons: list[tuple[int, PinButton]] = []
        self._build()
        table.subscribe(self._changed)
        self.bind(on_dismiss=lambda *_: table.unsubscribe(self._changed))

    def _build(self) -> None:
        rows = self.ids.rows
        for seat in self.pinmap.seats[: self.table.setup.players]:
            row = Row(spacing="6dp", size_hint_y=None, height="52dp")
            row.add_widget(SeatName(text=self.table.names[seat.seat]))
            for index, pin in enumerate(seat.buttons):
                button = PinButton(self.factory, pin)
                self._buttons.append((index, button))
                row.add_widget(button)
            rows.add_widget(row)
        if self.pinmap.gavel is not None:
            gavel = PinButton(
                self.factory,
                self.pinmap.gavel,
                text=self.t("sim.gavel"),
                size_hint_x=None,
                width="120dp",
            )
            self.ids.header.add_widget(gavel, index=1)
        self._label()

    def _changed(self, committed: Committed) -> None:
        if committed.table is self.table:
            self._label(committed.view)

    def _label(self, view: dict[str, Any] | None = None) -> None:
        meanings = button_meanings(view or self.table.public_view(), self.t)
        for index, button in self._buttons:
            button.text = (
                meanings[index]
                if index < len(meanings)
                else "–"
                if meanings
                else self.t.number(index + 1)
            )


class SeatName(Label):
    """A seat's name before its buttons, shortened rather than spilling over."""


def button_meanings(view: dict[str, Any], t: Messages) -> list[str]:
    """What seat button 1, 2, 3 … does now (see devices/controls.py)."""
    ballot = view.get("ballot")
    if ballot is not None:
        return [t(f"choice.{choice}") for choice in ballot["choices"]]
    pending = view.get("pending") or {}
    if view.get("phase") == "challenge" and pending.get("claim"):
        return [t("sim.challenge")] * 3
    return []
