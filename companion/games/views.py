"""The shapes that cross the engine contract and the table: what an engine's
``ballot``, ``timer`` and ``open_claim`` return, and what the table adds to a
game's public view (its ballot as everyone may see it, its timer, its log).

A game's own view (``public_view``, ``private_view``) stays a plain dict: its
keys are the game's, read by the game's words and screen alone. The keys the
table puts beside them, read by every layer (the kiosk, the phones, the fleet),
are declared here, so each reader knows what it may rely on.
"""

# No ``from __future__ import annotations`` here: with it, Python 3.11 counts
# every NotRequired key as required in ``__required_keys__``, which the tests
# read to check each game's tables against these shapes.

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

# A game's public or private view: its keys are the game's (a public view
# carries the table's facts beside them, see TableFacts).
View = dict[str, Any]


class BallotSpec(TypedDict):
    """The ballot an engine has open (``engine.ballot``): the table collects
    its votes (see table/ballot.py)."""

    id: str
    eligible: Sequence[int]
    choices: Sequence[str]
    # The choices open to a seat, where fewer than ``choices`` (by what only
    # the seat knows: such a choice is one of the game's private choices).
    allowed: NotRequired[Mapping[int, Sequence[str]]]
    # Why a choice is not allowed: choice -> (message key, arguments).
    why_not: NotRequired[Mapping[str, tuple[str, dict[str, Any]]]]


class PublicBallot(TypedDict):
    """What everyone may see of an open ballot: who has voted, not what."""

    id: str
    eligible: list[int]
    choices: list[str]
    voted: list[int]


class Timer(TypedDict):
    """A game's timer as the table shows it (``engine.timer``): whether it is
    running and the seconds left; each game may say more."""

    running: bool
    remaining: float
    # Article 27's negotiation: stopped by the SG (not running, not expired).
    paused: NotRequired[bool]
    # Article 27's negotiation: its whole length, in seconds.
    duration: NotRequired[int]
    # Coup's response countdown: its kind ("response") and whole length.
    kind: NotRequired[str]
    seconds: NotRequired[int]


class Claim(TypedDict):
    """The claim a seat's challenge buzzer answers now (``open_claim``, for a
    game with the ``challenge_buzzer`` trait)."""

    # Presses race for one claim: the same key, the same claim. The table
    # puts its game's id first, so a press never meets another game's claim.
    key: tuple[Any, ...]
    claimant: int
    # The way play passes (1 or -1): an exact tie goes to the seat nearest
    # after the claimant.
    step: int


class LogLine(TypedDict):
    """One line of the public log: a message key and its arguments."""

    key: str
    args: dict[str, Any]


class TableFacts(TypedDict):
    """What the table adds to a game's public view (``Table.public_view``):
    every public view has these keys, whatever the game."""

    game_id: int
    ballot: PublicBallot | None
    timer: Timer | None
    can_undo: bool
    log: list[LogLine]
