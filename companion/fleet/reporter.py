"""On the table's loop: what the fleet is told, and when.

A :class:`TableReporter` follows the kiosk's table (a new game is a new
``Table``), listens to its commits and offers the publisher a status built
from the public view each commit carries. That costs a small dict and no
I/O: the listener never touches the network. The loop's tick (the kiosk's
and ``companion serve``'s quarter-second look at the clock) refreshes the
time left every second while a timer runs, and the rest every few seconds
(phones that came or went, a game the operator ended).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from ..table import Committed, Table
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
        self.table: Table | None = None
        self._started_at: str | None = None
        self._status = idle_status(table_name)
        self._offered_at = float("-inf")

    def follow(self, table: Table | None) -> None:
        """Report on ``table`` from now on (None: no game, the kiosk at home)."""
        if self.table is not None:
            self.table.unsubscribe(self.committed)
        self.table = table
        if table is None:
            self._offer(idle_status(self.table_name))
            return
        self._started_at = started_at(table)
        table.subscribe(self.committed)
        self._offer(
            game_status(
                self.table_name, table, table.public_view(), self._started_at, self.phones()
            )
        )

    def committed(self, committed: Committed) -> None:
        """The table's listener: the status after this commit, handed over."""
        self._offer(
            game_status(
                self.table_name, committed.table, committed.view, self._started_at, self.phones()
            )
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
