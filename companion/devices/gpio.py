"""The seat buttons, gavel, seat LEDs and buzzer on the Pi's 40-pin header.

Buttons connect a GPIO to ground; gpiozero turns on the internal pull-up and
leaves debouncing to :mod:`.debounce` (``bounce_time=None``). Each is a
``DigitalInputDevice`` (active low) rather than a ``Button``: the same edges,
without the "held" thread every ``Button`` runs, which we do not use and
which costs up to 0.1 s per button to close.

Each press is handed to ``deliver`` on the thread that saw the edge (lgpio's
callback thread on a Pi, the driving thread for mock pins): wrap the table's
handler with :func:`~.press.loop_delivery`.

The buzzer is an *active* buzzer on a plain digital output (gpiozero's
``Buzzer``): it sounds its own tone when powered, so it needs no PWM, which
lgpio can only produce in software with audible jitter. Patterns are on/off
rhythms (:mod:`.patterns`).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable

from gpiozero import LED, Buzzer, Device, DigitalInputDevice
from gpiozero.exc import PinWarning
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from .debounce import SETTLE, Debouncer
from .patterns import BUZZER, REFUSAL, PatternPlayer
from .pinmap import PinMap
from .press import GAVEL, Deliver, Press


def open_pin_factory(mock: bool = False) -> tuple[Factory, str | None]:
    """gpiozero's default pin factory (lgpio on a Pi 5), or simulated pins.

    Returns the factory and, when the pins are simulated, why: "mock" when
    asked for, else the reason the real pins could not be opened (not a Pi,
    no pin library). gpiozero tries each library in turn, warning at each
    fallback, and raises ``BadPinFactory`` when none loads; a library can
    also fail in its own way, so any failure means "no GPIO here"."""
    if mock:
        return MockFactory(), "mock"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinWarning)
        try:
            Device.ensure_pin_factory()
        except Exception as exc:  # noqa: BLE001 - any library failure: no usable GPIO
            return MockFactory(), str(exc) or type(exc).__name__
    factory = Device.pin_factory
    if isinstance(factory, MockFactory):  # GPIOZERO_PIN_FACTORY=mock
        return factory, "mock"
    return factory, None


class GpioTable:
    """The header's devices for one pin map: presses in, feedback out.

    Implements :class:`~.press.SeatFeedback`: seats or patterns it has no
    output for are ignored. Close it to free the pins."""

    def __init__(
        self,
        pinmap: PinMap,
        deliver: Deliver,
        *,
        factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
        settle: float = SETTLE,
    ) -> None:
        self._deliver = deliver
        self._factory = factory
        self._clock = clock
        self._settle = settle
        self._devices: list[Device] = []
        self._leds: dict[int, LED] = {}
        self._buzzer: Buzzer | None = None
        self._patterns = PatternPlayer()
        try:
            for seat in pinmap.seats:
                for index, pin in enumerate(seat.buttons):
                    self._watch(pin, seat.seat, index)
                if seat.led is not None:
                    self._leds[seat.seat] = self._own(LED(seat.led, pin_factory=factory))
            if pinmap.gavel is not None:
                self._watch(pinmap.gavel, None, GAVEL)
            if pinmap.buzzer is not None:
                self._buzzer = self._own(Buzzer(pinmap.buzzer, pin_factory=factory))
        except BaseException:
            self.close()
            raise

    def _own(self, device):
        self._devices.append(device)
        return device

    def _watch(self, pin: int, seat: int | None, button: int | str) -> None:
        device = self._own(
            DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=self._factory)
        )
        contact = Debouncer(self._settle, self._clock, pressed=device.is_active)

        def pressed() -> None:
            at = contact.edge(True)
            if at is not None:
                self._deliver(Press(seat=seat, button=button, at=at, device="gpio"))

        device.when_activated = pressed
        device.when_deactivated = lambda: contact.edge(False)

    # SeatFeedback

    def show_voted(self, seat: int, voted: bool) -> None:
        led = self._leds.get(seat)
        if led is not None:
            self._patterns.set(led, bool(voted))

    def refuse(self, seat: int) -> None:
        led = self._leds.get(seat)
        if led is not None:
            self._patterns.play(led, REFUSAL)

    def sound(self, pattern: str) -> None:
        steps = BUZZER.get(pattern)
        if self._buzzer is not None and steps is not None:
            self._patterns.play(self._buzzer, steps)

    def wait_quiet(self, timeout: float) -> bool:
        """Wait until every blink and beep has ended; False if some still play."""
        return self._patterns.wait(timeout)

    def close(self) -> None:
        self._patterns.stop()
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self) -> GpioTable:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
