"""How the table runs, whatever the game: settings the table applies itself,
kept with the game's setup (``Setup.table``) so a resumed game runs the same.

- ``votes``: ``"changeable"`` (default): a seat may change its vote, from the
  channel that cast it, until the last eligible vote arrives; ``"locked"``:
  the first press counts.
- ``guide``: ``True`` for a first game: the kiosk says what each new kind
  of step is the first time it comes (companion/ui/panels/help_panel.py); ``False``
  (default) otherwise.
"""

from __future__ import annotations

from typing import Any

from ..games.base import RuleError, Setup

DEFAULTS: dict[str, Any] = {"votes": "changeable", "guide": False}
VOTE_RULES = ("changeable", "locked")


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
    if not isinstance(settings["guide"], bool):
        raise RuleError("setup.bad_option", option="guide", value=str(settings["guide"])[:40])
    setup.table = settings
