"""On the table's loop: the café console's actions, applied once each.

The publisher hands each message of the command topic here, on the loop
(never on paho's thread). :class:`ActionDesk` checks it
(:func:`.protocol.read_action`), applies it through the :class:`Station`
(the kiosk, or ``companion serve``: each does "end the game" or "show a
message" its own way), and answers on the reply topic. The reply to every
action it read is kept in the table's store, so an action delivered twice,
even after the table restarted, is answered with its first reply, marked
``repeated``, and not applied again. One that reaches the table after it
expired (the console has told the staff it got no answer) is refused.

Anyone who may publish on the command topic (a broker without the café's
ACL) can send garbage, forgeries or a captured action again, as fast as the
broker carries them: the table answers at most ``REFUSALS`` of those per
``REFUSAL_WINDOW`` (and logs as many), and says in one line how many more it
left unanswered, so a flood costs the table no more than a glance each. An
action signed with the key is always applied and answered.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..games.base import RuleError
from ..table import OPERATOR, StoreError, Table
from . import protocol
from .protocol import Action, ActionRefused

log = logging.getLogger(__name__)

# Refusals of an action the table understood but cannot do now (the
# protocol's own, for an action it could not read, are in .protocol).
OTHER_GAME = "fleet.refused.other_game"
NO_GAME = "fleet.refused.no_game"
NOT_OVER = "fleet.refused.not_over"
NO_TIMER = "fleet.refused.no_timer"
NO_SEAT = "fleet.refused.no_seat"
NO_PHONES = "fleet.refused.no_phones"
NO_SCREEN = "fleet.refused.no_screen"
BAD_MESSAGE = "fleet.refused.bad_message"
FAILED = "fleet.refused.failed"

KEEP = 2 * protocol.WINDOW  # seconds an applied action's reply is kept
REFUSALS = 10  # refusals (and answers to repeats) per window, at most...
REFUSAL_WINDOW = 10.0  # ...of this many seconds; the rest are not answered


class Quota:
    """At most ``count`` of something per ``window`` seconds; what is left
    over is counted and said in one log line when the next window opens."""

    def __init__(self, count: int, window: float, clock: Callable[[], float]) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self._opened = float("-inf")
        self._taken = 0
        self._dropped = 0

    def take(self) -> bool:
        """Whether one more fits in this window."""
        now = self.clock()
        if now - self._opened >= self.window:
            if self._dropped:
                log.warning(
                    "fleet: %d more refused commands went unanswered (at most %d per %g s)",
                    self._dropped,
                    self.count,
                    self.window,
                )
            self._opened, self._taken, self._dropped = now, 0, 0
        if self._taken < self.count:
            self._taken += 1
            return True
        self._dropped += 1
        return False


class Station(Protocol):
    """What the table is and does, for the console: the kiosk's, or the
    headless server's. A method that cannot act raises :class:`ActionRefused`."""

    @property
    def table(self) -> Table | None: ...

    def end_game(self) -> None: ...

    def next_game(self) -> Table:
        """Start the next game at the table and put it where the table's
        players see it; the new table."""
        ...

    def repair(self, seat: int) -> None:
        """A new join link for ``seat``, its code shown where the seat can scan it."""
        ...

    def show_message(self, text: str) -> None: ...


