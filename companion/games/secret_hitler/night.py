"""The night in physical mode: the rulebook's script, read aloud by the
kiosk while the table keeps its eyes closed, so that the fascists (and, with
5-6 players, Hitler) learn who their teammates are.

The script is the Russian rulebook's (``../shared/seeds/001_…``), one
version for 5-6 players and one for 7-10; docs/games/secret_hitler.md says
where it departs from the printed words. Each step is a catalog key and
whether the table acts after it (a full pause, the operator's setting) or
only settles (eyes closing, a thumb going up). Nothing here is secret: the
whole table hears the same script whatever the roles are."""

from __future__ import annotations

from typing import NamedTuple

from ...i18n import Messages
from .rules import hitler_knows_fascists


class Step(NamedTuple):
    key: str  # the words, in the catalogs
    act: bool  # whether the table acts after them: the full pause follows


ALL_CLOSE = Step("sh.night.all_close", act=False)
ALL_OPEN = Step("sh.night.all_open", act=False)

# 5-6 players: the fascist and Hitler see each other.
SMALL = (
    ALL_CLOSE,
    Step("sh.night.pair_open", act=True),
    Step("sh.night.fascists_close", act=False),
    ALL_OPEN,
)
# 7-10 players: the fascists see each other, and Hitler, eyes closed, shows a thumb.
LARGE = (
    ALL_CLOSE,
    Step("sh.night.fascists_open", act=True),
    Step("sh.night.hitler_thumb", act=False),
    Step("sh.night.fascists_note", act=True),
    Step("sh.night.fascists_close_thumb", act=False),
    ALL_OPEN,
)
# Said when the table stops the night: eyes open, and the envelopes dealt again
# if anyone saw what they should not have.
WRONG = "sh.night.wrong"


def night_script(players: int) -> tuple[Step, ...]:
    """The script for a table of ``players``."""
    return SMALL if hitler_knows_fascists(players) else LARGE


def night_lines(t: Messages) -> list[str]:
    """Every line of both versions, and the one said when something went wrong."""
    keys = dict.fromkeys(step.key for step in SMALL + LARGE)
    return [t(key) for key in keys] + [t(WRONG)]
