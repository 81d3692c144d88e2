"""The host side of scripts/pi-system-check's power cuts and pad: the
phones that play a keeper game through the phone API (scripts/pi-system/
phones.py), the store's facts read after a cut (store_facts.py), and the
pad's end of the serial port (pad_end.py). Here against a real ``companion
serve`` on 127.0.0.1 killed with SIGKILL mid-game, and a real socket: what
the check does to the whole guest, done to one process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from ports import free_port

from companion.games.base import Setup
from companion.table import EventStore, Table

HELPERS = Path(__file__).resolve().parent.parent / "scripts" / "pi-system"
HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
sys.path.insert(0, str(HARDWARE))
from votepad import protocol  # noqa: E402


def keeper_article27(db: Path) -> None:
    """A keeper game of Article 27 with its first gavel struck: from then on
    the phones can play it alone."""
    store = EventStore(db)
    table = Table.start(store, Setup(game="article27", seats=list("ABCDE"), mode="keeper"))
    (gavel,) = table.legal_commands()
    table.execute(gavel)
    store.close()


def serve(db: Path, port: int) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--db", str(db),
         "--host", "127.0.0.1", "--port", str(port), "--print-links"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=2).read()
            return process
        except OSError:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            time.sleep(0.2)
    raise AssertionError("companion serve did not answer")


def helper(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=120, check=check
    )


def test_the_phones_play_and_every_acknowledged_command_survives_a_kill(tmp_path):
    db = tmp_path / "companion.sqlite3"
    keeper_article27(db)
    tokens = tmp_path / "tokens.json"
    log = tmp_path / "phones.log"
    for cut in (1, 2):
        port = free_port()
        server = serve(db, port)
        try:
            tokens.write_text(helper(str(HELPERS / "store_facts.py"), str(db), "--links").stdout)
            assert len(json.loads(tokens.read_text())) == 5
            phones = subprocess.Popen(
                [sys.executable, str(HELPERS / "phones.py"), "play", f"http://127.0.0.1:{port}",
                 str(tokens), str(tmp_path / "jars"), str(log), "--seed", str(cut)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            time.sleep(4)
        finally:
            server.send_signal(signal.SIGKILL)  # the power cut, for one process
            server.wait()
        phones.wait(timeout=60)  # it stops at the first answer that never comes
        facts = tmp_path / f"facts-{cut}.json"
        facts.write_text(helper(str(HELPERS / "store_facts.py"), str(db)).stdout)
        verdict = helper(str(HELPERS / "phones.py"), "verify", str(log), str(facts))
        summary = verdict.stdout.strip().splitlines()[-1]
        acknowledged = int(summary.split()[1].rstrip(","))
        assert acknowledged > 10 * cut, summary
        assert "lost 0, phantom 0" in summary
    # The phones came back with their cookies: every seat still has one phone.
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert {e["seat"] for e in entries if "sent" in e} == {0, 1, 2, 3, 4}
    assert not [e for e in entries if e.get("status") in (401, 403)]


def test_verify_finds_a_lost_command_and_a_phantom(tmp_path):
    log = tmp_path / "phones.log"
    sent = [
        {"sent": 1, "seat": 0, "command": {"type": "offer", "to": 1, "amount": 2, "kind": "yes"}},
        {"acked": 1},
        {"sent": 2, "seat": 1, "command": {"type": "withdraw", "bribe": 7}},
        {"acked": 2},
        {"sent": 3, "seat": 2, "command": {"type": "refuse", "bribe": 8}},
        {"refused": 3, "status": 400, "error": "rules.no_such_bribe"},
        {"sent": 4, "seat": 3, "command": {"type": "withdraw", "bribe": 9}},
    ]
    log.write_text("".join(json.dumps(entry) + "\n" for entry in sent))

    def verdict(*bodies: dict) -> tuple[int, str]:
        facts = tmp_path / "facts.json"
        phone = [[f"seat:{body['seat']}", body] for body in bodies]
        facts.write_text(json.dumps({"phone_commands": phone}))
        done = helper(str(HELPERS / "phones.py"), "verify", str(log), str(facts), check=False)
        return done.returncode, done.stdout.strip().splitlines()[-1]

    offer = {**sent[0]["command"], "seat": 0}
    withdraw = {**sent[2]["command"], "seat": 1}
    in_flight = {**sent[6]["command"], "seat": 3}
    assert verdict(offer, withdraw) == (
        0, "acknowledged 2, found 2, lost 0, phantom 0, in flight and kept 0")  # fmt: skip
    assert verdict(offer, withdraw, in_flight)[1].endswith("in flight and kept 1")
    assert verdict(offer) == (1, "acknowledged 2, found 1, lost 1, phantom 0, in flight and kept 0")
    # Seat 4's withdrawal was in flight at the cut and never stored; the
    # phone sent it again after the reboot, and that one was acknowledged.
    again = {"sent": 5, "seat": 3, "command": sent[6]["command"]}
    log.write_text(log.read_text() + json.dumps(again) + "\n" + json.dumps({"acked": 5}) + "\n")
    assert verdict(offer, withdraw, in_flight) == (
        0, "acknowledged 3, found 3, lost 0, phantom 0, in flight and kept 0")  # fmt: skip
    refused = {**sent[4]["command"], "seat": 2}  # the rules refused it: never stored
    assert verdict(offer, refused, withdraw)[0] == 1
    assert "phantom 1" in verdict(offer, refused, withdraw)[1]


def test_the_pad_end_presses_once_and_hears_the_acknowledgement(tmp_path):
    path = str(tmp_path / "pad.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    heard: list[bytes] = []

    def host() -> None:
        """The host's driver, at its simplest: acknowledge each press."""
        link, _ = listener.accept()
        reader = protocol.LineReader()
        link.settimeout(10)
        while True:
            try:
                data = link.recv(4096)
            except OSError:
                return
            if not data:
                return
            for frame in reader.feed(data):
                if frame.kind == protocol.PRESS:
                    heard.append(bytes(frame.kind, "ascii"))
                    link.sendall(protocol.encode(protocol.ACK, frame.seq, [frame.fields[0]]))

    threading.Thread(target=host, daemon=True).start()
    done = helper(
        str(HELPERS / "pad_end.py"), path, "4", "0", "--after", "0.5", "--seconds", "2", check=False
    )
    assert done.returncode == 0, done.stdout
    assert heard, "no press reached the host"
    assert "acknowledged: True" in done.stdout
    presses = done.stdout.split("presses sent: ")[1]
    assert ",4,0," in presses  # seat 5 (from 0), button 1
