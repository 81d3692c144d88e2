"""Small helpers shared by the tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table
from companion.table.replay import replay

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def new_table(store, names, mode="physical", options=None, deal=None, seed=7):
    """A table with seats in the given order, clockwise, seat 0 first."""
    options = {"direction": "clockwise", "first": 0, **(options or {})}
    setup = Setup(game="coup", seats=list(names), mode=mode, options=options)
    return Table.start(store, setup, fate=Fate(seed=seed, script=deal))


def coup_with_countdown(path: Path, clock: Callable[[], float]) -> Table:
    """Coup with the real cards, Natassa first, clockwise: a claim stands
    unchallenged when its 10-second response countdown on ``clock`` ends."""
    setup = Setup(
        game="coup",
        seats=["Natassa", "Stelios", "Giorgos"],
        mode="physical",
        options={"first": 0, "direction": "clockwise", "response_seconds": 10},
    )
    return Table.start(EventStore(path), setup, fate=Fate(seed=1), clock=clock)


def physical_table(path):
    """A Coup table in physical mode on the SQLite file ``path``: Natassa,
    Stelios and Giorgos, clockwise, Natassa first."""
    setup = Setup(
        game="coup",
        seats=["Natassa", "Stelios", "Giorgos"],
        mode="physical",
        options={"first": 0, "direction": "clockwise"},
    )
    return Table.start(EventStore(path), setup, fate=Fate(seed=1))


def finished(game: str, tmp_path) -> Table:
    """The complete example game docs/examples/<game>.jsonl, replayed into a
    store under ``tmp_path``: a finished table."""
    store = EventStore(tmp_path / "g.sqlite3")
    replay((EXAMPLES / f"{game}.jsonl").read_text(encoding="utf-8").splitlines(), store=store)
    table = Table.resume(store, store.latest_game_id())
    assert table.is_over
    return table


def run(table, *commands: dict[str, Any]) -> dict[str, Any]:
    for command in commands:
        table.execute(command)
    return table.public_view()


def coins(view: dict[str, Any]) -> list[int]:
    return [p["coins"] for p in view["players"]]


def influence(view: dict[str, Any]) -> list[int]:
    return [p["influence"] for p in view["players"]]


def cards_on_table(table) -> int:
    """Every card the state holds: hands, face-up piles, court, exchange pool."""
    s = table.state
    return (
        sum(len(h) for h in s.hands)
        + sum(len(r) for r in s.revealed)
        + len(s.court)
        + len(s.turn.drawn)
    )


def coins_in_game(table) -> int:
    s = table.state
    return sum(s.coins) + s.treasury


def replays_exactly(table) -> None:
    """The table rebuilt from its store shows exactly the same views."""
    rebuilt = Table.resume(table.store, table.game_id)
    assert rebuilt.public_view() == table.public_view()
    for seat in range(table.state.players):
        assert rebuilt.private_view(seat) == table.private_view(seat)


async def until(condition: Callable[[], bool], what: str, seconds: float = 20) -> None:
    """Wait on the running loop until ``condition()`` holds; the limit only
    bounds a hang (a passing wait returns at once)."""
    for _ in range(int(seconds * 100)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")
