"""Home Assistant's MQTT discovery: a table offers itself as one device.

On each connect the publisher sends, retained, one sensor config per fact
of the status, under ``<prefix>/sensor/companion_<table>/<object>/config``.
Each sensor reads the table's retained status topic through a value
template, and is available while the table's online topic says so; Home
Assistant then shows the café's tables with no configuration of its own.
"""

from __future__ import annotations

import json
from typing import Any

from .. import __version__
from .topics import Topics

DEFAULT_PREFIX = "homeassistant"
MANUFACTURER = "Table Companion"
# Home Assistant's MQTT sensor reads a template that renders "None" as unknown.
_SENSORS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("state", "{{ value_json.state }}", {"icon": "mdi:table-furniture"}),
    ("game", "{{ value_json.game }}", {"icon": "mdi:cards-playing"}),
    ("phase", "{{ value_json.phase | default(None) }}", {"icon": "mdi:progress-clock"}),
    (
        "players",
        "{{ value_json.players.count }}",
        {"icon": "mdi:account-group", "state_class": "measurement"},
    ),
    (
        "timer_remaining",
        "{{ value_json.timer.remaining if value_json.timer else None }}",
        {"device_class": "duration", "unit_of_measurement": "s", "state_class": "measurement"},
    ),
    (
        "phones_connected",
        "{{ value_json.health.phones | length }}",
        {"icon": "mdi:cellphone", "state_class": "measurement"},
    ),
    (
        "disk_free",
        "{{ value_json.health.disk_free | default(None) }}",
        {
            "device_class": "data_size",
            "unit_of_measurement": "B",
            "state_class": "measurement",
            "entity_category": "diagnostic",
        },
    ),
    (
        "cpu_temperature",
        "{{ value_json.health.cpu_temp | default(None) }}",
        {
            "device_class": "temperature",
            "unit_of_measurement": "°C",
            "state_class": "measurement",
            "entity_category": "diagnostic",
        },
    ),
)
SENSORS = tuple(name for name, _template, _extra in _SENSORS)


def discovery_configs(topics: Topics, prefix: str) -> list[tuple[str, str]]:
    """(topic, JSON payload) for each sensor of the table (none without a prefix)."""
    if not prefix:
        return []
    node = f"companion_{topics.table}"
    device = {
        "identifiers": [node],
        "name": f"Table {topics.table}",
        "sw_version": __version__,
        "manufacturer": MANUFACTURER,
    }
    availability = {
        "topic": topics.online,
        "value_template": "{{ 'online' if value_json.online else 'offline' }}",
        "payload_available": "online",
        "payload_not_available": "offline",
    }
    configs = []
    for name, template, extra in _SENSORS:
        config = {
            "name": name.replace("_", " ").capitalize(),
            "unique_id": f"{node}_{name}",
            "object_id": f"{node}_{name}",
            "state_topic": topics.status,
            "value_template": template,
            "availability": [availability],
            "device": device,
            **extra,
        }
        configs.append((f"{prefix}/sensor/{node}/{name}/config", json.dumps(config)))
    return configs
