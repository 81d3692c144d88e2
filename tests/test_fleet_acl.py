"""The café's shipped broker configuration (deploy/mosquitto/) on a real
Mosquitto: each table writes only its own branch and reads only its own
commands, the console reads everything and writes only commands, and
deploy/fleet-credentials.sh makes credentials that work.

Mosquitto drops a denied publish without a word (MQTT 3.1.1), so every
"cannot" here is what a subscriber with the rights to see it did not get,
beside a message with the same rights' owner that it did get."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mqtt_helpers import CREDENTIALS_SCRIPT, Mosquitto, Publishing, Recorder
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode
from test_fleet import coup_table

from companion.fleet import read_password_file

USERS = {"t1": "pw-t1", "t2": "pw-t2", "console": "pw-console", "homeassistant": "pw-ha"}


class Client:
    """A user's MQTT client, subscribed to ``filters``: every message it is
    sent, as (topic, payload)."""

    def __init__(self, port: int, user: str, password: str, *filters: str) -> None:
        self.messages: list[tuple[str, str]] = []
        self._changed = threading.Condition()
        self._subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{user}-{id(self)}")
        self.client.username_pw_set(user, password)
        self.client.on_message = self._message
        self.client.on_subscribe = lambda *_: self._subscribed.set()
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if filters:
            self.client.subscribe([(f, 1) for f in filters])
            assert self._subscribed.wait(5), "the broker never answered the subscription"

    def _message(self, _client: Any, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._changed:
            self.messages.append((message.topic, message.payload.decode()))
            self._changed.notify_all()

    def publish(self, topic: str, payload: str, retain: bool = False) -> None:
        """Sent and acknowledged (a denied one is acknowledged too, and dropped)."""
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def wait_for(self, topic: str, payload: str, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while (topic, payload) not in self.messages:
                left = deadline - time.monotonic()
                assert left > 0, f"never got {payload!r} on {topic}; got {self.messages}"
                self._changed.wait(left)

    def got(self, topic: str, payload: str) -> bool:
        with self._changed:
            return (topic, payload) in self.messages

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def connect_reason(port: int, user: str, password: str) -> ReasonCode:
    """What the broker answers a CONNECT with these credentials."""
    answered = threading.Event()
    reasons: list[ReasonCode] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{user}")
    client.username_pw_set(user, password)

    def on_connect(_c: Any, _u: Any, _f: Any, reason: ReasonCode, _p: Any) -> None:
        reasons.append(reason)
        answered.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        assert answered.wait(5), "the broker never answered"
    finally:
        client.disconnect()
        client.loop_stop()
    return reasons[0]


@pytest.fixture
def broker(tmp_path):
    mosquitto = Mosquitto(tmp_path, USERS, shipped=True)
    mosquitto.start()
    yield mosquitto
    mosquitto.stop()


@pytest.fixture
def clients(broker):
    made: list[Client] = []

    def client(user: str, *filters: str) -> Client:
        made.append(Client(broker.port, user, USERS[user], *filters))
        return made[-1]

    yield client
    for c in made:
        c.close()


def test_a_table_writes_only_its_own_branch_and_the_console_sees_it(clients):
    # Home Assistant's user reads companion/# and homeassistant/#: it sees
    # whatever a table manages to write in either tree.
    watcher = clients("homeassistant", "companion/#", "homeassistant/#")
    t1, t2, console = clients("t1"), clients("t2"), clients("console", "companion/#")
    own = ["companion/t1/status", "companion/t1/online", "companion/t1/reply"]
    own.append("homeassistant/sensor/companion_t1/turn/config")
    for topic in own:
        t1.publish(topic, "t1's own")
        watcher.wait_for(topic, "t1's own")
    console.wait_for("companion/t1/status", "t1's own")  # the console reads every table
    # Each topic t1 may not write, written by t1 and then by its owner: the
    # owner's arrives, t1's never does.
    others = {
        "companion/t2/status": t2,
        "companion/t2/online": t2,
        "companion/t2/reply": t2,
        "homeassistant/sensor/companion_t2/turn/config": t2,
        "companion/t1/command": console,
        "companion/t2/command": console,
    }
    for topic, owner in others.items():
        t1.publish(topic, "forged by t1")
        owner.publish(topic, "by its owner")
        watcher.wait_for(topic, "by its owner")
        assert not watcher.got(topic, "forged by t1"), f"t1 could write {topic}"
    # Nor may the console write a table's status: it speaks in commands only.
    console.publish("companion/t1/status", "forged by the console")
    t1.publish("companion/t1/status", "t1 again")
    watcher.wait_for("companion/t1/status", "t1 again")
    assert not watcher.got("companion/t1/status", "forged by the console")


def test_a_table_reads_its_own_commands_and_nothing_else(clients):
    t2 = clients("t2")
    t2.publish("companion/t2/status", "t2's status", retain=True)
    console = clients("console", "companion/#")  # subscribed after: it gets the retained
    console.wait_for("companion/t2/status", "t2's status")
    # A table that asks for the whole tree is given only its own commands:
    # not the retained statuses, live statuses or commands of another table.
    t1 = clients("t1", "companion/#")
    t2_listening = clients("t2", "companion/#")
    console.publish("companion/t2/command", "for t2")
    t2.publish("companion/t2/status", "t2 live")
    console.publish("companion/t1/command", "for t1")
    t1.wait_for("companion/t1/command", "for t1")
    t2_listening.wait_for("companion/t2/command", "for t2")  # had it been allowed
    console.wait_for("companion/t2/status", "t2 live")
    time.sleep(0.2)  # what was sent before t1's command had its chance
    assert t1.messages == [("companion/t1/command", "for t1")]


def test_the_script_makes_credentials_a_table_connects_with(tmp_path, store):
    secrets = tmp_path / "credentials"
    env = {
        **os.environ,
        "FLEET_PASSWORD_FILE": str(tmp_path / "companion.passwd"),
        "FLEET_CREDENTIALS_DIR": str(secrets),
    }

    def script(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(CREDENTIALS_SCRIPT), *args], env=env, capture_output=True, text=True
        )

    for args in (("add-table", "table-7"), ("add-console",), ("add-table", "t8")):
        done = script(*args)
        assert done.returncode == 0, done.stderr
    for refused, says in (("a/b", "a table name is 1 to 64"), ("console", "console user")):
        done = script("add-table", refused)
        assert done.returncode == 2 and says in done.stderr
    password = read_password_file(secrets / "table-7.password")
    assert len(password) == 32 and (secrets / "table-7.password").stat().st_mode & 0o777 == 0o600
    assert script("remove", "t8").returncode == 0
    assert not (secrets / "t8.password").exists()
    key = tmp_path / "action.key"
    assert script("new-action-key", str(key)).returncode == 0
    assert len(key.read_text().strip()) == 64 and key.stat().st_mode & 0o777 == 0o600
    made = key.read_text()
    assert script("new-action-key", str(key)).returncode == 2 and key.read_text() == made

    broker = Mosquitto(tmp_path, shipped=True, password_file=Path(env["FLEET_PASSWORD_FILE"]))
    broker.start()
    try:
        console = Recorder(
            broker.port, ("console", read_password_file(secrets / "console.password"))
        )
        try:
            table = coup_table(store)
            with Publishing(table, broker, name="table-7", user=("table-7", password)) as fleet:
                fleet.settle()
                console.wait_for("companion/table-7/status", lambda s: s["table"] == "table-7")
        finally:
            console.close()
        assert connect_reason(broker.port, "table-7", password).is_failure is False
        assert connect_reason(broker.port, "table-7", "wrong" + password).is_failure
        assert connect_reason(broker.port, "t8", "anything").is_failure  # removed
    finally:
        broker.stop()
