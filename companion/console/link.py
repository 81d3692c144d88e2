"""The console's MQTT client: paho's network loop on its own thread
(``loop_start``), every message handed to the aiohttp loop with
``call_soon_threadsafe``; actions published signed, QoS 1."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from ..fleet.broker import Broker
from ..fleet.topics import ROOT, Topics, table_of

log = logging.getLogger(__name__)

QOS = 1
SUBSCRIPTIONS = [(f"{ROOT}/+/{leaf}", QOS) for leaf in ("status", "online", "reply")]
Deliver = Callable[[str, str, bytes], None]  # table, leaf, payload
Linked = Callable[[bool], None]  # the console's connection to the broker: up or not


class ConsoleLink:
    def __init__(
        self,
        broker: Broker,
        deliver: Deliver,
        client_id: str = "companion-console",
        linked: Linked = lambda _up: None,
    ):
        self.broker = broker
        self._deliver = deliver
        self._linked = linked
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311
        )
        if broker.username is not None:
            self._client.username_pw_set(broker.username, broker.password)
        self._client.reconnect_delay_set(1, 30)
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._client.on_disconnect = self._on_disconnect

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._client.connect_async(self.broker.host, self.broker.port, 30)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def send(self, table: str, action: dict[str, Any]) -> None:
        self._client.publish(Topics(table).command, json.dumps(action), qos=QOS, retain=False)

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: ReasonCode, _p: Any):
        if reason.is_failure:
            log.warning("console: the broker refused the console: %s", reason)
            return
        log.info("console: connected to mqtt://%s:%d", self.broker.host, self.broker.port)
        client.subscribe(SUBSCRIPTIONS)
        self._hand_over(self._linked, True)

    def _on_disconnect(self, _client: mqtt.Client, _u: Any, _f: Any, _r: ReasonCode, _p: Any):
        log.warning("console: lost the broker; trying again")
        self._hand_over(self._linked, False)

    def _hand_over(self, call: Callable[..., None], *args: Any) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(call, *args)

    def _on_message(self, _client: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        parsed = table_of(message.topic)
        if parsed is not None:
            self._hand_over(self._deliver, parsed[0], parsed[1], bytes(message.payload))
