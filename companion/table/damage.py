"""A damaged store: the table opens on whatever can still be read.

Two kinds of damage (docs/durability.md):

* a game whose rows do not read as a game (an event or a set-up that is not
  JSON, an event its engine cannot fold): it is set aside, with the status
  ``damaged`` and its rows as they were, for support; every other game stays;
* a file SQLite cannot read (not a database; pages zeroed or overwritten,
  which ``PRAGMA quick_check`` finds on opening): it is moved aside whole,
  with its write-ahead log, as ``<name>.damaged-<unix time>``, never
  deleted, and a new store takes its place with every game of the old one
  whose rows SQLite still reads whole. A power cut during that is carried
  on from where it stopped at the next start (a marker names the file moved
  aside; the new store is built beside and renamed into place).

What was found is a :class:`StoreDamage`: the log tells the operator, the
kiosk's home screen tells the table.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..i18n import Messages
from .store import (
    DamagedGame,
    DamagedStoreError,
    EventStore,
    StoreError,
    check_pages,
    read_only_connection,
)
from .table import Table

log = logging.getLogger(__name__)

SET_ASIDE = ".damaged-"  # a moved file's name: <store's name>.damaged-<unix time>
_COMPANIONS = ("-wal", "-shm")  # SQLite's files beside the store
# While a damaged store is recovered: <store>.recovering names the file it is
# being moved aside to, until the new store is in place; the new store is
# built as <store>.salvage.
RECOVERING = ".recovering"
BUILDING = ".salvage"
MOST_GAMES = 1_000_000  # a damaged file claiming more games than this has none to copy
_SHOWN_NUMBERS = 6  # games named in a notice; more are "…"


@dataclass(frozen=True)
class StoreDamage:
    """What opening the store found damaged (by default: nothing)."""

    moved_to: Path | None = None  # the whole file, moved aside
    copied: int = 0  # games of the moved file copied into the new store
    set_aside: tuple[int, ...] = ()  # games that could not be read

    def __bool__(self) -> bool:
        return self.moved_to is not None or bool(self.set_aside)

    def and_set_aside(self, games: Iterable[int]) -> StoreDamage:
        return replace(self, set_aside=self.set_aside + tuple(games))

    def describe(self, t: Messages) -> list[str]:
        """What happened, in the reader's words: a line per kind of damage."""
        lines = []
        if self.moved_to is not None and self.copied:
            lines.append(t("home.damage.file_copied", name=self.moved_to.name, count=self.copied))
        elif self.moved_to is not None:
            lines.append(t("home.damage.file_set_aside", name=self.moved_to.name))
        if len(self.set_aside) == 1:
            lines.append(t("home.damage.game_set_aside", number=self.set_aside[0]))
        elif self.set_aside:
            lines.append(t("home.damage.games_set_aside", games=game_numbers(self.set_aside, t)))
        return lines


def game_numbers(games: Iterable[int], t: Messages) -> str:
    """Game numbers as a list the reader reads ("3, 12"; Persian digits in
    Persian), the first few only."""
    numbers = list(games)
    shown = [t.number(n) for n in numbers[:_SHOWN_NUMBERS]]
    return t.join(shown + ["…"] if len(numbers) > _SHOWN_NUMBERS else shown)


