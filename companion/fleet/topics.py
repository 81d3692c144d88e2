"""The fleet's topic tree (docs/cafe.md): one branch per table,

companion/<table>/status   retained, the table writes: its public status (JSON)
companion/<table>/online   retained, the table writes: {"online": true}; the
                           last will sets {"online": false}
companion/<table>/command  the console writes, only this table reads: an
                           action (:mod:`.protocol`)
companion/<table>/reply    the table writes, the console reads: the action's
                           result, under the action's id

A table's user name on the broker is its table name, so one ACL pattern
(``companion/%u/...``, deploy/mosquitto/) gives every table its own branch.
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass

from .broker import BrokerError

ROOT = "companion"
MAX_NAME = 64
# Letters, digits, '-' and '_': one topic level with no separator or
# wildcard, a broker user name, and a Home Assistant node id, all at once.
_NAME = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_NAME}}}")


def check_table_name(name: str) -> str:
    """A table's name as one topic level, or :class:`BrokerError`."""
    if not _NAME.fullmatch(name):
        raise BrokerError(f"{name!r}: a table name is 1 to {MAX_NAME} letters, digits, '-' or '_'")
    return name


def default_table_name() -> str:
    """The machine's host name: each café Pi has its own (made a table name:
    any other character becomes '-')."""
    host = socket.gethostname().split(".")[0]
    return re.sub(r"[^A-Za-z0-9_-]", "-", host)[:MAX_NAME] or "table"


@dataclass(frozen=True)
class Topics:
    table: str

    def __post_init__(self) -> None:
        check_table_name(self.table)

    @property
    def status(self) -> str:
        return f"{ROOT}/{self.table}/status"

    @property
    def online(self) -> str:
        return f"{ROOT}/{self.table}/online"

    @property
    def command(self) -> str:
        return f"{ROOT}/{self.table}/command"

    @property
    def reply(self) -> str:
        return f"{ROOT}/{self.table}/reply"


def table_of(topic: str) -> tuple[str, str] | None:
    """``companion/<table>/<leaf>`` as (table, leaf), or None for any other
    topic or a table name that is not one."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != ROOT or not _NAME.fullmatch(parts[1]):
        return None
    return parts[1], parts[2]
