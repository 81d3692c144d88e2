"""What the server's fuzzing shares: a table of any of the four games, part
way through a random legal keeper game; phones seated on it through the real
join route; the server's log, caught per example; and what a seat's state
and the store hold, to tell that a refused request changed nothing."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from aiohttp.test_utils import TestClient
from web_helpers import join, state

from companion.games.base import Fate, Setup
from companion.i18n import LANGUAGES, catalog
from companion.table import EventStore, Table
from companion.web.server import COOKIE, TableServer

# Each game's fewest and most players the fuzzing seats, and its options.
GAMES: dict[str, tuple[int, int, dict[str, Any]]] = {
    "coup": (2, 6, {"first": 0}),
    "g54": (2, 6, {"first": 0, "advanced": True}),
    "secret_hitler": (5, 10, {"first": 0}),
    "article27": (3, 6, {"first": 0}),
}
PLAYOUT_STEPS = 40  # a random game stops after at most this many commands


def mid_game(store: EventStore, game: str, extra: int, seed: int, steps: int) -> Table:
    """A keeper-mode table of ``game`` with ``extra`` players over its
    fewest, after up to ``steps`` random legal commands. Its clock stands
    still, so no timer acts while a request is judged."""
    low, high, options = GAMES[game]
    players = min(low + extra, high)
    setup = Setup(
        game=game, seats=[f"P{i}" for i in range(players)], mode="keeper", options=options
    )
    table = Table.start(store, setup, fate=Fate(seed=seed), clock=lambda: 1000.0)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = table.legal_commands()
        if table.is_over or not legal:
            break
        table.execute(rng.choice(legal))
    return table


@dataclass
class Seated:
    """A phone that holds a seat: its client, cookie value and CSRF token."""

    client: TestClient
    seat: int
    cookie: str
    csrf: str


async def seated(server: TableServer, phone, seat: int) -> Seated:
    """A new phone that claims ``seat`` of the server's game. The one place
    the fuzzing joins a seat: it follows however web_helpers.join joins."""
    client = await phone()
    await join(client, server.links.token(server.table.game_id, seat))
    csrf = (await state(client))["csrf"]
    cookie = client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value
    return Seated(client, seat, cookie, csrf)


def snapshot(table: Table) -> tuple[Any, ...]:
    """What a refused request may not change: the public view, every
    seat's private view and the commands in the store."""
    privates = [table.private_view(seat) for seat in range(table.setup.players)]
    return table.public_view(), privates, len(table.store.commands(table.game_id))


ENGLISH = catalog("en")
UNFILLED = re.compile(r"\{[a-z_]+\}")


def assert_refused_in_words(status: int, reply: Any, statuses: set[int]) -> None:
    """A refusal as the pages show one: an expected status, and an error
    the English catalog has, worded in one of the languages, whole."""
    assert status in statuses, (status, reply)
    assert isinstance(reply, dict) and reply.get("error") in ENGLISH, reply
    message = reply.get("message")
    assert isinstance(message, str) and message and not UNFILLED.search(message), reply


def refusal_texts(key: str) -> set[str]:
    """The key's words in every language (a refusal with no fields)."""
    return {catalog(lang)[key] for lang in LANGUAGES}


class Journal(logging.Handler):
    """Every log record any logger writes while it is open (INFO and up)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def journal() -> Iterator[Journal]:
    """The server's log while the block runs, at INFO as on the Pi (one
    access line per request)."""
    root = logging.getLogger()
    caught, level = Journal(), root.level
    root.addHandler(caught)
    root.setLevel(logging.INFO)
    try:
        yield caught
    finally:
        root.removeHandler(caught)
        root.setLevel(level)


def assert_quiet(caught: Journal, requests: int) -> None:
    """At most one log line per request, and no error or traceback."""
    assert len(caught.records) <= requests, [r.getMessage() for r in caught.records]
    loud = [r for r in caught.records if r.levelno >= logging.WARNING or r.exc_info]
    assert loud == [], [r.getMessage() for r in loud]
