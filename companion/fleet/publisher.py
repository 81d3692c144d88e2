"""Sends a table's newest status to the broker, never on the table's loop.

The loop calls :meth:`StatusPublisher.offer`, which only puts the status in
a slot of one and wakes the sender thread: a status offered before the last
one went out replaces it (only the newest matters; the topic is retained).
The sender thread adds the machine's health, turns it into JSON and hands
it to paho, whose network loop runs on a thread of its own (``loop_start``)
and connects, reconnects and keeps the connection alive there.

At most one status is in flight (QoS 1, retained), and one every
``MIN_INTERVAL`` at most: the next goes when the broker has acknowledged
the last, so a slow broker makes statuses coalesce here
rather than queue up in paho, and after a reconnect paho's resent older one
can never land after a newer one. On every connect the table says it is
online and sends its newest status again. The last will, kept by the broker,
says it is offline when the connection drops without a goodbye (the process
killed, the power cut, the network gone).

With the café's action key, the table signs its statuses and replies
(:func:`.protocol.sign`), and takes the console's actions: it
subscribes to its command topic on every connect, and hands each message to
the table's loop (:meth:`StatusPublisher.listen`), where
:mod:`.actions` applies it; the reply goes back through :meth:`reply`. With
a discovery prefix, every connect also offers the table to Home Assistant
(:mod:`.discovery`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode
from paho.mqtt.reasoncodes import ReasonCode

from . import protocol
from .broker import Broker
from .discovery import DEFAULT_PREFIX, discovery_configs
from .status import Status
from .topics import Topics

log = logging.getLogger(__name__)

QOS = 1
KEEPALIVE = 30  # seconds: the broker gives the last will after 1.5 times this of silence
RECONNECT = (1, 30)  # seconds between tries after a drop: the first, the longest
HEALTH_EVERY = 30.0  # seconds between looks at the machine's health
# Seconds between two statuses at least: a console needs no more, and a
# burst of commits then wakes this thread (and takes the GIL from the
# table's loop) a few times, not once per commit.
MIN_INTERVAL = 0.2
GOODBYE_SECONDS = 2.0  # how long closing waits for the broker to take "offline"
ONLINE = json.dumps({"online": True})
OFFLINE = json.dumps({"online": False})

Health = Callable[[], dict[str, Any]]
Listener = Callable[[bytes], None]
_PUBLISHING = -1  # in flight, its message id not known yet (paho's are 1 to 65535)


class StatusPublisher:
    def __init__(
        self,
        broker: Broker,
        table_name: str,
        health: Health = dict,
        keepalive: int = KEEPALIVE,
        reconnect: tuple[int, int] = RECONNECT,
        health_every: float = HEALTH_EVERY,
        min_interval: float = MIN_INTERVAL,
        action_key: bytes | None = None,
        discovery_prefix: str = DEFAULT_PREFIX,
    ) -> None:
        """``action_key``: the café's key, to take the console's actions
        (None: take none); ``discovery_prefix``: Home Assistant's discovery
        topic ("": offer nothing)."""
        self.broker = broker
        self.action_key = action_key
        self.discovery_prefix = discovery_prefix
        self.topics = Topics(table_name)
        self._health = health
        self._health_every = health_every
        self._min_interval = min_interval
        self._keepalive = keepalive
        self._wake = threading.Condition()
        # All below are guarded by _wake.
        self._latest: Status | None = None  # the newest status offered
        self._unsent = False  # the newest has not gone out yet
        self._connected = False
        self._in_flight: int | None = None  # the status paho holds until its PUBACK
        self._early_acks: set[int] = set()  # PUBACKs that beat publish() returning
        self._resend = False  # after a connect: send the newest even if the broker had it
        self._closing = False
        self._failing = False  # a connect failed and was logged; until one succeeds
        self._listener: tuple[Listener, asyncio.AbstractEventLoop] | None = None
        self.sent = 0  # statuses handed to paho (tests, the benchmark)
        self._client = self._make_client(table_name, reconnect)
        self._sender = threading.Thread(target=self._send_newest, name="fleet-sender", daemon=True)

    def _make_client(self, table_name: str, reconnect: tuple[int, int]) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"companion-{table_name}",
            protocol=mqtt.MQTTv311,
            clean_session=True,
        )
        if self.broker.username is not None:
            client.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.tls:
            ca = None if self.broker.ca_file is None else str(self.broker.ca_file)
            client.tls_set(ca_certs=ca)  # verifies the chain and the host name
        client.on_connect_fail = self._on_connect_fail
        client.will_set(self.topics.online, OFFLINE, qos=QOS, retain=True)
        client.reconnect_delay_set(*reconnect)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    # -- the table's loop ---------------------------------------------------------
    def start(self) -> None:
        """Connect in the background: nothing here waits for the broker."""
        self._client.connect_async(self.broker.host, self.broker.port, self._keepalive)
        self._client.loop_start()
        self._sender.start()
        log.info("fleet: publishing table %s to %s", self.topics.table, self.broker.url)

    def offer(self, status: Status) -> None:
        """The newest status, from the loop. It must not be changed after."""
        with self._wake:
            self._latest = status
            if not self._unsent:  # else the sender knows, and waits for its turn
                self._unsent = True
                self._wake.notify()

    def listen(self, listener: Listener, loop: asyncio.AbstractEventLoop) -> None:
        """Take the console's actions from now on: each message of the
        command topic goes to ``listener`` on ``loop``. Only with an action
        key: without one the table does not subscribe."""
        if self.action_key is None:
            raise ValueError("the table takes no actions without the café's action key")
        with self._wake:
            self._listener = (listener, loop)
            connected = self._connected
        if connected:  # else the next connect subscribes
            self._client.subscribe(self.topics.command, qos=QOS)

    def reply(self, reply: dict[str, Any]) -> None:
        """Answer an action (from the loop; paho sends it from its thread)."""
        self._client.publish(
            self.topics.reply, self._signed(protocol.REPLY, reply), qos=QOS, retain=False
        )

    def _signed(self, kind: str, message: dict[str, Any]) -> str:
        """``message`` as JSON, signed with the café's key when the table
        has it (the console marks a table's unsigned statuses)."""
        if self.action_key is not None:
            message = protocol.sign(self.action_key, kind, message)
        return json.dumps(message)

    def idle(self) -> bool:
        """Whether the newest status went out and the broker acknowledged it
        (tests and the benchmark wait for this)."""
        with self._wake:
            return not self._unsent and self._in_flight is None

    def close(self) -> None:
        """Say the table is offline and disconnect (blocks up to
        ``GOODBYE_SECONDS``: call it off the loop, when stopping)."""
        with self._wake:
            self._closing = True
            connected = self._connected
            self._wake.notify()
        if self._sender.is_alive():
            self._sender.join(GOODBYE_SECONDS)
        if connected:
            goodbye = self._client.publish(self.topics.online, OFFLINE, qos=QOS, retain=True)
            # The connection may go meanwhile (RuntimeError): the last will says it.
            with contextlib.suppress(RuntimeError):
                goodbye.wait_for_publish(GOODBYE_SECONDS)
        self._client.disconnect()
        self._client.loop_stop()

    # -- the sender thread -----------------------------------------------------------
    def _send_newest(self) -> None:
        health: dict[str, Any] = {}
        health_at = sent_at = float("-inf")
        last_payload: str | None = None
        while True:
            with self._wake:
                while not self._closing:
                    now = time.monotonic()
                    due = [health_at + self._health_every]
                    if self._ready():
                        due.append(sent_at + self._min_interval)
                    if now >= min(due):
                        break
                    self._wake.wait(min(due) - now)
                if self._closing:
                    return
                status = self._latest
            if time.monotonic() - health_at >= self._health_every:
                health, health_at = self._read_health(), time.monotonic()
                with self._wake:
                    self._unsent = self._unsent or self._latest is not None
                continue
            if status is None:
                continue
            payload = self._signed(
                protocol.STATUS, {**status, "health": {**status["health"], **health}}
            )
            with self._wake:
                if status is not self._latest or not self._ready():
                    continue  # a newer one came, or the connection went: look again
                self._unsent = False
                if payload == last_payload and not self._resend:
                    continue
                self._resend = False
                self._in_flight = _PUBLISHING
                self._early_acks.clear()
            # Not under the lock: paho calls on_publish holding its own.
            info = self._client.publish(self.topics.status, payload, qos=QOS, retain=True)
            with self._wake:
                if info.rc not in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):
                    log.warning("fleet: paho refused the status: %s", mqtt.error_string(info.rc))
                    self._in_flight, self._unsent = None, True
                    sent_at = time.monotonic()  # try again after the interval, not at once
                    continue
                # Without a connection paho keeps it and sends it on reconnect,
                # before the newest: it is in flight either way.
                self._in_flight = None if info.mid in self._early_acks else info.mid
                self.sent += 1
                last_payload, sent_at = payload, time.monotonic()

    def _ready(self) -> bool:
        return self._unsent and self._connected and self._in_flight is None

    def _read_health(self) -> dict[str, Any]:
        try:
            return self._health()
        except Exception:  # noqa: BLE001 - health is a courtesy; the status goes without it
            log.exception("fleet: the machine's health could not be read")
            return {}

    # -- paho's network thread ------------------------------------------------------
    def _on_connect(
        self,
        client: mqtt.Client,
        _userdata: Any,
        _flags: Any,
        reason: ReasonCode,
        _properties: Any,
    ) -> None:
        if reason.is_failure:
            log.warning("fleet: the broker refused the table: %s", reason)
            return
        log.info("fleet: connected to the broker")
        self._failing = False
        client.publish(self.topics.online, ONLINE, qos=QOS, retain=True)
        for topic, config in discovery_configs(self.topics, self.discovery_prefix):
            client.publish(topic, config, qos=QOS, retain=True)
        with self._wake:
            # In one hold of the lock with setting _connected: a listen()
            # at this moment either sees the connection or is seen here.
            listening = self._listener is not None
            self._connected = True
            self._resend = True
            self._unsent = self._latest is not None
            self._wake.notify()
        if listening:
            client.subscribe(self.topics.command, qos=QOS)

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        """No connection (refused, unreachable, or a TLS certificate that
        does not chain to the CA): said once until a connect succeeds."""
        if not self._failing:
            self._failing = True
            log.warning(
                "fleet: cannot connect to %s (down, unreachable, or its TLS certificate "
                "not trusted); the table plays on and keeps trying",
                self.broker.url,
            )

    def _on_disconnect(
        self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: ReasonCode, _p: Any
    ) -> None:
        with self._wake:
            was = self._connected
            self._connected = False
        if was and not self._closing:
            log.warning("fleet: lost the broker (%s); the table plays on and will resend", reason)

    def _on_publish(
        self, _client: mqtt.Client, _userdata: Any, mid: int, _reason: ReasonCode, _p: Any
    ) -> None:
        with self._wake:
            if self._in_flight == _PUBLISHING:
                self._early_acks.add(mid)
            elif mid == self._in_flight:
                self._in_flight = None
                self._wake.notify()

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        """A command: handed to the table's loop, never acted on here."""
        with self._wake:
            listener = self._listener
        if listener is None or message.topic != self.topics.command:
            return
        handle, loop = listener
        # Of a payload larger than an action may be, only enough to see that
        # it is: 50 MB from anyone is neither copied nor read on the loop.
        payload = bytes(message.payload[: protocol.MAX_ACTION_BYTES + 1])
        with contextlib.suppress(RuntimeError):  # the loop closed: the table is stopping
            loop.call_soon_threadsafe(handle, payload)
