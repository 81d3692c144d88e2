"""Helpers that drive a real Article 27 table."""

from __future__ import annotations

from typing import Any

from companion.games.base import Fate, Setup
from companion.table import Table

PK, SM, DI, HU, NU = "peacekeeping", "smuggling", "diplomatic", "humanitarian", "nuclear"
ISSUE_ORDER = (PK, SM, DI, HU, NU)
FOUR = ["wealth", "peace", "prestige", "power"]  # keeper4's agendas, seat by seat


class FakeClock:
    """The table's clock, moved by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def a27_table(
    store,
    players: int,
    mode: str = "keeper",
    first: int = 0,
    deal: dict[str, Any] | None = None,
    clock: FakeClock | None = None,
    **options: Any,
) -> Table:
    setup = Setup(
        game="article27",
        seats=[chr(65 + i) for i in range(players)],
        mode=mode,
        options={"first": first, **options},
    )
    return Table.start(store, setup, fate=Fate(seed=11, script=deal), clock=clock or FakeClock())


def view(table: Table) -> dict[str, Any]:
    return table.public_view()


def influence(table: Table) -> list[int]:
    return list(table.state.influence)


def reveal(table: Table, agendas: list[str]) -> None:
    """Physical mode: the table enters the disk it turned for each issue."""
    next_round(table)
    for issue, agenda in zip(ISSUE_ORDER, agendas):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})


def next_round(table: Table) -> None:
    if view(table)["phase"] == "scored":
        table.execute({"type": "next_round"})


def propose(table: Table, *issues: str, call_vote: bool = True) -> None:
    """The SG strikes the gavel, puts ``issues`` on the floor, and (by
    default) strikes again: Vote! (Starting the round first if the last
    round's result is still up.)"""
    next_round(table)
    if view(table)["phase"] == "ready":
        table.execute({"type": "gavel"})
    for issue in issues:
        table.execute({"type": "move", "issue": issue, "to": "floor"})
    if call_vote:
        table.execute({"type": "gavel"})


def vote(table: Table, votes: str | list[str]) -> None:
    """Everyone votes: one letter each, Y(es), V(eto) or A(bstain)."""
    names = {"Y": "yes", "V": "veto", "A": "abstain"}
    for seat, letter in enumerate(votes):
        table.execute({"type": "vote", "seat": seat, "choice": names[letter]})


def bribe(
    table: Table,
    payer: int,
    to: int,
    amount: int,
    kind: str,
    issue: str | None = None,
    text: str | None = None,
    accept: bool = True,
) -> int:
    command = {"type": "offer", "seat": payer, "to": to, "amount": amount, "kind": kind}
    if issue is not None:
        command["issue"] = issue
    if text is not None:
        command["text"] = text
    number = table.execute(command)[0]["bribe"]
    if accept:
        table.execute({"type": "accept", "seat": to, "bribe": number})
    return number


def slots_row(*issues: str) -> list[str]:
    return list(issues)


def quiet_slots(players: int) -> list[list[str]]:
    """A draw where every player holds each issue once, a spare at +5."""
    return [[PK, SM, DI, HU, NU] for _ in range(players)]


def keeper4(store, slots=None, rounds=1, **options):
    """Four players in keeper mode with known agendas (FOUR) and slots."""
    deal = {"agendas": list(FOUR), "slots": [slots or quiet_slots(4)] * rounds}
    return a27_table(store, 4, deal=deal, **options)
