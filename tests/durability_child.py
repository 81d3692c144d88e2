"""Child process for test_durability: plays a long scripted series of games
into a SQLite store, resuming wherever the store says it stopped, and prints
``ack GAME NUMBER`` after each command has been committed."""

from __future__ import annotations

import json
import os
import sys

# The code under test, not whichever copy the interpreter finds installed.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from companion.games.base import Fate, Setup  # noqa: E402
from companion.table import EventStore, Table  # noqa: E402


def main(db: str, script_path: str) -> int:
    with open(script_path, encoding="utf-8") as f:
        games = json.load(f)
    store = EventStore(db)
    recorded = sorted(store.history(), key=lambda g: g.id)
    out = sys.stdout
    for index, game in enumerate(games):
        if index < len(recorded):
            record = recorded[index]
            if record.status == "finished":
                continue
            table = Table.from_record(store, record)
        else:
            table = Table.start(store, Setup.from_json(game["setup"]), fate=Fate(seed=0))
            out.write(f"ack {index} 0\n")
            out.flush()
        for command in game["commands"][table.next_command - 1 :]:
            table.execute(command)
            out.write(f"ack {index} {table.next_command - 1}\n")
            out.flush()
    out.write("done\n")
    out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
