"""A child process plays a long scripted series of games into a real SQLite
file and is killed with SIGKILL at many random points. After each kill the
store must hold every acknowledged command, nothing that was not sent, and
rebuild exactly the state a clean replay of those commands gives."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from campaign import report, scaled

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

pytestmark = pytest.mark.slow  # 60 kills of a child process (see campaign.py)

CHILD = Path(__file__).with_name("durability_child.py")
KILLS = scaled(60)
TOTAL_COMMANDS = scaled(8000)  # enough for the kills (see campaign.py)
# A kill comes after fewer acknowledgements than this: on average the kills
# take half the script, so the last of them still finds it unfinished.
AMONG_ACKS = 8000 // 60


def scripted_games(seed: int) -> list[dict]:
    """Random legal games in physical mode (no hidden randomness, so a
    resumed child continues exactly where the script says)."""
    rng = random.Random(seed)
    games, total = [], 0
    while total < TOTAL_COMMANDS:
        players = rng.randint(2, 6)
        setup = Setup(
            game="coup",
            seats=[f"P{i}" for i in range(players)],
            mode="physical",
            options={"first": 0, "direction": "clockwise"},
        )
        table = Table.start(EventStore(":memory:"), setup, fate=Fate(seed=0))
        commands = []
        while not table.is_over:
            command = rng.choice(table.legal_commands())
            table.execute(command)
            commands.append(command)
        games.append({"setup": setup.to_json(), "commands": commands})
        total += len(commands)
    return games


def expected_views(games: list[dict]) -> list[list[dict]]:
    """The public view after each command of each game, from a clean replay."""
    out = []
    for game in games:
        table = Table.start(
            EventStore(":memory:"), Setup.from_json(game["setup"]), fate=Fate(seed=0)
        )
        views = [_comparable(table.public_view())]
        for command in game["commands"]:
            table.execute(command)
            views.append(_comparable(table.public_view()))
        out.append(views)
    return out


def _comparable(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "game_id"}


def check_store(db: Path, games, views, acked: dict[int, int], since: int = 0) -> int:
    """Verify the store against the script from game ``since`` on (earlier
    games are finished and were verified already); return how many commands
    those games hold."""
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    raw.close()
    store = EventStore(db)
    try:
        records = sorted(store.history(), key=lambda g: g.id)
        assert len(records) <= len(games)
        held = 0
        for index, record in enumerate(records):
            if index < since:
                continue
            # The table stamps each command with its clock's time ("at").
            stored = [
                {k: v for k, v in c["command"].items() if k != "at"}
                for c in store.commands(record.id)
            ]
            assert stored[0] == {"type": "start"}
            # Exactly a prefix of the script: nothing lost, doubled or invented.
            assert stored[1:] == games[index]["commands"][: len(stored) - 1]
            assert len(stored) - 1 >= acked.get(index, -1), "an acknowledged command was lost"
            table = Table.from_record(store, record)
            assert _comparable(table.public_view()) == views[index][len(stored) - 1]
            if index < len(records) - 1:
                assert record.status == "finished"
            held += len(stored)
        assert max(acked, default=-1) < len(records)
        return held
    finally:
        store.close()


def test_sigkill_at_random_points_loses_no_acknowledged_command(tmp_path):
    rng = random.Random(20261129)
    games = scripted_games(seed=1)
    views = expected_views(games)
    script = tmp_path / "script.json"
    script.write_text(json.dumps(games))
    db = tmp_path / "games.sqlite3"
    acked: dict[int, int] = {}
    acknowledged: set[tuple[int, int]] = set()  # (game, number)
    kills = 0
    finished = False
    while not finished:
        child = subprocess.Popen(
            [sys.executable, str(CHILD), str(db), str(script)],
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        first = child.stdout.readline()  # the child is running and writing
        lines = [first]
        killed = kills < KILLS
        if killed:
            # After a random number of acknowledgements (a random time would
            # let a fast machine finish the script before the last kills),
            # then a moment into the next command's write.
            for _ in range(rng.randrange(AMONG_ACKS)):
                lines.append(child.stdout.readline())
            time.sleep(rng.uniform(0.0, 0.005))
            os.kill(child.pid, signal.SIGKILL)
            kills += 1
        lines += child.stdout.read().splitlines()
        child.wait()
        # A child that cannot run (an import error, a store it refuses) must
        # fail the test, not start it again for ever.
        assert killed or child.returncode == 0, f"the child failed ({child.returncode})"
        for line in lines:
            line = line.strip()
            if line == "done":
                finished = True
            elif line.startswith("ack "):
                _, game, number = line.split()
                acked[int(game)] = max(acked.get(int(game), -1), int(number))
                acknowledged.add((int(game), int(number)))
        check_store(db, games, views, acked, since=max(0, max(acked, default=0) - 1))
        if kills < KILLS:
            assert not finished, "the script ended before enough kills; make it longer"
    assert kills >= 50
    total = sum(len(g["commands"]) + 1 for g in games)
    assert check_store(db, games, views, acked) == total
    report(
        "durability",
        {
            "SIGKILLs": kills,
            "commands acknowledged, each found after every kill": len(acknowledged),
            "commands stored, each the script's": total,
            "stored, killed before it was acknowledged": total - len(acknowledged),
        },
    )
