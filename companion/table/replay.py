"""The replay contract: a JSON-lines script in, the final views out.

The first line names the game, the seats, the mode, the options, and
optionally a seed and a fixed deal; every following line is one command
with its seat. Seats and targets may be given by index or by player name.
Blank lines and lines starting with ``#`` are ignored. A line
``{"wait": seconds}`` moves the script's clock on (and lets the table act on
time, such as a timer running out).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from ..games.base import Fate, RuleError, Setup
from ..i18n import Messages
from .seats import resolve_seat
from .store import EventStore
from .table import Table

REPLAY_SOURCE = "replay"
# The header's fields and the JSON types each may take.
_HEADER_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "seats": list,
    "mode": str,
    "options": (dict, type(None)),
    "table": (dict, type(None)),
    "seed": (int, type(None)),
    "deal": (dict, type(None)),
}
_SEAT_FIELDS = ("seat", "target", "to")


class ScriptClock:
    """A replay's time: it starts at 0 and moves only with ``{"wait": s}``
    lines, so a script that runs a timer out replays the same every time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class ReplayError(Exception):
    line: int
    message: str
    key: str | None = None

    def __str__(self) -> str:
        rule = f" [{self.key}]" if self.key else ""
        return f"line {self.line}: {self.message}{rule}"


def _parse(number: int, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(number, f"not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise ReplayError(number, "not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python reads
        raise ReplayError(number, f"not valid JSON ({str(exc).split(':')[0]})") from None
    if not isinstance(value, dict):
        raise ReplayError(number, "each line must be a JSON object")
    return value


def replay(
    lines: Iterable[str], lang: str = "en", store: EventStore | None = None
) -> dict[str, Any]:
    """Play a script through a real table; return the final views.

    Raises ReplayError naming the line and the rule for anything illegal."""
    numbered = [(i, line.strip()) for i, line in enumerate(lines, 1)]
    numbered = [(i, line) for i, line in numbered if line and not line.startswith("#")]
    if not numbered:
        raise ReplayError(1, "the script is empty")
    header_line, header_text = numbered[0]
    header = _parse(header_line, header_text)
    messages = Messages(lang)
    for field, kinds in _HEADER_FIELDS.items():
        value = header.get(field)
        # JSON's true and false are ints to Python: no field takes them.
        if field in header and (not isinstance(value, kinds) or isinstance(value, bool)):
            raise ReplayError(
                header_line, messages("setup.bad_field", field=field), "setup.bad_field"
            )
    try:
        # The script's game and seats as written, even missing: Table.start checks them.
        setup = Setup(
            game=cast(Any, header.get("game")),
            seats=cast(Any, header.get("seats")),
            mode=header.get("mode", "physical"),
            options=dict(header.get("options") or {}),
            table=dict(header.get("table") or {}),
        )
        fate = Fate(seed=header.get("seed"), script=header.get("deal"))
        clock = ScriptClock()
        table = Table.start(
            store or EventStore(":memory:"), setup, fate=fate, clock=clock, source=REPLAY_SOURCE
        )
    except RuleError as exc:
        raise ReplayError(header_line, messages.error(exc), exc.key) from None
    messages = Messages(lang, table.names)
    for number, text in numbered[1:]:
        command = _parse(number, text)
        if "wait" in command and "type" not in command:
            seconds = command["wait"]
            if type(seconds) not in (int, float) or not 0 <= seconds <= 86400:
                raise ReplayError(number, "wait needs a number of seconds")
            clock.advance(seconds)
            try:
                table.tick()
            except RuleError as exc:
                raise ReplayError(number, messages.error(exc), exc.key) from None
            continue
        for field in _SEAT_FIELDS:
            if field in command:
                command[field] = resolve_seat(table.setup, command[field])
        try:
            table.execute(command, source=REPLAY_SOURCE)
        except RuleError as exc:
            raise ReplayError(number, messages.error(exc), exc.key) from None
    return {
        "public": table.public_view(),
        "private": [table.private_view(seat) for seat in range(len(table.setup.seats))],
    }
