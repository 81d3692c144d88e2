"""Which of the broker's messages the console believes.

A table with the café's action key signs its statuses and replies
(:func:`companion.fleet.protocol.sign`); on a broker anyone may publish to,
that signature is all that tells a real table from a fake one. A signed
status is taken; an unsigned one (a table without the key, or anyone's) is
shown marked, with no actions, and only while no signed status came for
that table, so it never replaces the real table's. A reply is believed only
signed, from the table the action went to. Each refused forgery is logged
once per table.
"""

from __future__ import annotations

import logging
from typing import Any

from ..fleet import protocol
from .fleet import TableView

log = logging.getLogger(__name__)


class Trust:
    def __init__(self, key: bytes) -> None:
        self.key = key
        self._said: set[tuple[str, str]] = set()  # (table, leaf) a forgery was logged for

    def admit(self, view: TableView, leaf: str, data: dict[str, Any]) -> bool:
        """Whether to take ``data``, from ``view``'s ``leaf`` topic; a status
        taken marks the view signed or not."""
        if leaf == "status":
            signed = protocol.signed_by(self.key, protocol.STATUS, data, view.name)
            if not signed and view.signed:
                self._say(view.name, leaf)
                return False
            view.signed = signed
        elif leaf == "reply" and not protocol.signed_by(self.key, protocol.REPLY, data, view.name):
            self._say(view.name, leaf)
            return False
        return True

    def _say(self, table: str, leaf: str) -> None:
        if (table, leaf) not in self._said:
            self._said.add((table, leaf))
            log.warning("console: ignored a %s for %s not signed with the café's key", leaf, table)
