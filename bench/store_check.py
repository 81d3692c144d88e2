"""Time for the look at every page of the store that the kiosk takes on
start (``PRAGMA quick_check``, companion.table.store.check_pages), on a
store of a busy café's year: 2,000 games of 200 events each."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from companion.table import EventStore
from companion.table.store import check_pages

from .rebuild import long_game
from .report import figure

GAMES = 2000
EVENTS = 200
REPEATS = 5


def a_year(path: Path) -> None:
    """GAMES games: one played, the rest its rows again under new ids."""
    store = EventStore(path)
    played = long_game(store, EVENTS).game_id
    db = store.db
    db.execute("BEGIN")
    for _ in range(GAMES - 1):
        game_id = db.execute(
            "INSERT INTO games (game, setup, status, created_at, ended_at) "
            "SELECT game, setup, 'abandoned', created_at, created_at FROM games WHERE id=?",
            (played,),
        ).lastrowid
        for table in ("commands", "events"):
            columns = "number, body, source, at" if table == "commands" else "seq, command, body"
            db.execute(
                f"INSERT INTO {table} SELECT ?, {columns} FROM {table} WHERE game_id=?",
                (game_id, played),
            )
    db.execute("COMMIT")
    store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        a_year(path)
        megabytes = path.stat().st_size / 1e6
        times = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            check_pages(path)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        figure(f"store.size_{GAMES}_games", megabytes, "MB", "lower")
        figure(f"store.quick_check_{GAMES}_games.median", median * 1000, "ms", "lower")
        figure("store.quick_check_per_mb", median * 1000 / megabytes, "ms", "lower")


if __name__ == "__main__":
    main()
