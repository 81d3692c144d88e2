"""A real Mosquitto for the fleet's tests, on 127.0.0.1 with its own
configuration in the test's directory (never the system's service), and a
subscriber that records every message it is sent."""

from __future__ import annotations

import json
import os
import pwd
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

MOSQUITTO = Path("/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = Path("/usr/bin/mosquitto_passwd")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """One broker process; stop and start it again on the same port. With
    ``users`` (name: password), only they may connect."""

    def __init__(self, directory: Path, users: dict[str, str] | None = None) -> None:
        if not MOSQUITTO.exists():
            pytest.fail(f"{MOSQUITTO} is missing: scripts/system-packages.sh installs mosquitto")
        self.port = free_port()
        self.config = directory / "mosquitto.conf"
        access = "allow_anonymous true\n"
        if users:
            passwords = directory / "mosquitto.passwd"
            passwords.touch(mode=0o600)
            for name, password in users.items():
                subprocess.run(
                    [str(MOSQUITTO_PASSWD), "-b", str(passwords), name, password], check=True
                )
            access = f"allow_anonymous false\npassword_file {passwords}\n"
        self.config.write_text(
            # As root, mosquitto would become the user "mosquitto", who
            # cannot read the test's directory.
            f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
            f"listener {self.port} 127.0.0.1\n"
            f"{access}"
            "persistence false\n"
            "log_dest stderr\n"
            "log_type error\n"
        )
        self.log = directory / "mosquitto.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [str(MOSQUITTO), "-c", str(self.config)], stdout=log, stderr=log
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto exited: {self.log.read_text()}") from None
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not open its port")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(5)
        self.process = None

    def pause(self) -> None:
        """A broker that answers nothing (SIGSTOP) with its connections open."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


class Recorder:
    """Subscribed to ``companion/#``: every message, in order, as
    (topic, payload text, retained)."""

    def __init__(self, port: int, user: tuple[str, str] | None = None) -> None:
        self.messages: list[tuple[str, str, bool]] = []
        self._changed = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"recorder-{id(self)}")
        if user is not None:
            self.client.username_pw_set(*user)
        self.client.on_connect = lambda c, *_: c.subscribe("companion/#", qos=1)
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, _client: Any, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._changed:
            self.messages.append((message.topic, message.payload.decode(), bool(message.retain)))
            self._changed.notify_all()

    def latest(self, topic: str) -> dict[str, Any] | None:
        with self._changed:
            for got, payload, _retained in reversed(self.messages):
                if got == topic:
                    return json.loads(payload)
        return None

    def wait_for(self, topic: str, check, timeout: float = 5.0) -> dict[str, Any]:
        """The first payload on ``topic`` from now on or already latest for
        which ``check`` holds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                latest = self.latest(topic)
                if latest is not None and check(latest):
                    return latest
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such message on {topic}; latest: {latest}")
                self._changed.wait(left)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Publishing:
    """A table reporting to the broker as ``companion serve --fleet`` does:
    its publisher (threads started) and its reporter (on this thread)."""

    def __init__(
        self,
        table: Any,
        broker: Mosquitto,
        name: str = "t1",
        clock=time.monotonic,
        user: tuple[str, str] | None = None,
        **options: Any,
    ) -> None:
        from companion.fleet import Broker, StatusPublisher, TableReporter

        options.setdefault("reconnect", (1, 1))
        address = Broker.from_url(broker.url, *(user or ()))
        self.publisher = StatusPublisher(address, name, **options)
        self.reporter = TableReporter(self.publisher, name, clock=clock)
        self.publisher.start()
        self.reporter.follow(table)

    def settle(self, timeout: float = 5.0) -> None:
        """Wait until the newest status is at the broker."""
        deadline = time.monotonic() + timeout
        while not self.publisher.idle():
            assert time.monotonic() < deadline, "the status never reached the broker"
            time.sleep(0.001)

    def close(self) -> None:
        self.publisher.close()

    def __enter__(self) -> Publishing:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
