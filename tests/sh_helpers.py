"""Helpers that drive a real Secret Hitler table round by round."""

from __future__ import annotations

from typing import Any

from companion.games.base import Fate, Setup
from companion.table import Table

A, B, C, D, E, F, G, H, I, J = range(10)  # noqa: E741 - seats are letters


def sh_table(
    store,
    players: int,
    mode: str = "physical",
    first: int = 0,
    deal: dict[str, Any] | None = None,
    seed: int = 5,
    table: dict[str, Any] | None = None,
) -> Table:
    setup = Setup(
        game="secret_hitler",
        seats=[chr(65 + i) for i in range(players)],
        mode=mode,
        options={"first": first},
        table=dict(table or {}),
    )
    started = Table.start(store, setup, fate=Fate(seed=seed, script=deal))
    if mode == "keeper":
        for seat in range(players):
            started.execute({"type": "confirm", "seat": seat})
    return started


def view(table: Table) -> dict[str, Any]:
    return table.public_view()


def vote_all(table: Table, choice: str | dict[int, str]) -> None:
    """Every eligible seat votes (one choice for all, or a choice per seat)."""
    ballot = view(table)["ballot"]
    for seat in ballot["eligible"]:
        pick = choice if isinstance(choice, str) else choice[seat]
        table.execute({"type": "vote", "seat": seat, "choice": pick})


def nominate(table: Table, chancellor: int | None = None) -> int:
    """The candidate nominates ``chancellor`` (or the first eligible seat)."""
    v = view(table)
    candidate = v["candidate"]
    if chancellor is None:
        limited = {p["seat"] for p in v["players"] if p["term_limited"]}
        chancellor = next(
            p["seat"]
            for p in v["players"]
            if p["alive"] and p["seat"] != candidate and p["seat"] not in limited
        )
    table.execute({"type": "nominate", "seat": candidate, "target": chancellor})
    return chancellor


def fail_round(table: Table) -> None:
    nominate(table)
    vote_all(table, "nein")


def elect(table: Table, chancellor: int | None = None, hitler: bool = False) -> int:
    """Elect the candidate with ``chancellor``; in physical mode answer the
    Hitler question when it comes."""
    chancellor = nominate(table, chancellor)
    vote_all(table, "ja")
    if view(table)["phase"] == "hitler_reveal":
        table.execute({"type": "reveal", "seat": chancellor, "hitler": hitler})
    return chancellor


def enact(table: Table, policy: str) -> None:
    """The chancellor enacts ``policy`` (keeper: the president discards a tile
    so that the chancellor can)."""
    v = view(table)
    if v["phase"] == "president_discard":
        hand = table.private_view(v["president"])["hand"]
        keep = list(hand)
        keep.remove(policy)
        table.execute({"type": "discard", "seat": v["president"], "policy": keep[0]})
    table.execute({"type": "enact", "seat": view(table)["chancellor"], "policy": policy})


def govern(table: Table, policy: str, chancellor: int | None = None) -> int:
    chancellor = elect(table, chancellor)
    enact(table, policy)
    return chancellor


def chaos(table: Table, policy: str = "fascist") -> None:
    """Fail governments until chaos; in physical mode the table turns ``policy``."""
    while view(table)["phase"] != "chaos":
        fail_round(table)
        if view(table)["phase"] != "chaos" and view(table)["tracker"] == 0:
            return  # keeper mode: the app already turned the tile
    table.execute({"type": "chaos", "policy": policy})


def pick_chancellor(table: Table, avoid: set[int] = frozenset()) -> int:
    """An eligible chancellor for the candidate, outside ``avoid``."""
    v = view(table)
    limited = {p["seat"] for p in v["players"] if p["term_limited"]}
    return next(
        p["seat"]
        for p in v["players"]
        if p["alive"]
        and p["seat"] != v["candidate"]
        and p["seat"] not in limited
        and p["seat"] not in avoid
    )


def rotate_to(table: Table, seat: int, avoid: set[int] = frozenset()) -> None:
    """Move the candidacy to ``seat``: failed governments while the tracker
    allows, otherwise liberal governments whose chancellors avoid ``avoid``."""
    while view(table)["candidate"] != seat:
        if view(table)["tracker"] < 2:
            fail_round(table)
        else:
            govern(table, "liberal", chancellor=pick_chancellor(table, avoid))


def five_fascists_then_executions(store, executed):
    """7 players: three chaos fascists (no powers), then governments enact the
    4th and 5th fascist and their presidents execute ``executed``."""
    table = sh_table(store, 7)
    for _ in range(3):
        chaos(table, "fascist")
    for victim in executed:
        if view(table)["candidate"] == victim:
            fail_round(table)
        govern(table, "fascist", chancellor=pick_chancellor(table, avoid={A, B}))
        assert view(table)["phase"] == "execute"
        table.execute({"type": "execute", "seat": view(table)["president"], "target": victim})
        if view(table)["phase"] == "execution_reveal":  # not confirmed before
            table.execute({"type": "reveal", "seat": victim, "hitler": False})
    return table
