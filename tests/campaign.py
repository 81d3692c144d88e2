"""How long the long campaigns run: the durability test's SIGKILLs, the
socket floods and the server's fuzzing.

``COMPANION_CAMPAIGN=10`` makes each of them ten times as long (ten times
the kills, frames, refused sockets and fuzzed requests); unset, it is 1 and
the suite runs as in CI. Each campaign prints its figures (run pytest with
``-s`` to see them)."""

from __future__ import annotations

import os
import re

VARIABLE = "COMPANION_CAMPAIGN"


def _factor() -> int:
    text = os.environ.get(VARIABLE, "1")
    if not re.fullmatch(r"[1-9][0-9]{0,3}", text):
        raise ValueError(f"{VARIABLE} is a whole number from 1 to 9999, not {text!r}")
    return int(text)


FACTOR = _factor()


def scaled(count: int) -> int:
    """``count`` as this run's campaign has it."""
    return count * FACTOR


def report(campaign: str, figures: dict[str, object]) -> None:
    """Print a campaign's figures, one line (``pytest -s`` shows it)."""
    told = ", ".join(f"{name}: {value}" for name, value in figures.items())
    print(f"\n[{VARIABLE}={FACTOR}] {campaign}: {told}")
