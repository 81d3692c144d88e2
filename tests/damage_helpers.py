"""Damaged stores, made as a failing card or a bad row makes them: real
SQLite files, written by the real store, then damaged once it is closed."""

from __future__ import annotations

import copy
import hashlib
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from helpers import new_table

from companion.table import EventStore

UNFINISHED = 3  # three_games(): the game that was being played
PLAYERS = (["Ann", "Ben"], ["Cy", "Dee", "Eve"], ["Fay", "Gus", "Hal"])

# One event of the unfinished game, seq 4 ({"type":"income","seat":0}),
# damaged in each way a row can be: what a test puts in its place.
BAD_EVENTS = {
    "not JSON": '{"type":"inc',
    "not an object": "[4]",
    "unknown to the engine": '{"type":"no_such_event","seat":0}',
    "a field missing": '{"type":"income"}',
}
# The unfinished game's set-up, damaged.
BAD_SETUPS = {
    "not JSON": "not json",
    "not an object": '["Fay","Gus","Hal"]',
    "no seats": '{"game":"coup"}',
    "an unknown game": '{"game":"chess","seats":[{"name":"Fay"},{"name":"Gus"}]}',
    "seats that are not seats": '{"game":"coup","seats":[1,2,3]}',
}


def three_games(path: Path) -> dict[int, dict[str, Any]]:
    """A store of three Coup games, the first two ended by the next, the
    third unfinished, each six incomes in: their public views, by id."""
    store = EventStore(path)
    views = {}
    for names in PLAYERS:
        table = new_table(store, names)
        for _ in range(6):
            table.execute({"type": "income", "seat": table.public_view()["current"]})
        views[table.game_id] = table.public_view()
    store.close()
    return views


def many_games(path: Path, count: int) -> dict[int, dict[str, Any]]:
    """``count`` games of twenty incomes, each ended by the next but the
    last: their public views, by id. Played once per run, then copied."""
    if count not in _PLAYED:
        played = Path(tempfile.mkdtemp(prefix="companion-games-")) / "games.sqlite3"
        _PLAYED[count] = (played, _play(played, count))
    played, views = _PLAYED[count]
    shutil.copyfile(played, path)
    return copy.deepcopy(views)


_PLAYED: dict[int, tuple[Path, dict[int, dict[str, Any]]]] = {}


def _play(path: Path, count: int) -> dict[int, dict[str, Any]]:
    store = EventStore(path)
    views = {}
    for _ in range(count):
        table = new_table(store, ["Ann", "Ben", "Cy"])
        for _ in range(20):
            table.execute({"type": "income", "seat": table.public_view()["current"]})
        views[table.game_id] = table.public_view()
    store.close()
    return views


def write(path: Path, sql: str, *params: Any) -> None:
    """Change the file behind the store's back, as a bad row comes to be."""
    db = sqlite3.connect(path)
    db.execute(sql, params)
    db.commit()
    db.close()


def rows_of(path: Path, game_id: int) -> tuple[list[Any], ...]:
    """A game's rows exactly as stored: games, commands, events."""
    db = sqlite3.connect(path)
    rows = tuple(
        db.execute(f"SELECT * FROM {table} WHERE {column}=? ORDER BY 2, 3", (game_id,)).fetchall()
        for table, column in (("games", "id"), ("commands", "game_id"), ("events", "game_id"))
    )
    db.close()
    return rows


def zero_pages(path: Path, first: int, count: int = 1) -> None:
    """Write zeros over pages ``first`` to ``first + count - 1`` (numbered
    from 1, as SQLite does) of the closed file."""
    size = page_size(path)
    with open(path, "r+b") as file:
        file.seek((first - 1) * size)
        file.write(bytes(size * count))


def page_size(path: Path) -> int:
    db = sqlite3.connect(path)
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    return size


def leaf_pages(path: Path, table: str) -> list[int]:
    """The pages holding a table's rows, in key order (SQLite's dbstat)."""
    db = sqlite3.connect(path)
    pages = [
        row[0]
        for row in db.execute(
            "SELECT pageno FROM dbstat WHERE name=? AND pagetype='leaf' ORDER BY path", (table,)
        )
    ]
    db.close()
    return pages


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
