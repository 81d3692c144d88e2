"""The console's actions on this table (companion/fleet/actions.py): one
station for the kiosk and for a headless table alike. What needs a screen
(a staff message, a seat's new code shown to scan, going home after the
game is ended) goes through the front end's screen hook; without one, a
message is refused and a re-paired seat's new link goes nowhere (phones
re-join by the links the operator prints, ``companion serve --print-links``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..fleet.actions import NO_PHONES, NO_SCREEN
from ..fleet.protocol import ActionRefused
from ..table import OPERATOR, Session, Table

if TYPE_CHECKING:
    from ..web.server import TableServer


class Screen(Protocol):
    """What a station's screen (the kiosk's) shows for the console."""

    def end_game(self) -> None:
        """End the game as the screen's own "End game" does (then home)."""
        ...

    def show_repair(self, seat: int) -> Any:
        """The seat's new join code, on screen to scan: what was put up."""
        ...

    def show_message(self, text: str) -> Any:
        """The staff's message, on screen until tapped away: what was put up."""
        ...


class Station:
    def __init__(self, session: Session, screen: Screen | None = None) -> None:
        self.session = session
        self.screen = screen
        self.phones: TableServer | None = None  # set once the phones are served
        self.shown: Any = None  # the panel or message the console put up last

    @property
    def table(self) -> Table | None:
        return self.session.table

    def end_game(self) -> None:
        if self.screen is not None:
            self.screen.end_game()
        else:
            self.session.end()

    def next_game(self) -> Table:
        # The session switches: the screen, devices, phones and fleet follow.
        return self.session.next_game(source=OPERATOR)

    def repair(self, seat: int) -> None:
        if self.phones is None:
            raise ActionRefused(NO_PHONES)
        if self.screen is not None:
            self.shown = self.screen.show_repair(seat)
        else:
            self.phones.repair(seat)

    def show_message(self, text: str) -> None:
        if self.screen is None:
            raise ActionRefused(NO_SCREEN)
        self.shown = self.screen.show_message(text)
