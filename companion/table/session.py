"""The session: whichever game is on the table now, and one stream of news
about it.

A :class:`Table` is one game; the table in the café plays one game after
another (home starts one, "New game" the next, the console's actions end
one or start the next). Everything that follows the table (the seats'
buttons, the phones, the fleet, the screen, the dimmer) subscribes once to
the :class:`Session`, which follows each game in turn: when it switches, the
old game's table no longer tells anyone anything, so no listener has to ask
whether news is from the game it is showing.

After every commit the session publishes one :class:`Update`: what was
committed (the table's ``Committed``) and the facts listeners would
otherwise each ask the table for again (the ballot, who voted, the open
claim, the timer), computed once for all of them. A switch to another game
publishes an update too, with ``switched`` set and no events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from ..games.base import Event, Fate, RuleError, Setup
from ..games.views import BallotSpec, Claim, Timer, View
from .store import EventStore, StoreError
from .table import LOCAL, Committed, Table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Update:
    """What every listener of a session is told, once per commit (or
    switch). ``view`` and the facts are shared by every listener: copy
    before changing them."""

    table: Table
    source: str  # who sent the command (``CLOCK``: time ran out)
    events: tuple[Event, ...]  # just committed (none for a switch)
    view: View  # the public view after them
    # The open ballot (id, eligible seats, choices) as the engine opened it:
    # its ``allowed``/``why_not``, where a game gives them, are the seats'
    # own (what only each may choose), so no listener shows or sends it;
    # what a screen or a phone shows is the view's public ballot.
    ballot: BallotSpec | None
    voted: tuple[int, ...]  # the seats that voted in it, never what
    claim: Claim | None  # the claim a challenge buzzer answers now
    timer: Timer | None  # the game's timer as the table shows it
    switched: bool = False  # the session moved to this table (a new or resumed game)

    @classmethod
    def after(cls, committed: Committed) -> Update:
        """The update for a commit."""
        return cls._of(committed.table, committed.source, committed.events, committed.view)

    @classmethod
    def switch(cls, table: Table, source: str) -> Update:
        """The update for a session that now follows ``table``."""
        return cls._of(table, source, (), table.public_view(), switched=True)

    @classmethod
    def _of(
        cls,
        table: Table,
        source: str,
        events: tuple[Event, ...],
        view: View,
        switched: bool = False,
    ) -> Update:
        ballot = table.ballot()
        return cls(
            table=table,
            source=source,
            events=events,
            view=view,
            ballot=ballot,
            voted=tuple(table.voted()) if ballot is not None else (),
            claim=table.open_claim(),
            timer=view.get("timer"),
            switched=switched,
        )


Listener = Callable[[Update], None]


class Session:
    """The game on the table now (``table``: None before the first) and
    the listeners that follow every game in turn."""

    def __init__(self, store: EventStore, table: Table | None = None) -> None:
        self.store = store
        self.table: Table | None = None
        self._listeners: list[Listener] = []
        if table is not None:
            self.switch(table)

    @classmethod
    def around(cls, table: Table) -> Session:
        """A session of ``table`` alone (a tool, a test, a component given
        one game): it follows whatever game it is switched to later."""
        return cls(table.store, table)

    # -- listeners -------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Tell ``listener`` every update from now on, whichever game."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _publish(self, update: Update) -> None:
        """Tell every listener. One that fails is logged and the rest are
        told all the same: the command is stored already, so a screen that
        cannot draw it must not keep the phones, the seats' lights or the
        fleet from hearing of it, nor turn a stored command (or Undo) into
        a refused one."""
        for listener in list(self._listeners):
            if listener not in self._listeners:  # unsubscribed by an earlier one
                continue
            try:
                listener(update)
            except Exception:
                log.exception("a listener of the table failed (%s); the others are told", listener)

    def _committed(self, committed: Committed) -> None:
        if self._listeners:
            self._publish(Update.after(committed))

    # -- which game -------------------------------------------------------------
    def switch(self, table: Table, source: str = LOCAL) -> Table:
        """Follow ``table`` from now on (the old game tells no one anything
        more); listeners hear of it once. Switching to the game already
        followed does nothing."""
        if table is self.table:
            return table
        if self.table is not None:
            self.table.unsubscribe(self._committed)
        self.table = table
        table.subscribe(self._committed)
        if self._listeners:
            self._publish(Update.switch(table, source))
        return table

    def start(self, setup: Setup, fate: Fate | None = None, source: str = LOCAL) -> Table:
        """A new game (any unfinished one is kept as abandoned), followed."""
        return self.switch(Table.start(self.store, setup, fate=fate, source=source), source)

    def resume(self, game_id: int | None = None) -> Table | None:
        """The given game, or the unfinished one, rebuilt and followed (None:
        there is none; DamagedGame when its rows do not rebuild it)."""
        table = Table.resume(self.store, game_id)
        return None if table is None else self.switch(table)

    def next_game(self, source: str = LOCAL, fate: Fate | None = None) -> Table:
        """The next game at this table (same seats and mode), followed."""
        assert self.table is not None, "no game to follow on from"
        return self.switch(self.table.next_game(fate=fate, source=source), source)

    def end(self) -> None:
        """The operator ends the game unfinished (it takes nothing more)."""
        if self.table is not None:
            self.table.end()

    def close(self) -> None:
        """Follow no game any more (a session made for one panel or tool,
        done with): its table no longer tells it anything."""
        if self.table is not None:
            self.table.unsubscribe(self._committed)
        self._listeners.clear()

    def tick(self) -> None:
        """Let time act at the table (a countdown running out); a refusal or
        a store that cannot take it is logged, and the table plays on."""
        if self.table is None:
            return
        try:
            self.table.tick()
        except (RuleError, StoreError) as exc:
            log.warning("the table could not act on time: %s", exc)
