"""No key leaves the kiosk: Esc, F1–F12, Alt+F4, Ctrl+Q, Ctrl+W, Ctrl+Alt+F1
and a window manager's close request, each sent to the real kiosk App in a
real headless window (tests/lockdown_child.py, a process of its own), leave
it running with no Kivy panel open. The same keys on a plain Kivy App show
what the lock-down stops: Esc closes it, F1 opens Kivy's settings, a close
request closes it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("kivy")
CHILD = Path(__file__).with_name("lockdown_child.py")


def pressed(kind: str, *keys: str) -> list[dict]:
    env = dict(os.environ, KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"))
    done = subprocess.run(
        [sys.executable, str(CHILD), kind, *keys],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_no_key_or_close_request_leaves_the_kiosk_or_opens_a_kivy_panel():
    reports = pressed("kiosk")
    names = [r["key"] for r in reports]
    assert names == [
        "Esc",
        *[f"F{n}" for n in range(1, 13)],
        "Alt+F4",
        "Ctrl+Q",
        "Ctrl+W",
        "Ctrl+Alt+F1",
        "Ctrl+Alt+Backspace",
        "close-request",
    ]
    for report in reports:
        assert report["up"], f"{report['key']} closed the kiosk"
        assert not report["settings"], f"{report['key']} opened Kivy's settings"


@pytest.mark.parametrize(
    "key, up, settings",
    [("Esc", False, False), ("F1", True, True), ("close-request", False, False)],
)
def test_without_the_lock_down_the_same_keys_leave_a_kivy_app(key, up, settings):
    [report] = pressed("plain", key)
    assert (report["up"], report["settings"]) == (up, settings)


def test_ctrl_c_in_the_terminal_still_closes_a_desktop_kiosk(tmp_path):
    """SIGINT is the operator's at the terminal: it closes the kiosk cleanly
    (left to SDL it would be a close request, which the kiosk refuses)."""
    import signal
    import socket
    import time

    notify = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(60)
    env = dict(os.environ, NOTIFY_SOCKET=str(notify))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--db",
            str(tmp_path / "g.sqlite3"),
            "--web-port",
            "0",
            "--pad",
            "none",
            "--exit-after",
            "60",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert listener.recv(64) == b"READY=1"
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=30)
        assert process.returncode == 0, errors[-2000:]
        assert time.monotonic() - started < 20, "not the --exit-after: Ctrl+C closed it"
        assert "Traceback" not in errors
    finally:
        process.kill()
        listener.close()
