"""The GPIO pin map: which header pin is which seat's button, LED, the gavel
and the buzzer. It is configuration, not code: a TOML file (the packaged
``pinmap.default.toml``, or the user's own from ``--pins PATH`` or
``$COMPANION_PINS``), documented in ``hardware/gpio.md``.

Pins are BCM GPIO numbers. Seats are numbered from 1 in the file, as people
count them; :class:`SeatPins` holds the table's 0-based seat index, as in
:class:`~.press.Press`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

PINS_ENV = "COMPANION_PINS"
DEFAULT_MAP = "pinmap.default.toml"
MAX_SEATS = 10  # no game seats more (its spec's max_players; tests/test_game_options.py)
MAX_BUTTONS = 3  # Yes / Veto / Abstain is the widest ballot

# BCM GPIO number -> physical pin on the 40-pin header (the same on every
# 40-pin Raspberry Pi, the Pi 5 included).
HEADER_PIN = {
    2: 3,
    3: 5,
    4: 7,
    14: 8,
    15: 10,
    17: 11,
    18: 12,
    27: 13,
    22: 15,
    23: 16,
    24: 18,
    10: 19,
    9: 21,
    25: 22,
    11: 23,
    8: 24,
    7: 26,
    0: 27,
    1: 28,
    5: 29,
    6: 31,
    12: 32,
    13: 33,
    19: 35,
    16: 36,
    26: 37,
    20: 38,
    21: 40,
}

# Pins a pin map may not use, and the message key that says why: the I2C bus
# (fixed 1.8 kΩ pull-ups, wanted for a display or RTC), the UART (serial
# console, or a pad wired to the header) and the HAT ID EEPROM bus.
RESERVED = {
    0: "pinmap.reserved_id_eeprom",
    1: "pinmap.reserved_id_eeprom",
    2: "pinmap.reserved_i2c",
    3: "pinmap.reserved_i2c",
    14: "pinmap.reserved_uart",
    15: "pinmap.reserved_uart",
}

_TOP_KEYS = ("gavel", "buzzer", "seats")
_SEAT_KEYS = ("buttons", "led")


class PinMapError(Exception):
    """A pin map that cannot be used. Like a rule error it carries a message
    key and arguments, never prose, so ``Messages.error`` shows it in the
    reader's language."""

    def __init__(self, key: str, /, **args: Any) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args

    def __repr__(self) -> str:
        return f"PinMapError({self.key!r}, {self.args_!r})"


@dataclass(frozen=True)
class SeatPins:
    seat: int  # 0-based, as in Press.seat
    buttons: tuple[int, ...]  # Press.button is the index in this tuple
    led: int | None = None


@dataclass(frozen=True)
class PinMap:
    seats: tuple[SeatPins, ...]
    gavel: int | None = None
    buzzer: int | None = None

    def uses(self) -> Iterator[tuple[str, int]]:
        """Every pin the map uses, with the setting that names it."""
        for seat in self.seats:
            number = seat.seat + 1
            for index, pin in enumerate(seat.buttons):
                yield f"seats.{number}.buttons[{index + 1}]", pin
            if seat.led is not None:
                yield f"seats.{number}.led", seat.led
        if self.gavel is not None:
            yield "gavel", self.gavel
        if self.buzzer is not None:
            yield "buzzer", self.buzzer


def pinmap_path(cli_value: Path | None = None) -> Path | None:
    """The user's pin map: ``--pins`` first, then ``$COMPANION_PINS``; None
    means the packaged default."""
    if cli_value is not None:
        return cli_value
    env = os.environ.get(PINS_ENV)
    return Path(env) if env else None


def load_pinmap(path: Path | None = None) -> PinMap:
    """Read and check a pin map file (None: the packaged default)."""
    if path is None:
        text = resources.files(__package__).joinpath(DEFAULT_MAP).read_text(encoding="utf-8")
        return parse_pinmap(text, DEFAULT_MAP)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PinMapError(
            "pinmap.unreadable", path=str(path), reason=exc.strerror or str(exc)
        ) from None
    except UnicodeDecodeError:
        raise PinMapError("pinmap.not_utf8", path=str(path)) from None
    return parse_pinmap(text, str(path))


def parse_pinmap(text: str, source: str = "") -> PinMap:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError("pinmap.not_toml", path=source, detail=str(exc)) from None
    except RecursionError:  # arrays or tables nested past reading
        raise PinMapError("pinmap.not_toml", path=source, detail="nested too deeply") from None
    _no_unknown_keys(data, _TOP_KEYS, "")
    seats_data = data.get("seats", {})
    if not isinstance(seats_data, dict):
        raise PinMapError("pinmap.bad_section", setting="seats")
    seats = tuple(
        _seat(number, seats_data[number]) for number in sorted(seats_data, key=_seat_number)
    )
    pinmap = PinMap(
        seats=seats,
        gavel=_optional_pin(data, "gavel", "gavel"),
        buzzer=_optional_pin(data, "buzzer", "buzzer"),
    )
    _each_pin_once(pinmap)
    return pinmap


def _seat_number(key: str) -> int:
    if not (
        key.isascii() and key.isdigit() and str(int(key)) == key and 1 <= int(key) <= MAX_SEATS
    ):
        raise PinMapError("pinmap.bad_seat", number=key, limit=MAX_SEATS)
    return int(key)


def _seat(key: str, data: Any) -> SeatPins:
    where = f"seats.{key}"
    if not isinstance(data, dict):
        raise PinMapError("pinmap.bad_section", setting=where)
    _no_unknown_keys(data, _SEAT_KEYS, where + ".")
    buttons = data.get("buttons")
    if not isinstance(buttons, list) or not 1 <= len(buttons) <= MAX_BUTTONS:
        raise PinMapError("pinmap.bad_buttons", setting=where + ".buttons", limit=MAX_BUTTONS)
    return SeatPins(
        seat=_seat_number(key) - 1,
        buttons=tuple(_pin(value, f"{where}.buttons[{i + 1}]") for i, value in enumerate(buttons)),
        led=_optional_pin(data, "led", where + ".led"),
    )


def _no_unknown_keys(data: dict, allowed: tuple[str, ...], prefix: str) -> None:
    for key in data:
        if key not in allowed:
            raise PinMapError("pinmap.unknown_key", setting=prefix + key)


def _optional_pin(data: dict, name: str, where: str) -> int | None:
    return None if name not in data else _pin(data[name], where)


def _pin(value: Any, where: str) -> int:
    if type(value) is not int or value not in HEADER_PIN:  # bool is not a pin
        raise PinMapError("pinmap.bad_pin", setting=where, value=repr(value)[:40])
    if value in RESERVED:
        raise PinMapError(RESERVED[value], setting=where, pin=value)
    return value


def _each_pin_once(pinmap: PinMap) -> None:
    seen: dict[int, str] = {}
    for where, pin in pinmap.uses():
        if pin in seen:
            raise PinMapError("pinmap.pin_twice", pin=pin, first=seen[pin], second=where)
        seen[pin] = where
