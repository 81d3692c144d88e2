"""`companion export` and `companion status`, run as commands on real SQLite
stores: the export is a consistent copy even while the kiosk's connection
holds committed commands only in the write-ahead log."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest
from helpers import new_table

from companion.table import EventStore
from companion.web.links import SeatLinks


def companion(*args: str, path: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def stub_journalctl(directory: Path) -> Path:
    """A journalctl that prints two log lines and records its arguments."""
    directory.mkdir()
    script = directory / "journalctl"
    script.write_text(
        '#!/bin/sh\necho "$@" > "$(dirname "$0")/args"\n'
        'echo "2025-01-01T20:00:00+00:00 table companion[42]: READY"\n'
        'echo "2025-01-01T20:00:01+00:00 table companion[42]: a press"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return directory


def test_the_export_holds_a_consistent_copy_the_settings_without_secrets_and_the_journal(tmp_path):
    db = tmp_path / "data" / "companion.sqlite3"
    store = EventStore(db)
    table = new_table(store, ["Ann", "Ben", "Cy"])
    for _ in range(5):
        table.execute({"type": "income", "seat": table.public_view()["current"]})
    links = SeatLinks(store)
    links.join(links.token(table.game_id, 0), None)  # a join link, a phone's claim: secrets
    (db.with_name("kiosk.ini")).write_text(
        "[kiosk]\npin = 4711\nlanguage = el\n\n[wifi]\nssid = Cafe\npassword = hunter22\n"
    )
    # The kiosk's connection is still open: its commits are in the WAL only.
    assert Path(f"{db}-wal").stat().st_size > 0
    commands = len(store.commands(table.game_id))
    events = len(store.events(table.game_id))

    tools = stub_journalctl(tmp_path / "bin")
    output = tmp_path / "support.zip"
    done = companion(
        "export",
        "--db",
        str(db),
        "--output",
        str(output),
        path=f"{tools}{os.pathsep}{os.environ['PATH']}",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        f"Written {output}, for support: the game store (1 game), "
        "the settings and the service's log."
    )

    with zipfile.ZipFile(output) as archive:
        assert sorted(archive.namelist()) == [
            "about.json",
            "companion.sqlite3",
            "games.json",
            "journal.txt",
            "kiosk.ini",
        ]
        archive.extract("companion.sqlite3", tmp_path / "out")
        games = json.loads(archive.read("games.json"))
        settings = archive.read("kiosk.ini").decode()
        journal = archive.read("journal.txt").decode()
        about = json.loads(archive.read("about.json"))
    copy = EventStore(tmp_path / "out" / "companion.sqlite3")
    assert len(copy.commands(table.game_id)) == commands and commands == 6
    assert len(copy.events(table.game_id)) == events
    assert [seat["name"] for seat in copy.active_game().setup["seats"]] == ["Ann", "Ben", "Cy"]
    assert copy.seat_links(table.game_id) == {}
    copy.close()
    check = sqlite3.connect(tmp_path / "out" / "companion.sqlite3")
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert check.execute("SELECT COUNT(*) FROM provisional_claims").fetchone() == (0,)
    check.close()
    assert [(g["game"], g["status"]) for g in games] == [("coup", "active")]
    assert "4711" not in settings and "hunter22" not in settings
    assert "language = el" in settings and "ssid = Cafe" in settings
    assert "a press" in journal
    assert (tools / "args").read_text().split()[:2] == ["--unit", "table-companion.service"]
    assert about["journal"] == "journal.txt" and about["games"] == 1
    # The kiosk's store is untouched and still writable by the kiosk.
    table.execute({"type": "income", "seat": table.public_view()["current"]})
    assert store.seat_links(table.game_id) != {}
    store.close()


def test_without_journalctl_the_export_says_why_the_log_is_missing(tmp_path):
    db = tmp_path / "companion.sqlite3"
    store = EventStore(db)
    new_table(store, ["Ann", "Ben"])
    store.close()
    empty = tmp_path / "no-tools"
    empty.mkdir()
    output = tmp_path / "support.zip"
    done = companion(
        "export", "--db", str(db), "--output", str(output), "--lang", "ru", path=str(empty)
    )
    assert done.returncode == 0, done.stderr
    assert "хранилище игр (1 игра)" in done.stdout
    assert "Журнала службы в нём нет: journalctl is not installed" in done.stdout
    with zipfile.ZipFile(output) as archive:
        assert "journal.txt" not in archive.namelist()
        assert json.loads(archive.read("about.json"))["journal"] == (
            "missing: journalctl is not installed"
        )


def test_an_export_without_a_store_fails_clearly(tmp_path):
    done = companion(
        "export", "--db", str(tmp_path / "none.sqlite3"), "--output", str(tmp_path / "x.zip")
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"Cannot export: no game store at {tmp_path / 'none.sqlite3'}"
    assert not (tmp_path / "x.zip").exists() and "Traceback" not in done.stderr


def test_status_tells_whether_a_game_is_in_progress(tmp_path):
    db = tmp_path / "companion.sqlite3"
    done = companion("status", "--db", str(db))
    assert (done.returncode, done.stdout.strip()) == (0, "No game is in progress.")
    assert not db.exists()  # asking does not create a store
    store = EventStore(db)
    table = new_table(store, ["Ann", "Ben", "Cy"])
    done = companion("status", "--db", str(db), "--lang", "el")
    assert done.returncode == 3
    assert done.stdout.startswith("Ένα παιχνίδι Coup για 3 παίκτες είναι σε εξέλιξη")
    table.end()
    store.close()
    done = companion("status", "--db", str(db))
    assert (done.returncode, done.stdout.strip()) == (0, "No game is in progress.")
    db.write_bytes(b"not a database at all, not even close" * 40)
    done = companion("status", "--db", str(db))
    # No game can be resumed from it: the kiosk keeps it aside and starts anew.
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout.startswith("The game store cannot be read (file is not a database)")
    assert db.read_bytes().startswith(b"not a database")  # asking moves nothing


def test_status_and_export_read_a_store_in_a_directory_they_may_not_write(tmp_path):
    """Before, both failed: "attempt to write a readonly database" (SQLite
    could not make the shared-memory file a WAL store is read through). Run
    as a user who may not write the store's directory (root writes any: the
    commands then run as nobody)."""
    top = Path(tempfile.mkdtemp(prefix="companion-read-only-"))
    try:
        top.chmod(0o755)
        data = top / "data"
        db = data / "companion.sqlite3"
        store = EventStore(db)
        table = new_table(store, ["Ann", "Ben", "Cy"])
        table.execute({"type": "income", "seat": table.public_view()["current"]})
        store.close()  # the kiosk is stopped: no -wal, no -shm beside the store
        assert sorted(f.name for f in data.iterdir()) == ["companion.sqlite3"]
        db.chmod(0o644)
        data.chmod(0o555)
        out = top / "out"
        out.mkdir(mode=0o777)
        out.chmod(0o777)
        done = as_another_user("status", "--db", str(db))
        assert (done.returncode, done.stderr) == (3, ""), done.stderr
        assert done.stdout.startswith("A game of Coup for 3 players is in progress")
        output = out / "support.zip"
        done = as_another_user("export", "--db", str(db), "--output", str(output))
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"Written {output}, for support: the game store (1 game)")
        with zipfile.ZipFile(output) as archive:
            archive.extract("companion.sqlite3", tmp_path)
        copy = EventStore(tmp_path / "companion.sqlite3")
        assert len(copy.commands(table.game_id)) == 2
        copy.close()
        assert sorted(f.name for f in data.iterdir()) == ["companion.sqlite3"]
    finally:
        data.chmod(0o755)
        shutil.rmtree(top)


def as_another_user(*args: str) -> subprocess.CompletedProcess:
    """`companion ARGS` as a user other than root (nobody, where the tests
    run as root), so a directory's permissions apply."""
    command = [sys.executable, "-m", "companion", *args]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1])),
    )


