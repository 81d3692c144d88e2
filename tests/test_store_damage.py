"""A damaged store never stops the table (issue 18, item 11). On real SQLite
files damaged behind the store's back: a game whose rows cannot be read is
set aside (its rows kept, every other game kept), a file SQLite cannot read
is moved aside whole (never deleted) and a new store starts with every game
of it that still reads; `companion run` opens home and says so, `serve`
starts, `status` answers and `export` writes what it can and says what it
could not."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from damage_helpers import (
    BAD_EVENTS,
    BAD_SETUPS,
    PLAYERS,
    UNFINISHED,
    digest,
    leaf_pages,
    many_games,
    rows_of,
    three_games,
    write,
    zero_pages,
)
from helpers import new_table

from companion.table import EventStore, StoreError, Table
from companion.table.damage import SET_ASIDE, open_store, resume_active, set_aside_files

CHILD = Path(__file__).with_name("damaged_store_child.py")


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def damaged_event(path: Path, body: str) -> None:
    write(path, "UPDATE events SET body=? WHERE game_id=? AND seq=4", body, UNFINISHED)


def damaged_setup(path: Path, setup: str) -> None:
    write(path, "UPDATE games SET setup=? WHERE id=?", setup, UNFINISHED)


def garbage(path: Path) -> None:
    path.write_bytes(b"this is no database, whatever its name says\n" * 100)


def the_only_file_aside(path: Path) -> Path:
    [aside] = [f for f in set_aside_files(path) if not f.name.endswith(("-wal", "-shm"))]
    return aside


# -- a game whose rows cannot be read -------------------------------------------


@pytest.mark.parametrize("body", BAD_EVENTS.values(), ids=BAD_EVENTS.keys())
def test_a_game_whose_event_does_not_rebuild_it_is_set_aside_and_every_other_stays(tmp_path, body):
    path = tmp_path / "companion.sqlite3"
    views = three_games(path)
    damaged_event(path, body)
    stored = rows_of(path, UNFINISHED)

    store, damage = open_store(path)
    table, set_aside = resume_active(store)
    assert table is None and set_aside == (UNFINISHED,) and not damage
    assert [(g.id, g.status) for g in store.history()] == [
        (3, "damaged"),
        (2, "abandoned"),
        (1, "abandoned"),
    ]
    assert store.active_game() is None
    for game_id in (1, 2):  # every other game reads as it was played
        assert Table.resume(store, game_id).public_view() == views[game_id]
    with pytest.raises(StoreError):  # the game set aside takes nothing more
        store.append(UNFINISHED, 7, 7, {"type": "income", "seat": 1}, "local", [], 0.0)
    new = new_table(store, PLAYERS[2])  # and the table plays on
    new.execute({"type": "income", "seat": 0})
    store.close()
    games, commands, events = rows_of(path, UNFINISHED)
    assert (commands, events) == stored[1:], "the rows stay as they were, for support"
    assert games[0][3] == "damaged" and games[0][:3] == stored[0][0][:3]
    store, _ = open_store(path)
    assert resume_active(store)[0].game_id == new.game_id  # set aside once, not again
    store.close()


@pytest.mark.parametrize("setup", BAD_SETUPS.values(), ids=BAD_SETUPS.keys())
def test_a_game_whose_set_up_is_not_one_is_set_aside(tmp_path, setup):
    path = tmp_path / "companion.sqlite3"
    three_games(path)
    damaged_setup(path, setup)
    store, _ = open_store(path)
    assert resume_active(store) == (None, (UNFINISHED,))
    record = store.game(UNFINISHED)
    assert record.status == "damaged"
    assert store.db.execute("SELECT setup FROM games WHERE id=3").fetchone() == (setup,)
    assert [g.status for g in store.history()[1:]] == ["abandoned", "abandoned"]
    store.close()


def test_a_store_of_the_previous_schema_takes_the_damaged_status(tmp_path):
    """Schema 2's CHECK knew no 'damaged': opening rebuilds the table, every
    row as it was."""
    path = tmp_path / "companion.sqlite3"
    three_games(path)
    db = sqlite3.connect(path)
    db.executescript(
        """
        PRAGMA foreign_keys=OFF;
        CREATE TABLE games_v2 (
            id INTEGER PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'finished', 'abandoned')),
            created_at REAL NOT NULL, ended_at REAL, result TEXT);
        INSERT INTO games_v2 SELECT * FROM games;
        DROP TABLE games;
        ALTER TABLE games_v2 RENAME TO games;
        PRAGMA user_version=2;
        """
    )
    before = db.execute("SELECT * FROM games").fetchall()
    db.close()
    damaged_event(path, BAD_EVENTS["not JSON"])
    store, _ = open_store(path)
    assert resume_active(store) == (None, (UNFINISHED,))
    rows = store.db.execute("SELECT * FROM games").fetchall()
    assert rows == [*before[:2], (*before[2][:3], "damaged", *before[2][4:])]
    assert store.db.execute("PRAGMA user_version").fetchone() == (3,)
    assert store.db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert store.db.execute("PRAGMA foreign_key_check").fetchall() == []
    store.close()


# -- a file SQLite cannot read ----------------------------------------------------


def test_zeroed_pages_move_the_file_aside_whole_and_a_new_store_starts(tmp_path):
    path = tmp_path / "companion.sqlite3"
    three_games(path)
    zero_pages(path, 2, 4)  # the roots of the games, commands and events tables
    damaged = digest(path)
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        sqlite3.connect(path).execute("SELECT * FROM games").fetchall()

    store, damage = open_store(path)
    aside = the_only_file_aside(path)
    assert damage.moved_to == aside and damage.copied == 0
    assert aside.name.startswith(f"companion.sqlite3{SET_ASIDE}")
    assert digest(aside) == damaged, "the damaged file is kept exactly as it was"
    assert store.history() == [] and resume_active(store) == (None, ())
    new_table(store, PLAYERS[0]).execute({"type": "income", "seat": 0})
    store.close()
    assert digest(aside) == damaged


def test_a_file_that_is_not_a_database_is_moved_aside_never_over_an_earlier_one(tmp_path):
    path = tmp_path / "companion.sqlite3"
    garbage(path)
    contents = path.read_bytes()
    first, _ = open_store(path)
    first.close()
    garbage(path)  # damaged again within the same second
    second, damage = open_store(path)
    second.close()
    moved = [f for f in set_aside_files(path) if not f.name.endswith(("-wal", "-shm"))]
    assert len(moved) == 2 and damage.moved_to in moved
    assert all(f.read_bytes() == contents for f in moved)
    assert damage.copied == 0 and damage.set_aside == ()


def test_where_pages_are_partly_readable_every_game_that_reads_whole_is_kept(tmp_path):
    """A page of events zeroed in a store of forty games: the games whose
    rows SQLite still reads whole go into the new store under their own ids,
    the unfinished one among them, and it plays on where it stopped."""
    path = tmp_path / "companion.sqlite3"
    views = many_games(path, 40)
    pages = leaf_pages(path, "events")
    zero_pages(path, pages[len(pages) // 2])

    store, damage = open_store(path)
    lost = set(damage.set_aside)
    assert damage.moved_to is not None and lost and 40 not in lost
    assert damage.copied == 40 - len(lost) and damage.copied > 30
    assert sorted(g.id for g in store.history()) == sorted(set(views) - lost)
    table, set_aside = resume_active(store)
    assert set_aside == () and table.game_id == 40
    assert table.public_view() == views[40]
    for game_id in set(views) - lost - {40}:
        assert Table.resume(store, game_id).public_view() == views[game_id]
    table.execute({"type": "income", "seat": table.public_view()["current"]})
    assert store.db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store.close()


def test_quick_check_finds_damage_that_opening_alone_would_not(tmp_path):
    """The store opens and the unfinished game reads, but pages of older
    games are zeroed: the file is moved aside before anything writes to it."""
    path = tmp_path / "companion.sqlite3"
    many_games(path, 40)
    zero_pages(path, leaf_pages(path, "commands")[3])
    store = EventStore(path, read_only=True)
    assert Table.resume(store).game_id == 40  # nothing seems wrong from here
    store.close()
    store, damage = open_store(path)
    assert damage.moved_to is not None
    assert resume_active(store)[0].game_id == 40
    store.close()


# -- the command line ---------------------------------------------------------------

DAMAGES = {
    "an event": lambda path: damaged_event(path, BAD_EVENTS["unknown to the engine"]),
    "a set-up": lambda path: damaged_setup(path, BAD_SETUPS["not JSON"]),
    "zeroed pages": lambda path: zero_pages(path, 2, 4),
    "not a database": garbage,
}
GAME_SET_ASIDE = "Game 3 could not be read and was set aside; it is kept for support."


def home_notice(kind: str, path: Path) -> str:
    """What home says of each damage (the file's name has the time in it)."""
    if kind in ("an event", "a set-up"):
        return GAME_SET_ASIDE
    return (
        f"The game store could not be read: it is kept for support as "
        f"{the_only_file_aside(path).name}, and a new one was started."
    )


def run_kiosk(path: Path, screenshot: Path, *args: str) -> tuple[dict, str]:
    """`companion run` on the store at ``path`` in a real window: what its
    first screen showed, and the log."""
    done = subprocess.run(
        [
            sys.executable,
            str(CHILD),
            str(screenshot),
            "--db",
            str(path),
            "--mock-pins",
            "--web-port",
            "0",
            "--size",
            "800x480",
            "--exit-after",
            "60",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, KIVY_NO_CONSOLELOG="1"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("kind", DAMAGES, ids=DAMAGES.keys())
def test_run_opens_home_and_says_what_was_set_aside(tmp_path, kind):
    """Before, `companion run` exited with a traceback, and systemd's
    Restart=always started it again every 3 s, for good."""
    from ui_helpers import SHOTS

    path = tmp_path / "companion.sqlite3"
    three_games(path)
    DAMAGES[kind](path)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"home-damaged-{kind.replace(' ', '-')}-800x480.png"
    shown, log = run_kiosk(path, shot)
    assert shown == {"screen": "home", "notice": home_notice(kind, path), "resume": ""}
    assert "WARNING companion.table.damage:" in log
    assert shot.stat().st_size > 5000


@pytest.mark.slow
def test_run_tells_of_the_damage_in_the_kiosk_s_language(tmp_path):
    path = tmp_path / "companion.sqlite3"
    three_games(path)
    damaged_event(path, BAD_EVENTS["a field missing"])
    from ui_helpers import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    shown, _ = run_kiosk(path, SHOTS / "home-damaged-fa-800x480.png", "--lang", "fa")
    assert shown["notice"] == "بازی ۳ خوانده نشد و کنار گذاشته شد؛ برای پشتیبانی نگه داشته شده است."


def test_serve_starts_on_a_damaged_store(tmp_path):
    path = tmp_path / "companion.sqlite3"
    three_games(path)
    damaged_event(path, BAD_EVENTS["not JSON"])
    done = companion("serve", "--db", str(path), "--port", "0", "--exit-after", "0.1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "game 3 cannot be read: event 4 is not a JSON object" in done.stderr  # the log
    assert "no unfinished game; name one with --game" in done.stderr
    args = ("--db", str(path), "--port", "0", "--exit-after", "0.1", "--game", "coup")
    done = companion("serve", *args, "--players", "Ann,Ben")
    assert done.returncode == 0, done.stderr
    store = EventStore(path)
    assert [g.status for g in store.history()] == ["active", "damaged", "abandoned", "abandoned"]
    store.close()
    garbage(path)
    done = companion("serve", *args)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "moved aside as" in done.stderr and the_only_file_aside(path).exists()


@pytest.mark.parametrize("kind", DAMAGES, ids=DAMAGES.keys())
def test_status_answers_on_a_damaged_store_and_changes_nothing(tmp_path, kind):
    path = tmp_path / "companion.sqlite3"
    three_games(path)
    DAMAGES[kind](path)
    before = digest(path)
    done = companion("status", "--db", str(path))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    expected = {
        "an event": "Game 3 cannot be read: the kiosk sets it aside for support when it starts, "
        "so no game is in progress.",
        "a set-up": "Game 3 cannot be read: the kiosk sets it aside for support when it starts, "
        "so no game is in progress.",
        "zeroed pages": "The game store cannot be read (database disk image is malformed): the "
        "kiosk keeps it for support and starts a new one, so no game is in progress.",
        "not a database": "The game store cannot be read (file is not a database): the kiosk "
        "keeps it for support and starts a new one, so no game is in progress.",
    }
    assert done.stdout.strip() == expected[kind]
    assert digest(path) == before and set_aside_files(path) == []


def test_status_still_sees_the_game_in_progress_beside_damaged_pages(tmp_path):
    """Older games' pages zeroed, the unfinished game whole: the kiosk will
    copy it into its new store and play on, so an upgrade must wait."""
    path = tmp_path / "companion.sqlite3"
    many_games(path, 40)
    zero_pages(path, leaf_pages(path, "commands")[3])
    done = companion("status", "--db", str(path))
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stdout.startswith("A game of Coup for 3 players is in progress")


def export_of(path: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess, zipfile.ZipFile]:
    output = tmp_path / "support.zip"
    done = companion("export", "--db", str(path), "--output", str(output))
    assert "Traceback" not in done.stderr, done.stderr
    return done, zipfile.ZipFile(output)


def copy_in(archive: zipfile.ZipFile, tmp_path: Path) -> EventStore:
    archive.extract("companion.sqlite3", tmp_path / "out")
    return EventStore(tmp_path / "out" / "companion.sqlite3")


def test_export_writes_every_game_and_names_the_one_that_cannot_be_read(tmp_path):
    path = tmp_path / "companion.sqlite3"
    three_games(path)
    damaged_event(path, BAD_EVENTS["a field missing"])
    done, archive = export_of(path, tmp_path)
    assert done.returncode == 1  # written, but not everything reads
    assert done.stdout.splitlines()[-1] == (
        "Game 3 could not be read: its rows are in the zip as they were stored."
    )
    games = json.loads(archive.read("games.json"))
    assert [(g["id"], "unreadable" in g) for g in games] == [(3, True), (2, False), (1, False)]
    about = json.loads(archive.read("about.json"))
    assert about["unreadable_games"] == [3] and about["store_damaged"] is None
    copy = copy_in(archive, tmp_path)
    assert rows_of(Path(copy.path), 3)[2] == rows_of(path, 3)[2]  # the damaged row, for support
    copy.close()
    store, _ = open_store(path)  # the kiosk sets it aside; the export still says so
    resume_active(store)
    store.close()
    done, archive = export_of(path, tmp_path)
    assert done.returncode == 1 and "Game 3 could not be read" in done.stdout


def test_export_of_a_file_with_damaged_pages_holds_it_and_the_games_that_read(tmp_path):
    path = tmp_path / "companion.sqlite3"
    views = many_games(path, 40)
    pages = leaf_pages(path, "events")
    zero_pages(path, pages[len(pages) // 2])
    before = digest(path)
    done, archive = export_of(path, tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == (
        "The game store itself is damaged (database disk image is malformed): it is in the zip "
        "as it was, and the copy holds the games that could still be read."
    )
    assert lines[2].startswith("Damaged store files are in it as they were, under damaged/: ")
    assert lines[3].startswith("Games ") and lines[3].endswith(
        " could not be read: their rows are in the zip as they were stored."
    )
    assert archive.read("damaged/companion.sqlite3") == path.read_bytes()
    assert digest(path) == before, "exporting moves and changes nothing"
    about = json.loads(archive.read("about.json"))
    lost = set(about["unreadable_games"])
    copy = copy_in(archive, tmp_path)
    assert sorted(g.id for g in copy.history()) == sorted(set(views) - lost)
    assert Table.resume(copy).public_view() == views[40]
    copy.close()


def test_export_after_the_kiosk_moved_a_file_aside_holds_that_file(tmp_path):
    path = tmp_path / "companion.sqlite3"
    garbage(path)
    done, archive = export_of(path, tmp_path)  # before the kiosk starts
    assert done.returncode == 1
    assert "The game store itself is damaged (file is not a database)" in done.stdout
    assert archive.read("damaged/companion.sqlite3") == path.read_bytes()
    assert json.loads(archive.read("games.json")) == []
    store, _ = open_store(path)  # the kiosk starts: a new store, the old one aside
    new_table(store, PLAYERS[0])
    store.close()
    done, archive = export_of(path, tmp_path)
    assert done.returncode == 0, done.stdout
    aside = the_only_file_aside(path)
    assert f"Damaged store files are in it as they were, under damaged/: {aside.name}" in (
        done.stdout
    )
    assert archive.read(f"damaged/{aside.name}") == aside.read_bytes()
    assert [g["status"] for g in json.loads(archive.read("games.json"))] == ["active"]
