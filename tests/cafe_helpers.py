"""A café for the tests: real ``companion serve --fleet`` table processes,
each with a game scripted into its store before it starts, and a real
``companion console``, all on 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ports import free_port

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

LINK = re.compile(r"^  (?P<name>.+): (?P<url>http://\S+/join/(?P<token>\S+))$")
SERVING = "Serving the table at "

Script = Callable[[Table], None]


def scripted_store(path: Path, game: str, seats: list[str], mode: str, script: Script) -> None:
    """A store holding one unfinished game, played up to where ``script``
    leaves it: the table process resumes it."""
    setup = Setup(game=game, seats=list(seats), mode=mode)
    table = Table.start(EventStore(path), setup, fate=Fate(seed=len(seats)))
    script(table)


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.getcwd()}


class CafeTable:
    """One table: ``companion serve`` resuming its store, publishing as
    ``name`` with its own credentials and the café's action key."""

    def __init__(
        self, directory: Path, name: str, broker_url: str, password: Path, key: Path
    ) -> None:
        self.name = name
        self.db = directory / f"{name}.sqlite3"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.command = [
            sys.executable, "-m", "companion", "serve", "--db", str(self.db),
            "--host", "127.0.0.1", "--port", str(self.port), "--print-links",
            "--fleet", broker_url, "--table-name", name, "--fleet-user", name,
            "--fleet-password-file", str(password), "--fleet-key-file", str(key),
        ]  # fmt: skip
        self.process: subprocess.Popen[str] | None = None
        self.links: dict[str, str] = {}  # player name: join token
        self.errors: list[str] = []

    def start(self) -> None:
        self.links = {}
        self.process = subprocess.Popen(
            self.command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env(),
        )
        threading.Thread(target=self._read_errors, args=(self.process,), daemon=True).start()

    def wait_serving(self, timeout: float = 60.0) -> None:
        """Until the table serves, its links read from its terminal."""
        assert self.process is not None and self.process.stdout is not None
        deadline = time.monotonic() + timeout
        serving = False
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError(f"{self.name} exited: {''.join(self.errors)[-2000:]}")
            if line.startswith(SERVING):
                serving = True
            elif (link := LINK.match(line.rstrip("\n"))) is not None:
                self.links[link["name"]] = link["token"]
            if serving and len(self.links) == self.players():
                return
        raise AssertionError(f"{self.name} did not start serving")

    def players(self) -> int:
        record = EventStore(self.db).active_game()
        assert record is not None and record.setup is not None
        return len(record.setup["seats"])

    def _read_errors(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.errors.append(line)

    def public(self) -> dict[str, Any]:
        """The table's public state, as its /table page reads it."""
        with urllib.request.urlopen(f"{self.url}/api/table", timeout=5) as answer:
            return json.load(answer)

    def join_status(self, token: str) -> int:
        """What opening a join link answers (200: it offers the seat)."""
        try:
            with urllib.request.urlopen(f"{self.url}/join/{token}", timeout=5) as answer:
                return answer.status
        except urllib.error.HTTPError as refused:
            return refused.code

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
