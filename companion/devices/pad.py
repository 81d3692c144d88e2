"""The serial vote pad on the host: a reader thread turns the pad's frames
into :class:`~.press.Press` values and answers with acknowledgements and LED
commands (hardware/votepad/PROTOCOL.md describes the link).

No press is lost or counted twice: the pad numbers its presses and sends them
again until acknowledged; the driver delivers only the next number it expects
and acknowledges everything it has, cumulatively. A press's time comes from
the pad's own clock, mapped to the host's monotonic clock, so the pad's order
of near-simultaneous presses is kept (see :class:`PadClock`). The driver
survives the pad being unplugged: it reopens the port until it is back, and
the pad resends whatever was not acknowledged.
"""

from __future__ import annotations

import glob
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import serial
from votepad import protocol

from .press import Deliver, Press

# The pad's USB serial port as udev names it: MicroPython's USB descriptor
# ("MicroPython", "Board in FS mode") and the board's unique serial number.
PORT_PATTERN = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_*-if00"
BAUD = 115200  # ignored by USB CDC, needed by pyserial
HEARTBEAT_TIMEOUT = 1.5  # s without a heartbeat (three missed): offline
RETRY_INTERVAL = 0.5  # s between attempts to reopen a vanished port
READ_TIMEOUT = 0.1  # s a read waits, so stop() is prompt
WRITE_TIMEOUT = 1.0  # s a write may block before the port counts as gone
CLOCK_WINDOW = 60.0  # s of heartbeats the clock offset is taken over
MAX_SEATS = 10
MAX_BUTTONS = 3


class PadClock:
    """Maps the pad's milliseconds to the host's monotonic seconds.

    A frame reaches the host some time after the pad stamped it, never
    before, so every heartbeat gives an upper bound of the offset
    ``host - pad``; the least one seen over the last CLOCK_WINDOW seconds is
    the estimate (a window, so slow drift between the two crystals is
    followed). A press is mapped with that offset but never later than the
    moment it was received, and never earlier than the pad's previous press:
    the pad's clock alone orders presses from the pad.
    """

    def __init__(self, window: float = CLOCK_WINDOW) -> None:
        self._window = window
        self._samples: deque[tuple[float, float]] = deque()  # (received, offset)
        self._last = float("-inf")

    def sample(self, pad_ms: int, received: float) -> None:
        self._samples.append((received, received - pad_ms / 1000))
        while self._samples[0][0] < received - self._window:
            self._samples.popleft()

    @property
    def offset(self) -> float | None:
        return min(offset for _, offset in self._samples) if self._samples else None

    def host_time(self, pad_ms: int, received: float) -> float:
        offset = self.offset
        at = received if offset is None else min(pad_ms / 1000 + offset, received)
        self._last = max(at, self._last)
        return self._last


