"""A touchscreen in the booted guest, for scripts/pi-system-check: a
multitouch panel made through the kernel's uinput (as a Pi's DSI panel is a
multitouch device of the kernel's input layer), tapped at screen pixels.
Standard library only: it runs as root with the guest's python3.

    python3 touch.py serve FIFO     create the panel, then tap at each
                                    "X Y" line written to FIFO (a pipe it
                                    makes), until the process is stopped

QEMU's virtio tablet is no stand-in: udev files it as a mouse (it has mouse
buttons, not BTN_TOUCH), so SDL would see a pointer, not a finger."""

from __future__ import annotations

import fcntl
import os
import struct
import sys
import time

WIDTH, HEIGHT = 800, 480  # the screen's pixels; the panel reports in them

# linux/input-event-codes.h
EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0
BTN_TOUCH = 0x14A
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 0x01
BUS_VIRTUAL = 0x06


def _ioctl_number(direction: int, number: int, size: int) -> int:
    """linux/ioctl.h's _IOC for uinput's type 'U'."""
    return (direction << 30) | (size << 16) | (ord("U") << 8) | number


_WRITE = 1
UI_DEV_CREATE = _ioctl_number(0, 1, 0)
UI_DEV_DESTROY = _ioctl_number(0, 2, 0)
UI_DEV_SETUP = _ioctl_number(_WRITE, 3, 92)  # struct uinput_setup
UI_ABS_SETUP = _ioctl_number(_WRITE, 4, 28)  # struct uinput_abs_setup
UI_SET_EVBIT = _ioctl_number(_WRITE, 100, 4)
UI_SET_KEYBIT = _ioctl_number(_WRITE, 101, 4)
UI_SET_ABSBIT = _ioctl_number(_WRITE, 103, 4)
UI_SET_PROPBIT = _ioctl_number(_WRITE, 110, 4)

# struct input_event on a 64-bit kernel: a timeval of two longs, type, code, value.
EVENT = struct.Struct("qqHHi")


class Panel:
    """One uinput multitouch touchscreen of WIDTH x HEIGHT."""

    def __init__(self, name: str = "pi-system-check touchscreen") -> None:
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        for event_type in (EV_SYN, EV_KEY, EV_ABS):
            fcntl.ioctl(self.fd, UI_SET_EVBIT, event_type)
        fcntl.ioctl(self.fd, UI_SET_KEYBIT, BTN_TOUCH)
        fcntl.ioctl(self.fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
        ranges = {
            ABS_X: WIDTH - 1,
            ABS_Y: HEIGHT - 1,
            ABS_MT_SLOT: 9,
            ABS_MT_POSITION_X: WIDTH - 1,
            ABS_MT_POSITION_Y: HEIGHT - 1,
            ABS_MT_TRACKING_ID: 65535,
        }
        for code, maximum in ranges.items():
            fcntl.ioctl(self.fd, UI_SET_ABSBIT, code)
            # struct uinput_abs_setup: code, padding, input_absinfo
            # (value, minimum, maximum, fuzz, flat, resolution)
            fcntl.ioctl(
                self.fd, UI_ABS_SETUP, struct.pack("HxxiiiiiI", code, 0, 0, maximum, 0, 0, 0)
            )
        # struct uinput_setup: input_id (bustype, vendor, product, version), name, ff_effects_max
        setup = struct.pack("HHHH80sI", BUS_VIRTUAL, 0x1D6B, 0x0001, 1, name.encode(), 0)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, setup)
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        self.tracking = 0
        self.last: tuple[int, int] | None = None

    def _send(self, *events: tuple[int, int, int]) -> None:
        data = b"".join(EVENT.pack(0, 0, *event) for event in events)
        os.write(self.fd, data + EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0))

    def tap(self, x: int, y: int, hold: float = 0.15) -> None:
        """A finger down at (x, y), held, lifted: one slot, a new tracking id.

        A finger never lands twice on the very same pixel, and the kernel
        drops a position equal to the last one it reported: a reader that
        started since (a restarted kiosk) would get a contact with no place.
        So a tap on the last tap's pixel lands one pixel to the right."""
        if (x, y) == self.last:
            x = x + 1 if x + 1 < WIDTH else x - 1
        self.last = (x, y)
        self.tracking = (self.tracking + 1) % 65536
        self._send(
            (EV_ABS, ABS_MT_SLOT, 0),
            (EV_ABS, ABS_MT_TRACKING_ID, self.tracking),
            (EV_ABS, ABS_MT_POSITION_X, x),
            (EV_ABS, ABS_MT_POSITION_Y, y),
            (EV_KEY, BTN_TOUCH, 1),
            (EV_ABS, ABS_X, x),
            (EV_ABS, ABS_Y, y),
        )
        time.sleep(hold)
        self._send((EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0))

    def close(self) -> None:
        fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        os.close(self.fd)


def serve(fifo: str) -> int:
    panel = Panel()
    if not os.path.exists(fifo):
        os.mkfifo(fifo, 0o600)
    print(f"touch: a {WIDTH}x{HEIGHT} panel; taps read from {fifo}", flush=True)
    try:
        while True:
            with open(fifo, encoding="ascii") as lines:  # blocks until a writer opens it
                for line in lines:
                    try:
                        x, y = (int(part) for part in line.split())
                    except ValueError:
                        print(f"touch: not 'X Y': {line!r}", flush=True)
                        continue
                    panel.tap(x, y)
                    print(f"touch: tapped {x} {y}", flush=True)
    finally:
        panel.close()


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] != "serve":
        print(__doc__, file=sys.stderr)
        return 2
    return serve(argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
