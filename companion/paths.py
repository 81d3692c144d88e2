"""Where the app keeps its data (XDG base directories)."""

from __future__ import annotations

import os
from pathlib import Path

APP_DIR = "table-companion"
DB_ENV = "COMPANION_DB"


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / APP_DIR


def default_db() -> Path:
    """The game store: $COMPANION_DB if set, else a SQLite file in the data dir."""
    override = os.environ.get(DB_ENV)
    return Path(override) if override else data_dir() / "companion.sqlite3"


def cache_dir() -> Path:
    """What the app can make again (the kiosk's synthesised sounds)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / APP_DIR
