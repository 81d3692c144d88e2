"""``companion export``: one zip file for support.

It holds:

- ``companion.sqlite3``: a consistent copy of the game store, made with
  SQLite's backup API while the kiosk may be writing (a plain file copy
  would miss what is still in the write-ahead log). The phones' join links
  and claims (``seat_links``, ``provisional_claims``: capabilities, not
  history) are removed from the copy in memory, before it is written to a
  file, so no file of the export ever holds them, even one a killed export
  leaves behind;
  everything else stays, including, in keeper mode, the cards the app dealt;
- ``games.json``: the games in the store, newest first (set-up, status,
  result, times);
- ``kiosk.ini``: the operator's settings, without the PIN and the Wi-Fi
  password;
- ``journal.txt``: the service's log from the systemd journal, when
  ``journalctl`` can read it (as root, or as a member of ``adm`` or
  ``systemd-journal``);
- ``about.json``: versions, the time of the export, and why the journal is
  missing, if it is;
- ``damaged/``: store files SQLite cannot read whole, as they were: the
  store itself when it is damaged (the copy then holds the games that could
  still be read from it), and those the kiosk moved aside before
  (``companion.sqlite3.damaged-<time>``). They are copied as they are, join
  links included (links the kiosk no longer knows, once it has moved the
  file aside).

A game that cannot be read (set aside by the kiosk, or whose rows do not
read) is reported, and its rows are in the zip as they were stored.

The export works in a folder of the system's temporary directory,
``companion-export-*``, locked while it runs; it clears the folders that
exports killed before it left behind (their lock is free).
"""

from __future__ import annotations

import configparser
import dataclasses
import fcntl
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from .table import EventStore, StoreError, Table
from .table.damage import salvage, set_aside_files
from .table.store import (
    DAMAGED,
    DamagedGame,
    DamagedStoreError,
    GameRecord,
    check_pages,
    read_only_connection,
)

UNIT = "table-companion.service"
SCRATCH = "companion-export-"  # the working folder's name, in the temporary directory
IN_USE = ".in-use"  # a file in it, locked while its export runs
# A folder without that file: an earlier version's, or one whose export was
# killed before it locked it; cleared once it is this old (seconds).
UNLOCKED_STALE = 600
_SECRET_TABLES = ("provisional_claims", "seat_links")
JOURNAL_LINES = 20000
SECRET_SETTINGS = {"kiosk": ("pin",), "wifi": ("password",)}


class ExportError(Exception):
    """The export could not be written (no store, unreadable, disk full)."""


@dataclass(frozen=True)
class Exported:
    path: Path
    games: int
    journal_missing: str | None  # why the journal is not in it, or None
    store_damaged: str | None = None  # why SQLite cannot read the store, or None
    damaged_files: tuple[str, ...] = ()  # in damaged/, as they were
    unreadable: tuple[int, ...] = ()  # games that could not be read


@dataclass(frozen=True)
class _Copy:
    """The store's copy: its games, and what could not be read."""

    games: list[dict]
    store_damaged: str | None
    unreadable: tuple[int, ...]


def export(db: Path, output: Path, unit: str = UNIT) -> Exported:
    """Write the support zip for the store ``db`` to ``output``."""
    db = Path(db)
    if not db.is_file():
        raise ExportError(f"no game store at {db}")
    clear_stale_scratch()
    with tempfile.TemporaryDirectory(prefix=SCRATCH) as scratch, _in_use(Path(scratch)):
        copy = Path(scratch) / "companion.sqlite3"
        copied = _copy_store(db, copy)
        damaged = set_aside_files(db)
        if copied.store_damaged is not None:
            damaged += [f for f in (db, Path(f"{db}-wal")) if f.is_file()]
        journal, missing = read_journal(unit)
        about = {
            "version": _version(),
            "python": sys.version.split()[0],
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
            "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "store": str(db),
            "games": len(copied.games),
            "unit": unit,
            "journal": "journal.txt" if missing is None else f"missing: {missing}",
            "store_damaged": copied.store_damaged,
            "damaged_files": [f.name for f in damaged],
            "unreadable_games": list(copied.unreadable),
        }
        partial = output.with_name(output.name + ".partial")
        try:
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                archive.write(copy, "companion.sqlite3")
                archive.writestr("games.json", _json(copied.games))
                settings = _settings_without_secrets(db.with_name("kiosk.ini"))
                if settings is not None:
                    archive.writestr("kiosk.ini", settings)
                if journal is not None:
                    archive.writestr("journal.txt", journal)
                for file in damaged:
                    archive.write(file, f"damaged/{file.name}")
                archive.writestr("about.json", _json(about))
            os.replace(partial, output)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise ExportError(f"cannot write {output}: {exc.strerror or exc}") from exc
    return Exported(
        output,
        len(copied.games),
        missing,
        copied.store_damaged,
        tuple(f.name for f in damaged),
        copied.unreadable,
    )


