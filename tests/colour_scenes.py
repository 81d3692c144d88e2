"""One kiosk screen of each game, brought through real commands to a moment
that shows the colours the game gives meaning to, for the colour and contrast
tests and the colour-vision contact sheet (tests/test_kiosk_contrast.py):

- Article 27: round 2 scored, its votes face up (Yes, Veto, Abstain), the
  agenda track with a passed and a failed agenda; and, apart, a negotiation
  in its last 30 seconds (the countdown's warning colour);
- Secret Hitler: a liberal and two fascist policies down, an election
  revealed with Ja and Nein;
- Coup and G54: a claim open to challenge, one seat's turn, the others
  awaited.

Each builder makes its table on a SQLite file under ``folder``. The tests
also show a refusal on each (the rose alert)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from a27_helpers import SM
from a27_kiosk_helpers import at_stage
from g54_helpers import g54_table
from helpers import new_table
from sh_helpers import elect, enact, nominate
from sh_kiosk_helpers import resolve_power, start

from companion.table import EventStore, Table, seat_source

COUP_NAMES = ["Natassa", "Stelios", "Giorgos", "Eleni"]


def article27(folder: Path) -> Table:
    table = at_stage(folder / "a27.sqlite3", "scored")  # round 1 passed
    table.execute({"type": "next_round"})
    for _issue in range(5):
        table.execute(dict(table.legal_commands()[0]))  # the first disk allowed
    table.execute({"type": "gavel"})
    table.execute({"type": "move", "issue": SM, "to": "floor"})
    table.execute({"type": "gavel"})
    for seat, choice in enumerate(("yes", "veto", "abstain", "yes")):
        table.execute({"type": "vote", "seat": seat, "choice": choice}, source=seat_source(seat))
    return table


def article27_warning(folder: Path) -> Table:
    return at_stage(folder / "a27-warning.sqlite3", "warning")


def secret_hitler(folder: Path) -> Table:
    table = start(folder, 7)
    for policy in ("liberal", "fascist", "fascist"):
        elect(table)
        enact(table, policy)
        resolve_power(table)
    nominate(table)
    for seat in table.public_view()["ballot"]["eligible"]:
        table.execute({"type": "vote", "seat": seat, "choice": "nein" if seat % 3 == 1 else "ja"})
    return table


def coup(folder: Path) -> Table:
    table = new_table(EventStore(folder / "coup.sqlite3"), COUP_NAMES)
    table.execute({"type": "tax", "seat": 0})
    return table


def g54(folder: Path) -> Table:
    table = g54_table(EventStore(folder / "g54.sqlite3"), "starter", players=4, mode="physical")
    table.execute({"type": "banker", "seat": 0})
    return table


SCENES: dict[str, Callable[[Path], Table]] = {
    "article27": article27,
    "article27_warning": article27_warning,
    "secret_hitler": secret_hitler,
    "coup": coup,
    "g54": g54,
}
