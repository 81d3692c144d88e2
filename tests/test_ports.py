"""The tests' ports (tests/ports.py) come from below the kernel's ephemeral
range, where no outgoing connection is given one, each free when handed
out, and one something holds passed over."""

from __future__ import annotations

import socket
from pathlib import Path

import ports
from ports import free_port


def test_ports_are_free_and_never_ones_the_kernel_gives_clients():
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    held = []
    try:
        ports = []
        for _ in range(20):
            port = free_port()
            assert port < low, (port, low)
            listener = socket.socket()
            listener.bind(("127.0.0.1", port))  # free when handed out
            held.append(listener)
            ports.append(port)
        assert len(set(ports)) == len(ports)
    finally:
        for listener in held:
            listener.close()


def test_a_port_something_holds_is_passed_over():
    # A worker's ports are handed out in turn: hold the one after the last
    # handed out, and the next handed out is the one after it.
    stretch = ports._PORTS
    after = lambda port: stretch[(stretch.index(port) + 1) % len(stretch)]  # noqa: E731
    held = socket.socket()
    try:
        port = free_port()
        held.bind(("127.0.0.1", after(port)))
        assert free_port() == after(after(port))
    finally:
        held.close()
