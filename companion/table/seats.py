"""Seats and the players in them: name, seat order, language, input."""

from __future__ import annotations

import unicodedata
from typing import Any

from ..games.base import RuleError, Setup
from ..i18n import LANGUAGES

# How a seat reaches the table: the kiosk touchscreen (operator-assisted),
# GPIO buttons, the serial button pad, or the player's phone.
INPUTS = ("kiosk", "buttons", "pad", "phone")
MAX_NAME = 24


def normalise_seats(setup: Setup) -> None:
    """Validate the seats of a setup in place, filling defaults.

    Seats are listed in order around the table (clockwise)."""
    if not isinstance(setup.seats, list) or not setup.seats:
        raise RuleError("setup.no_seats")
    seats = []
    names = set()
    for index, seat in enumerate(setup.seats):
        if isinstance(seat, str):
            seat = {"name": seat}
        if not isinstance(seat, dict):
            raise RuleError("setup.bad_seat", position=index + 1)
        name = clean_name(seat.get("name"), index)
        if name.casefold() in names:
            raise RuleError("setup.duplicate_name", name=name)
        names.add(name.casefold())
        lang = seat.get("lang", "en")
        if lang not in LANGUAGES:
            raise RuleError("setup.bad_language", language=str(lang))
        source = seat.get("input", "kiosk")
        if source not in INPUTS:
            raise RuleError("setup.bad_input", input=str(source))
        seats.append({"name": name, "lang": lang, "input": source})
    setup.seats = seats


# Format characters a name may hold: the joiners Persian (and other scripts)
# write with. Every other one (a right-to-left override that turns the rest
# of a line around, an invisible mark) is refused.
_JOINERS = frozenset("\u200c\u200d")


def clean_name(name: Any, index: int) -> str:
    """A player's name as the table keeps it: NFC, one space between words,
    1 to MAX_NAME characters, nothing invisible or unprintable but Persian's
    joiners. A RuleError names the seat (``index`` from 0) otherwise."""
    if isinstance(name, str):
        name = " ".join(unicodedata.normalize("NFC", name).split())
    if (
        not isinstance(name, str)
        or not name
        or len(name) > MAX_NAME
        or any(not (c.isprintable() or c in _JOINERS) for c in name)
    ):
        raise RuleError("setup.bad_name", position=index + 1, limit=MAX_NAME)
    return name


def seat_names(setup: Setup) -> list[str]:
    return [seat["name"] for seat in setup.seats]


def resolve_seat(setup: Setup, value: Any) -> Any:
    """A seat given by index or by player name, as an index (replay scripts
    may name players); anything else is returned as is for the engine to
    refuse."""
    if isinstance(value, str):
        for index, seat in enumerate(setup.seats):
            if seat["name"].casefold() == value.casefold():
                return index
    return value
