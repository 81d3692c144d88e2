"""Every field a table sends the console, checked before it is stored or shown.

A table's status and its replies come from a machine on a customer's table
(or, on an open broker, from anyone): a field of the wrong type or out of
its range (a ``started_at`` of "yesterday", a timer with Infinity left) is
dropped, the rest of the message kept, and the console logs it once per
table and field, not once per message (a table sends one a second).
docs/cafe.md's status table is what is accepted.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog

log = logging.getLogger(__name__)

NAME = 64  # characters of a table's, game's or player's name
SEATS = 64  # seats at a table, at most
COUNT = 10**6  # a round, turn or game number, a timer's seconds: at most
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)  # a plausible game began after this
AHEAD = timedelta(days=1)  # ...and at most this far ahead of the console's clock
REMEMBERED = 10_000  # (table, field) pairs already logged, at most
REFUSED = "fleet.refused."  # a reply's key: one of the catalogs' refusals
ARGS = 8  # a reply's arguments, at most
UNREADABLE = "?"  # shown in place of an argument that was no scalar

Check = Callable[[Any], bool]


def moment(value: Any) -> datetime | None:
    """``value`` as a plausible moment (UTC): an ISO 8601 time from this
    century, not ahead of the console's clock by more than a day, that the
    machine's own time zone can show; None for anything else."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        parsed = datetime.fromisoformat(value)
        utc = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)
        utc.astimezone()  # the console shows it in its own zone
    except (ValueError, OverflowError):
        return None
    return utc if EARLIEST <= utc <= datetime.now(UTC) + AHEAD else None


def text(limit: int) -> Check:
    return lambda value: isinstance(value, str) and len(value) <= limit


def optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


def whole(low: int, high: int) -> Check:
    return lambda value: type(value) is int and low <= value <= high


def number(low: float, high: float) -> Check:
    return lambda value: (
        type(value) in (int, float) and math.isfinite(value) and low <= value <= high
    )


def listing(check: Check, most: int) -> Check:
    return lambda value: (
        isinstance(value, list) and len(value) <= most and all(check(item) for item in value)
    )


def timer(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and type(value.get("running")) is bool
        and type(value.get("paused", False)) is bool
        and number(-COUNT, COUNT)(value.get("remaining"))
    )


def error(value: Any) -> bool:
    return isinstance(value, dict) and text(40)(value.get("at")) and text(200)(value.get("message"))


def argument(value: Any) -> bool:
    """A refusal's argument: a short text or a number, nothing to unpack."""
    return text(NAME)(value) or number(-(2.0**63), 2.0**63)(value)


# A field's check, or the checks of the fields of the object it holds.
Spec = dict[str, "Check | Spec"]

STATUS: Spec = {
    "table": text(NAME),
    "version": text(32),
    "state": lambda value: value in ("playing", "finished", "idle"),
    "game": optional(text(NAME)),
    "mode": optional(text(NAME)),
    "game_id": optional(whole(0, 2**63 - 1)),
    "started_at": lambda value: value is None or moment(value) is not None,
    "phase": lambda value: whole(0, COUNT)(value) or text(NAME)(value),
    "round": whole(0, COUNT),
    "rounds": whole(0, COUNT),
    "turn": whole(0, COUNT),
    "players": {"count": whole(0, SEATS), "names": listing(text(NAME), SEATS)},
    "line": {lang: text(300) for lang in LANGUAGES},
    "timer": optional(timer),
    "screen": lambda value: type(value) is bool,
    "health": {
        "phones": listing(whole(0, SEATS - 1), SEATS),
        "disk_free": optional(number(0, 2.0**64)),
        "cpu_temp": optional(number(-100, 200)),
        "throttled": optional(text(16)),
        "pad": lambda value: value in (None, "connected", "lost"),
        "gpio": optional(lambda value: type(value) is bool),
        "last_error": optional(error),
    },
}


class Checks:
    """The checks of one console, and what it has logged already."""

    def __init__(self) -> None:
        self._logged: set[tuple[str, str]] = set()

    def status(self, table: str, data: dict[str, Any]) -> dict[str, Any]:
        """``data``'s good fields (a field the console does not know is left
        out unsaid: a newer table may send more)."""
        return self._fields(table, data, STATUS, "")

    def reply(self, table: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """A reply from ``table``'s reply topic, checked: None when it cannot
        answer anything (no id, another table's, ``ok`` no true or false);
        else its id, ok, key (None when it is no refusal the catalogs know)
        and arguments (each a short text or a number, a bad one shown as
        "?"; ``count``, which picks a plural form, a whole number)."""
        identity, ok = data.get("id"), data.get("ok")
        if not (text(NAME)(identity) and data.get("table") == table and type(ok) is bool):
            self.bad(table, "reply", data)
            return None
        key = data.get("key")
        if not (
            isinstance(key, str) and key.startswith(REFUSED) and key in catalog(DEFAULT_LANGUAGE)
        ):
            if key is not None:
                self.bad(table, "reply.key", key)
            key = None
        args = data.get("args")
        if not isinstance(args, dict) or len(args) > ARGS:
            self.bad(table, "reply.args", args)
            args = {}
        kept = {}
        for name, value in args.items():
            good = whole(-COUNT, COUNT) if name == "count" else argument
            if len(name) > 32:
                self.bad(table, "reply.args", name)
            elif good(value):
                kept[name] = value
            else:
                self.bad(table, f"reply.args.{name}", value)
                kept[name] = UNREADABLE
        return {"id": identity, "ok": ok, "key": key, "args": kept}

    def _fields(self, table: str, data: dict[str, Any], spec: Spec, within: str) -> dict[str, Any]:
        kept: dict[str, Any] = {}
        for name, value in data.items():
            check = spec.get(name)
            if check is None:
                continue
            if isinstance(check, dict):
                if isinstance(value, dict):
                    kept[name] = self._fields(table, value, check, f"{within}{name}.")
                elif value is None:
                    kept[name] = None
                else:
                    self.bad(table, within + name, value)
            elif check(value):
                kept[name] = value
            else:
                self.bad(table, within + name, value)
        return kept

    def bad(self, table: str, field: str, value: Any) -> None:
        """Log a bad field, once for this table and field."""
        if (table, field) in self._logged or len(self._logged) >= REMEMBERED:
            return
        self._logged.add((table, field))
        log.warning(
            "console: table %s sent a bad %s (%.80r); dropped (said once)", table, field, value
        )
