"""The fleet's topic tree (docs/cafe.md): one branch per table,

companion/<table>/status   retained: the table's public status (JSON)
companion/<table>/online   retained: {"online": true}; the last will
                           sets {"online": false}
"""

from __future__ import annotations

import socket
from dataclasses import dataclass

from .broker import BrokerError

ROOT = "companion"
MAX_NAME = 64
# One topic level: no separator, no wildcard, nothing a broker refuses.
_FORBIDDEN = set("/+#\0")


def check_table_name(name: str) -> str:
    """A table's name as one topic level, or :class:`BrokerError`."""
    if not name or len(name) > MAX_NAME or _FORBIDDEN & set(name) or name != name.strip():
        raise BrokerError(
            f"{name!r}: a table name is 1 to {MAX_NAME} characters without "
            "'/', '+', '#' or spaces at its ends"
        )
    return name


def default_table_name() -> str:
    """The machine's host name: each café Pi has its own."""
    return socket.gethostname().split(".")[0] or "table"


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
