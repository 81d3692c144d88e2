"""Hostile payloads on a table's command topic, through a real Mosquitto to
a real ``companion serve --fleet`` process, on a broker that lets anyone who
may connect publish anywhere (no ACL, as a home's broker often is): a payload
far over the size an action may have, one nested past Python's recursion
limit, and thousands of forged actions. The table reads none of the first
two, answers few of the rest, keeps serving its phones' pages meanwhile and
still applies the console's real action at once."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
import uuid

import paho.mqtt.client as mqtt
import pytest
from cafe_helpers import CafeTable, scripted_store
from mqtt_helpers import Mosquitto, Recorder
from paho.mqtt.enums import CallbackAPIVersion

from companion.fleet import protocol as p

KEY = "a-cafe-action-key-0123456789abcdef"
NAME = "t1"
COMMAND, REPLY = f"companion/{NAME}/command", f"companion/{NAME}/reply"
FORGED = 3000
# Replies a flood may draw at most: the refusals a table answers per window
# (actions.REFUSALS) during the few windows the flood lasts.
FEW = 60
# Seconds a page of the table may take while 50 MB pass through paho on
# their way to being dropped (the copy alone costs the table's process a
# moment), and during a flood of forged actions (3,000 replies took 0.3 s).
SLOW = 0.5
FLOOD_SLOW = 0.2


@pytest.fixture
def table(tmp_path):
    """The table serving a Coup game; the broker; a stranger's client on it."""
    broker = Mosquitto(tmp_path, users={NAME: "table-password", "anyone": "anyone"})
    broker.start()
    password, key = tmp_path / "t1.password", tmp_path / "action.key"
    password.write_text("table-password\n")
    key.write_text(KEY + "\n")
    served = CafeTable(tmp_path, NAME, broker.url, password, key)
    scripted_store(served.db, "coup", ["Anna", "Ben", "Chloé"], "keeper", lambda _t: None)
    served.start()
    recorder = Recorder(broker.port, user=("anyone", "anyone"))
    stranger = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"x-{uuid.uuid4().hex[:6]}")
    stranger.username_pw_set("anyone", "anyone")
    stranger.connect("127.0.0.1", broker.port)
    stranger.loop_start()
    try:
        served.wait_serving()
        recorder.wait_for(f"companion/{NAME}/status", lambda s: s["state"] == "playing", 20)
        yield served, recorder, stranger
    finally:
        stranger.disconnect()
        stranger.loop_stop()
        recorder.close()
        served.stop()
        broker.stop()


def replies(recorder: Recorder) -> list[dict]:
    return [json.loads(text) for topic, text, _ in list(recorder.messages) if topic == REPLY]


def answered(recorder: Recorder, stranger, served: CafeTable, timeout: float = 20.0) -> dict:
    """The console's real action (a message: a headless table refuses it as
    having no screen, which needs a signed action read in full), answered."""
    action = p.make_action(KEY.encode(), NAME, p.MESSAGE, None, {"text": "Last orders"})
    stranger.publish(COMMAND, json.dumps(action), qos=1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for reply in replies(recorder):
            if reply["id"] == action["id"]:
                return reply
        time.sleep(0.02)
    raise AssertionError(f"the real action was not answered: {''.join(served.errors)[-2000:]}")


class Latency:
    """The slowest answer of the table's public page while it runs."""

    def __init__(self, served: CafeTable) -> None:
        self.served = served
        self.slowest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            with urllib.request.urlopen(f"{self.served.url}/api/table", timeout=10) as answer:
                answer.read()
            self.slowest = max(self.slowest, time.monotonic() - started)
            time.sleep(0.02)

    def __enter__(self) -> Latency:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(15)


def test_an_oversized_or_deeply_nested_command_is_never_parsed(table):
    served, recorder, stranger = table
    with Latency(served) as latency:
        # 50 MB with an id the table would answer if it read the payload.
        huge = b'{"id": "huge", "pad": "' + b"x" * (50 * 1024 * 1024) + b'"}'
        stranger.publish(COMMAND, huge, qos=1).wait_for_publish(30)
        for _ in range(20):  # past the recursion limit, inside the size an action may have
            stranger.publish(COMMAND, b"[" * 1500, qos=1)
            stranger.publish(COMMAND, b'{"id": "deep", "args": ' + b"[" * 1500, qos=1)
        stranger.publish(COMMAND, b"[" * 100_000, qos=1)
        assert answered(recorder, stranger, served)["key"] == "fleet.refused.no_screen"
    assert [r["id"] for r in replies(recorder) if r["id"] in ("huge",)] == []
    print(f"50 MB and 41 deep payloads: slowest page {latency.slowest:.3f} s")
    errors = "".join(served.errors)
    assert "Traceback" not in errors and "RecursionError" not in errors, errors[-3000:]
    assert latency.slowest < SLOW, f"the table's page took {latency.slowest:.2f} s"


def test_thousands_of_forged_actions_draw_few_replies_and_slow_nothing(table):
    served, recorder, stranger = table
    forged_key = b"not-the-cafes-key-0123456789"
    with Latency(served) as latency:
        for number in range(FORGED):
            action = p.make_action(forged_key, NAME, p.END_GAME, 1)
            stranger.publish(COMMAND, json.dumps(action), qos=0)
            if number % 500 == 0:
                time.sleep(0.05)  # paho's queue drains as a flood's would
        assert answered(recorder, stranger, served)["key"] == "fleet.refused.no_screen"
    refused = [r for r in replies(recorder) if r["key"] == "fleet.refused.forged"]
    print(f"{FORGED} forged: {len(refused)} replies, slowest page {latency.slowest:.3f} s")
    assert 0 < len(refused) <= FEW, len(refused)
    assert latency.slowest < FLOOD_SLOW, f"the table's page took {latency.slowest:.2f} s"
    warnings = [line for line in served.errors if "refused action" in line]
    assert len(warnings) <= FEW, len(warnings)
    # The table still plays: the game was never ended by a forgery.
    assert recorder.latest(f"companion/{NAME}/status")["state"] == "playing"
