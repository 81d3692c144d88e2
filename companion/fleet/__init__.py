"""The café fleet: a table publishes its public status to an MQTT broker,
and with the café's action key takes the console's actions (:mod:`.actions`).

Kivy-free. :mod:`.reporter` runs on the table's loop and only hands the
newest status over; :mod:`.publisher` sends it from its own threads, so a
broker that is down, slow or refusing never delays a command. The topics and
the payload are documented in docs/cafe.md; nothing in them is ever a seat's
secret (the status is built from the public view and public table facts
only, :mod:`.status`).
"""

from .broker import Broker, BrokerError, read_password_file
from .publisher import StatusPublisher
from .reporter import TableReporter
from .topics import default_table_name

__all__ = [
    "Broker",
    "BrokerError",
    "StatusPublisher",
    "TableReporter",
    "default_table_name",
    "read_password_file",
]
