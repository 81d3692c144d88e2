"""The durable event store: one SQLite file holding every game and its log.

Durability rules (see docs/durability.md):

* WAL journal, and ``synchronous=FULL`` set on *every* connection (it is a
  per-connection setting), so a committed command survives a power cut as far
  as the storage honours flushes;
* a command and all the events it produced are written in one transaction,
  committed before the caller shows anyone their effect;
* nothing is ever updated in place except a game's status: undo is an event.

A store can still be damaged (a card that loses pages, a bad row): a game
whose rows cannot be read is set aside with the status ``damaged`` (its rows
kept), and a file SQLite cannot read is moved aside whole; see
``companion/table/damage.py``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from ..games.base import Command, Event

# 3: a game's status may be 'damaged'. A table added alone (game_times,
# provisional_claims, fleet_actions) leaves the number as it is: older code reads such a
# store as before, and this code adds the table to an older store it opens.
SCHEMA_VERSION = 3

# A game set aside because its rows cannot be read: they stay as they were.
DAMAGED = "damaged"

_GAMES = """
CREATE TABLE {exists} {name} (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    setup       TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'finished', 'abandoned', 'damaged')),
    created_at  REAL NOT NULL,
    ended_at    REAL,
    result      TEXT
);
"""

_SCHEMA = (
    _GAMES.format(exists="IF NOT EXISTS", name="games")
    + """
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
-- A game's time (see companion/table/game_clock.py) as a running timer last
-- saved it; a command's body holds the time it was carried out.
CREATE TABLE IF NOT EXISTS game_times (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id),
    played      REAL NOT NULL
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
-- The café console's actions this table applied (companion/fleet/actions.py)
-- and its reply to each, so an action delivered twice, even across a
-- restart, is answered again and never applied again.
CREATE TABLE IF NOT EXISTS fleet_actions (
    id          TEXT PRIMARY KEY,
    at          REAL NOT NULL,
    reply       TEXT NOT NULL
);
"""
)

# SQLite's primary result codes for a damaged file: pages that do not read
# as a database's ("database disk image is malformed"), or a file that is
# not a database at all.
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26
# ... and those for a directory a reader may not write (no -shm can be made).
_SQLITE_READONLY, _SQLITE_CANTOPEN = 8, 14


class StoreError(Exception):
    """The store could not be opened or written (disk full, unreadable file)."""


class DamagedStoreError(StoreError):
    """SQLite cannot read the file: it is not a database, or pages of it are
    damaged (zeroed or overwritten)."""


class DamagedGame(StoreError):
    """A game's stored rows do not read as a game (a row that is not JSON,
    an event the engine cannot fold, a set-up that is not one)."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} cannot be read: {reason}")
        self.game_id = game_id
        self.reason = reason


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite failed because the file itself is damaged."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def read_only_connection(path: str | Path) -> sqlite3.Connection:
    """A connection that only reads ``path``: it never writes the file, not
    even the checkpoint a writing connection makes when it closes.

    In a directory it may not write (``status`` or ``export`` run by
    another user), SQLite cannot create the shared-memory file a WAL store
    is read through. Where no write-ahead log holds anything, nobody can be
    writing the store either (a writer would need that log), so the file
    alone is the whole store: it is then read as immutable."""
    db = _connect_read_only(path, "mode=ro")
    try:
        db.execute("PRAGMA schema_version").fetchone()
    except sqlite3.Error as exc:  # other failures are the caller's to report
        code = getattr(exc, "sqlite_errorcode", 0) or 0
        if code & 0xFF in (_SQLITE_READONLY, _SQLITE_CANTOPEN) and not _log_holds_anything(path):
            db.close()
            return _connect_read_only(path, "mode=ro&immutable=1")
    return db


def _connect_read_only(path: str | Path, query: str) -> sqlite3.Connection:
    return sqlite3.connect(
        f"{Path(path).resolve().as_uri()}?{query}",
        uri=True,
        isolation_level=None,
        check_same_thread=False,
    )


