"""A café at full load: 50 tables, each changing once a second, reporting
through one Mosquitto on 127.0.0.1 to a real ``companion console``, whose
page is open in Chromium.

Each table is a real ``Table`` (a three-seat Coup game) with its own
``StatusPublisher`` and ``TableReporter`` (following the table's session),
as ``companion serve --fleet`` runs them; every second each renames a
player (a change every card shows), the 50 spread over the second. The
page records when each new name appears on its table's card (a
MutationObserver, in the page's clock, which is this machine's), so:

- ``fleet.console_update.{p50,p99}``: a table's commit to its card showing
  it (target: p99 at most 250 ms);
- ``fleet.listener_at_50_tables.{p50,p99}``: what the fleet's listener
  costs the committing table's loop (target: p99 at most 1 ms);
- ``fleet.mosquitto_cpu`` and ``fleet.console_cpu`` (percent of one core,
  over the run) and ``fleet.mosquitto_rss`` and ``fleet.console_rss`` (MiB,
  the most seen).

Skipped, with a message, where Debian's mosquitto or chromium is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.fleet import Broker, StatusPublisher, TableReporter
from companion.games.base import Fate, Setup
from companion.table import OPERATOR, EventStore, Table

from .fleet_publish import MOSQUITTO, mosquitto, time_listener
from .report import figure, latency_figures

TABLES = 50
SECONDS = 30
CHROMIUM = Path("/usr/bin/chromium")
STAFF_PASSWORD = "café staff 7"
KEY = b"b" * 64  # the café's action key, the console's and every table's


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BenchTable:
    """One table of the café: its game, its publisher, its reporter."""

    def __init__(self, directory: Path, number: int, port: int, took: list[float]) -> None:
        self.name = f"table-{number:02d}"
        setup = Setup(game="coup", seats=["Anna", "Ben", "Chloé"], mode="physical")
        self.table = Table.start(
            EventStore(directory / f"{self.name}.sqlite3"), setup, fate=Fate(seed=number)
        )
        # Signed as a real table's (the console offers no action to an unsigned one).
        self.publisher = StatusPublisher(Broker("127.0.0.1", port), self.name, action_key=KEY)
        self.reporter = TableReporter(self.publisher, self.name)
        self.publisher.start()
        self.reporter.follow(self.table)
        time_listener(self.reporter, took)
        self.changes: dict[str, float] = {}  # the new name: when it was committed (epoch s)

    def change(self, count: int) -> None:
        name = f"N{count}x{self.name[-2:]}"
        self.changes[name] = time.time()
        self.table.execute({"type": "rename", "seat": 0, "name": name}, source=OPERATOR)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_console(directory: Path, broker_port: int) -> tuple[subprocess.Popen[bytes], int]:
    key = directory / "action.key"
    key.write_text(KEY.decode() + "\n")
    staff = directory / "staff.hash"
    subprocess.run(
        [sys.executable, "-m", "companion", "console", "--set-password", str(staff)],
        input=f"{STAFF_PASSWORD}\n".encode(),
        check=True,
        capture_output=True,
    )
    port = free_port()
    console = subprocess.Popen(
        [
            sys.executable, "-m", "companion", "console",
            "--broker", f"mqtt://127.0.0.1:{broker_port}",
            "--action-key-file", str(key), "--staff-password-file", str(staff),
            "--host", "127.0.0.1", "--port", str(port),
            "--db", str(directory / "console.sqlite3"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return console, port


# Records, in the page's clock (epoch ms), when each "N<count>x<table>" name
# first appears anywhere on the page: the cards' texts, pushed by the console.
OBSERVER = """
() => {
  window.__seen = {};
  const look = () => {
    for (const match of document.body.innerText.matchAll(/N\\d+x\\d\\d/g)) {
      if (!(match[0] in window.__seen)) {
        window.__seen[match[0]] = performance.timeOrigin + performance.now();
      }
    }
  };
  new MutationObserver(look).observe(document.body,
    {subtree: true, childList: true, characterData: true});
  look();
}
"""


def run(directory: Path, broker: subprocess.Popen[bytes], broker_port: int) -> None:
    from playwright.sync_api import sync_playwright

    console, port = start_console(directory, broker_port)
    took: list[float] = []
    tables: list[BenchTable] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            log_in(page, port)
            tables = [BenchTable(directory, n, broker_port, took) for n in range(TABLES)]
            page.wait_for_function(
                f"() => document.querySelectorAll('[data-table]').length >= {TABLES}",
                timeout=60_000,
            )
            page.evaluate(OBSERVER)
            took.clear()
            cpu_at = {pid: cpu_seconds(pid) for pid in (broker.pid, console.pid)}
            most = {pid: 0.0 for pid in cpu_at}
            started = time.monotonic()
            for second in range(SECONDS):
                for number, table in enumerate(tables):
                    due = started + second + number / TABLES
                    time.sleep(max(0.0, due - time.monotonic()))
                    table.change(second)
                for pid in most:
                    most[pid] = max(most[pid], rss_mib(pid))
            wall = time.monotonic() - started
            time.sleep(1.0)  # the last changes reach the page
            seen = page.evaluate("window.__seen")
            cpu = {pid: (cpu_seconds(pid) - cpu_at[pid]) / wall * 100 for pid in cpu_at}
            browser.close()
    finally:
        for table in tables:
            table.publisher.close()
        console.terminate()
        console.wait(10)
    delays = [
        seen[name] / 1000 - at for table in tables for name, at in table.changes.items()
        if name in seen
    ]  # fmt: skip
    expected = TABLES * SECONDS
    if len(delays) < expected:
        print(f"fleet_console: {expected - len(delays)} changes never shown", file=sys.stderr)
    latency_figures("fleet.console_update", delays)
    latency_figures("fleet.listener_at_50_tables", took)
    figure("fleet.changes_shown", len(delays) / expected * 100, "%", "higher")
    figure("fleet.mosquitto_cpu", cpu[broker.pid], "%", "lower")
    figure("fleet.console_cpu", cpu[console.pid], "%", "lower")
    figure("fleet.mosquitto_rss", most[broker.pid], "MiB", "lower")
    figure("fleet.console_rss", most[console.pid], "MiB", "lower")


def log_in(page: Any, port: int) -> None:
    deadline = time.monotonic() + 30
    while True:  # the console may not be listening yet
        try:
            page.goto(f"http://127.0.0.1:{port}/")
            break
        except Exception:  # noqa: BLE001 - Playwright's connection refused
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    page.fill("input[type=password]", STAFF_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("#cards", timeout=20_000)


def main() -> None:
    for needed in (MOSQUITTO, CHROMIUM):
        if not needed.exists():
            print(f"fleet_console: skipped, {needed} is missing", file=sys.stderr)
            return
    with tempfile.TemporaryDirectory() as tmp, mosquitto(Path(tmp)) as (broker, port):
        run(Path(tmp), broker, port)


if __name__ == "__main__":
    main()
