"""The service's start command, deploy/companion-start, run here as systemd
would run it, with SDL's offscreen driver instead of KMS/DRM: a real unix
datagram socket stands in for systemd's $NOTIFY_SOCKET.

It checks that the kiosk (the very process started: companion-start execs
it, as NotifyAccess=main requires) says READY=1 and pings the watchdog; that
the pings stop while its UI loop is frozen and resume after; and that
SIGTERM (systemctl stop) stops it cleanly with STOPPING=1.

Freezing the UI loop: a sitecustomize module, on PYTHONPATH for this test
only, makes SIGUSR1 block the main thread, where Kivy's loop runs, while
every other thread of the kiosk goes on. Pings sent from any thread but the
UI loop's would go on too, and fail the test."""

from __future__ import annotations

import array
import os
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from deploy_helpers import REPO
from helpers import new_table
from ports import free_port

from companion.table import EventStore

pytestmark = pytest.mark.slow  # the kiosk started, frozen and stopped as a service

FREEZE = 4.0  # seconds the UI loop is blocked
DIM_AFTER = 3  # seconds without a touch before the screen dims
WATCHDOG_USEC = 1_000_000  # a ping every half second
CREDENTIALS = struct.calcsize("3i")

SITECUSTOMIZE = f'''"""Test hook (tests/test_deploy_service.py): SIGUSR1 blocks the main
thread, the kiosk's UI loop, for {FREEZE} seconds."""
import signal
import time

signal.signal(signal.SIGUSR1, lambda _signum, _frame: time.sleep({FREEZE}))
'''


class Notifications:
    """systemd's end of sd_notify: a datagram socket that reports each
    message with the process id the kernel says sent it."""

    def __init__(self, path: Path) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.socket.bind(str(path))

    def receive(self, seconds: float) -> list[tuple[float, str, int]]:
        """(time, message, sender's pid) of every message within ``seconds``."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.socket.settimeout(left)
            try:
                data, ancillary, _flags, _address = self.socket.recvmsg(
                    4096, socket.CMSG_SPACE(CREDENTIALS)
                )
            except TimeoutError:
                break
            pid = next(
                array.array("i", payload)[0]
                for level, kind, payload in ancillary
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS
            )
            got.append((time.monotonic(), data.decode(), pid))
        return got

    def wait_for(self, message: str, seconds: float) -> int:
        """Wait for ``message``; the sender's pid."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for _at, text, pid in self.receive(min(1.0, deadline - time.monotonic())):
                if text == message:
                    return pid
        raise AssertionError(f"no {message} within {seconds} s")

    def close(self) -> None:
        self.socket.close()


def status_and_location(url: str, host: str) -> tuple[int, str]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=10) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")


@pytest.fixture
def service(tmp_path):
    """companion-start from an installed layout (APP_DIR/bin), with a
    configuration like install.sh's: the access point on, a game on the table."""
    app = tmp_path / "opt"
    (app / "bin").mkdir(parents=True)
    (app / "venv" / "bin").mkdir(parents=True)
    for name in ("companion-start", "drm-card"):
        (app / "bin" / name).write_bytes((REPO / "deploy" / name).read_bytes())
        (app / "bin" / name).chmod(0o755)
    # The venv's console script: this checkout's code, run by this Python.
    companion = app / "venv" / "bin" / "companion"
    companion.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m companion "$@"\n')
    companion.chmod(0o755)

    data = tmp_path / "data"
    store = EventStore(data / "companion.sqlite3")
    new_table(store, ["Ann", "Ben", "Cy"])
    store.close()
    port = free_port()
    conf = tmp_path / "companion.conf"
    conf.write_text(
        f"APP_DIR={app}\nDATA_DIR={data}\nPORT={port}\n"
        f"PUBLIC_URL=http://127.0.0.1:{port}/\nPINS=''\nPAD=none\nTOUCH=sdl\n"
        f"DIM_AFTER={DIM_AFTER}\nACCESS_POINT_SSID='Table 1'\n"
        "ACCESS_POINT_PASSWORD='secret pass'\n"
    )
    # A panel's backlight, left dim (26 of 255) by a kiosk that died dim.
    light = tmp_path / "backlight" / "10-0045"
    light.mkdir(parents=True)
    (light / "max_brightness").write_text("255\n")
    (light / "brightness").write_text("26\n")
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SITECUSTOMIZE)

    notifications = Notifications(tmp_path / "notify")
    env = dict(
        os.environ,
        COMPANION_CONF=str(conf),
        NOTIFY_SOCKET=str(tmp_path / "notify"),
        WATCHDOG_USEC=str(WATCHDOG_USEC),
        SDL_VIDEODRIVER="offscreen",
        KIVY_HOME=str(tmp_path / "kivy"),
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        PYTHONPATH=str(hook),
        COMPANION_BACKLIGHTS=str(tmp_path / "backlight"),
    )
    process = subprocess.Popen(
        [str(app / "bin" / "companion-start")],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    yield process, notifications, port, light / "brightness"
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=30)
    notifications.close()


def test_the_service_reports_ready_pings_from_its_ui_loop_and_stops_cleanly(service):
    process, notifications, port, brightness = service
    assert notifications.wait_for("READY=1", 90) == process.pid  # NotifyAccess=main
    started = time.monotonic()

    # companion-start became `companion run` with the configuration's options.
    arguments = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
    for option in (
        b"--fullscreen",
        b"--captive",
        b"--wifi",
        b"Table 1",
        b"--pad",
        b"none",
        str(port).encode(),
    ):
        assert option in arguments
    # The Wi-Fi password is not on the command line (anyone's to read), but in
    # the environment, which only the service's user and root can read.
    assert not [a for a in arguments if b"secret pass" in a]
    environment = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
    assert b"COMPANION_WIFI_PASSWORD=secret pass" in environment

    pings = [m for m in notifications.receive(2.5) if m[1] == "WATCHDOG=1"]
    assert len(pings) >= 2 and {pid for _at, _m, pid in pings} == {process.pid}

    # Its phone server is up, as the access point's captive portal.
    assert status_and_location(f"http://127.0.0.1:{port}/api/table", "127.0.0.1")[0] == 200
    assert status_and_location(
        f"http://127.0.0.1:{port}/generate_204", "connectivitycheck.gstatic.com"
    ) == (302, f"http://127.0.0.1:{port}/")

    # A frozen UI loop stops the pings (systemd would restart it)...
    process.send_signal(signal.SIGUSR1)
    frozen_at = time.monotonic()
    notifications.receive(0.5)  # a ping already on its way
    during = [m for m in notifications.receive(FREEZE - 1.5) if m[1] == "WATCHDOG=1"]
    assert during == [], f"pinged {time.monotonic() - frozen_at:.1f} s into a freeze"
    # ...and they come back with it.
    after = [m for m in notifications.receive(FREEZE + 3.0) if m[1] == "WATCHDOG=1"]
    assert len(after) >= 2

    # The screen left dim was brightened at start, then dimmed after idle.
    assert time.monotonic() - started > DIM_AFTER + 2
    assert brightness.read_text().strip() == "26"

    process.send_signal(signal.SIGTERM)  # systemctl stop
    assert notifications.wait_for("STOPPING=1", 30) == process.pid
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr[-2000:]
    # It stops bright: dim in sysfs, the screen would stay dim past restarts.
    assert brightness.read_text().strip() == "255"
