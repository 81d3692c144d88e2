"""What a table sends the console is checked before it is stored or shown:
a status's fields (a bad one dropped and logged once), the time left on its
timer, the rows already in console.sqlite3, and the replies to actions.
Against a real Mosquitto, the console's real aiohttp server and real SQLite
files."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
import urllib.error
import urllib.request
from urllib.parse import urlencode

import aiohttp
from browser import serve_in_thread
from mqtt_helpers import Mosquitto
from test_console import (  # noqa: F401
    KEY,
    _console_words,
    console_app,
    get,
    login,
    opener,
    signed,
    status,
    wait,
)

from companion.fleet import protocol

BAD_TIMES = ("yesterday", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00")


def publish(broker: Mosquitto, topic: str, payload: bytes, retain: bool = False) -> None:
    """One message, from a client of its own (anyone the broker lets publish)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)
    client.disconnect()
    client.loop_stop()


def page(staff, base: str) -> str:
    """The console's page, which must answer 200."""
    try:
        return get(staff, base + "/")[1]
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"GET / answered {exc.code}") from None


def dropped(caplog, table: str, field: str) -> int:
    return sum(
        1
        for record in caplog.records
        if record.name.startswith("companion.console")
        and f"table {table}" in record.getMessage()
        and f" {field} " in record.getMessage()
    )


def test_a_bad_status_field_is_dropped_logged_once_and_the_page_serves(tmp_path, broker, caplog):
    caplog.set_level(logging.WARNING)
    app, console = console_app(broker, tmp_path)
    with serve_in_thread(app) as base:
        staff = opener()
        login(staff, base)
        tables = [f"t{n}" for n in range(len(BAD_TIMES))]
        for table, started in zip(tables, BAD_TIMES, strict=True):
            bad = {**status(), "table": table, "started_at": started}
            # Wrong types elsewhere: a seat list that is a string, names
            # that are not text, a turn that is a list.
            bad["health"] = {"phones": "012", "disk_free": "lots"}
            bad["players"] = {"count": "two", "names": ["Anna", {"x": 1}]}
            bad["turn"] = [3]
            # Signed: a table's credentials and the café's key (every
            # table holds it) are enough to send it.
            for retain in (True, False, False):  # retained, then plain, again
                publish(broker, f"companion/{table}/status", signed(bad), retain)
        wait(lambda: all(t in console.tables and console.tables[t].status for t in tables))
        wait(lambda: dropped(caplog, tables[-1], "started_at") == 1)
        shown = page(staff, base)
        for table in tables:
            assert f'data-table="{table}"' in shown and "Coup" in shown
            for field in ("started_at", "health.phones", "players.names", "turn"):
                assert dropped(caplog, table, field) == 1, (table, field)
        assert "turn [3]" not in shown and "turn 3" not in shown
        for row in console.stats.rows():
            assert row[3] not in BAD_TIMES, "a bad time is never stored"
    # The console restarts: the retained statuses come again, and the
    # stored rows are the good ones.
    app, console = console_app(broker, tmp_path)
    with serve_in_thread(app) as base:
        staff = opener()
        login(staff, base)
        wait(lambda: all(t in console.tables and console.tables[t].status for t in tables))
        page(staff, base)
        assert len(console.stats.rows()) == len(tables)


def test_bad_rows_already_stored_are_repaired_at_load(tmp_path, broker, caplog):
    """Rows an earlier console stored from a bad status: a restart serves the
    page, counts the games whose start it can still tell, says so once."""
    caplog.set_level(logging.WARNING)
    db = sqlite3.connect(tmp_path / "c.sqlite3")
    db.execute(
        "CREATE TABLE games (table_name TEXT NOT NULL, game TEXT NOT NULL,"
        " game_id INTEGER NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,"
        " PRIMARY KEY (table_name, game_id))"
    )
    good = ("t0", "coup", 1, "2026-12-01T19:00:00+00:00", "2026-12-01T19:30:00+00:00")
    rows = [
        good,
        ("t1", "coup", 1, "yesterday", None),
        ("t2", "coup", 1, "9999-12-31T23:59:59-14:00", "2026-12-01T19:30:00+00:00"),
        ("t3", "coup", 1, "2026-12-01T19:00:00+00:00", "9999-12-31T23:59:59-14:00"),
        ("t4", 7, "x", "2026-12-01T19:00:00+00:00", None),
    ]
    db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    app, console = console_app(broker, tmp_path)
    with serve_in_thread(app) as base:
        staff = opener()
        login(staff, base)
        shown = page(staff, base)
        assert "t0 · " in shown, "the good row is still counted"
        kept = {row[0]: row for row in console.stats.rows()}
        assert set(kept) == {"t0", "t2", "t3"}, "t1 and t4 had nothing to count"
        assert kept["t0"] == good
        assert kept["t2"][3] == kept["t2"][4], "a start taken from its end"
        assert kept["t3"][4] is None, "a bad end forgotten"
        said = [r for r in caplog.records if "c.sqlite3: " in r.getMessage()]
        assert len(said) == 1, said


async def _pushes(base: str, cookie: str, messages: list[dict], stop: asyncio.Event) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(base + "/ws", headers={"Cookie": cookie}) as socket,
    ):
        while not stop.is_set():
            try:
                message = await socket.receive_json(timeout=0.2)
            except TimeoutError:
                continue
            messages.append(message)