class ActionDesk:
    def __init__(
        self,
        key: bytes,
        table_name: str,
        store: Any,
        station: Station,
        send: Callable[[dict[str, Any]], None],
        report: Callable[[], None] = lambda: None,
        wall: Callable[[], float] = time.time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``store``: the table's EventStore; ``send`` publishes a reply
        without waiting; ``report`` has the fleet's reporter report at once
        after an action changed the table."""
        self.key = key
        self.table_name = table_name
        self.store = store
        self.station = station
        self.send = send
        self.report = report
        self.wall = wall
        self.refusals = Quota(REFUSALS, REFUSAL_WINDOW, clock)

    def receive(self, payload: bytes) -> None:
        """One message of the command topic, on the loop."""
        try:
            action = protocol.read_action(payload, self.key, self.table_name, now=self.wall())
        except ActionRefused as refused:
            if not self.refusals.take():
                return
            identity = protocol.action_id(payload)
            if identity is None:
                limit = protocol.MAX_ACTION_BYTES
                size = f"over {limit}" if len(payload) > limit else len(payload)
                log.warning("fleet: ignored a command with no id (%s bytes)", size)
                return
            log.warning("fleet: refused action %s (%s)", identity, refused.key)
            self.send(protocol.make_reply(identity, self.table_name, refused))
            return
        try:
            earlier = self.store.fleet_reply(action.id)
        except StoreError as exc:  # answered below as if new; applying it again is the risk
            log.warning("fleet: cannot look up action %s: %s", action.id, exc)
            earlier = None
        if earlier is not None:
            if self.refusals.take():  # a replay by anyone who saw it pass may come in floods
                self.send({**earlier, "repeated": True})
            return
        if action.expired(self.wall()):
            if not self.refusals.take():  # as a replay may be
                return
            late = round(self.wall() - action.expires_at)
            log.warning("fleet: refused action %s: expired %d s ago", action.id, late)
            expired = ActionRefused(protocol.EXPIRED, seconds=late)
            self.send(protocol.make_reply(action.id, self.table_name, expired))
            return
        reply = self._apply(action)
        try:
            self.store.remember_fleet_action(action.id, self.wall(), reply, KEEP)
        except StoreError as exc:
            log.warning("fleet: cannot keep the reply to action %s: %s", action.id, exc)
        self.send(reply)

    def _apply(self, action: Action) -> dict[str, Any]:
        try:
            if action.action != protocol.MESSAGE and action.game_id != self._game_id():
                raise ActionRefused(OTHER_GAME, game_id=self._game_id())
            result = self._handlers[action.action](self, action) or {}
        except ActionRefused as refused:
            log.info("fleet: action %s refused (%s)", action.action, refused.key)
            return protocol.make_reply(action.id, self.table_name, refused)
        except (RuleError, StoreError) as exc:
            log.error("fleet: action %s failed: %s", action.action, exc)
            return protocol.make_reply(action.id, self.table_name, ActionRefused(FAILED))
        log.info("fleet: applied action %s", action.action)
        if action.action != protocol.MESSAGE:
            self.report()
        return protocol.make_reply(action.id, self.table_name, result=result)

    def _game_id(self) -> int | None:
        """The game the table is playing (None: idle, or the game was ended)."""
        table = self.station.table
        return None if table is None or table.ended else table.game_id

    def _playing(self) -> Table:
        table = self.station.table
        if table is None or table.ended:
            raise ActionRefused(NO_GAME)
        return table

    # -- the actions -------------------------------------------------------------
    def _end_game(self, _action: Action) -> None:
        self._playing()
        self.station.end_game()

    def _timer(self, resume: bool) -> None:
        table = self.station.table
        command = None if table is None else table.timer_command(resume)
        if table is None or command is None:
            raise ActionRefused(NO_TIMER)
        table.execute(command, source=OPERATOR)

    def _pause_timer(self, _action: Action) -> None:
        self._timer(resume=False)

    def _resume_timer(self, _action: Action) -> None:
        self._timer(resume=True)

    def _repair_seat(self, action: Action) -> None:
        table = self._playing()
        seat = action.args.get("seat")
        if type(seat) is not int or not 0 <= seat < len(table.names):
            raise ActionRefused(NO_SEAT)
        self.station.repair(seat)

    def _message(self, action: Action) -> None:
        text = action.args.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > protocol.MAX_MESSAGE:
            raise ActionRefused(BAD_MESSAGE, limit=protocol.MAX_MESSAGE)
        self.station.show_message(text.strip())

    def _next_game(self, _action: Action) -> dict[str, Any]:
        table = self.station.table
        if table is None:
            raise ActionRefused(NO_GAME)
        if not (table.is_over or table.ended):
            raise ActionRefused(NOT_OVER)
        return {"game_id": self.station.next_game().game_id}

    _handlers: dict[str, Callable[[ActionDesk, Action], dict[str, Any] | None]] = {
        protocol.END_GAME: _end_game,
        protocol.PAUSE_TIMER: _pause_timer,
        protocol.RESUME_TIMER: _resume_timer,
        protocol.REPAIR_SEAT: _repair_seat,
        protocol.MESSAGE: _message,
        protocol.NEXT_GAME: _next_game,
    }
