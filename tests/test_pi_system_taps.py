"""scripts/pi-system/tap_plan.py, which tells scripts/pi-system-check where
to touch the booted guest's screen: it walks the real kiosk at 800x480
through both games the check plays by touch, and every place it names is on
the screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "pi-system" / "tap_plan.py"
NAMES = (
    ["game", "start", "nominate", "enter_ja", "votes_done", "home", "article27", "keeper"]
    + ["start_again", "pin0", "pin_ok", "phones", "phones_close"]
    + [f"seat{n}" for n in range(5)]
    + [f"code{n}" for n in range(5)]
)


def test_the_plan_walks_the_kiosk_and_names_every_place_on_the_screen():
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    places = {}
    for line in done.stdout.splitlines():
        name, x, y = line.split()
        places[name] = (int(x), int(y))
    assert sorted(places) == sorted(NAMES)
    assert all(0 <= x < 800 and 0 <= y < 480 for x, y in places.values()), places
    # The seats are in a row, left to right; the codes in a column, top down.
    assert [places[f"seat{n}"][0] for n in range(5)] == sorted(
        places[f"seat{n}"][0] for n in range(5)
    )
    assert [places[f"code{n}"][1] for n in range(5)] == sorted(
        places[f"code{n}"][1] for n in range(5)
    )