def test_a_timer_of_infinity_nan_or_1e400_neither_breaks_the_page_nor_the_pushes(tmp_path, broker):
    app, console = console_app(broker, tmp_path)
    with serve_in_thread(app) as base:
        staff = opener()
        login(staff, base)
        cookie = "; ".join(
            f"{c.name}={c.value}"
            for handler in staff.handlers
            if isinstance(handler, urllib.request.HTTPCookieProcessor)
            for c in handler.cookiejar
        )
        messages: list[dict] = []
        loop = asyncio.new_event_loop()
        stop = asyncio.Event()
        import threading

        listening = threading.Thread(
            target=loop.run_until_complete, args=(_pushes(base, cookie, messages, stop),)
        )
        listening.start()
        try:
            wait(lambda: len(messages) >= 1)  # the first cards
            for turn, remaining in enumerate(("Infinity", "NaN", "1e400", "-Infinity"), 4):
                good = json.dumps({**status(), "turn": turn, "timer": None})
                bad = good.replace('"timer": null', f'"timer": {{"running": true, '
                                   f'"remaining": {remaining}}}')  # fmt: skip
                publish(broker, "companion/t1/status", bad.encode(), retain=True)
                wait(lambda turn=turn: any(f"turn {turn}" in json.dumps(m) for m in messages))
                shown = page(staff, base)
                assert f"turn {turn}" in shown and 'class="timer"' not in shown
        finally:
            loop.call_soon_threadsafe(stop.set)
            listening.join(10)
            loop.close()


def test_a_reply_answers_only_its_own_action_once_with_checked_arguments(
    tmp_path, broker, recorder, caplog
):
    from test_console import PASSWORD

    from companion.console.run import linked_app
    from companion.console.server import Console
    from companion.console.stats import Stats
    from companion.fleet import Broker
    from companion.secret_hash import hash_pin

    caplog.set_level(logging.WARNING)
    for table in ("t1", "t2"):
        publish(broker, f"companion/{table}/status", signed({**status(), "table": table}), True)
    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"), reply_seconds=60)
    app = linked_app(console, Broker.from_url(broker.url), client_id="console-replies")
    with serve_in_thread(app) as base:
        staff = opener()
        login(staff, base)
        wait(lambda: {"t1", "t2"} <= set(console.tables))
        csrf = page(staff, base).split('name="csrf" value="')[1].split('"')[0]

        def act(action: str, **fields: str) -> str:
            form = {"csrf": csrf, "table": "t1", "action": action, **fields}
            before = len(recorder.messages)
            get(staff, urllib.request.Request(base + "/action", urlencode(form).encode()))
            wait(lambda: len(recorder.messages) > before)
            return recorder.wait_for("companion/t1/command", lambda m: m["action"] == action)["id"]

        def reply(topic_table: str, **fields) -> None:
            body = {"table": "t1", "ok": True, "key": None, "args": {}, **fields}
            # Signed with the café's key: as any table could.
            publish(broker, f"companion/{topic_table}/reply", signed(body, protocol.REPLY))

        identity = act("end_game")
        reply("t1", id=identity, table="t2")  # says it is another table's
        reply("t2", id=identity, table="t2")  # on another table's topic
        reply("t1", id="not-the-action")
        reply("t1", id=identity, ok="yes")
        reply("t1", id=identity, ok=1)
        time.sleep(0.5)  # each has reached the console
        assert "Waiting for the table" in page(staff, base), "none answered the action"
        assert console.tables["t2"].pending is None
        assert dropped(caplog, "t1", "reply") == 1, "said once"
        # The first good reply, its arguments of the wrong types.
        args = {"seconds": [1, 2], "count": "x", "table": {"a": 1}}
        reply("t1", id=identity, ok=False, key="fleet.refused.stale", args=args)
        stale = "This action is too old (or the table&#x27;s clock is wrong): ? s."
        wait(lambda: stale in page(staff, base))
        for later in ({"ok": True}, {"ok": False, "key": "fleet.refused.no_game"}):
            reply("t1", id=identity, **later)
        time.sleep(0.5)
        shown = page(staff, base)
        assert stale in shown and "The game was ended" not in shown, "the first reply stays"
        for name in ("seconds", "count", "table"):
            assert dropped(caplog, "t1", f"reply.args.{name}") == 1, name
        # A reply with a key that is no refusal and a count of "x".
        identity = act("pause_timer")
        forged = {"count": "x"}
        reply("t1", id=identity, ok=False, key="console.minutes", args=forged)
        wait(lambda: "The table refused it." in page(staff, base))
        assert dropped(caplog, "t1", "reply.key") == 1


def test_formatting_a_message_never_raises(tmp_path, caplog):
    """A plural's count that is no number, a field's format its argument
    cannot take: a safe rendering and a log line, never an error."""
    from companion.i18n import add_catalogs, remove_catalogs, translate

    caplog.set_level(logging.WARNING)
    (tmp_path / "en.json").write_text(
        json.dumps(
            {
                "test.formatted": "{count:d} left",
                "test.plural": {"one": "{count} seat", "other": "{count} seats"},
            }
        )  # fmt: skip
    )
    add_catalogs(tmp_path)
    try:
        for count in ("x", float("nan"), float("inf"), [1], None, {"a": 1}, "9" * 5000):
            shown = translate("test.plural", "en", count=count)
            assert shown.endswith(" seats"), shown
            assert translate("test.formatted", "en", count=count) == "{count:d} left"
        assert translate("test.plural", "en", count=1) == "1 seat"
        assert translate("test.formatted", "en", count=3) == "3 left"
        assert any("no number" in r.getMessage() for r in caplog.records)
        assert any("cannot be formatted" in r.getMessage() for r in caplog.records)
    finally:
        remove_catalogs(tmp_path)
