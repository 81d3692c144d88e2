"""The console's statistics: one row per game seen, keyed by (table,
game_id), so the retained statuses a restarted console is told again count
no game twice. Every time stored is a plausible one (checks.moment), in UTC;
rows an earlier console stored from a bad status are repaired at load."""

from __future__ import annotations

import logging
import sqlite3
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .checks import moment

log = logging.getLogger(__name__)

SCHEMA = """CREATE TABLE IF NOT EXISTS games (
    table_name TEXT NOT NULL, game TEXT NOT NULL, game_id INTEGER NOT NULL,
    started_at TEXT NOT NULL, ended_at TEXT,
    PRIMARY KEY (table_name, game_id))"""


def _now() -> str:
    return _stored(datetime.now(UTC))


class Stats:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Made on one thread, used only on the loop's after.
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute(SCHEMA)
        self.db.commit()
        self._repair(path)

    def _repair(self, path: Path) -> None:
        """Rows whose values no chart can use (a start that is no plausible
        time, a game that is no name): a start is taken from the game's end
        when that is good, else the row goes; a bad end is forgotten. Said
        once, with how many."""
        repaired = 0
        with self.db:
            for rowid, table, game, game_id, started, ended in self.db.execute(
                "SELECT rowid, * FROM games"
            ).fetchall():
                good_start = moment(started)
                good_end = None if ended is None else moment(ended)
                start = good_start or good_end
                if not (isinstance(table, str) and isinstance(game, str) and type(game_id) is int):
                    start = None
                if start is None:
                    self.db.execute("DELETE FROM games WHERE rowid = ?", (rowid,))
                elif good_start is None or (ended is not None and good_end is None):
                    end = None if good_end is None else _stored(good_end)
                    self.db.execute(
                        "UPDATE games SET started_at = ?, ended_at = ? WHERE rowid = ?",
                        (_stored(start), end, rowid),
                    )
                else:
                    continue
                repaired += 1
        if repaired:
            log.warning("console: %s: %d games' rows held bad values; repaired", path, repaired)

    def close(self) -> None:
        self.db.close()

    def seen(self, table: str, status: dict[str, Any]) -> None:
        """A table's status: a game begun, over, or left (a new one, idle)."""
        game, game_id, state = status.get("game"), status.get("game_id"), status.get("state")
        now = _now()
        with self.db:
            current = type(game_id) is int and isinstance(game, str)
            # Any other open game of this table has ended.
            self.db.execute(
                "UPDATE games SET ended_at = ? WHERE table_name = ? AND ended_at IS NULL"
                " AND game_id IS NOT ?",
                (now, table, game_id if current else None),
            )
            if not current:
                return
            started = moment(status.get("started_at"))
            self.db.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, NULL)",
                (table, game, game_id, now if started is None else _stored(started)),
            )
            if state == "finished":
                self.db.execute(
                    "UPDATE games SET ended_at = ? WHERE table_name = ? AND game_id = ?"
                    " AND ended_at IS NULL",
                    (now, table, game_id),
                )

    def rows(self) -> list[tuple[str, str, int, str, str | None]]:
        return self.db.execute("SELECT * FROM games ORDER BY started_at").fetchall()

    def per_table_day(self) -> dict[tuple[str, str], int]:
        counts: Counter[tuple[str, str]] = Counter()
        for table, _game, _id, started, _ended in self.rows():
            counts[(table, _local(started).date().isoformat())] += 1
        return dict(counts)

    def average_minutes(self) -> dict[str, float]:
        lengths: dict[str, list[float]] = defaultdict(list)
        for _table, game, _id, started, ended in self.rows():
            if ended is not None:
                seconds = (_local(ended) - _local(started)).total_seconds()
                lengths[game].append(max(seconds, 0) / 60)
        return {game: sum(v) / len(v) for game, v in lengths.items()}

    def per_hour(self) -> dict[int, int]:
        counts = Counter(_local(started).hour for *_rest, started, _e in self.rows())
        return {hour: counts.get(hour, 0) for hour in range(24)}


def _stored(utc: datetime) -> str:
    return utc.isoformat(timespec="seconds")


def _local(stored: str) -> datetime:
    """A stored UTC time in the console machine's own time zone."""
    parsed = datetime.fromisoformat(stored)
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone()
