"""``companion export``: one zip file for support.

It holds:

- ``companion.sqlite3``: a consistent copy of the game store, made with
  SQLite's backup API while the kiosk may be writing (a plain file copy
  would miss what is still in the write-ahead log). The phones' join links
  and claims (``seat_links``, ``provisional_claims``: capabilities, not
  history) are removed from the copy;
  everything else stays, including, in keeper mode, the cards the app dealt;
- ``games.json``: the games in the store, newest first (set-up, status,
  result, times);
- ``kiosk.ini``: the operator's settings, without the PIN and the Wi-Fi
  password;
- ``journal.txt``: the service's log from the systemd journal, when
  ``journalctl`` can read it (as root, or as a member of ``adm`` or
  ``systemd-journal``);
- ``about.json``: versions, the time of the export, and why the journal is
  missing, if it is.
"""

from __future__ import annotations

import configparser
import dataclasses
import json
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from .table import EventStore, StoreError

UNIT = "table-companion.service"
JOURNAL_LINES = 20000
SECRET_SETTINGS = {"kiosk": ("pin",), "wifi": ("password",)}


class ExportError(Exception):
    """The export could not be written (no store, unreadable, disk full)."""


@dataclass(frozen=True)
class Exported:
    path: Path
    games: int
    journal_missing: str | None  # why the journal is not in it, or None


def export(db: Path, output: Path, unit: str = UNIT) -> Exported:
    """Write the support zip for the store ``db`` to ``output``."""
    db = Path(db)
    if not db.is_file():
        raise ExportError(f"no game store at {db}")
    with tempfile.TemporaryDirectory(prefix="companion-export-") as scratch:
        copy = Path(scratch) / "companion.sqlite3"
        games = _copy_store(db, copy)
        journal, missing = read_journal(unit)
        about = {
            "version": _version(),
            "python": sys.version.split()[0],
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
            "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "store": str(db),
            "games": len(games),
            "unit": unit,
            "journal": "journal.txt" if missing is None else f"missing: {missing}",
        }
        partial = output.with_name(output.name + ".partial")
        try:
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                archive.write(copy, "companion.sqlite3")
                archive.writestr("games.json", _json(games))
                settings = _settings_without_secrets(db.with_name("kiosk.ini"))
                if settings is not None:
                    archive.writestr("kiosk.ini", settings)
                if journal is not None:
                    archive.writestr("journal.txt", journal)
                archive.writestr("about.json", _json(about))
            os.replace(partial, output)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise ExportError(f"cannot write {output}: {exc.strerror or exc}") from exc
    return Exported(output, len(games), missing)


def _copy_store(db: Path, copy: Path) -> list[dict]:
    """Back ``db`` up into ``copy`` (one self-contained file, join links
    removed) and return its games."""
    try:
        source = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            with sqlite3.connect(copy) as target:
                source.backup(target)
        finally:
            source.close()
    except sqlite3.Error as exc:
        raise ExportError(f"cannot read {db}: {exc}") from exc
    try:
        store = EventStore(copy)
    except StoreError as exc:
        raise ExportError(str(exc)) from exc
    games = [_game(record) for record in store.history()]
    store.close()
    target = sqlite3.connect(copy, isolation_level=None)
    try:
        target.execute("DELETE FROM provisional_claims")
        target.execute("DELETE FROM seat_links")
        target.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
        target.execute("VACUUM")  # and no deleted pages in it
    finally:
        target.close()
    return games


def _game(record) -> dict:
    game = dataclasses.asdict(record)
    for key in ("created_at", "ended_at"):
        if game[key] is not None:
            game[key] = datetime.fromtimestamp(game[key], UTC).isoformat(timespec="seconds")
    return game


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
