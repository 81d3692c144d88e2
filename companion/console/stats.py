"""The console's statistics: one row per game seen, keyed by (table,
game_id), so the retained statuses a restarted console is told again count
no game twice."""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """CREATE TABLE IF NOT EXISTS games (
    table_name TEXT NOT NULL, game TEXT NOT NULL, game_id INTEGER NOT NULL,
    started_at TEXT NOT NULL, ended_at TEXT,
    PRIMARY KEY (table_name, game_id))"""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Stats:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Made on one thread, used only on the loop's after.
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute(SCHEMA)
        self.db.commit()

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
            started = status.get("started_at")
            self.db.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, NULL)",
                (table, game, game_id, started if isinstance(started, str) else now),
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


def _local(moment: str) -> datetime:
    """A stored UTC time in the console machine's own time zone."""
    parsed = datetime.fromisoformat(moment)
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone()
