"""The console's actions on the kiosk (companion/fleet/actions.py): what
the kiosk's own buttons do, and the QR code or the message on its screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..fleet.actions import NO_PHONES
from ..fleet.protocol import ActionRefused
from ..table import OPERATOR, Table


class KioskStation:
    def __init__(self, kiosk: Any, phones_view: Callable[[], Any] | None) -> None:
        """``phones_view`` makes the phones panel (None: the kiosk serves no phones)."""
        self.kiosk = kiosk
        self.phones_view = phones_view
        self.shown: Any = None  # the panel or message the console put up last

    @property
    def table(self) -> Table | None:
        return self.kiosk.table

    def end_game(self) -> None:
        self.kiosk.end_game()  # as the settings' "End game"

    def next_game(self) -> Table:
        table = self.kiosk.table.next_game(source=OPERATOR)
        self.kiosk.show_table(table)  # devices, phones and the fleet follow
        return table

    def repair(self, seat: int) -> None:
        if self.phones_view is None:
            raise ActionRefused(NO_PHONES)
        view = self.phones_view()
        view.repair(seat)  # the new code, on screen for the seat to scan
        view.open()
        self.shown = view

    def show_message(self, text: str) -> None:
        from .panels.staff_message import StaffMessage

        message = StaffMessage(text, self.kiosk.lang)
        message.open()
        self.shown = message
