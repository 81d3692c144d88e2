"""``companion doctor``: a self-test of the table's hardware, run by a person
with the buttons in front of them.

It says which pins it uses (real or simulated), lists every seat and input of
the pin map with its header pin, blinks each seat's LED and sounds the
buzzer, prints the button pad's status, then shows every press live until
the time is up or Ctrl-C.

The serial pad, when there is one, is opened beside the pins: its link and
error counters are printed, and its presses are shown live with the rest.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any, Protocol

from gpiozero.pins import Factory

from ..i18n import Messages
from .gpio import GpioTable
from .pinmap import HEADER_PIN, PinMap
from .press import GAVEL, Deliver, Press

LISTEN_STEP = 0.2  # seconds between checks for the end of the listening time
OUTPUT_WAIT = 10  # seconds at most for one blink or beep pattern
PAD_WAIT = 2.0  # seconds to wait for the pad's first heartbeat


class PadStatus(Protocol):
    def status(self) -> dict[str, Any]:
        """The pad link and its error counters, e.g. {"port": ..., "frames": 12}."""

    def close(self) -> None: ...


def run_doctor(
    pinmap: PinMap,
    factory: Factory,
    *,
    simulated: str | None,
    t: Messages,
    seconds: float | None = None,
    open_pad: Callable[[Deliver], PadStatus] | None = None,
    say: Callable[[str], None] = lambda line: print(line, flush=True),
) -> int:
    """Run the self-test; ``simulated`` is why the pins are simulated (see
    :func:`~.gpio.open_pin_factory`), None for real pins. Returns the exit
    status."""
    if simulated is None:
        say(t("doctor.pins_real", factory=type(factory).__name__))
    elif simulated == "mock":
        say(t("doctor.pins_mock"))
    else:
        say(t("doctor.pins_none", reason=simulated))
    _list_pins(pinmap, t, say)
    presses: queue.Queue[Press] = queue.Queue()
    try:
        gpio = GpioTable(pinmap, presses.put, factory=factory)
    except Exception as exc:  # noqa: BLE001 - a pin in use, no permission: say which
        say(t("doctor.pins_failed", reason=str(exc) or type(exc).__name__))
        return 1
    pad = None
    try:
        with gpio:
            pad = None if open_pad is None else open_pad(presses.put)
            _check_outputs(pinmap, gpio, t, say)
            _show_pad(pad, t, say)
            count = _listen(pinmap, presses, seconds, t, say)
    finally:
        if pad is not None:
            pad.close()
    say(t("doctor.done", count=count))
    return 0


def _pin(t: Messages, gpio: int) -> str:
    return t("doctor.pin", gpio=gpio, pin=HEADER_PIN[gpio])


def _list_pins(pinmap: PinMap, t: Messages, say: Callable[[str], None]) -> None:
    say(t("doctor.seats", count=len(pinmap.seats)))
    for seat in pinmap.seats:
        buttons = ", ".join(_pin(t, pin) for pin in seat.buttons)
        if seat.led is None:
            say(t("doctor.seat", number=seat.seat + 1, buttons=buttons))
        else:
            say(t("doctor.seat_led", number=seat.seat + 1, buttons=buttons, led=_pin(t, seat.led)))
    say(
        t("doctor.no_gavel")
        if pinmap.gavel is None
        else t("doctor.gavel", pin=_pin(t, pinmap.gavel))
    )
    say(
        t("doctor.no_buzzer")
        if pinmap.buzzer is None
        else t("doctor.buzzer", pin=_pin(t, pinmap.buzzer))
    )


def _check_outputs(
    pinmap: PinMap, gpio: GpioTable, t: Messages, say: Callable[[str], None]
) -> None:
    """One output at a time, so the person can see which is which."""
    for seat in pinmap.seats:
        if seat.led is not None:
            say(t("doctor.blink", number=seat.seat + 1, pin=_pin(t, seat.led)))
            gpio.refuse(seat.seat)
            gpio.wait_quiet(OUTPUT_WAIT)
    if pinmap.buzzer is not None:
        for pattern, line in (
            ("expiry", t("doctor.sound_expiry")),
            ("gavel", t("doctor.sound_gavel")),
        ):
            say(line)
            gpio.sound(pattern)
            gpio.wait_quiet(OUTPUT_WAIT)


def _show_pad(pad: PadStatus | None, t: Messages, say: Callable[[str], None]) -> None:
    if pad is None:
        say(t("doctor.pad_none"))
        return
    try:
        deadline = time.monotonic() + PAD_WAIT
        while not pad.status().get("online") and time.monotonic() < deadline:
            time.sleep(0.05)
        status = dict(pad.status())
    except Exception as exc:  # noqa: BLE001 - a broken pad must not stop the check
        say(t("doctor.pad_failed", reason=str(exc) or type(exc).__name__))
        return
    say(t("doctor.pad"))
    for name, value in status.items():
        say(t("doctor.pad_item", name=name, value=value))


def _listen(
    pinmap: PinMap,
    presses: queue.Queue[Press],
    seconds: float | None,
    t: Messages,
    say: Callable[[str], None],
) -> int:
    """Show presses as they come; returns how many were seen."""
    pins: dict[tuple[int | None, int | str], int] = {
        (seat.seat, index): pin for seat in pinmap.seats for index, pin in enumerate(seat.buttons)
    }
    if pinmap.gavel is not None:
        pins[(None, GAVEL)] = pinmap.gavel
    start = time.monotonic()
    say(t("doctor.listen") if seconds is None else t("doctor.listen_for", seconds=seconds))
    count = 0
    try:
        while seconds is None or time.monotonic() - start < seconds:
            try:
                press = presses.get(timeout=LISTEN_STEP)
            except queue.Empty:
                continue
            count += 1
            when = f"{press.at - start:+.3f}"
            if press.device == "pad":
                assert press.seat is not None  # the pad has seats' buttons only
                say(
                    t(
                        "doctor.press_pad",
                        time=when,
                        number=press.seat + 1,
                        button=int(press.button) + 1,
                    )
                )
                continue
            pin = _pin(t, pins[(press.seat, press.button)])
            if press.seat is None:
                say(t("doctor.press_gavel", time=when, pin=pin))
            else:
                say(
                    t(
                        "doctor.press",
                        time=when,
                        number=press.seat + 1,
                        button=int(press.button) + 1,
                        pin=pin,
                    )
                )
    except KeyboardInterrupt:
        say("")
    return count
