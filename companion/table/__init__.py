"""The table: one game (``Table``: seats, command dispatch), the game on
the table now (``Session``) and the event store."""

from .session import Session, Update
from .store import EventStore, StoreError
from .table import CLOCK, LOCAL, OPERATOR, Committed, Table, seat_source

__all__ = [
    "EventStore",
    "StoreError",
    "CLOCK",
    "LOCAL",
    "OPERATOR",
    "Committed",
    "Session",
    "Update",
    "Table",
    "seat_source",
]
