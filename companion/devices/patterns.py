"""On/off patterns for the seat LEDs and the buzzer, played in the
background so the asyncio loop that asks for one never waits.

A device has a resting level (an LED's "voted" state) and at most one
pattern at a time: a new pattern replaces the one playing, and when a pattern
ends the device returns to its resting level, even if that level changed
while the pattern played (a seat that votes during its refusal blink ends
with its LED on). We play patterns ourselves rather than with gpiozero's
``blink()``, which always ends with the device off.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

Step = tuple[bool, float]  # (on?, seconds)

REFUSAL: tuple[Step, ...] = ((True, 0.12), (False, 0.12)) * 3
BUZZER: dict[str, tuple[Step, ...]] = {
    "expiry": ((True, 0.4), (False, 0.2)) * 3,  # time's up: three long beeps
    "gavel": ((True, 0.08), (False, 0.08)) * 2,  # a double knock
}


class Output(Protocol):
    value: float


class PatternPlayer:
    def __init__(self) -> None:
        self._lock = threading.Lock()  # guards every write to a device
        self._rest: dict[int, bool] = {}
        self._playing: dict[int, tuple[threading.Thread, threading.Event]] = {}

    def set(self, device: Output, on: bool) -> None:
        """Set the device's resting level: now, or when its pattern ends."""
        with self._lock:
            self._rest[id(device)] = on
            if id(device) not in self._playing:
                device.value = on

    def play(self, device: Output, steps: Sequence[Step]) -> None:
        stop = threading.Event()
        thread = threading.Thread(
            target=self._run,
            args=(device, tuple(steps), stop),
            name="companion-pattern",
            daemon=True,
        )
        with self._lock:
            replaced = self._playing.get(id(device))
            if replaced is not None:
                replaced[1].set()
            self._playing[id(device)] = (thread, stop)
        thread.start()

    def wait(self, timeout: float) -> bool:
        """Wait until every pattern has ended; False if some still play."""
        with self._lock:
            threads = [thread for thread, _ in self._playing.values()]
        for thread in threads:
            thread.join(timeout)
        return not any(thread.is_alive() for thread in threads)

    def stop(self) -> None:
        """End every pattern now, leaving each device at its last step."""
        with self._lock:
            playing = list(self._playing.values())
            self._playing.clear()
        for thread, stop in playing:
            stop.set()
            thread.join()

    def _run(self, device: Output, steps: tuple[Step, ...], stop: threading.Event) -> None:
        for on, seconds in steps:
            with self._lock:
                if stop.is_set():
                    return
                device.value = on
            if stop.wait(seconds):
                return
        with self._lock:
            current = self._playing.get(id(device))
            if current is not None and current[1] is stop:
                del self._playing[id(device)]
                device.value = self._rest.get(id(device), False)
