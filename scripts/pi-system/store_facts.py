"""What the table's store holds, for scripts/pi-system-check: read in the
booted guest (as root, read-only, with the guest's python3 and its sqlite3),
printed as one JSON object. Only what the checks compare; no vote's choice.

    python3 store_facts.py DB            the facts below
    python3 store_facts.py DB --links    the newest game's join tokens,
                                         {seat: token} (secrets: for the
                                         check's phones only)

{"games": N, "game": id of the newest game, "status": its status,
 "commands": [[number, source, type], ...] of the newest game,
 "events": {type: count} of the newest game, "phone_commands": [[source,
 command], ...] of the newest game's commands from phones ("seat:N"), in
 order}"""

from __future__ import annotations

import collections
import json
import re
import sqlite3
import sys

PHONE = re.compile(r"seat:[0-9]+")  # a phone's source; a device's is seat:N:gpio


def facts(path: str) -> dict[str, object]:
    store = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        games = store.execute("SELECT count(*) FROM games").fetchone()[0]
        newest = store.execute("SELECT id, status FROM games ORDER BY id DESC LIMIT 1").fetchone()
        if newest is None:
            return {"games": 0, "game": None, "status": None, "commands": [], "events": {}}
        game, status = newest
        commands = [
            [number, source, json.loads(body).get("type")]
            for number, source, body in store.execute(
                "SELECT number, source, body FROM commands WHERE game_id = ? ORDER BY number",
                (game,),
            )
        ]
        events = collections.Counter(
            json.loads(body).get("type")
            for (body,) in store.execute("SELECT body FROM events WHERE game_id = ?", (game,))
        )
        phone_commands = [
            [source, json.loads(body)]
            for source, body in store.execute(
                "SELECT source, body FROM commands WHERE game_id = ? ORDER BY number", (game,)
            )
            if PHONE.fullmatch(source)
        ]
        return {
            "games": games,
            "game": game,
            "status": status,
            "commands": commands,
            "events": dict(events),
            "phone_commands": phone_commands,
        }
    finally:
        store.close()


def links(path: str) -> dict[str, str]:
    store = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = store.execute(
            "SELECT seat, token FROM seat_links WHERE game_id = (SELECT max(id) FROM games)"
        )
        return {str(seat): token for seat, token in rows}
    finally:
        store.close()


if __name__ == "__main__":
    if len(sys.argv) == 2:
        print(json.dumps(facts(sys.argv[1])))
    elif len(sys.argv) == 3 and sys.argv[2] == "--links":
        print(json.dumps(links(sys.argv[1])))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
