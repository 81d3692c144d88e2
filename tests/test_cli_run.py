"""`companion run` refuses bad set-ups with a clear message, before any window."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from ports import free_port


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", "run", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "coup", "--players", "Solo"], "Coup is for 2 to 6 players, not 1."),
        (["--game", "coup", "--players", "Ann,ann", "--new"], "Two players are called “ann”."),
        (["--size", "big"], "--size must look like 1280x720"),
        (["--pins", "/no/such/pins.toml"], "Cannot read the pin map /no/such/pins.toml"),
        (
            ["--game", "coup", "--response-seconds", "0", "--new"],
            "“0.0” is not a valid value for the option",
        ),
        (
            ["--game", "g54", "--set", "banker,spy", "--new"],
            "Choose exactly 5 different characters of the game.",
        ),
        (
            ["--game", "g54", "--set", "banker,director,guerrilla,politician,wizard", "--new"],
            "“wizard” is not a character of this game.",
        ),
    ],
)
def test_bad_setups_are_refused_clearly(tmp_path, args, message):
    done = run("--db", str(tmp_path / "g.sqlite3"), *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unusable_store_is_refused_clearly(tmp_path):
    """A store that cannot be opened at all. (A damaged one is moved aside
    and the kiosk starts on a new one: tests/test_store_damage.py.)"""
    done = run("--db", str(tmp_path))  # a directory
    assert done.returncode == 2 and "cannot open" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_the_kiosk_starts_on_one_loop_and_stops_cleanly(tmp_path):
    """The whole start-up: store, table, window, devices and the phone server
    on one loop; the table page answers while the window is up; then a
    clean stop."""
    import time
    import urllib.request

    port = free_port()
    db = tmp_path / "g.sqlite3"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--db",
            str(db),
            "--game",
            "g54",
            "--set",
            "starter",
            "--new",
            "--mock-pins",
            "--response-seconds",
            "5",
            "--web-host",
            "127.0.0.1",
            "--web-port",
            str(port),
            "--exit-after",
            "6",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    public = None
    deadline = time.monotonic() + 30
    while public is None and time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table") as response:
                public = json.loads(response.read())
        except OSError:
            time.sleep(0.1)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr[-2000:]
    assert public is not None and public["game"] == "g54"
    # Not even the one Kivy logs for its mtdev provider (a debug line now).
    assert "Traceback" not in stderr
    from companion.table import EventStore

    store = EventStore(db)
    assert [g.status for g in store.history()] == ["active"]
    setup = json.loads(json.dumps(store.active_game().setup))
    assert setup["table"] == {"votes": "changeable", "guide": False}
    assert setup["options"]["response_seconds"] == 5
    store.close()


def test_the_wifi_password_may_come_from_the_environment(monkeypatch):
    """deploy/companion-start passes it so: not on the command line, which
    any user of the machine can read (ps, systemctl status)."""
    from companion.cli import WIFI_PASSWORD_ENV, _parser

    monkeypatch.setenv(WIFI_PASSWORD_ENV, "long enough")
    args = _parser().parse_args(["run", "--wifi", "Table 1"])
    assert (args.wifi, args.wifi_password) == ("Table 1", "long enough")
    args = _parser().parse_args(["run", "--wifi", "Table 1", "--wifi-password", "given"])
    assert args.wifi_password == "given"
    monkeypatch.delenv(WIFI_PASSWORD_ENV)
    assert _parser().parse_args(["run", "--wifi", "Cafe"]).wifi_password is None


@pytest.mark.slow
def test_phones_that_come_before_the_first_game_are_told_to_wait(tmp_path):
    """At the home screen there is no table to join; the phones' port
    answers every address with a page in the phone's language that looks
    again by itself, rather than refusing the connection."""
    import time
    import urllib.request

    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--db",
            str(tmp_path / "g.sqlite3"),
            "--mock-pins",
            "--web-host",
            "127.0.0.1",
            "--web-port",
            str(port),
            "--exit-after",
            "6",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    page = None
    deadline = time.monotonic() + 30
    while page is None and time.monotonic() < deadline and process.poll() is None:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/join/any-token", headers={"Accept-Language": "fa-IR,fa;q=0.9"}
        )
        try:
            with urllib.request.urlopen(request) as response:
                page = (response.status, response.read().decode())
        except OSError:
            time.sleep(0.1)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr[-2000:]
    from companion.i18n import translate
    from companion.web.waiting import RETRY_SECONDS

    assert page is not None, "the port answered before any game"
    status, html = page
    assert status == 200 and 'lang="fa" dir="rtl"' in html
    assert translate("web.waiting", "fa") in html
    assert f'data-retry="{RETRY_SECONDS}"' in html and "/static/waiting.js" in html
    assert "http-equiv" not in html, "no timed refresh: it moves a screen reader's place"


def test_serve_without_a_game_to_serve_says_how_to_name_one(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "g.sqlite3")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "no unfinished game; name one with --game" in done.stderr
    assert "Traceback" not in done.stderr
