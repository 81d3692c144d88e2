"""Home Assistant's MQTT discovery: on each connect a table offers one
device with a sensor per fact of its status, retained, each reading the
status topic and available while the online topic says so. Each template
reads only fields a real status has (Jinja is not among our dependencies,
so the fields are looked up, not rendered)."""

from __future__ import annotations

import json
import re
import time

from a27_helpers import keeper4
from mqtt_helpers import Publishing, Recorder

from companion import __version__
from companion.fleet.discovery import SENSORS, discovery_configs
from companion.fleet.health import system_health
from companion.fleet.topics import Topics


def discovery(port: int, prefix: str = "homeassistant") -> dict[str, tuple[dict, bool]]:
    """Every retained discovery config under ``prefix`` the broker holds now."""
    recorder = Recorder(port)
    recorder.client.subscribe(f"{prefix}/#", qos=1)
    time.sleep(0.5)
    recorder.close()
    return {
        topic: (json.loads(text), retained)
        for topic, text, retained in recorder.messages
        if topic.startswith(f"{prefix}/")
    }


def fields(template: str) -> list[list[str]]:
    """The paths a template reads: ``value_json.health.phones`` is [health, phones]."""
    return [path.split(".") for path in re.findall(r"value_json((?:\.\w+)+)", template)]


def has(payload: dict, path: list[str]) -> bool:
    for name in path[1:] if path and path[0] == "" else path:
        if not isinstance(payload, dict) or name not in payload:
            return False
        payload = payload[name]
    return True


def test_the_table_offers_itself_to_home_assistant_retained(store, broker, tmp_path):
    table = keeper4(store)
    table.execute({"type": "gavel"})  # a phase and a running timer: every sensor has its value
    health = lambda: system_health(tmp_path)  # noqa: E731 - as companion run's
    with Publishing(table, broker, name="t-7", health=health) as publishing:
        publishing.settle()
        configs = discovery(broker.port)
        status = Recorder(broker.port)
        online = status.wait_for("companion/t-7/online", lambda s: True)
        latest = status.wait_for("companion/t-7/status", lambda s: True)
        status.close()
    assert set(configs) == {f"homeassistant/sensor/companion_t-7/{name}/config" for name in SENSORS}
    read = {}
    for topic, (config, retained) in configs.items():
        name = topic.split("/")[3]
        assert retained, topic
        assert config["state_topic"] == "companion/t-7/status"
        assert config["unique_id"] == f"companion_t-7_{name}"
        assert config["device"] == {
            "identifiers": ["companion_t-7"],
            "name": "Table t-7",
            "sw_version": __version__,
            "manufacturer": "Table Companion",
        }
        (availability,) = config["availability"]
        assert availability["topic"] == "companion/t-7/online"
        assert availability["payload_available"] == "online"
        assert fields(availability["value_template"]) == [["", "online"]] and online["online"]
        read[name] = fields(config["value_template"])
        assert read[name] and all(has(latest, path) for path in read[name]), (name, latest)
    assert read["players"] == [["", "players", "count"]]
    assert read["timer_remaining"] == [["", "timer", "remaining"], ["", "timer"]]
    assert (
        configs["homeassistant/sensor/companion_t-7/cpu_temperature/config"][0][
            "unit_of_measurement"
        ]
        == "°C"
    )


def test_an_empty_prefix_offers_nothing(store, broker):
    assert discovery_configs(Topics("t1"), "") == []
    with Publishing(None, broker, discovery_prefix="") as publishing:
        publishing.settle()
        assert discovery(broker.port) == {}
