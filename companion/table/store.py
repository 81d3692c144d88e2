"""The durable event store: one SQLite file holding every game and its log.

Durability rules (see docs/durability.md):

* WAL journal, and ``synchronous=FULL`` set on *every* connection (it is a
  per-connection setting), so a committed command survives a power cut as far
  as the storage honours flushes;
* a command and all the events it produced are written in one transaction,
  committed before the caller shows anyone their effect;
* nothing is ever updated in place except a game's status: undo is an event.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Raised when older code could not read the store. A table added alone
# (provisional_claims) leaves it: older code reads such a store as before,
# and this code adds the table to an older store when it opens it.
SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    setup       TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'finished', 'abandoned')),
    created_at  REAL NOT NULL,
    ended_at    REAL,
    result      TEXT
);
CREATE TABLE IF NOT EXISTS commands (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    number      INTEGER NOT NULL,
    body        TEXT NOT NULL,
    source      TEXT NOT NULL,
    at          REAL NOT NULL,
    PRIMARY KEY (game_id, number)
);
CREATE TABLE IF NOT EXISTS events (
    game_id     INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    command     INTEGER NOT NULL,
    body        TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, command) REFERENCES commands(game_id, number)
);
-- Phones: each seat's join link (a random token) and the phone that claimed
-- it (a hash of the secret in its cookie). Re-pairing replaces the token and
-- forgets the phone. Not part of the game's log: nothing here is public.
CREATE TABLE IF NOT EXISTS seat_links (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seat        INTEGER NOT NULL,
    token       TEXT NOT NULL UNIQUE,
    device_hash TEXT,
    repairs     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
-- Phones that took a seat by its link but have not used their cookie yet (a
-- hash of each one's secret): the first of them to use it holds the seat.
-- Those that came later stay, so their phones are told the seat is taken.
CREATE TABLE IF NOT EXISTS provisional_claims (
    game_id     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    device_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, device_hash),
    FOREIGN KEY (game_id, seat) REFERENCES seat_links(game_id, seat) ON DELETE CASCADE
);
"""


