"""A 10-seat Secret Hitler table that keeps changing: what the push
benchmarks (phones, fleet) measure a change on."""

from __future__ import annotations

from pathlib import Path

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table, seat_source

SEATS = 10


def busy_table(db: Path) -> Table:
    """Ten seats in keeper mode, every role confirmed: the first election."""
    setup = Setup(
        game="secret_hitler",
        seats=[f"P{i}" for i in range(SEATS)],
        mode="keeper",
        options={"first": 0},
    )
    table = Table.start(EventStore(db), setup, fate=Fate(seed=1))
    for seat in range(SEATS):
        table.execute({"type": "confirm", "seat": seat})
    return table


def next_change(table: Table) -> None:
    """One state change: the next seat's Nein, or a nomination, or what the
    game asks (a power the president uses): elections mostly fail and play
    goes on."""
    ballot = table.public_view()["ballot"]
    if ballot is None:
        commands = table.legal_commands()
        table.execute(dict(next((c for c in commands if c["type"] == "nominate"), commands[0])))
        return
    seat = next(s for s in ballot["eligible"] if s not in ballot["voted"])
    table.execute({"type": "vote", "seat": seat, "choice": "nein"}, source=seat_source(seat))
