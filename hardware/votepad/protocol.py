"""The pad's line protocol: framing, CRC-8/SMBUS, and a resynchronising
reader. Shared by the pad (MicroPython) and the host (CPython), so it keeps to
what both understand: no f-strings, dataclasses or typing, only bytes methods
MicroPython has.

A frame is one ASCII line ``$TYPE,SEQ[,FIELD...]*CC\\n`` where CC is the
CRC-8/SMBUS of everything between ``$`` and ``*``, as two upper-case hex
digits. PROTOCOL.md describes every frame type.
"""

MAX_LINE = 64  # bytes from "$" to "\n" inclusive; longer is garbage
MAX_SEQ_DIGITS = 10

# Pad to host.
HEARTBEAT = "H"  # SEQ 0; session, uptime ms, base seq, LED mask, dropped
PRESS = "P"  # SEQ n; session, seat, button, pad ms
# Host to pad.
ACK = "A"  # SEQ n (cumulative); session
RESEND = "N"  # SEQ n: resend from n, it never arrived; session
LEDS = "L"  # SEQ 0; LED mask (hex)
REFUSE = "X"  # SEQ 0; seat


def _crc_table():
    table = bytearray(256)
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table[byte] = crc
    return bytes(table)


_CRC_TABLE = _crc_table()
_HEX = b"0123456789ABCDEF"


def crc8(data):
    """CRC-8/SMBUS: polynomial 0x07, initial value 0, no reflection, no final
    XOR. ``crc8(b"123456789") == 0xF4``."""
    crc = 0
    for byte in data:
        crc = _CRC_TABLE[crc ^ byte]
    return crc


def encode(kind, seq, fields):
    """The bytes of one frame, newline included."""
    body = ",".join([kind, str(seq)] + [str(field) for field in fields]).encode()
    crc = crc8(body)
    return b"$" + body + b"*" + bytes([_HEX[crc >> 4], _HEX[crc & 15]]) + b"\n"


class Frame:
    """One decoded frame: its type letter, sequence number and fields (str)."""

    def __init__(self, kind, seq, fields):
        self.kind = kind
        self.seq = seq
        self.fields = fields

    def __repr__(self):
        return "Frame(%r, %r, %r)" % (self.kind, self.seq, self.fields)


def _hex_value(byte):
    if 48 <= byte <= 57:
        return byte - 48
    if 65 <= byte <= 70:
        return byte - 55
    return -1


def _is_digits(text):
    if not text:
        return False
    for char in text:
        if char < "0" or char > "9":
            return False
    return True


class LineReader:
    """Turns a byte stream into frames, whatever noise it carries.

    The only resynchronisation point is ``$``: bytes before one are garbage,
    and a ``$`` inside a frame starts the frame over (the receiver parses from
    the last ``$``). A frame longer than MAX_LINE is dropped, as is one with a
    bad or missing checksum or a malformed body. Every rejected byte and frame
    is counted; nothing raises.
    """

    def __init__(self):
        self.frames_ok = 0
        self.bad_checksum = 0
        self.malformed = 0  # checksum fine (or absent) but not a frame
        self.overlong = 0
        self.garbage_bytes = 0  # every byte that was not part of a good frame
        self._body = None  # bytes after "$" so far, or None between frames

    def reset(self):
        """Forget a partial frame (after a reconnect, say)."""
        if self._body is not None:
            self.garbage_bytes += 1 + len(self._body)
        self._body = None

    def feed(self, data):
        """The frames completed by ``data``, in order."""
        # A type comment, not an annotation: the module keeps to what MicroPython has.
        frames = []  # type: list
        index = 0
        end = len(data)
        while index < end:
            if self._body is None:
                start = data.find(b"$", index)
                if start < 0:
                    self.garbage_bytes += end - index
                    return frames
                self.garbage_bytes += start - index
                self._body = b""
                index = start + 1
                continue
            newline = data.find(b"\n", index)
            dollar = data.find(b"$", index)
            stop = end
            if newline >= 0:
                stop = newline
            if 0 <= dollar < stop:
                stop = dollar
            self._body += data[index:stop]
            if len(self._body) + 2 > MAX_LINE:  # "$" and "\n" count
                self.overlong += 1
                self.garbage_bytes += 1 + len(self._body)
                self._body = None
                index = stop  # resync at the next "$"
                continue
            if stop == end:
                return frames
            if stop == dollar:  # a new frame starts over
                self.garbage_bytes += 1 + len(self._body)
                self._body = None
                index = stop
                continue
            body = self._body
            self._body = None
            index = stop + 1
            frame = self._decode(body)
            if frame is None:
                self.garbage_bytes += len(body) + 2  # with its "$" and "\n"
            else:
                self.frames_ok += 1
                frames.append(frame)
        return frames

    def _decode(self, body):
        """The frame in ``body`` (the bytes between "$" and "\n"), or None,
        counted by why."""
        if body[-1:] == b"\r":
            body = body[:-1]
        if len(body) < 3 or body[-3:-2] != b"*":
            self.malformed += 1
            return None
        high = _hex_value(body[-2])
        low = _hex_value(body[-1])
        if high < 0 or low < 0:
            self.malformed += 1
            return None
        payload = body[:-3]
        if crc8(payload) != high * 16 + low:
            self.bad_checksum += 1
            return None
        try:
            parts = payload.decode().split(",")
        except (UnicodeError, ValueError):
            self.malformed += 1
            return None
        if (
            len(parts) < 2
            or len(parts[0]) != 1
            or not "A" <= parts[0] <= "Z"
            or len(parts[1]) > MAX_SEQ_DIGITS
            or not _is_digits(parts[1])
        ):
            self.malformed += 1
            return None
        return Frame(parts[0], int(parts[1]), parts[2:])