def store_with_secrets(db: Path) -> list[bytes]:
    """A store whose seats have join links, one claimed by a phone: the
    links and the claim's hash, as bytes a file would hold them."""
    store = EventStore(db)
    table = new_table(store, ["Ann", "Ben", "Cy"])
    links = SeatLinks(store)
    tokens = [links.token(table.game_id, seat) for seat in range(3)]
    links.join(tokens[0], None)
    [claim] = store.db.execute("SELECT device_hash FROM provisional_claims").fetchone()
    store.close()
    return [secret.encode() for secret in (*tokens, claim)]


def holding(folder: Path, secrets: list[bytes]) -> list[str]:
    """The files under ``folder`` that hold any of ``secrets``."""
    return sorted(
        str(f.relative_to(folder))
        for f in folder.rglob("*")
        if f.is_file() and any(s in f.read_bytes() for s in secrets)
    )


def scratch_folders(temp: Path) -> list[str]:
    return sorted(f.name for f in temp.glob("companion-export-*"))


def test_a_killed_export_leaves_no_join_secret_and_its_folder_goes_at_the_next(tmp_path):
    """Before, the export copied the store, join links and all, into its
    folder in the system's temporary directory and removed them from the
    copy only later: killed in between, it left them there, for good. Now
    the links never reach a file, and an export clears the folders killed
    ones left. Killed as it enters each of its fsyncs in turn (strace), and
    while journalctl runs."""
    db = tmp_path / "data" / "companion.sqlite3"
    secrets = store_with_secrets(db)
    temp = tmp_path / "temp"
    temp.mkdir()
    tools = tmp_path / "bin"
    tools.mkdir()
    # A journalctl that answers at once, or, once told to hold, blocks.
    (tools / "journalctl").write_text(
        '#!/bin/sh\ncd "$(dirname "$0")"\ntouch started\n'
        "[ -e hold ] && exec sleep 60\necho a line\n"
    )
    (tools / "journalctl").chmod(0o755)
    env = dict(os.environ, TMPDIR=str(temp), PATH=f"{tools}{os.pathsep}{os.environ['PATH']}")
    command = [sys.executable, "-m", "companion", "export", "--db", str(db), "--output"]
    strace = Path("/usr/bin/strace")
    if not strace.exists():
        pytest.fail(f"{strace} is missing: scripts/system-packages.sh installs strace")
    kills = 0
    for n in range(1, 40):
        cut = ["-f", "-qq", "-o", str(tmp_path / "trace"), "-e", "trace=fsync,fdatasync"]
        cut += ["-e", f"inject=fsync,fdatasync:signal=SIGKILL:when={n}"]
        output = tmp_path / f"cut-{n}.zip"
        done = subprocess.run(
            [str(strace), *cut, *command, str(output)],
            capture_output=True, text=True, timeout=120, env=env, start_new_session=True,
        )  # fmt: skip
        if "killed by SIGKILL" not in (tmp_path / "trace").read_text():
            break
        kills += 1
        assert holding(temp, secrets) == [], f"killed at fsync {n}"
    else:
        pytest.fail("more fsyncs than an export makes")
    assert kills > 2 and done.returncode == 0, done.stderr
    # Killed while journalctl runs: its folder holds the store's copy.
    (tools / "hold").touch()
    (tools / "started").unlink()
    process = subprocess.Popen(
        [*command, str(tmp_path / "killed.zip")], env=env, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not (tools / "started").exists():
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the export and its journalctl
        process.wait()
    assert scratch_folders(temp) and holding(temp, secrets) == []
    (tools / "hold").unlink()
    output = tmp_path / "support.zip"
    done = subprocess.run(
        [*command, str(output)], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    assert scratch_folders(temp) == [], "the killed exports' folders are cleared"
    with zipfile.ZipFile(output) as archive:
        assert not any(s in archive.read("companion.sqlite3") for s in secrets)
    report = f"{kills} kills at fsyncs, 1 during journalctl"
    print(f"\nexport: {report}; no join secret in any file; every folder cleared")
