"""Power cuts while a damaged store is recovered (issue 33, items 6 and 7).

A store of 300 finished games and an unfinished one whose last 20 commands
are only in its write-ahead log, one page of an early game's events zeroed:
`companion serve` moves it aside and copies the games that still read into a
new store. It is killed with SIGKILL at each step of that, then started
again, and the store it comes up with must be the one an uncut recovery
makes: every game, every acknowledged command, and the damaged file and its
log kept whole under one name.

Real processes on real files. A kill at an exact step is strace's: it sends
SIGKILL to the process as it enters its n-th rename (or unlink), for every n
until a run is not cut; other kills land at random moments of the copy,
after the file was moved aside."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from campaign import report, scaled
from damage_helpers import digest, leaf_pages, many_games, zero_pages
from helpers import new_table

from companion.table import EventStore
from companion.table.damage import SET_ASIDE

pytestmark = pytest.mark.slow  # some forty runs of `companion serve`

GAMES = 300
IN_LOG = 20  # the unfinished game's commands only in the write-ahead log
STRACE = Path("/usr/bin/strace")
RENAMES = "rename,renameat,renameat2"
UNLINKS = "unlink,unlinkat"
MOST_STEPS = 20  # more renames (or unlinks) than recovery makes: the test is wrong
TIMED_KILLS = scaled(8)


@pytest.fixture(scope="module")
def damaged(tmp_path_factory) -> Path:
    """The damaged store's files, in a folder each run copies."""
    folder = tmp_path_factory.mktemp("damaged")
    played = folder / "played.sqlite3"
    many_games(played, GAMES)
    early = leaf_pages(played, "events")[5]
    store = EventStore(played)
    table = new_table(store, ["Ann", "Ben", "Cy"])
    for _ in range(IN_LOG):
        table.execute({"type": "income", "seat": table.public_view()["current"]})
    # The power goes: the file and its log as the last commit left them.
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{played}{suffix}", folder / f"companion.sqlite3{suffix}")
    store.close()
    played.unlink()
    zero_pages(folder / "companion.sqlite3", early)
    assert os.path.getsize(folder / "companion.sqlite3-wal") > 0
    return folder / "companion.sqlite3"


def fresh_copy(damaged: Path, folder: Path) -> Path:
    folder.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{damaged}{suffix}", folder / f"{damaged.name}{suffix}")
    return folder / damaged.name


def serve(db: Path, *, kill_at: tuple[str, int] | None = None) -> subprocess.Popen:
    """`companion serve` on ``db`` (it opens the store, recovers it, serves
    and stops); with ``kill_at`` = (calls, n), killed as it enters the n-th
    of those system calls."""
    command = [sys.executable, "-m", "companion", "serve", "--db", str(db)]
    command += ["--port", "0", "--exit-after", "0", "--log-level", "info"]
    if kill_at is not None:
        calls, n = kill_at
        trace = ["-f", "-qq", "-o", f"{db}.trace", "-e", f"trace={calls}"]
        command = [str(STRACE), *trace, "-e", f"inject={calls}:signal=SIGKILL:when={n}", *command]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),  # no .pyc renamed into place
    )


def finish(process: subprocess.Popen) -> str:
    _, err = process.communicate(timeout=120)
    return err


def games_in(db: Path) -> dict[int, tuple[str, int]]:
    """Each game in the store: its status and how many commands it holds."""
    store = EventStore(db, read_only=True)
    try:
        return {g.id: (g.status, len(store.commands(g.id))) for g in store.history()}
    finally:
        store.close()


def kept_aside(db: Path) -> list[str]:
    return sorted(
        f.name.removeprefix(f"{db.name}{SET_ASIDE}") for f in db.parent.glob("*.damaged-*")
    )


def check_recovered(db: Path, damaged: Path, control: dict, log: str) -> None:
    """Started again after the cut, the store is the uncut recovery's, and
    the damaged file and its log are kept whole, side by side."""
    assert games_in(db) == control, "the store differs from an uncut recovery's"
    [aside] = [
        f for f in db.parent.glob(f"{db.name}{SET_ASIDE}*") if f.name[-4:] not in ("-wal", "-shm")
    ]
    assert digest(aside) == digest(damaged), kept_aside(db)
    assert digest(Path(f"{aside}-wal")) == digest(Path(f"{damaged}-wal")), kept_aside(db)


