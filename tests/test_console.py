"""The operator console against a real Mosquitto and its real aiohttp server:
login, cards, escaping, a signed action and its reply, a restart."""

from __future__ import annotations

import html
import http.cookiejar
import json
import os
import select
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from browser import serve_in_thread
from mqtt_helpers import Mosquitto, Recorder

from companion.fleet import Broker, StatusPublisher, protocol
from companion.i18n import catalog
from companion.secret_hash import hash_pin, pin_matches

KEY = b"k" * 32
CATALOGS = Path(__file__).parents[1] / "companion" / "console" / "catalogs"
PASSWORD = "staff-password"
HOSTILE = '<img src=x onerror="alert(1)">'


@pytest.fixture(autouse=True)
def _console_words():
    """The console's catalogs only while its tests run (test_i18n checks the
    companion's own catalogs alone)."""
    from companion.console.server import CATALOGS
    from companion.i18n import remove_catalogs

    yield
    remove_catalogs(CATALOGS)


def status(game_id=5, state="playing"):
    return {
        "table": "t1",
        "state": state,
        "game": "coup",
        "mode": "keeper",
        "game_id": game_id,
        "started_at": "2026-12-01T19:00:00+00:00",
        "turn": 3,
        "players": {"count": 2, "names": ["Anna", HOSTILE]},
        "timer": None,
        "screen": True,  # a kiosk's
        "health": {"phones": [0], "disk_free": 10**8},
    }


def signed(message, kind=protocol.STATUS):
    """``message`` as a table with the café's key says it (statuses and
    replies are signed: protocol.sign)."""
    return json.dumps(protocol.sign(KEY, kind, message)).encode()


def console_app(broker, tmp_path):
    from companion.console.run import linked_app
    from companion.console.server import Console
    from companion.console.stats import Stats

    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"), reply_seconds=1.0)
    app = linked_app(console, Broker.from_url(broker.url), client_id=f"c{time.time()}")
    return app, console


def opener():
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )


def get(browser, url):
    with browser.open(url) as response:
        return response.geturl(), response.read().decode()


def login(browser, base):
    _url, page = get(browser, base + "/login")
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    data = urllib.parse.urlencode({"csrf": csrf, "password": PASSWORD}).encode()
    return get(browser, urllib.request.Request(base + "/login", data))


def wait(check, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_console_shows_acts_and_rebuilds(tmp_path):
    broker = Mosquitto(tmp_path)
    broker.start()
    table = StatusPublisher(Broker.from_url(broker.url), "t1", reconnect=(1, 1), action_key=KEY)
    table.start()
    table.offer(status())
    wait(table.idle)
    recorder = Recorder(broker.port)
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            staff = opener()
            url, _page = get(staff, base + "/")
            assert url.endswith("/login"), "login required"
            url, page = login(staff, base)
            wait(lambda: "t1" in console.tables and console.tables["t1"].status)
            _url, page = get(staff, base + "/")
            assert 'data-table="t1"' in page and "Coup" in page
            assert HOSTILE not in page and "&lt;img src=x" in page
            csrf = page.split('name="csrf" value="')[1].split('"')[0]
            forged = urllib.parse.urlencode({"csrf": "nope", "table": "t1", "action": "end_game"})
            try:
                staff.open(urllib.request.Request(base + "/action", forged.encode()))
                raise AssertionError("a forged POST was taken")
            except urllib.error.HTTPError as exc:
                assert exc.code == 403
            done = urllib.parse.urlencode({"csrf": csrf, "table": "t1", "action": "end_game"})
            get(staff, urllib.request.Request(base + "/action", done.encode()))
            sent = recorder.wait_for("companion/t1/command", lambda m: True)
            action = protocol.read_action(json.dumps(sent).encode(), KEY, "t1")
            assert action.action == "end_game" and action.game_id == 5
            assert "Waiting for the table" in get(staff, base + "/")[1]
            reply = protocol.make_reply(
                action.id, "t1", protocol.ActionRefused("fleet.refused.not_over")
            )
            recorder.client.publish("companion/t1/reply", signed(reply, protocol.REPLY), qos=1)
            refusal = html.escape(catalog("en")["fleet.refused.not_over"])
            wait(lambda: refusal in get(staff, base + "/")[1])
            message = {"csrf": csrf, "table": "t1", "action": "message", "text": "Closing soon"}
            get(
                staff,
                urllib.request.Request(base + "/action", urllib.parse.urlencode(message).encode()),
            )
            sent = recorder.wait_for("companion/t1/command", lambda m: m["action"] == "message")
            assert protocol.read_action(json.dumps(sent).encode(), KEY, "t1").args == {
                "text": "Closing soon"
            }
            wait(lambda: "No answer from the table." in get(staff, base + "/")[1])
        table.offer(status(state="finished"))
        wait(table.idle)
        table.close()
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            wait(lambda: "t1" in console.tables and console.tables["t1"].online is False)
            assert console.tables["t1"].status["state"] == "finished", "rebuilt from retained"
            assert len(console.stats.rows()) == 1, "not counted twice across a restart"
    finally:
        recorder.close()
        broker.stop()


def test_set_password_writes_a_hash(tmp_path):
    target = tmp_path / "staff"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "console", "--set-password", str(target)],
        input="correct horse\n",
        text=True,
        check=False,
        env={**os.environ},
    )
    assert done.returncode == 0
    assert target.stat().st_mode & 0o777 == 0o600
    assert pin_matches("correct horse", target.read_text().strip())