def open_store(path: str | Path) -> tuple[EventStore, StoreDamage]:
    """The store at ``path``, opened for the table, and what was found
    damaged in it. A file SQLite cannot read is moved aside and a new store
    takes its place, with the games that can be copied from it; a recovery
    a power cut stopped is carried on first. StoreError if the store cannot
    be opened for any other reason (no permission, a directory, a newer
    version's schema)."""
    path = Path(path)
    aside = marked_recovery(path)
    if aside is not None:
        problem = "its recovery was cut off; carried on"
    else:
        aside = _log_moved_alone(path)
        if aside is not None:
            problem = "its write-ahead log was moved aside without it"
        else:
            try:
                check_pages(path)
                return EventStore(path), StoreDamage()
            except DamagedStoreError as exc:
                problem = str(exc)
            aside = free_name(path)
        _write_marker(path, aside)
    move_aside(path, aside)
    copied, lost = _rebuild(path, aside)
    store = EventStore(path)
    log.warning(
        "the game store %s cannot be read (%s): moved aside as %s; a new store holds the %d "
        "games of it that could be read; %d could not be",
        path,
        problem,
        aside,
        len(copied),
        len(lost),
    )
    # Only now, once it is said: a cut before this makes the new store again.
    Path(f"{path}{RECOVERING}").unlink()
    _sync_directory(path.parent)
    return store, StoreDamage(moved_to=aside, copied=len(copied), set_aside=tuple(lost))


def resume_active(store: EventStore) -> tuple[Table | None, tuple[int, ...]]:
    """(the unfinished game rebuilt, or None; the games set aside). A game
    whose rows do not rebuild is set aside: it leaves play, its rows stay."""
    record = store.active_game()
    if record is None:
        return None, ()
    try:
        return Table.from_record(store, record), ()
    except DamagedGame as exc:
        store.set_aside(record.id)
        log.warning("%s: set aside (status 'damaged'), its rows kept for support", exc)
        return None, (record.id,)


def marked_recovery(path: Path) -> Path | None:
    """Where the store at ``path`` was being moved aside to by a recovery a
    power cut stopped (its marker names it), or None."""
    marker = Path(f"{path}{RECOVERING}")
    try:
        name = marker.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        name = ""
    if name.startswith(f"{path.name}{SET_ASIDE}") and "/" not in name:
        return path.with_name(name)
    log.warning("%s does not name a file moved aside (%r): ignored", marker, name[:80])
    marker.unlink()
    return None


def _log_moved_alone(path: Path) -> Path | None:
    """Where an earlier version, which left no marker, was moving the store
    at ``path`` when it was cut: its write-ahead log is already under a
    set-aside name, the store itself still in place and unwritten since."""
    if not path.is_file() or os.path.exists(f"{path}-wal"):
        return None
    orphans = [f for f in set_aside_files(path) if f.name.endswith("-wal")]
    if not orphans:
        return None
    aside = Path(str(orphans[-1]).removesuffix("-wal"))
    moved = Path(f"{aside}-wal").stat().st_ctime  # renaming a file changes its ctime
    if aside.exists() or path.stat().st_mtime > moved:
        return None
    return aside


def free_name(path: Path) -> Path:
    """A set-aside name for the store at ``path``, never an earlier one's:
    ``<name>.damaged-<unix time>``, with ``-2``, ``-3``… within a second."""
    stamp = int(time.time())
    aside = path.with_name(f"{path.name}{SET_ASIDE}{stamp}")
    tries = 1
    while any(Path(f"{aside}{suffix}").exists() for suffix in ("", *_COMPANIONS)):
        tries += 1
        aside = path.with_name(f"{path.name}{SET_ASIDE}{stamp}-{tries}")
    return aside


