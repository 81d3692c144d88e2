"""Seat buttons and the gavel through gpiozero's mock pins: each press arrives
as the right Press, on the asyncio loop when the caller asks for it."""

from __future__ import annotations

import asyncio
import threading

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.gpio import GpioTable, open_pin_factory
from companion.devices.pinmap import load_pinmap, parse_pinmap
from companion.devices.press import GAVEL, Press, loop_delivery


@pytest.fixture
def factory():
    pins = MockFactory()
    yield pins
    pins.reset()


def tap(factory, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_every_button_of_the_default_map_is_its_seat_and_index(factory):
    pinmap = load_pinmap()
    presses = []
    with GpioTable(pinmap, presses.append, factory=factory, settle=0):
        for seat in pinmap.seats:
            for pin in seat.buttons:
                tap(factory, pin)
        tap(factory, pinmap.gavel)
    assert [(p.seat, p.button, p.device) for p in presses] == [
        (seat, button, "gpio") for seat in range(6) for button in range(3)
    ] + [(None, GAVEL, "gpio")]
    times = [p.at for p in presses]
    assert times == sorted(times)


def test_a_custom_map_and_a_press_held_at_start_up(factory):
    pinmap = parse_pinmap("gavel = 21\n[seats.4]\nbuttons = [5, 6]\nled = 20\n")
    factory.pin(6).drive_low()  # already held when the app starts: not a press
    presses = []
    with GpioTable(pinmap, presses.append, factory=factory, settle=0):
        factory.pin(6).drive_high()
        tap(factory, 5)
        tap(factory, 21)
        tap(factory, 6)
    assert [(p.seat, p.button) for p in presses] == [(3, 0), (None, GAVEL), (3, 1)]


def test_buttons_use_the_pull_up_and_no_library_debounce(factory):
    with GpioTable(load_pinmap(), lambda press: None, factory=factory):
        pin = factory.pin(17)
        assert pin.pull == "up" and pin.bounce is None and pin.state == 1


def test_closing_frees_the_pins(factory):
    pinmap = load_pinmap()
    GpioTable(pinmap, lambda press: None, factory=factory).close()
    GpioTable(pinmap, lambda press: None, factory=factory).close()  # no "pin in use"


def test_presses_reach_the_loop_thread_from_a_library_thread(factory):
    pinmap = load_pinmap()
    seen: list[tuple[Press, threading.Thread]] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        arrived = asyncio.Event()

        def handler(press: Press) -> None:
            seen.append((press, threading.current_thread()))
            if len(seen) == 2:
                arrived.set()

        with GpioTable(pinmap, loop_delivery(loop, handler), factory=factory):
            driver = threading.Thread(
                target=lambda: (tap(factory, 24), tap(factory, 4)), name="pin-driver"
            )
            driver.start()
            await asyncio.wait_for(arrived.wait(), timeout=10)
            driver.join()

    asyncio.run(main())
    assert [(p.seat, p.button) for p, _ in seen] == [(1, 2), (None, GAVEL)]
    assert all(thread is threading.main_thread() for _, thread in seen)


def test_simulated_pins_when_asked_or_when_there_is_no_gpio(monkeypatch):
    factory, why = open_pin_factory(mock=True)
    assert isinstance(factory, MockFactory) and why == "mock"
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-library")
    factory, why = open_pin_factory()
    assert isinstance(factory, MockFactory)
    assert "no-such-library" in why