@contextmanager
def _in_use(scratch: Path) -> Iterator[None]:
    """Lock ``scratch``'s in-use file while the export runs: the lock goes
    with the process, however it ends."""
    with open(scratch / IN_USE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def clear_stale_scratch() -> list[Path]:
    """Remove this user's export folders that no running export holds
    (killed exports leave theirs, with the store's copy): those removed."""
    cleared = []
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH}*"):
        try:
            if folder.is_symlink() or not folder.is_dir() or folder.stat().st_uid != os.getuid():
                continue
            if _abandoned(folder):
                shutil.rmtree(folder)
                cleared.append(folder)
        except OSError:
            continue  # gone meanwhile, or not ours to remove
    return cleared


def _abandoned(folder: Path) -> bool:
    try:
        lock = open(folder / IN_USE)
    except FileNotFoundError:
        return time.time() - folder.stat().st_mtime > UNLOCKED_STALE
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # its export is running
        return True


def _copy_store(db: Path, copy: Path) -> _Copy:
    """Copy ``db`` into ``copy``: one self-contained file, join links
    removed. A store SQLite cannot read whole is not copied page by page:
    the copy gets the games that can still be read from it."""
    try:
        check_pages(db)
        _back_up(db, copy)
        damaged, lost = None, []
    except DamagedStoreError as exc:
        damaged = str(exc)
        lost = _salvage_into(db, copy)
    try:
        store = EventStore(copy)
    except StoreError as exc:
        raise ExportError(str(exc)) from exc
    records = store.history()
    reasons = {record.id: _unreadable(store, record) for record in records}
    store.close()
    games = [_game(record, reasons[record.id]) for record in records]
    unreadable = sorted(lost + [id_ for id_, reason in reasons.items() if reason is not None])
    target = sqlite3.connect(copy, isolation_level=None)
    try:
        target.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
        target.execute("VACUUM")  # and no freed pages in it
    finally:
        target.close()
    return _Copy(games, damaged, tuple(unreadable))


def _back_up(db: Path, copy: Path) -> None:
    """A consistent copy through SQLite's backup API, while the kiosk may
    be writing (a plain file copy would miss what is still in its log). It
    is made in memory, the join links and claims removed there, and only
    then written to ``copy``: no file ever holds them."""
    try:
        source = read_only_connection(db)
        memory = sqlite3.connect(":memory:", isolation_level=None)
        try:
            source.backup(memory)
            tables = {row[0] for row in memory.execute("SELECT name FROM sqlite_master")}
            for table in _SECRET_TABLES:
                if table in tables:
                    memory.execute(f"DELETE FROM {table}")
            memory.execute("VACUUM INTO ?", (str(copy),))  # a file without their pages
        finally:
            memory.close()
            source.close()
    except sqlite3.Error as exc:
        raise ExportError(f"cannot read {db}: {exc}") from exc


def _salvage_into(db: Path, copy: Path) -> list[int]:
    """The games of the damaged ``db`` that can still be read, copied into
    a new store at ``copy``: the games that could not be."""
    store = EventStore(copy)
    try:
        return salvage(db, store)[1]
    finally:
        store.close()


def _unreadable(store: EventStore, record: GameRecord) -> str | None:
    """Why a game cannot be read, or None. Only the unfinished game is
    rebuilt from its events, as the kiosk would on start; the others need
    only their row to be listed."""
    if record.status == DAMAGED:
        return "set aside by the kiosk: its rows do not rebuild it"
    if record.setup is None:
        return "its set-up or result is not JSON"
    if record.status != "active":
        return None
    try:
        Table.from_record(store, record)
    except DamagedGame as exc:
        return exc.reason
    return None


def _game(record: GameRecord, unreadable: str | None) -> dict:
    game = dataclasses.asdict(record)
    for key in ("created_at", "ended_at"):
        game[key] = _moment(game[key])
    if unreadable is not None:
        game["unreadable"] = unreadable
    return game


def _moment(stamp: object) -> object:
    """A stored time as ISO 8601; one that is no time (a damaged row) as it is."""
    try:
        return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError, OSError):
        return stamp


def read_journal(unit: str) -> tuple[str | None, str | None]:
    """(the unit's journal, None), or (None, why it could not be read)."""
    try:
        done = subprocess.run(
            [
                "journalctl",
                "--unit",
                unit,
                "--no-pager",
                "--output",
                "short-iso",
                "--lines",
                str(JOURNAL_LINES),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    except FileNotFoundError:
        return None, "journalctl is not installed"
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"journalctl failed: {exc}"
    if done.returncode != 0:
        return None, (done.stderr.strip() or f"journalctl exit status {done.returncode}")
    return done.stdout, None


def _settings_without_secrets(path: Path) -> str | None:
    if not path.is_file():
        return None
    settings = configparser.ConfigParser(interpolation=None)
    try:
        settings.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError) as exc:
        return f"# unreadable: {exc}\n"
    for section, keys in SECRET_SETTINGS.items():
        for key in keys:
            if settings.has_option(section, key):
                settings.set(section, key, "(removed)")
    lines: list[str] = []
    for section in settings.sections():
        lines.append(f"[{section}]")
        lines += [f"{key} = {value}" for key, value in settings.items(section)]
        lines.append("")
    return "\n".join(lines)


def _version() -> str:
    try:
        return metadata.version("table-companion")
    except metadata.PackageNotFoundError:
        return "unknown"


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"
