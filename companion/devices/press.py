"""What every input device delivers, and what every output device offers.

A device calls its ``deliver`` callback with a :class:`Press` from whatever
thread it runs on; :func:`loop_delivery` wraps a handler so the press reaches
the asyncio loop with ``call_soon_threadsafe`` and the table changes on the
loop only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

GAVEL = "gavel"  # the table's gavel input (a switch or a knock sensor)


@dataclass(frozen=True)
class Press:
    """One debounced press. ``seat`` is None for a table input such as the
    gavel (``button`` then names it, e.g. GAVEL). ``at`` is the most precise
    time known for the press, in seconds on the host's monotonic clock: the
    pad's own clock mapped to the host's for a pad press, the moment of the
    first edge for a GPIO press. ``device`` names where it came from
    ("gpio", "pad") for the log and ``companion doctor``."""

    seat: int | None
    button: int | str
    at: float
    device: str


Deliver = Callable[[Press], None]


def loop_delivery(loop: asyncio.AbstractEventLoop, handler: Deliver) -> Deliver:
    """A ``deliver`` callback safe to call from any thread: the handler runs
    on ``loop``."""

    def deliver(press: Press) -> None:
        loop.call_soon_threadsafe(handler, press)

    return deliver


class SeatFeedback(Protocol):
    """What a device can show a seat, and the table's buzzer. Devices that
    lack an output ignore the call."""

    def show_voted(self, seat: int, voted: bool) -> None:
        """The seat's "voted" LED: on once its vote is in, off otherwise. The
        same for every choice, so the LED says nothing about the vote."""

    def refuse(self, seat: int) -> None:
        """Blink the seat's LED: its last press was refused."""

    def sound(self, pattern: str) -> None:
        """Sound the buzzer: "expiry" (the timer ran out) or "gavel"."""
