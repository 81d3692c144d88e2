"""The pad's logic, free of hardware: debounced presses become numbered frames
that are retransmitted until the host acknowledges them, heartbeats tell the
host the pad is alive, and the host's LED commands set the seats' LEDs.

``main.py`` feeds it button levels and bytes from USB and writes out what it
says; the host tests run the very same class on one end of a pty. It runs
under MicroPython and CPython alike (see protocol.py for the rules).
"""

from votepad import protocol
from votepad.debounce import Debouncer

HEARTBEAT_MS = 500  # a heartbeat this often, whatever else is sent
RETRANSMIT_MS = 300  # no ACK progress this long: send the unacked presses again
WINDOW = 8  # presses sent ahead of the oldest unacknowledged one
QUEUE_MAX = 64  # unacknowledged presses kept; more are dropped and counted
BLINK_MS = 100  # a refusal blinks off/on three times, 100 ms a phase
BLINK_PHASES = 6


class Pad:
    """One pad: ``seats`` seats of ``buttons`` buttons, one LED per seat.

    ``write(data)`` sends bytes to the host. ``session`` names this boot of
    the pad (4 hex digits, random at power-up) so the host can tell a
    rebooted pad, whose sequence numbers start again at 1, from a retransmit.
    All times are the pad's own milliseconds since boot, never wrapping.
    """

    def __init__(self, write, session, seats=10, buttons=3):
        self.seats = seats
        self.buttons = buttons
        self.voted = 0  # bit s: seat s's "voted" LED
        self.dropped = 0  # presses lost to a full queue
        self.bad_commands = 0  # well-framed host frames we cannot use
        self.retransmits = 0
        self._write = write
        self._session = session
        self._keys = [Debouncer() for _ in range(seats * buttons)]
        self._reader = protocol.LineReader()
        self._next_seq = 1
        self._pending = []  # [seq, frame bytes], oldest first
        self._in_flight = 0  # leading entries of _pending sent since the last go-back
        self._progress_ms = 0  # last ACK progress, or send of the oldest
        self._next_heartbeat_ms = None  # None: send one at the next tick
        self._refused_at = [None] * seats

    def tick(self, now_ms, levels):
        """Sample every button (``levels[seat * buttons + button]`` is True
        while it is held) and send whatever is due."""
        index = 0
        for seat in range(self.seats):
            for button in range(self.buttons):
                at_ms = self._keys[index].sample(now_ms, levels[index])
                if at_ms is not None:
                    self.press(seat, button, at_ms)
                index += 1
        self.send_due(now_ms)

    def press(self, seat, button, at_ms):
        """Queue one debounced press for the host."""
        if len(self._pending) >= QUEUE_MAX:
            self.dropped += 1
            return
        seq = self._next_seq
        self._next_seq += 1
        frame = protocol.encode(protocol.PRESS, seq, [self._session, seat, button, at_ms])
        self._pending.append([seq, frame])

    def send_due(self, now_ms):
        """Send new presses inside the window, go back and resend every
        unacknowledged press after RETRANSMIT_MS without progress, and send a
        heartbeat when one is due."""
        if self._in_flight and now_ms - self._progress_ms >= RETRANSMIT_MS:
            self._go_back()
        limit = min(WINDOW, len(self._pending))
        while self._in_flight < limit:
            if self._in_flight == 0:
                self._progress_ms = now_ms
            self._write(self._pending[self._in_flight][1])
            self._in_flight += 1
        if self._next_heartbeat_ms is None or now_ms >= self._next_heartbeat_ms:
            self._write(self.heartbeat(now_ms))
            self._next_heartbeat_ms = now_ms + HEARTBEAT_MS

    def heartbeat(self, now_ms):
        """The heartbeat frame: session, uptime, the oldest unacknowledged
        sequence number (the next one if none), the LED mask and the count
        of dropped presses."""
        base = self._pending[0][0] if self._pending else self._next_seq
        return protocol.encode(
            protocol.HEARTBEAT, 0, [self._session, now_ms, base, "%03X" % self.voted, self.dropped]
        )

    def receive(self, data, now_ms):
        """Act on bytes from the host: acknowledgements and LED commands."""
        for frame in self._reader.feed(data):
            try:
                self._handle(frame, now_ms)
            except (ValueError, IndexError):
                self.bad_commands += 1

    def _handle(self, frame, now_ms):
        if frame.kind == protocol.ACK:
            if frame.fields[0] == self._session:
                self._acknowledge(frame.seq, now_ms)
        elif frame.kind == protocol.RESEND:
            if (
                frame.fields[0] == self._session
                and self._in_flight
                and self._pending[0][0] == frame.seq
            ):
                self._go_back()
        elif frame.kind == protocol.LEDS:
            self.voted = int(frame.fields[0], 16) & ((1 << self.seats) - 1)
        elif frame.kind == protocol.REFUSE:
            seat = int(frame.fields[0])
            if not 0 <= seat < self.seats:
                raise ValueError
            self._refused_at[seat] = now_ms
        else:
            raise ValueError

    def _go_back(self):
        """Send every unacknowledged press again, oldest first."""
        self._in_flight = 0
        self.retransmits += 1

    def _acknowledge(self, seq, now_ms):
        acked = 0
        while acked < len(self._pending) and self._pending[acked][0] <= seq:
            acked += 1
        if acked:
            self._pending = self._pending[acked:]
            self._in_flight = max(0, self._in_flight - acked)
            self._progress_ms = now_ms

    def led_levels(self, now_ms):
        """Whether each seat's LED is lit: its "voted" state, except while a
        refusal blinks it."""
        levels = []
        for seat in range(self.seats):
            lit = bool(self.voted >> seat & 1)
            refused_at = self._refused_at[seat]
            if refused_at is not None:
                phase = (now_ms - refused_at) // BLINK_MS
                if phase < BLINK_PHASES:
                    lit = phase % 2 == 1
                else:
                    self._refused_at[seat] = None
            levels.append(lit)
        return levels

    def link_counters(self):
        """What the pad's own receiver has counted, for debugging."""
        reader = self._reader
        return {
            "frames_ok": reader.frames_ok,
            "bad_checksum": reader.bad_checksum,
            "garbage_bytes": reader.garbage_bytes,
            "bad_commands": self.bad_commands,
            "retransmits": self.retransmits,
            "dropped": self.dropped,
            "unacked": len(self._pending),
        }
