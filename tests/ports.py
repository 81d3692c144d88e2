"""Ports for the servers the tests start, from below the kernel's ephemeral
range.

A port found by binding port 0 comes from the range the kernel also gives
every outgoing connection as its local port. Closed again and handed to a
server that starts a moment later, it may meanwhile have become a client's
(the café test's 20 tables connecting to their broker), and the server
then fails to bind. Ports below the range are never given to clients. Each
xdist worker takes its own stretch of them, so two workers running side by
side never hand out the same port, and every port is tried by binding it
before it is handed out."""

from __future__ import annotations

import itertools
import os
import socket
from pathlib import Path

FIRST = 20000
STRETCH = 1000


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _stretch() -> range:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    stretches = max(1, (_ephemeral_start() - FIRST) // STRETCH)
    start = FIRST + (int(worker) if worker.isdigit() else 0) % stretches * STRETCH
    return range(start, start + STRETCH)


_PORTS = _stretch()
_NEXT = itertools.cycle(_PORTS)


def free_port() -> int:
    """A port on 127.0.0.1 that nothing holds now and no client will take."""
    for port in itertools.islice(_NEXT, len(_PORTS)):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {_PORTS.start}-{_PORTS.stop - 1}")
