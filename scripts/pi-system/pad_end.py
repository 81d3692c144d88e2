"""The vote pad's end of the booted guest's serial port, for
scripts/pi-system-check: the pad's own firmware logic (hardware/votepad,
``votepad.pad.Pad``, as the Pico runs it) on this machine, talking to the
guest through QEMU's USB serial adapter (a UNIX socket here, /dev/ttyUSB0
there), where the table's pad driver reads it.

    python3 pad_end.py SOCKET SEAT BUTTON [--after S] [--seconds S]

Connects, sends heartbeats, holds SEAT's BUTTON (from 0) down for 120 ms
after S seconds (default 5) as the button matrix would report it, and keeps
the link going for --seconds (default 30). Prints the press's frame, the
host's acknowledgements and the LED mask it sets. Exit status 0 when the host
acknowledged the press. Standard library and the pad's modules only."""

from __future__ import annotations

import argparse
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hardware"))
from votepad.pad import Pad  # noqa: E402

HOLD_MS = 120  # a finger's press, well past the pad's debounce
SEATS, BUTTONS = 10, 3  # the Pico pad's matrix (hardware/votepad/main.py)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("socket")
    parser.add_argument("seat", type=int)
    parser.add_argument("button", type=int)
    parser.add_argument("--after", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args(argv[1:])
    link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    link.connect(args.socket)
    link.setblocking(False)
    sent: list[bytes] = []

    def write(data: bytes) -> None:
        sent.append(data)
        link.sendall(data)

    started = time.monotonic()
    pad = Pad(write, "%04X" % (int(started * 1000) & 0xFFFF), SEATS, BUTTONS)
    levels = [False] * (SEATS * BUTTONS)
    press_at = int(args.after * 1000)
    acked = voted = None
    while (now := int((time.monotonic() - started) * 1000)) < args.seconds * 1000:
        levels[args.seat * BUTTONS + args.button] = press_at <= now < press_at + HOLD_MS
        pad.tick(now, levels)
        try:
            data = link.recv(4096)
        except BlockingIOError:
            data = b""
        if data:
            pad.receive(data, now)
            for line in data.decode("ascii", "replace").split():
                print(f"{now} ms host: {line}", flush=True)
                if acked is None and line.startswith("$A,"):
                    acked = now
        if pad.voted != voted:
            voted = pad.voted
            print(f"{now} ms LEDs: {voted:03X}", flush=True)
        time.sleep(0.002)
    presses = list(dict.fromkeys(frame for frame in sent if frame.startswith(b"$P,")))
    print(
        f"presses sent: {[p.decode().strip() for p in presses]}; acknowledged: {acked is not None}"
    )
    return 0 if acked is not None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