class SerialPad:
    """The vote pad on a serial port, and the seats' LEDs on it.

    ``deliver`` is called from the reader thread with every new press (wrap
    it with :func:`~.press.loop_delivery`). ``port`` is a path, or None to
    use the first port matching PORT_PATTERN each time the pad is opened.
    Also the pad's :class:`~.press.SeatFeedback`: ``show_voted`` and
    ``refuse`` reach the pad as LED commands; it has no buzzer.
    """

    def __init__(
        self,
        deliver: Deliver,
        port: str | None = None,
        *,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
        retry_interval: float = RETRY_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._deliver = deliver
        self._port = port
        self._heartbeat_timeout = heartbeat_timeout
        self._retry_interval = retry_interval
        self._clock = clock
        self._reader = protocol.LineReader()
        self._serial: serial.Serial | None = None
        self._opened_path: str | None = None
        self._write_lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._writer: threading.Thread | None = None
        self._outbox: queue.Queue[Callable[[], bytes] | None] = queue.Queue()
        self._voted_mask = 0
        # The pad's boot being listened to, and the next press number it owes.
        self._session: str | None = None
        self._uptime_ms = -1
        self._expected: int | None = None
        self._resend_asked: int | None = None  # the gap a RESEND was sent for
        self._pad_clock = PadClock()
        self._last_heartbeat: float | None = None
        self._pad_dropped = 0
        self._counts = dict(
            presses=0,
            duplicates=0,
            out_of_order=0,
            unsynced=0,
            bad_frames=0,
            reconnects=0,
            sessions=0,
        )

    # -- life cycle ---------------------------------------------------------

    def start(self) -> None:
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="serial-pad", daemon=True)
        self._writer = threading.Thread(
            target=self._write_outbox, name="serial-pad-writer", daemon=True
        )
        self._thread.start()
        self._writer.start()

    def stop(self) -> None:
        self._stopping.set()
        self._outbox.put(None)
        for thread in (self._thread, self._writer):
            if thread is not None:
                thread.join()
        self._thread = self._writer = None
        self._close()

    def close(self) -> None:
        """The kiosk's shutdown: the same as :meth:`stop`."""
        self.stop()

    # -- SeatFeedback ---------------------------------------------------------

    # Called on the asyncio loop: the frames go out on the writer thread, so
    # a stuck port never stalls the loop.

    def show_voted(self, seat: int, voted: bool) -> None:
        if not 0 <= seat < MAX_SEATS:
            return
        bit = 1 << seat
        self._voted_mask = self._voted_mask | bit if voted else self._voted_mask & ~bit
        self._outbox.put(self._leds_frame)

    def refuse(self, seat: int) -> None:
        if 0 <= seat < MAX_SEATS:
            self._outbox.put(lambda: protocol.encode(protocol.REFUSE, 0, [seat]))

    def sound(self, pattern: str) -> None:
        """The pad has no buzzer."""

    # -- for companion doctor -------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The link's health: whether the pad is heard, and what was counted.

        ``link`` is what the table tells people of it: "connected" (its
        heartbeats arrive), "lost" (heard since the driver started, silent
        now) or None (never heard: no pad at this table, which is no fault;
        a table without one opens the driver all the same, in case one is
        plugged in)."""
        now = self._clock()
        age = None if self._last_heartbeat is None else now - self._last_heartbeat
        connected = self._serial is not None
        online = connected and age is not None and age < self._heartbeat_timeout
        reader = self._reader
        return {
            "device": "pad",
            "port": self._opened_path or self._port or PORT_PATTERN,
            "connected": connected,
            "online": online,
            "link": "connected" if online else None if age is None else "lost",
            "last_heartbeat_age": age,
            "session": self._session,
            "clock_offset": self._pad_clock.offset,
            "frames_ok": reader.frames_ok,
            "bad_checksum": reader.bad_checksum,
            "malformed": reader.malformed,
            "overlong": reader.overlong,
            "garbage_bytes": reader.garbage_bytes,
            "pad_dropped": self._pad_dropped,
            **self._counts,
        }

    # -- the reader thread ----------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            port = self._serial
            if port is None:
                if not self._open():
                    self._stopping.wait(self._retry_interval)
                continue
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError):
                self._close()
                continue
            if data:
                self._receive(data, self._clock())

    def _open(self) -> bool:
        path = self._port or next(iter(sorted(glob.glob(PORT_PATTERN))), None)
        if path is None:
            return False
        try:
            port = serial.Serial(path, BAUD, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT)
        except (serial.SerialException, OSError, ValueError):
            return False
        if self._opened_path is not None:
            self._counts["reconnects"] += 1
        self._reader.reset()
        with self._write_lock:
            self._serial = port
            self._opened_path = path
        self._send_leds()
        return True

    def _close(self) -> None:
        with self._write_lock:
            port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _send(self, frame: bytes) -> None:
        """Write a frame if the pad is connected; a failed write is left to
        the reader thread, whose next read fails the same way."""
        with self._write_lock:
            if self._serial is None:
                return
            try:
                self._serial.write(frame)
            except (serial.SerialException, OSError):
                pass

    def _leds_frame(self) -> bytes:
        return protocol.encode(protocol.LEDS, 0, [f"{self._voted_mask:03X}"])

    def _send_leds(self) -> None:
        self._send(self._leds_frame())

    def _write_outbox(self) -> None:
        """The writer thread: frames the loop asked for, built when sent (so
        the LED mask is the latest), until stop() posts None."""
        while True:
            make = self._outbox.get()
            if make is None:
                return
            self._send(make())

    def _receive(self, data: bytes, received: float) -> None:
        answers = set()
        for frame in self._reader.feed(data):
            try:
                if frame.kind == protocol.HEARTBEAT:
                    self._heartbeat(frame, received)
                elif frame.kind == protocol.PRESS:
                    answers.add(self._press(frame, received))
                else:
                    self._counts["bad_frames"] += 1
            except (ValueError, IndexError):
                self._counts["bad_frames"] += 1
        # One cumulative acknowledgement for all the presses in ``data``.
        if protocol.ACK in answers:
            assert self._expected is not None  # a press is answered only once synced
            self._send(protocol.encode(protocol.ACK, self._expected - 1, [self._session]))
        if protocol.RESEND in answers:
            self._send(protocol.encode(protocol.RESEND, self._expected, [self._session]))

    def _heartbeat(self, frame: protocol.Frame, received: float) -> None:
        session, uptime, base, leds, dropped = frame.fields
        uptime_ms, base_seq = int(uptime), int(base)
        leds_mask, dropped_count = int(leds, 16), int(dropped)
        if session != self._session or uptime_ms < self._uptime_ms:
            # A new boot of the pad (or the first one heard): its presses are
            # owed from the oldest one it has not had acknowledged.
            self._session = session
            self._expected = base_seq
            self._resend_asked = None
            self._pad_clock = PadClock()
            self._counts["sessions"] += 1
        self._uptime_ms = uptime_ms
        self._pad_clock.sample(uptime_ms, received)
        self._last_heartbeat = received
        self._pad_dropped = dropped_count
        if leds_mask != self._voted_mask:
            self._send_leds()

    def _press(self, frame: protocol.Frame, received: float) -> str | None:
        """Handle a press frame; the answer it calls for (ACK, RESEND or
        None)."""
        if frame.fields[0] != self._session or self._expected is None:
            self._counts["unsynced"] += 1  # before this boot's heartbeat
            return None
        if frame.seq < self._expected:
            self._counts["duplicates"] += 1  # our acknowledgement was lost
            return protocol.ACK
        if frame.seq > self._expected:
            self._counts["out_of_order"] += 1  # one before it was lost
            if self._resend_asked == self._expected:
                return None  # asked once; the pad's timer does the rest
            self._resend_asked = self._expected
            return protocol.RESEND
        self._expected += 1
        try:
            _, seat, button, at_ms = frame.fields
            seat_index, button_index, pad_ms = int(seat), int(button), int(at_ms)
        except ValueError:
            seat_index = button_index = pad_ms = -1
        if not (0 <= seat_index < MAX_SEATS and 0 <= button_index < MAX_BUTTONS):
            self._counts["bad_frames"] += 1  # acknowledged, so never resent
            return protocol.ACK
        self._counts["presses"] += 1
        self._deliver(
            Press(seat_index, button_index, self._pad_clock.host_time(pad_ms, received), "pad")
        )
        return protocol.ACK
