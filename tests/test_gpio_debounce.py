"""Debounce that works: bounce storms are one press timed at the first edge,
two real presses are two, and a release never presses. Checked with an
injected clock (exact, any storm) and with real timed edges on gpiozero's
mock pins, which do not simulate bounce themselves."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from companion.devices.debounce import SETTLE, Debouncer
from companion.devices.gpio import GpioTable
from companion.devices.pinmap import parse_pinmap


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def storm(
    contact: Debouncer,
    clock: FakeClock,
    start: float,
    edges: int,
    span: float = 0.005,
    first: bool = True,
) -> list[float]:
    """``edges`` alternating edges, the first to ``first``, spread over ``span``."""
    presses = []
    for i in range(edges):
        clock.now = start + span * i / max(edges - 1, 1)
        at = contact.edge(first if i % 2 == 0 else not first)
        if at is not None:
            presses.append(at)
    return presses


def test_ten_edges_within_five_ms_are_one_press_at_the_first_edge():
    clock = FakeClock()
    contact = Debouncer(clock=clock)
    # ten edges end released; an eleventh leaves the contact closed
    assert storm(contact, clock, 1.0, 10) == [1.0]
    assert storm(contact, clock, 2.0, 11) == [2.0]


def test_two_presses_sixty_ms_apart_are_two():
    clock = FakeClock()
    contact = Debouncer(clock=clock)
    presses = storm(contact, clock, 1.0, 9)  # down, bouncing
    presses += storm(contact, clock, 1.030, 9, first=False)  # up at 30 ms, bouncing
    presses += storm(contact, clock, 1.060, 9)  # down again at 60 ms
    assert presses == [1.0, 1.060]


def test_a_release_bounce_never_presses_however_long_it_lasts():
    clock = FakeClock()
    contact = Debouncer(clock=clock)
    assert storm(contact, clock, 1.0, 1) == [1.0]
    # a slow, ragged release: 40 edges over 100 ms, each 2.5 ms after the last
    assert storm(contact, clock, 1.5, 41, span=0.1, first=False) == []


def test_a_contact_held_at_start_up_presses_only_after_its_release():
    clock = FakeClock()
    contact = Debouncer(clock=clock, pressed=True)
    clock.now = 1.0
    assert contact.edge(False) is None
    clock.now = 1.5
    assert contact.edge(True) == 1.5


bounces = st.lists(st.floats(0.0, SETTLE * 0.9), max_size=5)  # gaps between edge pairs


@given(
    st.lists(
        st.tuples(bounces, bounces, st.floats(0.0, 0.2), st.floats(0.001, 0.2)),
        min_size=1,
        max_size=8,
    )
)
def test_any_bouncing_presses_separated_by_a_quiet_release_count_once_each(presses):
    """Each press: a close edge, bounce pairs (open, close) less than SETTLE
    apart, a hold, an open edge, bounce pairs (close, open), then quiet for
    more than SETTLE."""
    clock = FakeClock()
    contact = Debouncer(clock=clock)
    seen, expected = [], []

    def edge(pressed: bool) -> None:
        at = contact.edge(pressed)
        if at is not None:
            seen.append(at)

    for down_gaps, up_gaps, held, quiet in presses:
        expected.append(clock.now)
        edge(True)
        for gap in down_gaps:
            clock.now += gap
            edge(False)
            clock.now += gap
            edge(True)
        clock.now += held
        edge(False)
        for gap in up_gaps:
            clock.now += gap
            edge(True)
            clock.now += gap
            edge(False)
        clock.now += SETTLE + quiet
    assert seen == expected


# Real timed edges on mock pins. Margins are generous: an edge storm is
# driven as fast as Python can, and the settle time for it is 0.25 s, so a
# loaded machine pausing the driver for a while cannot split it.


@pytest.fixture
def factory():
    pins = MockFactory()
    yield pins
    pins.reset()


ONE_SEAT = parse_pinmap("[seats.1]\nbuttons = [17]\n")


def drive_storm(pin, edges: int, first_low: bool = True) -> None:
    """``edges`` alternating edges as fast as Python drives them."""
    for i in range(edges):
        low = first_low if i % 2 == 0 else not first_low
        (pin.drive_low if low else pin.drive_high)()


def test_a_real_time_edge_storm_on_a_mock_pin_is_one_press(factory):
    presses = []
    pin = factory.pin(17)
    with GpioTable(ONE_SEAT, presses.append, factory=factory, settle=0.25):
        before = time.monotonic()
        drive_storm(pin, 11)  # closed, after ten bounces
        storm_end = time.monotonic()
        time.sleep(0.05)
        drive_storm(pin, 11, first_low=False)  # open, after ten bounces
    assert len(presses) == 1
    assert before <= presses[0].at <= storm_end  # timed at the first edge


def test_two_real_presses_sixty_ms_apart_on_a_mock_pin_are_two(factory):
    """With the default settle time: sleeps only ever last longer, so the
    release is always quiet for at least 30 ms."""
    presses = []
    pin = factory.pin(17)
    with GpioTable(ONE_SEAT, presses.append, factory=factory):
        for _ in range(2):
            pin.drive_low()
            time.sleep(0.03)
            pin.drive_high()
            time.sleep(0.03)
    assert len(presses) == 2
    assert presses[1].at - presses[0].at >= 0.06
