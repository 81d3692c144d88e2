#!/usr/bin/env python3
"""The kiosk check of scripts/arm64-check, run inside its arm64 root with the
root's own python3: start COMMAND with $NOTIFY_SOCKET naming a unix datagram
socket of ours, as systemd does for the kiosk's Type=notify service, and
require that the kiosk says READY=1 (it does right after its first frame is
drawn, companion/ui/app.py) and then exits with status 0.

    kiosk-ready.py TIMEOUT COMMAND...

COMMAND's output passes through. Then one line per message received, with
its time since the start, and last a summary line such as
"READY=1 after 12.3 s, STOPPING=1, exit 0". Exit status 0 when READY=1 came
and COMMAND exited 0 within TIMEOUT seconds, else 1.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    timeout = float(argv[1])
    command = argv[2:]
    with (
        tempfile.TemporaryDirectory(prefix="kiosk-ready-") as tmp,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock,
    ):
        path = os.path.join(tmp, "notify")
        sock.bind(path)
        started = time.monotonic()
        child = subprocess.Popen(command, env=dict(os.environ, NOTIFY_SOCKET=path))
        received: list[tuple[float, str]] = []

        def receive(wait: float) -> bool:
            sock.settimeout(wait)
            try:
                data = sock.recv(65536)
            except (TimeoutError, BlockingIOError):
                return False
            at = time.monotonic() - started
            received.extend(
                (at, line) for line in data.decode(errors="replace").splitlines() if line
            )
            return True

        timed_out = False
        while child.poll() is None:
            if time.monotonic() - started > timeout:
                timed_out = True
                child.kill()
                child.wait()
                break
            receive(0.25)
        while receive(0.1):  # what was sent just before the exit
            pass

    sys.stdout.flush()
    for at, line in received:
        print(f"notify {at:7.1f} s  {line}")
    ready = next((at for at, line in received if line == "READY=1"), None)
    summary = []
    summary.append("no READY=1" if ready is None else f"READY=1 after {ready:.1f} s")
    if any(line == "STOPPING=1" for _at, line in received):
        summary.append("STOPPING=1")
    if timed_out:
        summary.append(f"still running after {timeout:.0f} s: killed")
    else:
        summary.append(f"exit {child.returncode}")
    print(", ".join(summary), flush=True)
    return 0 if ready is not None and not timed_out and child.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