class StoreError(Exception):
    """The store could not be opened or written (disk full, unreadable file)."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    setup: dict[str, Any]
    status: str
    created_at: float
    ended_at: float | None
    result: Any


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class EventStore:
    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        """Open (or create) the store at ``path``. ``read_only`` only looks
        (``companion status``, the export): the file must exist, and nothing
        in it is written, not even the schema."""
        self.path = str(path)
        if self.path != ":memory:" and not read_only:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            if read_only:
                self.db = sqlite3.connect(
                    f"{Path(self.path).resolve().as_uri()}?mode=ro",
                    uri=True,
                    isolation_level=None,
                    check_same_thread=False,
                )
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            if self.path != ":memory:" and not read_only:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA journal_size_limit=4194304")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer version (schema {version})")
            if read_only and version == 0:  # nothing written: an empty file, or not a store
                raise StoreError(f"{self.path} holds no game store (empty, or another file)")
            if not read_only:
                self.db.executescript(_SCHEMA)
                self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # -- writing -----------------------------------------------------------
    def create_game(
        self,
        setup: dict[str, Any],
        command: dict[str, Any],
        source: str,
        events: list[dict[str, Any]],
        at: float,
    ) -> int:
        """Record a new game with its first command and events; any game still
        active is marked abandoned (it stays in the history)."""
        with self._lock, self._transaction():
            self.db.execute(
                "UPDATE games SET status='abandoned', ended_at=? WHERE status='active'", (at,)
            )
            cur = self.db.execute(
                "INSERT INTO games (game, setup, created_at) VALUES (?, ?, ?)",
                (setup["game"], _dumps(setup), at),
            )
            game_id = cur.lastrowid
            assert game_id is not None  # an INSERT sets the new row's id
            self._insert(game_id, 0, 0, command, source, events, at)
            return game_id

    def abandon(self, game_id: int, at: float) -> None:
        """The operator ends an unfinished game: it stays in the history."""
        with self._lock, self._transaction():
            self.db.execute(
                "UPDATE games SET status='abandoned', ended_at=? WHERE id=? AND status='active'",
                (at, game_id),
            )

    def append(
        self,
        game_id: int,
        number: int,
        first_seq: int,
        command: dict[str, Any],
        source: str,
        events: list[dict[str, Any]],
        at: float,
        status: str | None = None,
        result: Any = None,
        setup: dict[str, Any] | None = None,
    ) -> None:
        """Append one command and its events atomically; optionally change the
        game's status (a finished game) or its set-up (a player's new name)
        in the same transaction."""
        with self._lock, self._transaction():
            row = self.db.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None or row[0] == "abandoned":
                # An abandoned game takes nothing more (a Table left behind
                # by a kiosk that ended it must not bring it back).
                raise StoreError(f"game {game_id} is not open")
            self._insert(game_id, number, first_seq, command, source, events, at)
            if status is not None:
                self.db.execute(
                    "UPDATE games SET status=?, ended_at=?, result=? WHERE id=?",
                    (
                        status,
                        at if status != "active" else None,
                        None if result is None else _dumps(result),
                        game_id,
                    ),
                )
            if setup is not None:
                self.db.execute("UPDATE games SET setup=? WHERE id=?", (_dumps(setup), game_id))

    def _insert(self, game_id, number, first_seq, command, source, events, at):
        self.db.execute(
            "INSERT INTO commands VALUES (?, ?, ?, ?, ?)",
            (game_id, number, _dumps(command), source, at),
        )
        self.db.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?)",
            [(game_id, first_seq + i, number, _dumps(e)) for i, e in enumerate(events)],
        )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise StoreError(str(exc)) from exc

    # -- phones --------------------------------------------------------------
    def seat_link(self, game_id: int, seat: int) -> dict[str, Any] | None:
        with self._lock:
            row = self.db.execute(
                "SELECT token, device_hash, repairs FROM seat_links WHERE game_id=? AND seat=?",
                (game_id, seat),
            ).fetchone()
        return None if row is None else {"token": row[0], "device_hash": row[1], "repairs": row[2]}

    def seat_links(self, game_id: int) -> dict[int, dict[str, Any]]:
        with self._lock:
            rows = self.db.execute(
                "SELECT seat, token, device_hash, repairs FROM seat_links WHERE game_id=?",
                (game_id,),
            ).fetchall()
        return {
            seat: {"token": token, "device_hash": device, "repairs": repairs}
            for seat, token, device, repairs in rows
        }

    def seat_of_token(self, token: str) -> tuple[int, int] | None:
        """(game, seat) of a join token, or None."""
        with self._lock:
            row = self.db.execute(
                "SELECT game_id, seat FROM seat_links WHERE token=?", (token,)
            ).fetchone()
        return None if row is None else (row[0], row[1])

    def set_seat_link(
        self, game_id: int, seat: int, token: str, device_hash: str | None, repaired: bool = False
    ) -> None:
        """Give a seat a (new) join token and claiming phone; the phones that
        took its old link but never used their cookie are forgotten."""
        with self._lock, self._transaction():
            self.db.execute(
                "INSERT INTO seat_links (game_id, seat, token, device_hash) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET token=excluded.token, "
                "device_hash=excluded.device_hash, repairs=repairs + ?",
                (game_id, seat, token, device_hash, 1 if repaired else 0),
            )
            self.db.execute(
                "DELETE FROM provisional_claims WHERE game_id=? AND seat=?", (game_id, seat)
            )

    def claim_provisionally(
        self, game_id: int, seat: int, token: str, device_hash: str, keep: int
    ) -> bool:
        """A phone takes the seat by its link ``token``: True unless the seat
        is already claimed for good or the link was replaced. The seat keeps
        its newest ``keep`` provisional claims."""
        with self._lock, self._transaction():
            open_link = self.db.execute(
                "SELECT 1 FROM seat_links WHERE game_id=? AND seat=? AND token=? "
                "AND device_hash IS NULL",
                (game_id, seat, token),
            ).fetchone()
            if open_link is None:
                return False
            self.db.execute(
                "INSERT INTO provisional_claims VALUES (?, ?, ?)",
                (game_id, seat, device_hash),
            )
            self.db.execute(
                "DELETE FROM provisional_claims WHERE game_id=? AND seat=? AND rowid NOT IN "
                "(SELECT rowid FROM provisional_claims WHERE game_id=? AND seat=? "
                "ORDER BY rowid DESC LIMIT ?)",
                (game_id, seat, game_id, seat, keep),
            )
            return True

    def is_provisional_claim(self, game_id: int, seat: int, device_hash: str) -> bool:
        with self._lock:
            row = self.db.execute(
                "SELECT 1 FROM provisional_claims WHERE game_id=? AND seat=? AND device_hash=?",
                (game_id, seat, device_hash),
            ).fetchone()
        return row is not None

    def confirm_claim(self, game_id: int, seat: int, device_hash: str) -> bool:
        """A provisional claim becomes the seat's phone, if no other phone's
        came first (and no re-pair forgot it): True if this one did."""
        with self._lock, self._transaction():
            cur = self.db.execute(
                "UPDATE seat_links SET device_hash=? WHERE game_id=? AND seat=? "
                "AND device_hash IS NULL AND EXISTS (SELECT 1 FROM provisional_claims "
                "WHERE game_id=? AND seat=? AND device_hash=?)",
                (device_hash, game_id, seat, game_id, seat, device_hash),
            )
            if cur.rowcount != 1:
                return False
            self.db.execute(
                "DELETE FROM provisional_claims WHERE game_id=? AND seat=? AND device_hash=?",
                (game_id, seat, device_hash),
            )
            return True

    # -- reading -------------------------------------------------------------
    def _record(self, row) -> GameRecord:
        return GameRecord(
            id=row[0],
            game=row[1],
            setup=json.loads(row[2]),
            status=row[3],
            created_at=row[4],
            ended_at=row[5],
            result=None if row[6] is None else json.loads(row[6]),
        )

    def game(self, game_id: int) -> GameRecord | None:
        with self._lock:
            row = self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else self._record(row)

    def active_game(self) -> GameRecord | None:
        with self._lock:
            row = self.db.execute(
                "SELECT * FROM games WHERE status='active' ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else self._record(row)

    def latest_game_id(self) -> int | None:
        with self._lock:
            row = self.db.execute("SELECT MAX(id) FROM games").fetchone()
        return row[0]

    def history(self) -> list[GameRecord]:
        with self._lock:
            rows = self.db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        return [self._record(r) for r in rows]

    def events(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        """Every event of a game in order, with the number of its command."""
        with self._lock:
            rows = self.db.execute(
                "SELECT command, body FROM events WHERE game_id=? ORDER BY seq", (game_id,)
            ).fetchall()
        return [(number, json.loads(body)) for number, body in rows]

    def commands(self, game_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self.db.execute(
                "SELECT number, body, source, at FROM commands WHERE game_id=? ORDER BY number",
                (game_id,),
            ).fetchall()
        return [
            {"number": n, "command": json.loads(b), "source": s, "at": at} for n, b, s, at in rows
        ]
