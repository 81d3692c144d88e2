"""The pin map: the packaged default fits the header, user maps are read from
a file, and every mistake is refused with a clear, translatable message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices import pinmap as pm
from companion.devices.pinmap import (
    HEADER_PIN,
    MAX_SEATS,
    RESERVED,
    PinMap,
    PinMapError,
    SeatPins,
    load_pinmap,
    parse_pinmap,
    pinmap_path,
)
from companion.i18n import Messages, catalog

EN = catalog("en")


def test_header_table_matches_gpiozero_board_data():
    header = MockFactory().board_info.headers["J8"]
    gpio_pins = {
        int(info.name[4:]): number
        for number, info in header.pins.items()
        if info.name.startswith("GPIO")
    }
    assert HEADER_PIN == gpio_pins


def test_default_map_seats_six_with_three_buttons_and_keeps_the_buses_free():
    default = load_pinmap()
    assert [seat.seat for seat in default.seats] == [0, 1, 2, 3, 4, 5]
    assert all(len(seat.buttons) == 3 and seat.led is None for seat in default.seats)
    assert default.gavel is not None and default.buzzer is not None
    used = [pin for _, pin in default.uses()]
    assert len(used) == len(set(used)) == 20
    assert not set(used) & set(RESERVED)
    free = set(HEADER_PIN) - set(RESERVED) - set(used)
    assert len(free) == 2, "the two spare pins the docs name"


def test_the_default_map_file_is_package_data():
    text = Path(__file__).resolve().parents[1].joinpath("pyproject.toml").read_text()
    assert "devices/*.toml" in text


def test_a_custom_map_file(tmp_path):
    path = tmp_path / "pins.toml"
    path.write_text(
        "gavel = 21\n\n[seats.2]\nbuttons = [5, 6]\nled = 20\n\n[seats.1]\nbuttons = [17]\n",
        encoding="utf-8",
    )
    assert load_pinmap(path) == PinMap(
        seats=(SeatPins(seat=0, buttons=(17,)), SeatPins(seat=1, buttons=(5, 6), led=20)),
        gavel=21,
        buzzer=None,
    )


def test_the_map_path_comes_from_the_command_line_then_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(pm.PINS_ENV, raising=False)
    assert pinmap_path(None) is None
    monkeypatch.setenv(pm.PINS_ENV, str(tmp_path / "env.toml"))
    assert pinmap_path(None) == tmp_path / "env.toml"
    assert pinmap_path(tmp_path / "cli.toml") == tmp_path / "cli.toml"


SEAT = "[seats.1]\nbuttons = [17, 18, 27]\n"


@pytest.mark.parametrize(
    "text, key, args, shown",
    [
        (
            SEAT + "led = 17\n",
            "pinmap.pin_twice",
            {"pin": 17, "first": "seats.1.buttons[1]", "second": "seats.1.led"},
            "GPIO 17 is used twice in the pin map: by “seats.1.buttons[1]” and by “seats.1.led”.",
        ),
        (
            "gavel = 22\nbuzzer = 22\n",
            "pinmap.pin_twice",
            {"pin": 22, "first": "gavel", "second": "buzzer"},
            None,
        ),
        (
            "gavel = 2\n",
            "pinmap.reserved_i2c",
            {"setting": "gavel", "pin": 2},
            "“gavel” in the pin map: GPIO 2 is the I2C bus (BCM 2 and 3), kept free; "
            "choose another pin.",
        ),
        (
            "[seats.1]\nbuttons = [17, 15]\n",
            "pinmap.reserved_uart",
            {"setting": "seats.1.buttons[2]", "pin": 15},
            None,
        ),
        ("buzzer = 0\n", "pinmap.reserved_id_eeprom", {"setting": "buzzer", "pin": 0}, None),
        (
            SEAT + "colour = 'red'\n",
            "pinmap.unknown_key",
            {"setting": "seats.1.colour"},
            "The pin map has an unknown setting “seats.1.colour”.",
        ),
        ("gavle = 4\n", "pinmap.unknown_key", {"setting": "gavle"}, None),
        (
            "[seats.11]\nbuttons = [17]\n",
            "pinmap.bad_seat",
            {"number": "11", "limit": MAX_SEATS},
            "Seat “11” in the pin map is out of range: seats are numbered 1 to 10.",
        ),
        (
            "[seats.0]\nbuttons = [17]\n",
            "pinmap.bad_seat",
            {"number": "0", "limit": MAX_SEATS},
            None,
        ),
        (
            "[seats.01]\nbuttons = [17]\n",
            "pinmap.bad_seat",
            {"number": "01", "limit": MAX_SEATS},
            None,
        ),
        (
            "[seats.north]\nbuttons = [17]\n",
            "pinmap.bad_seat",
            {"number": "north", "limit": MAX_SEATS},
            None,
        ),
        (
            "[seats.1]\nbuttons = [17, 18, 27, 22]\n",
            "pinmap.bad_buttons",
            {"setting": "seats.1.buttons", "limit": 3},
            None,
        ),
        (
            "[seats.1]\nbuttons = []\n",
            "pinmap.bad_buttons",
            {"setting": "seats.1.buttons", "limit": 3},
            None,
        ),
        (
            "[seats.1]\nled = 20\n",
            "pinmap.bad_buttons",
            {"setting": "seats.1.buttons", "limit": 3},
            None,
        ),
        (
            "[seats.1]\nbuttons = 17\n",
            "pinmap.bad_buttons",
            {"setting": "seats.1.buttons", "limit": 3},
            None,
        ),
        (
            "gavel = 28\n",
            "pinmap.bad_pin",
            {"setting": "gavel", "value": "28"},
            "“gavel” in the pin map must be a GPIO number of the 40-pin header "
            "(BCM 0 to 27), not 28.",
        ),
        ("gavel = -1\n", "pinmap.bad_pin", {"setting": "gavel", "value": "-1"}, None),
        ("gavel = true\n", "pinmap.bad_pin", {"setting": "gavel", "value": "True"}, None),
        ("gavel = 4.0\n", "pinmap.bad_pin", {"setting": "gavel", "value": "4.0"}, None),
        ("gavel = 'GPIO4'\n", "pinmap.bad_pin", {"setting": "gavel", "value": "'GPIO4'"}, None),
        (
            "[seats.1]\nbuttons = [17, 'x']\n",
            "pinmap.bad_pin",
            {"setting": "seats.1.buttons[2]", "value": "'x'"},
            None,
        ),
        ("seats = 3\n", "pinmap.bad_section", {"setting": "seats"}, None),
        ("[seats]\n1 = 17\n", "pinmap.bad_section", {"setting": "seats.1"}, None),
    ],
)
def test_mistakes_are_refused_with_a_translatable_reason(text, key, args, shown):
    with pytest.raises(PinMapError) as caught:
        parse_pinmap(text, "pins.toml")
    assert (caught.value.key, caught.value.args_) == (key, args)
    message = Messages("en").error(caught.value)
    assert "{" not in message and message != key
    if shown is not None:
        assert message == shown


def test_files_that_are_not_toml_or_not_there_are_refused(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[seats.1\nbuttons = [17]\n")
    with pytest.raises(PinMapError) as caught:
        load_pinmap(broken)
    assert caught.value.key == "pinmap.not_toml"
    assert Messages("en").error(caught.value).startswith(f"The pin map {broken} is not valid TOML")
    twice = tmp_path / "twice.toml"
    twice.write_text(SEAT + SEAT)
    with pytest.raises(PinMapError, match="pinmap.not_toml"):
        load_pinmap(twice)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00gavel")
    with pytest.raises(PinMapError, match="pinmap.not_utf8"):
        load_pinmap(binary)
    with pytest.raises(PinMapError) as caught:
        load_pinmap(tmp_path / "missing.toml")
    assert caught.value.key == "pinmap.unreadable"
    assert "No such file or directory" in Messages("en").error(caught.value)


def test_every_pin_map_message_key_is_in_the_english_catalog():
    source = Path(pm.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'"(pinmap\.[a-z0-9_]+)"', source))
    assert set(RESERVED.values()) <= keys and len(keys) > 8
    assert sorted(k for k in keys if k not in EN) == []


def test_the_wiring_docs_show_the_default_map():
    hardware = Path(__file__).resolve().parents[1] / "hardware"
    table = hardware.joinpath("gpio.md").read_text(encoding="utf-8")
    picture = hardware.joinpath("gpio-header.svg").read_text(encoding="utf-8")
    default = load_pinmap()
    for seat in default.seats:
        cells = " | ".join(f"GPIO {pin} (pin {HEADER_PIN[pin]})" for pin in seat.buttons)
        assert f"| {seat.seat + 1} | {cells} |" in table
        for index, pin in enumerate(seat.buttons):
            assert f">{HEADER_PIN[pin]}<" in picture
            assert f"GPIO {pin} — Seat {seat.seat + 1} button {index + 1}<" in picture
    assert f"| {default.gavel} | {HEADER_PIN[default.gavel]} | gavel" in table
    assert f"| {default.buzzer} | {HEADER_PIN[default.buzzer]} | buzzer" in table
    assert f"GPIO {default.gavel} — Gavel<" in picture
    assert f"GPIO {default.buzzer} — Buzzer" in picture