def test_the_uncut_recovery_keeps_every_command(damaged, tmp_path):
    db = fresh_copy(damaged, tmp_path / "control")
    process = serve(db)
    log = finish(process)
    assert process.returncode == 0, log
    games = games_in(db)
    assert games[GAMES + 1] == ("active", IN_LOG + 1), "the log's commands recovered"
    assert len(games) > GAMES * 0.9 and "moved aside as" in log


def control_of(damaged: Path, folder: Path) -> tuple[dict, float]:
    """An uncut recovery's store, and how long it copies (from the file's
    move to the process's end)."""
    db = fresh_copy(damaged, folder)
    process = serve(db)
    while not list(folder.glob(f"*{SET_ASIDE}*")):
        assert process.poll() is None, finish(process)
        time.sleep(0.001)
    moved = time.monotonic()
    assert process.wait(timeout=120) == 0
    return games_in(db), time.monotonic() - moved


@pytest.mark.parametrize("calls", [RENAMES, UNLINKS], ids=["renames", "unlinks"])
def test_a_kill_at_each_rename_or_unlink_of_the_recovery_loses_nothing(damaged, tmp_path, calls):
    if not STRACE.exists():
        pytest.fail(f"{STRACE} is missing: scripts/system-packages.sh installs strace")
    control, _ = control_of(damaged, tmp_path / "control")
    cut = []
    for n in range(1, MOST_STEPS + 1):
        db = fresh_copy(damaged, tmp_path / f"cut-{n}")
        process = serve(db, kill_at=(calls, n))
        said = finish(process)
        trace = Path(f"{db}.trace").read_text()
        if "killed by SIGKILL" not in trace:
            assert process.returncode == 0, trace
            break
        entering = trace.strip().splitlines()[-2]  # the call it was killed entering
        cut.append(entering.split(None, 1)[1].replace(f"{db.parent}/", ""))
        again = serve(db)
        log = finish(again)
        check_recovered(db, damaged, control, log)
        assert again.returncode == 0, log
        assert "moved aside as" in said + log, "the recovery said nothing"
    else:
        pytest.fail(f"more than {MOST_STEPS} of {calls} in one recovery")
    assert cut, "no step was cut"
    report(f"recovery cut at each of {calls}", {"kills": len(cut), "cut entering": cut})


def test_kills_at_random_moments_of_the_copy_lose_nothing(damaged, tmp_path):
    """Before, a kill while the games were copied left a new store holding
    some of them, which the next start took for healthy (0 to 286 of 300
    games, said nothing)."""
    control, copying = control_of(damaged, tmp_path / "control")
    rng = random.Random(20261206)
    for kill in range(TIMED_KILLS):
        db = fresh_copy(damaged, tmp_path / f"cut-{kill}")
        process = serve(db)
        while not kept_aside(db) and process.poll() is None:
            time.sleep(0.001)
        time.sleep(rng.uniform(0, copying))
        process.send_signal(signal.SIGKILL)
        said = finish(process)
        again = serve(db)
        log = finish(again)
        check_recovered(db, damaged, control, log)
        assert again.returncode == 0, log
        assert "moved aside as" in said + log, "the recovery said nothing"
    report("recovery killed while copying", {"kills": TIMED_KILLS, "copy (s)": round(copying, 2)})


def test_a_log_an_earlier_version_moved_alone_is_recovered_with_its_store(damaged, tmp_path):
    """An earlier version, cut after it had moved the write-ahead log aside,
    left no marker: the next start moved the store alone, and recovered it
    without the commands in its log (20 of 20 lost)."""
    control, _ = control_of(damaged, tmp_path / "control")
    db = fresh_copy(damaged, tmp_path / "cut")
    os.replace(f"{db}-wal", f"{db}{SET_ASIDE}1796000000-wal")  # its first rename, then the cut
    process = serve(db)
    log = finish(process)
    check_recovered(db, damaged, control, log)
    assert process.returncode == 0, log
    assert "its write-ahead log was moved aside without it" in log
