"""A running timer keeps the game's time, not the wall clock's: a Pi without
a real-time clock or a time server may start minutes off and be set while a
game runs. Through the table and the store, then through ``companion serve``
with its wall clock stepped by libfaketime (Debian's ``faketime``), its
monotonic clock left alone."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from a27_helpers import FakeClock, keeper4, view
from ports import free_port

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

LIBFAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
HOUR = 3600


def run_for(table: Table, clock: FakeClock, seconds: float) -> None:
    """The kiosk's quarter-second ticks for ``seconds``."""
    for _ in range(int(seconds * 4)):
        clock.advance(0.25)
        table.tick()


def test_a_restart_resumes_a_timer_with_what_it_had_left_whatever_the_clocks_say(tmp_path):
    path = tmp_path / "g.sqlite3"
    wall = FakeClock(1_800_000_000.0)
    table = Table.start(
        EventStore(path), keeper4_setup(), fate=Fate(seed=11), clock=FakeClock(50.0), wall=wall
    )
    table.execute({"type": "gavel"})
    run_for(table, table.clock.elapsed, 120.5)
    assert view(table)["timer"]["remaining"] == 179.5
    table.store.close()

    # The power goes; the Pi boots (its monotonic clock starts again near 0)
    # an hour behind, then a time server sets it an hour ahead.
    for wall_step in (-HOUR, 2 * HOUR):
        wall.advance(wall_step)
        rebooted = FakeClock(3.0)
        table = Table.resume(EventStore(path), clock=rebooted, wall=wall)
        remaining = view(table)["timer"]["remaining"]
        assert 179.5 <= remaining <= 180.5, "downtime does not count; at most 1 s comes back"
        assert table.tick() == []
        table.store.close()

    table = Table.resume(EventStore(path), clock=rebooted, wall=wall)
    rebooted.advance(remaining - 1)
    assert table.tick() == [] and view(table)["timer"]["running"]
    rebooted.advance(1.1)
    assert [e["type"] for e in table.tick()] == ["timer_expired"]


def test_the_history_keeps_wall_clock_dates_apart_from_the_game_s_time(tmp_path):
    wall = FakeClock(1_800_000_000.0)
    table = Table.start(
        EventStore(tmp_path / "g.sqlite3"),
        keeper4_setup(),
        fate=Fate(seed=11),
        clock=FakeClock(7.0),
        wall=wall,
    )
    wall.advance(60)
    table.execute({"type": "gavel"})
    table.end()
    record = table.store.history()[0]
    assert (record.created_at, record.ended_at) == (1_800_000_000.0, 1_800_000_060.0)
    assert table.store.commands(table.game_id)[1]["command"]["at"] == 7.0


def test_a_sender_s_time_in_a_rename_never_becomes_the_game_s(tmp_path):
    path = tmp_path / "g.sqlite3"
    clock = FakeClock(100.0)
    table = keeper4(EventStore(path), clock=clock)
    table.execute({"type": "gavel"})
    table.execute({"type": "rename", "seat": 0, "name": "Zoe", "at": 1e12})
    table.store.close()
    resumed = Table.resume(EventStore(path), clock=FakeClock(0.0))
    assert view(resumed)["timer"]["remaining"] == 300.0
    assert resumed.tick() == []


# -- companion serve with its wall clock stepped -----------------------------------------


def keeper4_setup() -> Setup:
    return Setup(
        game="article27",
        seats=["A", "B", "C", "D"],
        mode="keeper",
        options={"first": 0, "timer_seconds": 300},
    )


class FakedWall:
    """A process whose wall clock is off by what ``offset.txt`` says
    (libfaketime reads it at every call), its monotonic clock the real one."""

    def __init__(self, tmp_path: Path) -> None:
        if not LIBFAKETIME.exists():
            pytest.fail(f"{LIBFAKETIME} is missing: scripts/system-packages.sh installs faketime")
        self.offset_file = tmp_path / "offset.txt"
        self.step(0)
        self.env = {
            **os.environ,
            "LD_PRELOAD": str(LIBFAKETIME),
            "FAKETIME_TIMESTAMP_FILE": str(self.offset_file),
            "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        }

    def step(self, seconds: int) -> None:
        self.offset_file.write_text(f"{seconds:+d}\n")

    def wall_offset(self) -> float:
        """How far off a process started now sees the wall clock."""
        done = subprocess.run(
            [sys.executable, "-c", "import time; print(time.time())"],
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return float(done.stdout) - time.time()


class Served:
    def __init__(self, path: Path, faked: FakedWall) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--db", str(path)]
            + ["--host", "127.0.0.1", "--port", str(self.port)],
            env=faked.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self.view()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(self.process.stderr.read().decode()) from None
                time.sleep(0.1)

    def view(self) -> dict:
        url = f"http://127.0.0.1:{self.port}/api/table"
        with urllib.request.urlopen(url, timeout=5) as response:
            return json.load(response)["public"]

    def remaining(self) -> float:
        return self.view()["timer"]["remaining"]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            assert stream is not None
            stream.close()


def stored_game(path: Path, setup: Setup, *commands: dict) -> None:
    table = Table.start(EventStore(path), setup, fate=Fate(seed=11))
    for command in commands:
        table.execute(command)
    table.store.close()


def test_a_wall_clock_stepped_an_hour_either_way_moves_no_timer(tmp_path):
    path = tmp_path / "g.sqlite3"
    stored_game(path, keeper4_setup(), {"type": "gavel"})
    faked = FakedWall(tmp_path)
    faked.step(-HOUR)
    assert faked.wall_offset() == pytest.approx(-HOUR, abs=5), "libfaketime steps the wall"
    faked.step(0)
    served = Served(path, faked)
    try:
        started, first = time.monotonic(), served.remaining()
        assert 295 <= first <= 300
        for step in (-HOUR, +HOUR, 0):
            faked.step(step)
            time.sleep(1.2)
            remaining = served.remaining()
            expected = first - (time.monotonic() - started)
            assert abs(remaining - expected) <= 1.0, (step, remaining, expected)
    finally:
        served.kill()


def test_across_restarts_with_the_wall_clock_stepped_the_timer_goes_on_from_where_it_was(
    tmp_path,
):
    path = tmp_path / "g.sqlite3"
    stored_game(path, keeper4_setup(), {"type": "gavel"})
    faked = FakedWall(tmp_path)
    served = Served(path, faked)
    time.sleep(2.5)  # past two of the saves a running timer makes
    before = served.remaining()
    assert before <= 298.5
    served.kill()  # a power cut
    for step in (-HOUR, +HOUR):
        faked.step(step)
        served = Served(path, faked)
        try:
            after = served.remaining()
            assert before - 1.5 <= after <= before + 1.0, (step, before, after)
            assert served.view()["phase"] == "negotiation"
            before = served.remaining()
        finally:
            served.kill()


def test_a_coup_countdown_never_shows_more_than_its_length(tmp_path):
    path = tmp_path / "g.sqlite3"
    setup = Setup(
        game="coup",
        seats=["Ann", "Bob", "Cat"],
        mode="physical",
        options={"first": 0, "response_seconds": 10},
    )
    stored_game(path, setup, {"type": "tax", "seat": 0})
    faked = FakedWall(tmp_path)
    faked.step(-600)
    served = Served(path, faked)
    try:
        timer = served.view()["timer"]
        assert timer["seconds"] == 10 and 0 < timer["remaining"] <= 10
    finally:
        served.kill()
