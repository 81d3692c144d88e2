"""A table's public status, as the fleet publishes it (docs/cafe.md).

Built only from the public view a commit carries and from public table facts
(the game, its mode, the seats' names, whether it is over, when it began):
never from a private view, a ballot's votes or the engine's state, so nothing
in it can be a seat's secret. Each status is a new dict that nobody changes
once made: the publisher's thread reads it while the loop makes the next.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from .. import __version__
from ..games.views import Timer, View
from ..i18n import LANGUAGES

if TYPE_CHECKING:
    from ..table import Table

PLAYING, FINISHED, IDLE = "playing", "finished", "idle"
# How far a game has come, in the words its public view uses: each key is
# published when the view has it as a number or a word (a game that counts
# turns has "turn", one that counts rounds "round" and perhaps "rounds").
ProgressKey = Literal["phase", "round", "rounds", "turn"]
PROGRESS: tuple[ProgressKey, ...] = ("phase", "round", "rounds", "turn")


class PublicTimer(TypedDict):
    running: bool
    paused: bool
    remaining: float


class Players(TypedDict):
    count: int
    names: list[str]


class Progress(TypedDict, total=False):
    """The progress keys a game's public view has (see ``PROGRESS``)."""

    phase: int | str
    round: int | str
    rounds: int | str
    turn: int | str


class Status(Progress):
    """A table's status as published (docs/cafe.md describes each field)."""

    table: str
    version: str
    state: str  # PLAYING, FINISHED or IDLE
    game: str | None
    mode: str | None
    game_id: int | None
    started_at: str | None
    players: Players
    line: dict[str, str] | None  # the status line, by language
    timer: PublicTimer | None
    # The seats with a phone connected ("phones"), and the machine's health
    # (added by the reporter and the publisher).
    health: dict[str, Any]
    # Whether the table has a screen for the staff's messages (the reporter's).
    screen: NotRequired[bool]


def idle_status(table_name: str) -> Status:
    """No game at the table: the kiosk is at home, or the game was ended."""
    return {
        "table": table_name,
        "version": __version__,
        "state": IDLE,
        "game": None,
        "mode": None,
        "game_id": None,
        "started_at": None,
        "players": {"count": 0, "names": []},
        "line": None,
        "timer": None,
        "health": {"phones": []},
    }


def game_status(
    table_name: str,
    table: Table,
    view: View,
    started_at: str | None,
    phones: list[int],
) -> Status:
    """The status after a commit: ``view`` is the table's public view now
    (the one the commit carries); ``phones``, the seats with a phone
    connected. The publisher adds the machine's health to ``health``. The
    status lines are the table's own, worded once per commit for every
    reader of them (:meth:`Table.status_line`)."""
    if table.ended:
        return idle_status(table_name)
    names = [str(player["name"]) for player in view["players"]]
    return {
        "table": table_name,
        "version": __version__,
        "state": FINISHED if table.is_over else PLAYING,
        "game": table.setup.game,
        "mode": table.setup.mode,
        "game_id": table.game_id,
        "started_at": started_at,
        **progress(view),
        "players": {"count": len(names), "names": names},
        "line": {lang: table.status_line(lang) for lang in LANGUAGES},
        "timer": public_timer(view.get("timer")),
        "health": {"phones": phones},
    }


def refreshed(status: Status, table: Table | None, phones: list[int]) -> Status:
    """``status`` with what changes between commits: the time left, the
    phones connected, a game the operator ended."""
    if table is None or table.ended:
        return idle_status(status["table"])
    return {**status, "timer": public_timer(table.timer()), "health": {"phones": phones}}


# Counts that start at 1: a 0 is a game before its first (Article 27's
# set-up is "round 0" in its view), published as no figure at all.
COUNTS = ("round", "turn")


def progress(view: View) -> Progress:
    found: Progress = {}
    for key in PROGRESS:
        value = view.get(key)
        if (
            isinstance(value, int | str)
            and not isinstance(value, bool)
            and not (key in COUNTS and value == 0)
        ):
            found[key] = value
    return found


def public_timer(timer: Timer | None) -> PublicTimer | None:
    """The game's timer as the table shows it: running or not, seconds left,
    and whether it was paused after it ran (a timer that is not running and
    not paused has not started: Article 27's before the gavel)."""
    if timer is None:
        return None
    return {
        "running": bool(timer.get("running")),
        "paused": bool(timer.get("paused")),
        "remaining": round(timer["remaining"], 1),
    }


def timer_running(status: Status) -> bool:
    timer = status.get("timer")
    return bool(timer and timer["running"])


def started_at(table: Table) -> str | None:
    """When the game began, by the wall clock (UTC, ISO 8601). A Pi with no
    real-time clock and no time server may be wrong about it."""
    record = table.store.game(table.game_id)
    if record is None:
        return None
    return datetime.fromtimestamp(record.created_at, UTC).isoformat(timespec="seconds")
