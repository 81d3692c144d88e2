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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from ports import free_port

MOSQUITTO = Path("/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = Path("/usr/bin/mosquitto_passwd")
SHIPPED = Path(__file__).resolve().parent.parent / "deploy" / "mosquitto"
SHIPPED_ACL = SHIPPED / "companion.acl"
CREDENTIALS_SCRIPT = SHIPPED.parent / "fleet-credentials.sh"


@dataclass(frozen=True)
class Certificates:
    """A CA made at test time, and the broker's key and certificate it
    signed, for 127.0.0.1."""

    ca: Path
    cert: Path
    key: Path


def make_ca(directory: Path, name: str = "ca") -> tuple[Path, Path]:
    """A self-signed CA as a café makes one: its certificate and key."""
    directory.mkdir(parents=True, exist_ok=True)
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    _openssl(
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", key, "-out", cert, "-days", "2", "-subj", f"/CN=Test cafe {name}",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )  # fmt: skip
    return cert, key


def make_certificates(directory: Path) -> Certificates:
    """A CA and the broker's certificate, SAN IP:127.0.0.1, signed by it."""
    ca, ca_key = make_ca(directory)
    cert, key, request = directory / "broker.crt", directory / "broker.key", directory / "b.csr"
    _openssl(
        "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1",
    )  # fmt: skip
    extensions = directory / "broker.ext"
    extensions.write_text(
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
        "authorityKeyIdentifier=keyid,issuer\nsubjectKeyIdentifier=hash\n"
    )
    _openssl(
        "x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
        "-out", cert, "-days", "2", "-extfile", extensions,
    )  # fmt: skip
    return Certificates(ca, cert, key)


def _openssl(*args: object) -> None:
    subprocess.run(["openssl", *map(str, args)], check=True, capture_output=True)


def shipped_config(name: str, replace: dict[str, str]) -> str:
    """deploy/mosquitto/<name> with each of ``replace``'s lines swapped for
    its value (a line not there fails: the shipped file changed)."""
    lines = (SHIPPED / name).read_text().splitlines()
    for line, value in replace.items():
        assert line in lines, f"{name} has no line {line!r}"
        lines[lines.index(line)] = value
    return "\n".join(lines) + "\n"


class Mosquitto:
    """One broker process; stop and start it again on the same port. With
    ``users`` (name: password) or a ``password_file`` (mosquitto_passwd's,
    deploy/fleet-credentials.sh's), only they may connect.

    ``shipped``: the café's configuration, deploy/mosquitto/companion.conf
    with its ACL, its listener moved to 127.0.0.1 and a free port, its files
    here. ``certificates``: deploy/mosquitto/companion-tls.conf's TLS
    listener too, on ``tls_port`` (``tls_url``)."""

    def __init__(
        self,
        directory: Path,
        users: dict[str, str] | None = None,
        *,
        shipped: bool = False,
        password_file: Path | None = None,
        certificates: Certificates | None = None,
    ) -> None:
        if not MOSQUITTO.exists():
            pytest.fail(f"{MOSQUITTO} is missing: scripts/system-packages.sh installs mosquitto")
        self.port = free_port()
        self.tls_port = free_port()
        self.config = directory / "mosquitto.conf"
        if users:
            password_file = directory / "mosquitto.passwd"
            password_file.touch(mode=0o600)
            for name, password in users.items():
                subprocess.run(
                    [str(MOSQUITTO_PASSWD), "-b", str(password_file), name, password], check=True
                )
        if shipped:
            assert password_file is not None, "the shipped configuration lets no one in without"
            access = shipped_config(
                "companion.conf",
                {
                    "listener 1883": f"listener {self.port} 127.0.0.1",
                    "password_file /etc/mosquitto/companion.passwd": (
                        f"password_file {password_file}"
                    ),
                    "acl_file /etc/mosquitto/companion.acl": f"acl_file {SHIPPED_ACL}",
                },
            )
        else:
            listener = f"listener {self.port} 127.0.0.1\n"
            access = f"{listener}allow_anonymous true\n"
            if password_file is not None:
                access = f"{listener}allow_anonymous false\npassword_file {password_file}\n"
        if certificates is not None:
            access += shipped_config(
                "companion-tls.conf",
                {
                    "listener 8883": f"listener {self.tls_port} 127.0.0.1",
                    "cafile /etc/mosquitto/certs/cafe-ca.crt": f"cafile {certificates.ca}",
                    "certfile /etc/mosquitto/certs/broker.crt": f"certfile {certificates.cert}",
                    "keyfile /etc/mosquitto/certs/broker.key": f"keyfile {certificates.key}",
                },
            )
        self.config.write_text(
            # As root, mosquitto would become the user "mosquitto", who
            # cannot read the test's directory.
            f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
            "persistence false\n"
            "log_dest stderr\n"
            "log_type error\n"
            f"{access}"
        )
        self.log = directory / "mosquitto.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def tls_url(self) -> str:
        return f"mqtts://127.0.0.1:{self.tls_port}"

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
        url: str | None = None,
        ca_file: Path | None = None,
        **options: Any,
    ) -> None:
        from companion.fleet import Broker, StatusPublisher, TableReporter

        options.setdefault("reconnect", (1, 1))
        address = Broker.from_url(url or broker.url, *(user or (None, None)), ca_file)
        self.publisher = StatusPublisher(address, name, **options)
        self.reporter = TableReporter(self.publisher, name, clock=clock)
        self.publisher.start()
        if table is None:
            self.reporter.report()  # no game yet: the idle status
        else:
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


# Fixtures for every test that wants a broker of its own (tests/conftest.py
# loads this module as a plugin).
@pytest.fixture
def broker(tmp_path):
    """A Mosquitto of the test's own, anonymous, on a free port."""
    mosquitto = Mosquitto(tmp_path)
    mosquitto.start()
    yield mosquitto
    mosquitto.stop()


@pytest.fixture
def mqtt_client(broker):
    """A plain client connected to ``broker``: one that publishes what a
    test gives it (the console's commands, a stranger's forgeries)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"client-{os.urandom(3).hex()}")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    yield client
    client.disconnect()
    client.loop_stop()


@pytest.fixture
def recorder(broker):
    """Every message under companion/# that ``broker`` carries."""
    recorder = Recorder(broker.port)
    yield recorder
    recorder.close()
