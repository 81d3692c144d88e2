"""Time to rebuild a table's state from a 1,000-event log: read from the
SQLite file and folded through the engine, as a restart after a power cut
does."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

from .report import figure

EVENTS = 1000
REPEATS = 30


def long_game(store: EventStore, events: int = EVENTS) -> Table:
    """A physical-mode 6-player Coup game that lasts: every player steals from
    the richest opponent (unchallenged, unblocked), so coins circulate and
    nobody is forced to Coup, until the log holds ``events`` events."""
    setup = Setup(
        game="coup", seats=[f"P{i}" for i in range(6)], mode="physical", options={"first": 0}
    )
    table = Table.start(store, setup, fate=Fate(seed=1))
    while len(table.log) < events:
        view = table.public_view()
        actor = view["current"]
        richest = max((p for p in view["players"] if p["seat"] != actor), key=lambda p: p["coins"])
        if richest["coins"] == 0:
            table.execute({"type": "income", "seat": actor})
            continue
        table.execute({"type": "steal", "seat": actor, "target": richest["seat"]})
        table.execute({"type": "proceed"})
        table.execute({"type": "proceed"})
    return table


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        table = long_game(EventStore(path))
        game_id = table.game_id
        table.store.close()
        times = []
        for _ in range(REPEATS):
            store = EventStore(path)
            start = time.perf_counter()
            rebuilt = Table.resume(store, game_id)
            times.append(time.perf_counter() - start)
            store.close()
        assert len(rebuilt.log) >= EVENTS
        figure("table.rebuild_1000_events.median", statistics.median(times) * 1000, "ms", "lower")
        figure("table.rebuild_1000_events.max", max(times) * 1000, "ms", "lower")
