"""The table session: seats, command dispatch, the event store."""

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
