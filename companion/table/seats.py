"""Seats and the players in them: name, seat order, language, input."""
from __future__ import annotations

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
        name = seat.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise RuleError("setup.bad_name", position=index + 1, limit=MAX_NAME)
        name = " ".join(name.split())
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
