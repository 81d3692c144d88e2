"""The vote pad's simulated twin, for tests and benchmarks: the real firmware logic
(votepad.pad.Pad) runs in a thread as the MCU on the master end of a pty pair,
with a millisecond clock it advances one step at a time and button levels
from a script; the host driver opens the slave end through a symlink, so a
test can unplug the pad and plug a new pty in at the same path."""

from __future__ import annotations

import heapq
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from votepad.pad import Pad


class PtyLink:
    """A pty pair whose slave is reachable at ``path`` (a symlink)."""

    def __init__(self, directory: Path) -> None:
        self.path = str(directory / "pad-serial")
        self.lock = threading.Lock()  # held while the master is used or replaced
        self.master: int | None = None
        self._slave: int | None = None
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo: the pad must not hear itself
        os.set_blocking(master, False)  # a full buffer drops bytes, as USB would
        link = self.path + ".new"
        os.symlink(os.ttyname(slave), link)
        os.replace(link, self.path)
        with self.lock:
            self.master, self._slave = master, slave

    def unplug(self) -> None:
        with self.lock:
            for fd in (self.master, self._slave):
                if fd is not None:
                    os.close(fd)
            self.master = self._slave = None

    def write(self, data: bytes) -> int:
        """Bytes written; any the pty will not take now are dropped."""
        with self.lock:
            if self.master is None:
                return 0
            try:
                return os.write(self.master, data)
            except OSError:
                return 0

    def read(self, wait: float) -> bytes:
        with self.lock:
            master = self.master
        if master is None:
            time.sleep(wait)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], wait)
            with self.lock:
                return os.read(master, 4096) if ready and self.master == master else b""
        except OSError:
            return b""


class Noise:
    """Seeded random bytes slipped into a stream between frames (a chunk a
    step), and one bit
    flipped in a frame now and then (``corrupt_one_in``; 0 never)."""

    def __init__(self, seed: int, mean_chunk: int, corrupt_one_in: int = 0) -> None:
        self.random = random.Random(seed)
        self.mean_chunk = mean_chunk
        self.corrupt_one_in = corrupt_one_in
        self.sent = 0
        self.corrupted = 0  # damaged frames the pty took whole

    def chunk(self) -> bytes:
        return self.random.randbytes(self.random.randrange(2 * self.mean_chunk))

    def damage(self, frame: bytes) -> bytes:
        if not self.corrupt_one_in or self.random.randrange(self.corrupt_one_in):
            return frame
        position = self.random.randrange(1, len(frame) - 4)  # inside the body
        return frame[:position] + bytes([frame[position] ^ 1]) + frame[position + 1 :]


class PadSimulator:
    """The MCU: each step advances the pad's clock by one millisecond, applies
    the scripted button levels, ticks the pad and hands it what the host
    sent. Steps are paced by waiting up to ``step_wait`` seconds for input, so
    the pad's clock neither runs ahead of real time nor falls behind it."""

    def __init__(
        self,
        link: PtyLink,
        session: str = "BEEF",
        seats: int = 10,
        buttons: int = 3,
        start_ms: int = 5_000_000,
        step_wait: float = 0.001,
        noise_out: Noise | None = None,
        noise_in: Noise | None = None,
    ) -> None:
        self.link = link
        self.buttons = buttons
        self.pad = Pad(self._write, session, seats, buttons)
        self.now_ms = start_ms
        self.levels = [False] * (seats * buttons)
        self.led_history: list[tuple[int, list[bool]]] = []  # (ms, levels) on change
        self.deaf = False  # drop everything the host sends (ACKs lost)
        self.sent_frames: list[tuple[float, bytes]] = []  # (host monotonic, frame)
        self.record_sends = False
        self._noise_out = noise_out
        self._noise_in = noise_in
        self._step_wait = step_wait
        self._script: list[tuple[int, int, int, bool]] = []  # (ms, order, index, level)
        self._order = 0
        self._lock = threading.Lock()
        self._running = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pad-sim", daemon=True)
        self.between_steps: Callable[[PadSimulator], None] | None = None

    # -- control from the test ------------------------------------------------

    def start(self) -> None:
        self._running.set()
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._running.set()
        self._thread.join()

    def pause(self) -> None:
        """Stop stepping: the pad hangs and sends nothing."""
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def set_level(self, at_ms: int, seat: int, button: int, level: bool) -> None:
        with self._lock:
            heapq.heappush(self._script, (at_ms, self._order, seat * self.buttons + button, level))
            self._order += 1

    def press(
        self, at_ms: int, seat: int, button: int, hold_ms: int = 40, bounce_ms: tuple[int, ...] = ()
    ) -> None:
        """Close the contact at ``at_ms``, bouncing (toggling) at each offset
        in ``bounce_ms`` after it, and open it ``hold_ms`` later."""
        level = True
        self.set_level(at_ms, seat, button, True)
        for offset in bounce_ms:
            level = not level
            self.set_level(at_ms + offset, seat, button, level)
        self.set_level(at_ms + hold_ms, seat, button, False)

    def script_done(self) -> bool:
        with self._lock:
            return not self._script

    # -- the MCU thread -------------------------------------------------------

    def _write(self, frame: bytes) -> None:
        if self.record_sends:
            self.sent_frames.append((time.monotonic(), frame))
        if self._noise_out is None:
            self.link.write(frame)
            return
        damaged = self._noise_out.damage(frame)
        if self.link.write(damaged) == len(damaged) and damaged != frame:
            self._noise_out.corrupted += 1

    def _run(self) -> None:
        # The pad's clock keeps to real time, as a real pad's does: a step
        # waits for input only while the clock is ahead, so a slow step is
        # made up by the next ones (the host maps pad time with an offset
        # that assumes both clocks run at the same rate).
        started, start_ms = time.monotonic(), self.now_ms
        while not self._stopping.is_set():
            self._running.wait()
            due = started + (self.now_ms + 1 - start_ms) / 1000
            self.step(self.link.read(min(self._step_wait, max(0.0, due - time.monotonic()))))

    def step(self, received: bytes) -> None:
        self.now_ms += 1
        with self._lock:
            while self._script and self._script[0][0] <= self.now_ms:
                _, _, index, level = heapq.heappop(self._script)
                self.levels[index] = level
        if received and not self.deaf:
            if self._noise_in is not None:
                noise = self._noise_in.chunk()
                self._noise_in.sent += len(noise)
                received = noise + received
            self.pad.receive(received, self.now_ms)
        if self.between_steps is not None:
            self.between_steps(self)
        if self._noise_out is not None:
            self._noise_out.sent += self.link.write(self._noise_out.chunk())
        self.pad.tick(self.now_ms, self.levels)
        leds = self.pad.led_levels(self.now_ms)
        if not self.led_history or self.led_history[-1][1] != leds:
            self.led_history.append((self.now_ms, leds))


def wait_for(condition: Callable[[], bool], timeout: float = 20.0, interval: float = 0.005) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()
