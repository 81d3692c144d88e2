"""How the table runs, whatever the game: settings the table applies itself,
kept with the game's setup (``Setup.table``) so a resumed game runs the same.

- ``votes``: ``"changeable"`` (default): a seat may change its vote, from the
  channel that cast it, until the last eligible vote arrives; ``"locked"``:
  the first press counts.
- ``response_seconds``: for the Coup family's claims, a countdown after which
  the table lets the claim stand (nobody challenged); ``None`` (default): the
  window stays open until everyone has answered or the table closes it.
"""
from __future__ import annotations

from typing import Any

from ..games.base import RuleError, Setup

DEFAULTS: dict[str, Any] = {"votes": "changeable", "response_seconds": None}
VOTE_RULES = ("changeable", "locked")
MAX_RESPONSE_SECONDS = 120


def normalise_table_settings(setup: Setup) -> None:
    """Validate ``setup.table`` in place, filling the defaults."""
    if not isinstance(setup.table, dict):
        raise RuleError("setup.bad_field", field="table")
    settings = {**DEFAULTS, **setup.table}
    unknown = sorted(set(settings) - set(DEFAULTS))
    if unknown:
        raise RuleError("setup.unknown_option", option=str(unknown[0])[:40])
    if settings["votes"] not in VOTE_RULES:
        raise RuleError("setup.bad_option", option="votes", value=str(settings["votes"])[:40])
    seconds = settings["response_seconds"]
    if seconds is not None and (type(seconds) not in (int, float)
                                or not 1 <= seconds <= MAX_RESPONSE_SECONDS):
        raise RuleError("setup.bad_option", option="response_seconds",
                        value=str(seconds)[:40])
    setup.table = settings