def test_failed_logins_are_rate_limited(tmp_path):
    from companion.console.server import FAILED_LOGINS, Console, make_app
    from companion.console.stats import Stats

    app = make_app(Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3")))
    with serve_in_thread(app) as base:
        staff = opener()
        codes = []
        for attempt in range(FAILED_LOGINS + 1):
            _url, page = get(staff, base + "/login")
            csrf = page.split('name="csrf" value="')[1].split('"')[0]
            guess = PASSWORD if attempt == FAILED_LOGINS else "wrong"
            data = urllib.parse.urlencode({"csrf": csrf, "password": guess}).encode()
            try:
                staff.open(urllib.request.Request(base + "/login", data))
                codes.append(200)
            except urllib.error.HTTPError as exc:
                codes.append(exc.code)
        assert codes == [403] * FAILED_LOGINS + [429], "even the right password waits"


def test_alerts_and_filters_come_from_statuses_and_time(tmp_path):
    from companion.console.server import Console
    from companion.console.stats import Stats

    now = [1000.0]
    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"), clock=lambda: now[0])
    paused = {**status(), "timer": {"running": False, "paused": True, "remaining": 30}}
    paused["health"] = {
        "phones": [],
        "disk_free": 10**8,
        "pad": "lost",
        "last_error": {"at": "2026-12-01T19:00:00+00:00", "message": "<b>boom</b>"},
    }
    console.receive("t1", "status", signed(paused))
    console.receive("t2", "status", signed({**status(), "table": "t2"}))
    console.receive("t2", "online", b'{"online": false}')
    assert console.tables["t1"].alerts(now[0]) == ["pad_lost", "disk_low", "last_error"]
    now[0] += 601
    assert "paused_long" in console.tables["t1"].alerts(now[0])
    html = console.cards("en", {"state": "offline"})
    assert 'data-table="t2"' in html and 'data-table="t1"' not in html
    html = console.cards("en", {"state": "alerts"})
    assert "Pad not answering" in html and "Paused for long" in html and "⚠" in html
    assert "&lt;b&gt;boom" in html and "<b>boom" not in html
    assert "Table offline" in html
    fa = console.cards("fa", {})
    assert "صفحه‌کلید پاسخ نمی‌دهد" in fa


def test_the_console_prints_the_address_staff_open(tmp_path):
    """``companion console`` says in one line where its page is, once it
    listens there, and the page answers at that address."""
    from ports import free_port

    broker = Mosquitto(tmp_path)
    broker.start()
    key, staff = tmp_path / "action.key", tmp_path / "staff"
    key.write_text("k" * 64 + "\n")
    staff.write_text(hash_pin(PASSWORD) + "\n")
    port = free_port()
    console = subprocess.Popen(
        [
            sys.executable, "-m", "companion", "console", "--broker", broker.url,
            "--action-key-file", str(key), "--staff-password-file", str(staff),
            "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "c.sqlite3"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )  # fmt: skip
    try:
        assert console.stdout is not None
        ready, _, _ = select.select([console.stdout], [], [], 30)
        assert ready, "the console printed nothing"
        line = console.stdout.readline()
        assert line == f"Console at http://127.0.0.1:{port}/\n", console.stderr.read()
        url, _page = get(opener(), line.split(" at ")[1].strip())
        assert url.endswith("/login")
    finally:
        console.terminate()
        console.wait(10)
        broker.stop()
    assert console.stdout.read() == "", "one line"


def _figures(page: str) -> list[str]:
    """The statistics' figures of a console page, in order."""
    return page.split('<section class="stats">')[1].split('<section class="chart">')[1:]


def test_statistics_say_when_there_is_nothing_yet_and_show_only_hours_with_games(tmp_path):
    from datetime import datetime

    from companion.console.server import Console, make_app
    from companion.console.stats import Stats

    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"))
    words = {lang: json.loads((CATALOGS / f"{lang}.json").read_text()) for lang in ("en", "fa")}
    with serve_in_thread(make_app(console)) as base:
        staff = opener()
        login(staff, base)
        _per_day, length, hours = _figures(get(staff, base + "/")[1])
        assert words["en"]["console.chart.no_finished"] in length and "<tr" not in length
        assert words["en"]["console.chart.no_games"] in hours and "<tr" not in hours
        _per_day, length, _hours = _figures(get(staff, base + "/?lang=fa")[1])
        assert html.escape(words["fa"]["console.chart.no_finished"]) in length

        base.on_loop(lambda: console.receive("t1", "status", signed(status())))
        _per_day, length, hours = _figures(get(staff, base + "/?lang=en")[1])
        assert words["en"]["console.chart.no_finished"] in length, "still playing"
        hour = datetime.fromisoformat(status()["started_at"]).astimezone().hour
        assert hours.count("<tr") == 1, "one hour had a game: one row"
        # A table a screen reader reads row by row: the hour, then its count.
        assert f'<th scope="row"><bdi>{hour:02d}:00</bdi></th>' in hours
        assert hours.split("</td>")[-2].endswith("<td>1"), hours

        finished = status(state="finished")
        base.on_loop(lambda: console.receive("t1", "status", signed(finished)))
        _per_day, length, _hours = _figures(get(staff, base + "/")[1])
        assert words["en"]["console.chart.no_finished"] not in length
        assert length.count("<tr") == 1 and "Coup" in length and " min" in length


def test_the_page_names_an_icon_and_favicon_ico_is_served(tmp_path):
    import xml.etree.ElementTree as ElementTree

    from companion.console.server import Console, make_app
    from companion.console.stats import Stats

    app = make_app(Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3")))
    with serve_in_thread(app) as base:
        _url, page = get(opener(), base + "/login")
        icon = page.split('<link rel="icon" href="')[1].split('"')[0]
        for path in (icon, "/favicon.ico"):
            with opener().open(base + path) as answer:
                assert answer.status == 200 and answer.headers["Content-Type"] == "image/svg+xml"
                assert ElementTree.fromstring(answer.read()).tag.endswith("svg")