def _write_marker(path: Path, aside: Path) -> None:
    """Say, durably, before the first file moves, where the store goes: a
    start after a cut carries the recovery on from there."""
    marker = Path(f"{path}{RECOVERING}")
    draft = Path(f"{marker}.new")
    with open(draft, "w", encoding="utf-8") as file:
        file.write(aside.name + "\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(draft, marker)
    _sync_directory(path.parent)


def move_aside(path: Path, aside: Path) -> None:
    """Move the store at ``path`` and SQLite's files beside it to ``aside``
    (its write-ahead log first, so a new store at ``path`` can never take
    the old one's log for its own). Run again after a cut, it moves what is
    still in place. Where both names hold a store, the cut came after the
    new store was put in place: it is made again, and its log and shared
    memory go (the table had written nothing to it). An empty log or shared
    memory that a read-only look made after the move goes too; a log that
    holds anything is kept, under a name of its own."""
    if path.exists() and aside.exists():
        for suffix in _COMPANIONS:
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    else:
        for suffix in (*_COMPANIONS, ""):
            here, there = Path(f"{path}{suffix}"), Path(f"{aside}{suffix}")
            if not here.exists():
                continue
            if not there.exists():
                os.replace(here, there)
            elif suffix == "-shm" or here.stat().st_size == 0:
                here.unlink()
            else:
                os.replace(here, f"{free_name(path)}{suffix}")
    _sync_directory(path.parent)


def _rebuild(path: Path, aside: Path) -> tuple[list[int], list[int]]:
    """Copy the games of ``aside`` that read into a new store built beside
    ``path``, then put it in place: the store at ``path`` is never a copy
    half made. (the games copied, the games that could not be)."""
    building = Path(f"{path}{BUILDING}")
    for suffix in ("", *_COMPANIONS):  # a copy a cut stopped: made again
        Path(f"{building}{suffix}").unlink(missing_ok=True)
    store = EventStore(building)
    try:
        copied, lost = salvage(aside, store)
    finally:
        store.close()
    db = sqlite3.connect(building)
    try:
        db.execute("PRAGMA journal_mode=DELETE")  # the whole store in the one file
    finally:
        db.close()
    for suffix in _COMPANIONS:
        Path(f"{building}{suffix}").unlink(missing_ok=True)
    _sync_file(building)
    os.replace(building, path)
    _sync_directory(path.parent)
    return copied, lost


def _sync_file(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sync_directory(directory: Path) -> None:
    """Make the renames in ``directory`` durable (a power cut keeps them)."""
    _sync_file(directory)


def set_aside_files(path: Path) -> list[Path]:
    """The files moved aside from the store at ``path``, oldest first (the
    stores and the logs beside them)."""
    return sorted(path.parent.glob(f"{path.name}{SET_ASIDE}*"))


def salvage(damaged: Path, store: EventStore) -> tuple[list[int], list[int]]:
    """Copy into ``store``, under its own id, each game of the damaged file
    whose rows SQLite still reads whole: its games row, and its commands and
    events numbered without a gap. (the games copied, the games that could
    not be). Join links stay behind: phones pair again."""
    try:
        source = read_only_connection(damaged)
    except sqlite3.Error:
        return [], []
    copied: list[int] = []
    lost: list[int] = []
    try:
        last = source.execute("SELECT MAX(id) FROM games").fetchone()[0]
        if not isinstance(last, int) or not 0 < last <= MOST_GAMES:
            return [], []
        for game_id in range(1, last + 1):
            try:
                rows = _rows_of(source, game_id)
                if rows is not None:
                    store.copy_game(*rows)
                    copied.append(game_id)
            except (sqlite3.Error, StoreError) as exc:  # StoreError: a row the new store refuses
                log.info("game %d of %s cannot be copied: %s", game_id, damaged, exc)
                lost.append(game_id)
    except sqlite3.Error:
        return copied, lost
    finally:
        source.close()
    return copied, lost


def _rows_of(source: sqlite3.Connection, game_id: int) -> tuple[Any, list[Any], list[Any]] | None:
    """A game's rows in the damaged file (None: no such game); DamagedGame
    if commands or events are missing."""
    game = source.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
    if game is None:
        return None
    commands = source.execute(
        "SELECT * FROM commands WHERE game_id=? ORDER BY number", (game_id,)
    ).fetchall()
    events = source.execute(
        "SELECT * FROM events WHERE game_id=? ORDER BY seq", (game_id,)
    ).fetchall()
    numbers = [command[1] for command in commands]
    sequence = [event[1] for event in events]
    if numbers != list(range(len(commands))) or sequence != list(range(len(events))):
        raise DamagedGame(game_id, "commands or events are missing")
    if not {event[2] for event in events} <= set(numbers):
        raise DamagedGame(game_id, "an event belongs to no command")
    return game, commands, events
