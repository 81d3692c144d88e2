"""The seat LEDs and the buzzer on mock pins: what each pin went through,
read from the pin's recorded states."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.gpio import GpioTable
from companion.devices.patterns import BUZZER, REFUSAL
from companion.devices.pinmap import load_pinmap, parse_pinmap

PINMAP = parse_pinmap(
    "buzzer = 12\n[seats.1]\nbuttons = [17]\nled = 20\n[seats.2]\nbuttons = [18]\nled = 21\n"
)
WAIT = 10  # seconds; patterns last about a second, this only bounds a hang


@pytest.fixture
def factory():
    pins = MockFactory()
    yield pins
    pins.reset()


@pytest.fixture
def table(factory):
    with GpioTable(PINMAP, lambda press: None, factory=factory) as gpio:
        yield gpio


def levels(factory, pin) -> list[bool]:
    return [state.state for state in factory.pin(pin).states]


def test_the_voted_led_follows_the_seat_and_only_that_seat(factory, table):
    table.show_voted(0, True)
    assert levels(factory, 20) == [False, True] and levels(factory, 21) == [False]
    table.show_voted(0, True)
    table.show_voted(0, False)
    assert levels(factory, 20) == [False, True, False]


def test_a_refusal_blinks_three_times_then_rests_off(factory, table):
    table.refuse(1)
    assert table.wait_quiet(WAIT)
    assert levels(factory, 21) == [False] + [True, False] * 3
    assert levels(factory, 20) == [False]
    on_times = [s.timestamp for s in factory.pin(21).states[2::2]]  # time spent on
    assert all(t >= REFUSAL[0][1] * 0.9 for t in on_times)


def test_a_voted_seat_blinks_and_returns_to_lit(factory, table):
    table.show_voted(0, True)
    table.refuse(0)
    assert table.wait_quiet(WAIT)
    # a pin records changes only: the blink's first "on" finds it lit already
    assert levels(factory, 20) == [False, True] + [False, True] * 3


def test_a_vote_during_the_blink_lights_the_led_when_it_ends(factory, table):
    table.refuse(0)
    table.show_voted(0, True)  # while blinking: remembered, not shown yet
    assert table.wait_quiet(WAIT)
    assert levels(factory, 20)[-1] is True
    table.show_voted(0, False)
    assert levels(factory, 20)[-1] is False


@pytest.mark.parametrize("pattern", ["expiry", "gavel"])
def test_the_buzzer_patterns(factory, table, pattern):
    table.sound(pattern)
    assert table.wait_quiet(WAIT)
    beeps = sum(1 for on, _ in BUZZER[pattern] if on)
    assert levels(factory, 12) == [False] + [True, False] * beeps
    on_times = [s.timestamp for s in factory.pin(12).states[2::2]]
    assert all(t >= BUZZER[pattern][0][1] * 0.9 for t in on_times)


def test_unknown_seats_and_patterns_are_ignored(factory, table):
    table.show_voted(5, True)
    table.refuse(-1)
    table.sound("fanfare")
    table.sound(None)
    assert table.wait_quiet(WAIT)
    assert levels(factory, 12) == levels(factory, 20) == levels(factory, 21) == [False]


def test_a_map_without_leds_or_buzzer_ignores_feedback(factory):
    with GpioTable(load_pinmap(), lambda press: None, factory=factory) as gpio:
        assert all(seat.led is None for seat in load_pinmap().seats)
        gpio.show_voted(0, True)
        gpio.refuse(0)
        assert gpio.wait_quiet(WAIT)
    bare = parse_pinmap("[seats.1]\nbuttons = [17]\n")
    with GpioTable(bare, lambda press: None, factory=factory) as gpio:
        gpio.sound("expiry")
        assert gpio.wait_quiet(WAIT)
