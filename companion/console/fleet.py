"""The console's view of the fleet: one :class:`TableView` per table, from
its retained status and online messages, and the alerts the console derives
from them (some by how long a state has lasted, timed by the console)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..fleet import protocol

GIB = 1024**3
DISK_LOW = GIB  # bytes free below which a table's disk is low
PAUSED_LONG = 600.0  # seconds a timer may stay paused with time left
EXPIRED_IDLE = 60.0  # seconds a timer may stay at zero with nobody acting
REPLY_SECONDS = protocol.LIFETIME  # how long an action waits for its reply

OFFLINE, PAD_LOST, DISK_LOW_ALERT, PAUSED, EXPIRED, ERROR = (
    "offline",
    "pad_lost",
    "disk_low",
    "paused_long",
    "expired",
    "last_error",
)
STATES = ("playing", "finished", "idle", "offline", "alerts")


@dataclass
class Pending:
    """An action sent to a table, and its fate: waiting, ok, refused, no_answer."""

    id: str
    action: str
    fate: str = "waiting"
    key: str | None = None
    args: dict[str, Any] = field(default_factory=dict)


@dataclass
class TableView:
    name: str
    status: dict[str, Any] | None = None
    online: bool | None = None
    paused_since: float | None = None
    expired_since: float | None = None
    had_game: bool = False
    pending: Pending | None = None
    signed: bool = False  # its status is signed with the café's key (.trust)

    @property
    def state(self) -> str:
        if self.online is False:
            return "offline"
        return str((self.status or {}).get("state") or "idle")

    @property
    def health(self) -> dict[str, Any]:
        health = (self.status or {}).get("health")
        return health if isinstance(health, dict) else {}

    @property
    def timer(self) -> dict[str, Any] | None:
        timer = (self.status or {}).get("timer")
        if isinstance(timer, dict) and isinstance(timer.get("remaining"), int | float):
            return timer
        return None

    @property
    def names(self) -> list[str]:
        players = (self.status or {}).get("players")
        names = players.get("names") if isinstance(players, dict) else None
        return [str(name) for name in names] if isinstance(names, list) else []

    @property
    def screen(self) -> bool:
        """The table says it has a screen for the staff's messages."""
        return (self.status or {}).get("screen") is True

    @property
    def game_id(self) -> int | None:
        game_id = (self.status or {}).get("game_id")
        return game_id if type(game_id) is int else None

    def alerts(self, now: float) -> list[str]:
        found = []
        if self.online is False:
            found.append(OFFLINE)
        health = self.health
        if health.get("pad") == "lost":
            found.append(PAD_LOST)
        disk = health.get("disk_free")
        if isinstance(disk, int | float) and disk < DISK_LOW:
            found.append(DISK_LOW_ALERT)
        if self.paused_since is not None and now - self.paused_since > PAUSED_LONG:
            found.append(PAUSED)
        if self.expired_since is not None and now - self.expired_since > EXPIRED_IDLE:
            found.append(EXPIRED)
        if isinstance(health.get("last_error"), dict):
            found.append(ERROR)
        return found

    def take_status(self, status: dict[str, Any], now: float) -> None:
        self.status = status
        if self.game_id is not None:
            self.had_game = True
        timer = self.timer
        # Paused, as the table says: a timer that never ran is no pause
        # (nor is one from a table too old to say).
        paused = timer is not None and timer.get("paused") is True and timer["remaining"] > 0
        expired = timer is not None and timer["remaining"] <= 0
        if not paused:
            self.paused_since = None
        elif self.paused_since is None:
            self.paused_since = now
        if not expired:
            self.expired_since = None
        elif self.expired_since is None:
            self.expired_since = now


def parse(payload: bytes) -> dict[str, Any] | None:
    """A message's JSON object, or None for anything else."""
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None
