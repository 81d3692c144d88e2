"""Whole ballots through the real header path: MockFactory pins driven from
another thread, our debouncer, the hand-over to the asyncio loop, Controls,
the table and its SQLite file, and back out to the seat LEDs."""

from __future__ import annotations

import asyncio
import threading

import pytest
from a27_helpers import PK, keeper4, propose
from gpiozero.pins.mock import MockFactory
from helpers import until
from sh_helpers import nominate, sh_table

from companion.devices.controls import Controls
from companion.devices.gpio import GpioTable
from companion.devices.pinmap import parse_pinmap
from companion.devices.press import loop_delivery
from companion.table import EventStore, seat_source

# Four seats of three buttons, each with its "voted" LED.
PINMAP = parse_pinmap("""
[seats.1]
buttons = [17, 18, 27]
led = 20
[seats.2]
buttons = [22, 23, 24]
led = 21
[seats.3]
buttons = [10, 9, 25]
led = 16
[seats.4]
buttons = [11, 8, 7]
led = 19
""")
WAIT = 10  # seconds: only bounds a hang


@pytest.fixture
def factory():
    pins = MockFactory()
    yield pins
    pins.reset()


def push(factory, seat: int, button: int) -> None:
    """A player presses and releases a button, from a thread of its own."""
    pin = factory.pin(PINMAP.seats[seat].buttons[button])

    def press_and_release() -> None:
        pin.drive_low()
        pin.drive_high()

    thread = threading.Thread(target=press_and_release)
    thread.start()
    thread.join()


def leds(factory) -> list[list[bool]]:
    return [[s.state for s in factory.pin(seat.led).states] for seat in PINMAP.seats]


async def article27_ballot(store, factory, buttons, phone_votes=()):
    """Seats vote Yes / Veto / Abstain by buttons (and D, if given, by phone)."""
    table = keeper4(store)
    propose(table, PK)
    loop = asyncio.get_running_loop()
    refusals = []
    controls = Controls(table, loop=loop, on_refusal=lambda s, e: refusals.append((s, e.key)))
    with GpioTable(PINMAP, loop_delivery(loop, controls.handle), factory=factory) as gpio:
        controls.add_output(gpio)
        for seat, choice in phone_votes:
            table.execute(
                {"type": "vote", "seat": seat, "choice": choice}, source=seat_source(seat)
            )
        for seat, button in buttons:
            push(factory, seat, button)
            await until(
                lambda seat=seat: (
                    seat in (table.public_view()["ballot"] or {}).get("voted", [seat])
                ),
                f"seat {seat} voted",
            )
        await until(lambda: table.public_view()["ballot"] is None, "the reveal")
        assert gpio.wait_quiet(WAIT)
    return table, refusals


def test_an_article_27_ballot_by_buttons_and_a_phone(store, factory):
    table, refusals = asyncio.run(
        article27_ballot(store, factory, [(0, 0), (1, 2), (2, 0)], phone_votes=[(3, "abstain")])
    )
    assert refusals == []
    votes = [e for _, e in table.log if e["type"] == "ballot"][-1]["votes"]
    assert votes == ["yes", "abstain", "yes", "abstain"]
    assert [e["by"] for _, e in table.log if e["type"] == "vote"] == [seat_source(3)] + [
        seat_source(s, "gpio") for s in (0, 1, 2)
    ]
    # Each LED lit when its seat voted (D's, who voted by phone, too) and
    # went out at the reveal; C's vote was the last, so the reveal came with it.
    assert leds(factory) == [
        [False, True, False],
        [False, True, False],
        [False],
        [False, True, False],
    ]


def test_the_leds_are_the_same_whatever_the_votes(tmp_path):
    """Secrecy at the table: opposite ballots leave the same LED histories.
    (Keeper mode: a Veto goes by phone, so the buttons say Yes or Abstain.)"""
    histories = []
    for name, buttons in (
        ("a", [(0, 0), (1, 0), (2, 0), (3, 0)]),
        ("b", [(0, 2), (1, 0), (2, 2), (3, 2)]),
    ):
        factory = MockFactory()
        asyncio.run(article27_ballot(EventStore(tmp_path / f"{name}.sqlite3"), factory, buttons))
        histories.append(leds(factory))
        factory.reset()
    assert histories[0] == histories[1]


def test_a_bounce_storm_is_one_vote_and_a_second_press_changes_it(store, factory):
    async def scenario():
        table = sh_table(store, 5)
        nominate(table, 2)
        loop = asyncio.get_running_loop()
        controls = Controls(table, loop=loop)
        with GpioTable(PINMAP, loop_delivery(loop, controls.handle), factory=factory) as gpio:
            controls.add_output(gpio)
            pin = factory.pin(PINMAP.seats[0].buttons[0])
            for _ in range(5):  # 10 edges within a few ms
                pin.drive_low()
                pin.drive_high()
            await until(lambda: table.public_view()["ballot"]["voted"] == [0], "A voted")
            votes = [e for _, e in table.log if e["type"] == "vote"]
            assert len(votes) == 1 and votes[0]["choice"] == "ja"
            await asyncio.sleep(0.1)  # a real second press, later
            push(factory, 0, 1)
            await until(
                lambda: table.private_view(0).get("ballot_vote") == "nein", "A changed to Nein"
            )
            assert len([e for _, e in table.log if e["type"] == "vote"]) == 2

    asyncio.run(scenario())
