"""On the table's loop: what the fleet is told, and when.

A :class:`TableReporter` follows the table's session (each game in turn),
and after each commit offers the publisher a status built from the public
view the session's update carries. That costs a small dict and no
I/O: the listener never touches the network. The host's tick (its
quarter-second look at the clock) refreshes the time left every second
while a timer runs, and the rest every few seconds
(phones that came or went, a game the operator ended).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from ..table import Session, Table, Update
from .status import Status, game_status, idle_status, refreshed, started_at, timer_running

TIMER_REFRESH = 1.0  # seconds between statuses while a timer runs
QUIET_REFRESH = 10.0  # seconds between looks at what no commit announces


class Publisher(Protocol):
    def offer(self, status: Status) -> None: ...


def no_phones() -> list[int]:
    return []


def no_health() -> dict[str, Any]:
    return {}


class TableReporter:
    def __init__(
        self,
        publisher: Publisher,
        table_name: str,
        phones: Callable[[], list[int]] = no_phones,
        clock: Callable[[], float] = time.monotonic,
        health: Callable[[], dict[str, Any]] = no_health,
        screen: bool = False,
    ) -> None:
        """``phones`` answers which seats have a phone connected now;
        ``health``, the table's own health fields (health.TableHealth);
        ``screen``, whether the table has a screen to show the staff's
        messages on (the kiosk; ``companion serve`` has none), which every
        status declares so the console offers only what the table can do."""
        self.health = health
        self.screen = screen
        self.publisher = publisher
        self.table_name = table_name
        self.phones = phones
        self.clock = clock
        self.session: Session | None = None  # the games it reports on, in turn
        self._started_at: str | None = None
        self._status = idle_status(table_name)
        self._offered_at = float("-inf")

    @property
    def table(self) -> Table | None:
        """The game reported on (None: no game yet, the kiosk at home)."""
        return None if self.session is None else self.session.table

    def attach(self, session: Session) -> None:
        """Report on ``session``'s games from now on, idle until it has one."""
        if self.session is not None:
            self.session.unsubscribe(self.updated)
        self.session = session
        session.subscribe(self.updated)
        self.report()

    def report(self) -> None:
        """Offer the status now (after a console's action changed the table)."""
        table = self.table
        if table is None:
            self._offer(idle_status(self.table_name))
            return
        self._started_at = started_at(table)
        self._offer(
            game_status(
                self.table_name, table, table.public_view(), self._started_at, self.phones()
            )
        )

    def follow(self, table: Table) -> None:
        """Report on ``table`` from now on (a tool's or a test's game: the
        reporter's session switches to it)."""
        if self.session is None:
            self.attach(Session.around(table))
        else:
            self.session.switch(table)

    def updated(self, update: Update) -> None:
        """The session's listener: the status after this commit (or the
        new game's), handed over."""
        if update.switched:
            self._started_at = started_at(update.table)
        self._offer(
            game_status(self.table_name, update.table, update.view, self._started_at, self.phones())
        )

    def tick(self) -> None:
        """From the loop's clock tick: refresh what changes between commits."""
        since = self.clock() - self._offered_at
        changed = any(self._status["health"].get(k) != v for k, v in self.health().items())
        if (
            changed
            or since >= QUIET_REFRESH
            or (since >= TIMER_REFRESH and timer_running(self._status))
        ):
            self._offer(refreshed(self._status, self.table, self.phones()))

    def _offer(self, status: Status) -> None:
        status = {**status, "screen": self.screen, "health": {**status["health"], **self.health()}}
        self._status = status
        self._offered_at = self.clock()
        self.publisher.offer(status)
