"""What publishing to the café's broker costs the table's loop: the fleet's
listener on the table's session (the status built from the public view the
session's update carries and handed to the publisher's thread), timed on
every commit of a Secret Hitler table of 10 keeper-mode seats, with a real
Mosquitto on 127.0.0.1 taking the statuses.

- ``fleet.listener_per_commit.{p50,p99}``: the broker up (target: p99 at
  most 1 ms);
- ``fleet.listener_per_commit_broker_hung.{p50,p99}``: the broker stopped
  with SIGSTOP, its connection open and nothing answered: the same cost, as
  the loop never waits on the network.

Skipped, with a message, where Debian's mosquitto is not installed.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.fleet import Broker, StatusPublisher, TableReporter
from companion.table import Update

from .busy_table import busy_table, next_change
from .report import latency_figures

MOSQUITTO = Path("/usr/sbin/mosquitto")
COMMITS = 1000


@contextmanager
def mosquitto(directory: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A broker of our own on a free loopback port (never the system's service)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = directory / "mosquitto.conf"
    config.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    broker = subprocess.Popen([str(MOSQUITTO), "-c", str(config)], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                broker.kill()
                raise RuntimeError("mosquitto did not open its port") from None
            time.sleep(0.02)
    try:
        yield broker, port
    finally:
        broker.send_signal(signal.SIGCONT)
        broker.terminate()
        broker.wait(5)


def time_listener(reporter: TableReporter, took: list[float]) -> None:
    """Swap the reporter's listener on its session for one that times it,
    appending each commit's cost to ``took``. A switch to the next game is
    passed on untimed: that status is offered once a game, not per commit."""
    listener = reporter.updated
    assert reporter.session is not None, "the reporter follows no session yet"

    def timed(update: Update) -> None:
        if update.switched:
            listener(update)
            return
        start = time.perf_counter()
        listener(update)
        took.append(time.perf_counter() - start)

    reporter.session.unsubscribe(listener)
    reporter.session.subscribe(timed)


def listener_times(
    directory: Path, broker: subprocess.Popen[bytes], port: int, hang: bool
) -> list[float]:
    """The listener's cost on each of ``COMMITS`` commits, the games played
    one after another in the reporter's session, as the host plays them."""
    publisher = StatusPublisher(Broker("127.0.0.1", port), "bench")
    reporter = TableReporter(publisher, "bench")
    publisher.start()
    reporter.follow(busy_table(directory / "fleet.sqlite3"))
    session = reporter.session
    assert session is not None and session.table is not None
    deadline = time.monotonic() + 10
    while not publisher.idle():  # connected, the first status at the broker
        if time.monotonic() > deadline:
            raise RuntimeError("the publisher never reached the broker")
        time.sleep(0.01)
    if hang:
        broker.send_signal(signal.SIGSTOP)
    took: list[float] = []
    time_listener(reporter, took)
    while len(took) < COMMITS:
        if session.table.is_over:
            session.next_game()
        next_change(session.table)
    broker.send_signal(signal.SIGCONT)
    publisher.close()
    return took


def main() -> None:
    if not MOSQUITTO.exists():
        print(
            f"fleet_publish: skipped, {MOSQUITTO} is missing (Debian's mosquitto)", file=sys.stderr
        )
        return
    for name, hang in (("", False), ("_broker_hung", True)):
        with tempfile.TemporaryDirectory() as tmp, mosquitto(Path(tmp)) as (broker, port):
            took = listener_times(Path(tmp), broker, port, hang)
        latency_figures(f"fleet.listener_per_commit{name}", took)


if __name__ == "__main__":
    main()