def _log_holds_anything(path: str | Path) -> bool:
    try:
        return os.path.getsize(f"{path}-wal") > 0
    except OSError:
        return False


def check_pages(path: str | Path) -> None:
    """Raise DamagedStoreError, in SQLite's words, if its ``quick_check``
    finds the file at ``path`` damaged. It reads every page (a year of a
    busy table, 60 MB, in about half a second: docs/benchmarks.md), and only
    reads, so a damaged file stays exactly as it was. A missing or empty
    file is a new store: nothing to check. Other failures (no permission, a
    directory) are left for the store to report."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    try:
        db = read_only_connection(path)
    except sqlite3.Error:
        return
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
    except sqlite3.Error as exc:
        if is_damage(exc):
            raise DamagedStoreError(str(exc)) from exc
        return
    finally:
        db.close()
    if problems != ["ok"]:
        raise DamagedStoreError("; ".join(problems[:3]))


class SeatLink(TypedDict):
    """A seat's phone link: its join token, the phone that holds it (a hash
    of the phone's secret; None until a claim is final) and how often the
    seat was re-paired."""

    token: str
    device_hash: str | None
    repairs: int


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    setup: dict[str, Any] | None  # None: the row does not read (not JSON)
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
        in it is written, not even the schema. A file SQLite cannot read is
        a DamagedStoreError; any other failure a StoreError."""
        self.path = str(path)
        if self.path != ":memory:" and not read_only:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            if read_only:
                self.db = read_only_connection(self.path)
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from exc
        try:
            self._prepare(read_only)
        except sqlite3.Error as exc:
            self.db.close()
            error = DamagedStoreError if is_damage(exc) else StoreError
            raise error(f"cannot open {self.path}: {exc}") from exc
        except BaseException:
            self.db.close()
            raise

    def _prepare(self, read_only: bool) -> None:
        """The connection's settings, then the schema (unless read-only)."""
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
            if 0 < version < 3:
                self._allow_damaged_status()
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _allow_damaged_status(self) -> None:
        """Schema 3: the games table again, with 'damaged' among the statuses
        its CHECK allows (SQLite cannot change a CHECK in place). Every row
        is copied as it was, in one transaction."""
        self.db.execute("PRAGMA foreign_keys=OFF")  # the commands' references wait
        with self._transaction():
            self.db.execute(_GAMES.format(exists="", name="games_v3"))
            self.db.execute("INSERT INTO games_v3 SELECT * FROM games")
            self.db.execute("DROP TABLE games")
            self.db.execute("ALTER TABLE games_v3 RENAME TO games")
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self.db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # -- writing -----------------------------------------------------------
    def create_game(
        self,
        setup: dict[str, Any],
        command: Command,
        source: str,
        events: list[Event],
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

    def set_aside(self, game_id: int) -> None:
        """A game whose rows cannot be read leaves play: only its status
        changes (to 'damaged'), its rows stay as they are, for support."""
        with self._lock, self._transaction():
            self.db.execute("UPDATE games SET status=? WHERE id=?", (DAMAGED, game_id))

    def copy_game(
        self, game: tuple[Any, ...], commands: list[tuple[Any, ...]], events: list[tuple[Any, ...]]
    ) -> None:
        """Put one game's rows, as another store held them, into this one,
        under the same id, in one transaction (a damaged file's games that
        can still be read; see damage.salvage)."""
        with self._lock, self._transaction():
            self.db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", game)
            self.db.executemany("INSERT INTO commands VALUES (?, ?, ?, ?, ?)", commands)
            self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", events)

    def append(
        self,
        game_id: int,
        number: int,
        first_seq: int,
        command: Command,
        source: str,
        events: list[Event],
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
            if row is None or row[0] in ("abandoned", DAMAGED):
                # An abandoned game takes nothing more (a Table left behind
                # by a kiosk that ended it must not bring it back), nor one
                # set aside.
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

    def _insert(
        self,
        game_id: int,
        number: int,
        first_seq: int,
        command: Command,
        source: str,
        events: list[Event],
        at: float,
    ) -> None:
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
            raise (DamagedStoreError if is_damage(exc) else StoreError)(str(exc)) from exc

    def save_game_time(self, game_id: int, played: float) -> None:
        """Keep a game's time while a timer runs (see :meth:`game_time`)."""
        with self._lock, self._transaction():
            self.db.execute(
                "INSERT INTO game_times VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET played=excluded.played",
                (game_id, played),
            )

    # -- the café console's actions -----------------------------------------
    def fleet_reply(self, action_id: str) -> dict[str, Any] | None:
        """The reply given to console action ``action_id``, if it was applied."""
        with self._lock:
            row = self.db.execute(
                "SELECT reply FROM fleet_actions WHERE id=?", (action_id,)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def remember_fleet_action(
        self, action_id: str, at: float, reply: dict[str, Any], keep: float
    ) -> None:
        """Keep ``reply`` to an applied action, and forget those older than
        ``keep`` seconds (an action that old is refused as stale anyway)."""
        with self._lock, self._transaction():
            self.db.execute("DELETE FROM fleet_actions WHERE at < ?", (at - keep,))
            self.db.execute(
                "INSERT OR REPLACE INTO fleet_actions VALUES (?, ?, ?)",
                (action_id, at, _dumps(reply)),
            )

    # -- phones --------------------------------------------------------------
    def seat_link(self, game_id: int, seat: int) -> SeatLink | None:
        with self._lock:
            row = self.db.execute(
                "SELECT token, device_hash, repairs FROM seat_links WHERE game_id=? AND seat=?",
                (game_id, seat),
            ).fetchone()
        return None if row is None else {"token": row[0], "device_hash": row[1], "repairs": row[2]}

    def seat_links(self, game_id: int) -> dict[int, SeatLink]:
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
    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        """A games row as a record; one whose set-up or result is not JSON
        (or whose set-up is not an object) has neither: ``setup`` is None."""
        try:
            setup = json.loads(row[2])
            result = None if row[6] is None else json.loads(row[6])
        except (TypeError, ValueError, RecursionError):
            setup = result = None
        if not isinstance(setup, dict):
            setup = result = None
        return GameRecord(
            id=row[0],
            game=row[1],
            setup=setup,
            status=row[3],
            created_at=row[4],
            ended_at=row[5],
            result=result,
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

    def events(self, game_id: int) -> list[tuple[int, Event]]:
        """Every event of a game in order, with the number of its command;
        DamagedGame if one is not a JSON object."""
        with self._lock:
            rows = self.db.execute(
                "SELECT seq, command, body FROM events WHERE game_id=? ORDER BY seq", (game_id,)
            ).fetchall()
        events = []
        for seq, number, body in rows:
            try:
                event = json.loads(body)
            except (TypeError, ValueError, RecursionError):
                event = None
            if not isinstance(event, dict):
                raise DamagedGame(game_id, f"event {seq} is not a JSON object")
            events.append((number, event))
        return events

    def game_time(self, game_id: int) -> float:
        """The latest time of a game the store holds: the later of the last
        saved while a timer ran and the last command's (0 for a game with
        no timed command yet)."""
        saved = (
            "SELECT played AS t FROM game_times WHERE game_id=:game UNION ALL "
            if self._has_table("game_times")  # not in a store opened read-only from before it
            else ""
        )
        try:
            with self._lock:
                row = self.db.execute(
                    f"SELECT MAX(t) FROM ({saved}"
                    "SELECT json_extract(body, '$.at') AS t FROM commands WHERE game_id=:game)",
                    {"game": game_id},
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the time of game {game_id}: {exc}") from exc
        return float(row[0] or 0.0)

    def _has_table(self, name: str) -> bool:
        with self._lock:
            row = self.db.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)
            ).fetchone()
        return row is not None

    def commands(self, game_id: int) -> list[Command]:
        with self._lock:
            rows = self.db.execute(
                "SELECT number, body, source, at FROM commands WHERE game_id=? ORDER BY number",
                (game_id,),
            ).fetchall()
        return [
            {"number": n, "command": json.loads(b), "source": s, "at": at} for n, b, s, at in rows
        ]
