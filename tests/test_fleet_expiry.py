"""An action the console has shown as "no answer" is never applied later:
it expires at that moment, and a table it reaches afterwards (a broker that
was down delivers it late) refuses it. Through a real Mosquitto, the
console's real server and a headless table (``serve``) on its own loop."""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request

import pytest
from browser import serve_in_thread
from mqtt_helpers import Mosquitto, Recorder
from test_console import PASSWORD, _console_words, get, login, opener, wait  # noqa: F401
from test_fleet_actions import KEY, NAME, REPLY, Served, coup, send

from companion.fleet import Broker
from companion.fleet import protocol as p

WAIT = 2.0  # the console's wait for a reply, in these tests


def replies(recorder: Recorder, identity: str) -> list[dict]:
    return [
        json.loads(text)
        for topic, text, _retained in list(recorder.messages)
        if topic == REPLY and json.loads(text)["id"] == identity
    ]


def repairs(store, table) -> int:
    return store.seat_link(table.game_id, 1)["repairs"]


def test_an_action_shown_as_no_answer_is_not_applied_when_the_broker_delivers_it(tmp_path, store):
    """Staff re-pair a seat while the broker answers nothing; the card says
    "no answer", they try again, and the broker comes back: the seat is
    re-paired once, by the retry, and the first is refused as expired."""
    from companion.console.run import linked_app
    from companion.console.server import Console
    from companion.console.stats import Stats
    from companion.secret_hash import hash_pin

    broker = Mosquitto(tmp_path)
    broker.start()
    recorder = Recorder(broker.port)
    table = coup(store)
    store.set_seat_link(table.game_id, 1, "the-seat-s-first-link", None)  # the seat's link
    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"), reply_seconds=WAIT)
    app = linked_app(console, Broker.from_url(broker.url), client_id="console-expiry")
    try:
        with Served(table, broker), serve_in_thread(app) as base:
            staff = opener()
            login(staff, base)
            wait(lambda: NAME in console.tables and console.tables[NAME].names)
            assert repairs(store, table) == 0
            page = get(staff, base + "/")[1]
            csrf = page.split('name="csrf" value="')[1].split('"')[0]
            form = {"csrf": csrf, "table": NAME, "action": p.REPAIR_SEAT, "seat": "1"}

            def repair() -> str:
                get(
                    staff,
                    urllib.request.Request(base + "/action", urllib.parse.urlencode(form).encode()),
                )
                return console.tables[NAME].pending.id

            broker.pause()  # the broker answers nothing
            first = repair()
            wait(lambda: "No answer from the table." in get(staff, base + "/")[1], WAIT + 3)
            second = repair()  # staff try again
            broker.resume()
            wait(lambda: replies(recorder, first) and replies(recorder, second))
            wait(lambda: "The seat has a new join link." in get(staff, base + "/")[1])
            (late,) = replies(recorder, first)
            (done,) = replies(recorder, second)
            assert (late["ok"], late["key"]) == (False, p.EXPIRED), late
            assert done["ok"], done
            time.sleep(0.3)
            assert repairs(store, table) == 1, "re-paired once, by the retry"
    finally:
        recorder.close()
        broker.stop()


def test_a_table_refuses_an_expired_action_and_a_malformed_expiry(store, broker, recorder):
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="console-late")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    table = coup(store)
    try:
        with Served(table, broker):
            late = p.make_action(KEY, NAME, p.END_GAME, table.game_id, now=time.time() - 30)
            reply = send(client, recorder, late)
            assert (reply["ok"], reply["key"]) == (False, p.EXPIRED)
            assert reply["args"]["seconds"] >= 19
            assert not table.ended, "not applied"
            for bad in (float("nan"), "soon", p.WINDOW + 1):
                action = {"id": f"bad-{bad}", "table": NAME, "action": p.END_GAME}
                action.update(game_id=table.game_id, args={}, issued_at=round(time.time(), 3))
                action["expires_at"] = action["issued_at"] + bad if bad != "soon" else bad
                action["sig"] = p._signature(KEY, action)
                reply = send(client, recorder, action)
                assert reply["key"] == p.GARBLED, bad
            assert not table.ended
    finally:
        client.disconnect()
        client.loop_stop()


@pytest.mark.parametrize("wait_seconds", [1.0, p.LIFETIME])
def test_an_action_expires_when_the_console_stops_waiting(wait_seconds):
    sent = p.make_action(KEY, NAME, p.END_GAME, 1, now=1000.0, lifetime=wait_seconds)
    action = p.read_action(json.dumps(sent).encode(), KEY, NAME, now=1000.0)
    assert sent["expires_at"] == 1000.0 + wait_seconds
    assert not action.expired(1000.0 + wait_seconds) and action.expired(1000.001 + wait_seconds)
