"""One game at the table: the one entry point every input uses.

Touch, buttons, phones and replay scripts all call :meth:`Table.execute` with
a command and the source it came from. The engine validates it; the accepted
events, with any random outcomes the engine then needs, are committed to the
store in one transaction; only then are listeners told (a :class:`Committed`:
the table, the events just stored and the public view after them, computed
once for all of them), so no view ever shows an effect that a power cut could
take back.

What every listener asks after a commit (the public view, the open ballot,
the legal commands, each seat's phone commands, and whatever a listener
keeps with :meth:`Table.per_commit`: a language's status line) is worked out
once per change of state, however many listeners ask: every fold of an
event, a rebuild (Undo, a refused write) and the end of the game start
afresh. The log's lines are built as events are logged, never again from
the start (:class:`_LogLines`).

Undo is an event too: ``{"type": "undo"}`` marks the latest effective command
as undone, and state is the fold of every event outside undone commands. In
keeper mode a command that showed someone a hidden card, or ended the game
(the end shows everything the app held), cannot be undone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, cast

from ..games import spec_for
from ..games.base import KEEPER, Command, Engine, Event, Fate, RuleError, Setup
from ..games.spec import GameSpec
from ..games.views import BallotSpec, Claim, LogLine, TableFacts, Timer, View
from ..i18n import Messages
from .ballot import ABORT, CLOSE, VOTE, BallotBox
from .game_clock import SAVE_EVERY, GameClock
from .seats import clean_name, normalise_seats, seat_names
from .settings import normalise_table_settings
from .store import DamagedGame, EventStore, GameRecord, StoreError

if TYPE_CHECKING:
    from ..games.base import BuzzerEngine, GavelEngine

# Where a command comes from decides what it may do:
LOCAL = "local"  # trusted local callers: scripts, tests, tools
OPERATOR = "kiosk"  # the shared screen: acts for any seat, but never makes a
# choice that depends on a hidden hand (keeper mode)
SEAT_SOURCE = "seat:"  # "seat:3": a phone, "seat:3:gpio" a seat's buttons: that seat only
CLOCK = "clock"  # the table itself, when time runs out (see Table.tick)
MAX_COMMAND_BYTES = 4096
PUBLIC_LOG_LINES = 30  # the latest log lines in the public view
_MAX_CHANCE_STEPS = 64

UNDO = "undo"
RENAME = "rename"  # a player's new name: the table's, not the game's
RENAMES_PER_SEAT = 20  # a phone's renames in one game, at most (the kiosk's: any)


@dataclass(frozen=True)
class Committed:
    """What a listener is told after a commit: the command's ``source``
    (``CLOCK``: time ran out), its events, and the public view after them.
    ``view`` is shared by every listener: copy it before adding to it."""

    table: Table
    source: str
    events: tuple[Event, ...]
    view: View


Listener = Callable[[Committed], None]


def seat_source(seat: int, device: str | None = None) -> str:
    """The source of a seat's own input: "seat:3" (its phone), or
    "seat:3:gpio" for one of its devices. Each is a channel of its own: a
    vote may be changed only from the channel that cast it."""
    return f"{SEAT_SOURCE}{seat}" if device is None else f"{SEAT_SOURCE}{seat}:{device}"


class Table:
    def __init__(
        self,
        store: EventStore,
        game_id: int,
        setup: Setup,
        engine: Engine,
        fate: Fate | None,
        clock: GameClock,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.setup = setup
        self.engine = engine
        self.fate = fate or Fate()
        self.clock = clock
        self.wall = wall  # the store's timestamps, shown in the history
        self._saved_time = self.clock()
        self.log: list[tuple[int, Event]] = []
        self.undone: set[int] = set()
        self.next_command = 0
        self.state: Any = None
        self.box = self._new_box()
        self._listeners: list[Listener] = []
        self.ended = False  # the operator ended it: it takes nothing more
        self._revision = 0  # changes of state so far: what per_commit keys on
        self._memo: dict[Any, Any] = {}
        self._memo_revision = -1
        self._lines = _LogLines(self)
        # Command numbers by kind, kept as the log grows (no walk of the log
        # per commit): the effective ones, oldest first (Undo takes back the
        # last), and each command's events.
        self._effective: list[int] = []
        self._events_of: dict[int, list[dict[str, Any]]] = {}
        self._renames: dict[int, int] = {}  # renames so far, by seat

    # -- creating and resuming ------------------------------------------------
    @classmethod
    def start(
        cls,
        store: EventStore,
        setup: Setup,
        fate: Fate | None = None,
        clock: Callable[[], float] = time.monotonic,
        source: str = LOCAL,
        wall: Callable[[], float] = time.time,
    ) -> Table:
        """Create a new game (any unfinished one is kept as abandoned). Its
        time (see :mod:`.game_clock`) moves with ``clock``."""
        engine = spec_for(setup.game).engine
        normalise_seats(setup)
        normalise_table_settings(setup)
        state = engine.new_state(setup)
        fate = fate or Fate()
        events = _run_chance(engine, state, fate, [])
        command = {"type": "start"}
        game_id = store.create_game(setup.to_json(), command, source, events, wall())
        table = cls(store, game_id, setup, engine, fate, GameClock(clock(), clock), wall)
        table.state = state
        table._logged([(0, e) for e in events])
        table.next_command = 1
        return table

    def next_game(self, fate: Fate | None = None, source: str = LOCAL) -> Table:
        """Start the next game at this table: same seats and mode, with the
        options the game carries over (the engine says which: the winner
        plays first, say)."""
        setup = Setup(
            game=self.setup.game,
            seats=[dict(s) for s in self.setup.seats],
            mode=self.setup.mode,
            options=self.engine.next_game_options(self.state),
            table=dict(self.setup.table),
        )
        return Table.start(
            self.store, setup, fate=fate, clock=self.clock.elapsed, source=source, wall=self.wall
        )

    @classmethod
    def resume(
        cls,
        store: EventStore,
        game_id: int | None = None,
        fate: Fate | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> Table | None:
        """Rebuild a game from its events: the given one, or the unfinished
        one. DamagedGame if its rows do not rebuild it."""
        record = store.game(game_id) if game_id is not None else store.active_game()
        if record is None:
            return None
        return cls.from_record(store, record, fate, clock, wall)

    @classmethod
    def from_record(
        cls,
        store: EventStore,
        record: GameRecord,
        fate: Fate | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> Table:
        """The game rebuilt from its stored rows, and shown once, as a screen
        would. Rows that do not fold, whatever the engine raises on them (a
        missing field, an unknown event), are a DamagedGame: the game cannot
        be played on, and nothing else is wrong. Its time goes on from the
        latest the store holds for it (downtime does not count, see
        :mod:`.game_clock`)."""
        setup = stored_setup(record)
        try:
            start = GameClock(store.game_time(record.id), clock)
        except StoreError as exc:
            raise DamagedGame(record.id, f"its commands do not give its time ({exc})") from exc
        table = cls(store, record.id, setup, spec_for(setup.game).engine, fate, start, wall)
        try:
            logged = store.events(record.id)
            table.undone = {e["command"] for _, e in logged if e["type"] == UNDO}
            table._logged(logged)
            table.next_command = 1 + max((n for n, _ in table.log), default=0)
            table._effective = [
                n for n in range(1, table.next_command) if table._counts_for_undo(n)
            ]
            table._rebuild()
            table.public_view()
            table.legal_commands()
        except DamagedGame:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of the engine on these rows
            raise DamagedGame(record.id, f"its events do not rebuild it ({exc!r})") from exc
        return table

    def _logged(self, entries: list[tuple[int, dict[str, Any]]]) -> None:
        """Events just stored join the log, and the indexes kept on it."""
        self._state_changed()
        for number, event in entries:
            self.log.append((number, event))
            self._events_of.setdefault(number, []).append(event)
            if event["type"] == RENAME:
                self._renames[event["seat"]] = self._renames.get(event["seat"], 0) + 1

    def _counts_for_undo(self, number: int) -> bool:
        """Whether Undo may take command ``number`` back: it is no undo and
        no rename, and is not undone."""
        events = self._events_of.get(number, [])
        return number not in self.undone and all(e["type"] not in (UNDO, RENAME) for e in events)

    def per_commit(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make`` gives, worked out once per change of the table's
        state (a commit, an Undo, the end) however many ask for ``key``:
        a listener's derived text, say. Never for what moves with time
        alone (a timer's time left)."""
        if self._memo_revision != self._revision:
            self._memo, self._memo_revision = {}, self._revision
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def _state_changed(self) -> None:
        self._revision += 1

    def _rebuild(self) -> None:
        """State is the fold of every event outside undone commands."""
        self._state_changed()
        self.state = self.engine.new_state(self.setup)
        self.box = self._new_box()
        for number, event in self.log:
            if number not in self.undone and event["type"] != UNDO:
                self._apply(event)

    def public_history(self) -> list[View]:
        """The game's public view after each of its effective events, from the
        start: what a chart of the game is drawn from (at its end)."""
        state = self.engine.new_state(self.setup)
        views = []
        for number, event in self.log:
            if number in self.undone or event["type"] in (UNDO, VOTE, ABORT, RENAME):
                continue
            self.engine.apply(state, event)
            views.append(self.engine.public_view(state))
        return views

    def _new_box(self) -> BallotBox:
        return BallotBox(locked=self.setup.table.get("votes") == "locked")

    def _apply(self, event: Event) -> None:
        """Fold one event: ballot events into the ballot box, a new name into
        the seats, the rest into the game."""
        self._state_changed()
        if event["type"] in (VOTE, ABORT):
            self.box.record(event)
        elif event["type"] == RENAME:
            self.setup.seats[event["seat"]]["name"] = event["name"]
        else:
            self.engine.apply(self.state, event)

    # -- the command entry point ------------------------------------------------
    def execute(self, command: Command, source: str = LOCAL) -> list[Event]:
        """Validate and carry out one command; return the events it produced.

        Time acts first: whatever the game had due by now (a timer that ran
        out since the last tick) is carried out, as its own entry, before the
        command is judged, so no command beats the clock.

        Raises RuleError for an illegal command and StoreError if the store
        cannot take the write; either way the command changed nothing."""
        if self.ended:
            raise RuleError("table.game_ended")
        _check_storable(command)
        seat = _bound_seat(source)
        kind = command.get("type")
        if seat is not None and (kind in (UNDO, ABORT) or command.get("seat") != seat):
            raise RuleError("command.not_your_seat")
        if source == OPERATOR and self.engine.private_choice(self.state, command):
            # Refused before the engine looks at the hand, so the refusal
            # itself tells the table nothing.
            raise RuleError("command.private_choice")
        if kind in (UNDO, RENAME):
            # Stored with the table's time, never a sender's: the store's
            # latest time is where the game's time resumes.
            command = {**command, "at": self.clock()}
            return (self._undo if kind == UNDO else self._rename)(command, source)
        if source != CLOCK:
            self.tick()
        # Time comes from the table's clock, never from whoever sent the command.
        command = {**command, "at": self.clock()}
        spec = self.ballot()
        if kind == VOTE:
            events = [
                self.box.vote_event(
                    spec, command, self.setup.players, source, shared=source == OPERATOR
                )
            ]
        elif kind == ABORT:
            events = [self.box.abort_event(spec)]
        elif kind == CLOSE:
            raise RuleError("command.unknown", command=CLOSE)  # only the table closes a ballot
        else:
            events = self.engine.decide(self.state, command)
        if seat is not None and any(e.get("seat") != seat for e in events):
            raise RuleError("command.not_your_seat")  # e.g. closing a window
        try:
            for event in events:
                self._apply(event)
            if kind == VOTE:
                assert spec is not None  # vote_event refused a vote with no ballot open
                closing = self.box.closing_command(spec, self.setup.players, OPERATOR)
                if closing is not None:
                    closing["at"] = command["at"]
                    for event in self.engine.decide(self.state, closing):
                        self._apply(event)
                        events.append(event)
            _run_chance(self.engine, self.state, self.fate, events)
            self._commit(command, source, events)
        except BaseException:
            self._rebuild()  # back to exactly what the store holds
            raise
        return events

    def _undo(self, command: Command, source: str) -> list[Event]:
        target = self._last_effective_command()
        if target is None:
            raise RuleError("undo.nothing")
        if self.store.latest_game_id() != self.game_id:
            raise RuleError("undo.newer_game")
        if self._would_rehide(target):
            raise RuleError("undo.would_rehide")
        event = {"type": UNDO, "command": target}
        self.undone.add(target)
        self._effective.pop()
        self._lines.take_back(target)
        try:
            self._rebuild()
            self._commit(command, source, [event])
        except BaseException:
            self.undone.discard(target)
            self._effective.append(target)
            self._lines.take_back(target)
            self._rebuild()
            raise
        return [event]

    def _rename(self, command: Command, source: str) -> list[Event]:
        """A player names themselves (from their phone) or the kiosk renames
        a seat. Names are public; the new one is kept in the game's set-up
        too (the history shows it), and Undo never takes it back."""
        seat = command.get("seat")
        if type(seat) is not int or not 0 <= seat < self.setup.players:
            raise RuleError("command.bad_seat", field="seat")
        name = clean_name(command.get("name"), seat)
        names = self.names
        if any(
            other.casefold() == name.casefold()
            for index, other in enumerate(names)
            if index != seat
        ):
            raise RuleError("setup.duplicate_name", name=name)
        if name == names[seat]:
            return []
        if source != OPERATOR and self._renames.get(seat, 0) >= RENAMES_PER_SEAT:
            raise RuleError("rename.too_many", limit=RENAMES_PER_SEAT)
        event = {"type": RENAME, "seat": seat, "name": name, "was": names[seat]}
        self._apply(event)
        try:
            self._commit(command, source, [event])
        except BaseException:
            self.setup.seats[seat]["name"] = event["was"]
            self._state_changed()
            raise
        return [event]

    @property
    def latest_entry(self) -> int | None:
        """The number of the command Undo would take back now (None: none)."""
        return self._last_effective_command()

    def _last_effective_command(self) -> int | None:
        """The command Undo would take back: not an undo, not a rename, not
        undone (Undo takes back the latest, so the effective ones are a stack)."""
        return self._effective[-1] if self._effective else None

    def _commit(self, command: Command, source: str, events: list[Event]) -> None:
        over = self.engine.is_over(self.state)
        renamed = any(e["type"] == RENAME for e in events)
        self.store.append(
            self.game_id,
            self.next_command,
            len(self.log),
            command,
            source,
            events,
            self.wall(),
            status="finished" if over else "active",
            result=self.engine.result(self.state) if over else None,
            setup=self.setup.to_json() if renamed else None,
        )
        self._logged([(self.next_command, e) for e in events])
        if self._counts_for_undo(self.next_command):
            self._effective.append(self.next_command)
        self.next_command += 1
        if self._listeners:
            committed = Committed(self, source, tuple(events), self.public_view())
            for listener in list(self._listeners):
                listener(committed)

    def tick(self) -> list[Event]:
        """Let time act: if the game has something due by now (a timer
        running out), carry it out. The host calls this every quarter
        second (``Session.tick``), every command calls it first; tests and
        replays call it after moving their clock."""
        if self.ended:
            return []
        now = self.clock()
        command = self.engine.due(self.state, now)
        if command is None:
            self._save_running_time(now)
            return []
        return self.execute(command, source=CLOCK)

    def _save_running_time(self, now: float) -> None:
        """While a timer runs, the game's time is saved every SAVE_EVERY
        seconds, so a power cut costs the timer at most that much."""
        if now - self._saved_time < SAVE_EVERY:
            return
        timer = self.engine.timer(self.state, now)
        if timer is not None and timer.get("running") and not self.is_over:
            self.store.save_game_time(self.game_id, now)
            self._saved_time = now

    def end(self) -> None:
        """The operator ends the game unfinished: the store keeps it in the
        history as abandoned, and nothing (a press, a phone, the clock) can
        act on it again."""
        if not self.is_over:
            self.store.abandon(self.game_id, self.wall())
        self.ended = True
        self._state_changed()

    # -- what leaves the table --------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    @property
    def names(self) -> list[str]:
        return seat_names(self.setup)

    @property
    def spec(self) -> GameSpec:
        """What the game declares: its traits, words, variants and screen."""
        return spec_for(self.setup.game)

    def ballot(self) -> BallotSpec | None:
        """The ballot the game has open (its id, eligible seats, choices), or None."""
        return cast(
            "BallotSpec | None",
            self.per_commit("ballot", lambda: self.engine.ballot(self.state)),
        )

    def voted(self) -> list[int]:
        """The seats that have voted in the open ballot (never what)."""
        public = self.box.public(self.ballot())
        return public["voted"] if public else []

    def timer(self) -> Timer | None:
        """The game's running timer as the table shows it, or None."""
        return self.engine.timer(self.state, self.clock())

    def private_choice(self, command: Command) -> bool:
        """Whether ``command`` is a choice only its seat may make, on its own
        channel (it depends on what only the seat knows)."""
        return self.engine.private_choice(self.state, command)

    def phone_commands(self, seat: int) -> list[Command]:
        """What the seat's phone offers: its votes (again, once it has voted
        from the phone, while it may change its vote), its private choices
        and the acknowledgements its game declares."""
        return cast(
            "list[dict[str, Any]]",
            self.per_commit(("phone_commands", seat), lambda: self._phone_commands(seat)),
        )

    def _phone_commands(self, seat: int) -> list[dict[str, Any]]:
        own = self.spec.traits.acknowledgements
        return [
            c
            for c in self.legal_commands()
            if c.get("seat") == seat
            and (c["type"] == VOTE or c["type"] in own or self.private_choice(c))
        ] + self.box.changes(self.ballot(), seat, seat_source(seat))

    def open_claim(self) -> Claim | None:
        """The claim a challenge buzzer answers now (``key``, ``claimant``,
        ``step``: the way play passes), for a game with that trait; else None."""
        if not self.spec.traits.challenge_buzzer:
            return None
        # The trait promises the engine answers it (spec.Traits).
        claim = cast("BuzzerEngine", self.engine).open_claim(self.state)
        return None if claim is None else {**claim, "key": (self.game_id, *claim["key"])}

    def gavel_command(self) -> Command | None:
        """The command the table's gavel input gives now, for a game with a
        gavel; else None (a knock on the table)."""
        if not self.spec.traits.gavel:
            return None
        # The trait promises the engine answers it (spec.Traits).
        return cast("GavelEngine", self.engine).gavel_command(self.state)

    def timer_command(self, resume: bool) -> Command | None:
        """The legal command that pauses (or, with ``resume``, resumes) the
        game's timer now, for a game with that trait; else None."""
        kinds = self.spec.traits.timer_pause
        if kinds is None or self.ended:
            return None
        kind = kinds[1] if resume else kinds[0]
        return next((c for c in self.legal_commands() if c["type"] == kind), None)

    @property
    def is_over(self) -> bool:
        return self.engine.is_over(self.state)

    def public_view(self) -> View:
        """What everyone at the table may see now: the game's public view,
        each player with their name, and the table's facts beside the game's
        own keys (views.TableFacts). Worked out once per change of state (see
        :meth:`per_commit`), but for the timer, read now: each call gives a
        dict of its own, whose members are shared."""
        view = cast(View, self.per_commit("public_view", self._public_view))
        return {**view, "timer": self.engine.timer(self.state, self.clock())}

    def _public_view(self) -> View:
        view = self.engine.public_view(self.state)
        for player, seat in zip(view["players"], self.setup.seats):
            player["name"] = seat["name"]
        log: list[LogLine] = [
            {"key": key, "args": args} for key, args in self._lines.latest(PUBLIC_LOG_LINES)
        ]
        facts: TableFacts = {
            "game_id": self.game_id,
            "ballot": self.box.public(self.ballot()),
            "timer": None,  # read at each call: see public_view
            "can_undo": self._can_undo(),
            "log": log,
        }
        view.update(facts)
        return view

    def status_line(self, lang: str) -> str:
        """The game's status line in ``lang`` (what the table waits for),
        worded once per change of state however many pages and screens show
        it: it reads no time left."""
        return cast(
            str,
            self.per_commit(
                ("status_line", lang),
                lambda: self.spec.words.status_line(self.public_view(), Messages(lang, self.names)),
            ),
        )

    def private_view(self, seat: int) -> View:
        if type(seat) is not int or not 0 <= seat < self.setup.players:
            raise RuleError("command.bad_seat", field="seat")
        view = self.engine.private_view(self.state, seat)
        view["name"] = self.setup.seats[seat]["name"]
        mine = self.box.cast(self.ballot()).get(seat)
        if mine is not None:
            view["ballot_vote"] = mine
        return view

    def legal_commands(self) -> Sequence[Command]:
        """Every command the table accepts now, for every seat: the game's,
        and a vote for each seat that has not voted in an open ballot."""
        return cast("Sequence[Command]", self.per_commit("legal", self._legal_commands))

    def _legal_commands(self) -> Sequence[Command]:
        votes = self.box.legal_votes(self.ballot())
        return tuple(self._engine_commands()) + tuple(votes)

    def _engine_commands(self) -> Sequence[Command]:
        """The game's own legal commands now (the engine asked once per change)."""
        return cast(
            "Sequence[Command]",
            self.per_commit("engine_legal", lambda: self.engine.legal_commands(self.state)),
        )

    def shared_commands(self) -> list[Command]:
        """The legal commands a shared screen may offer: none whose presence
        or absence would reveal something hidden (those go to the seat's
        phone), and every choice of an open ballot that is not private."""
        return cast("list[dict[str, Any]]", self.per_commit("shared", self._shared_commands))

    def _shared_commands(self) -> list[dict[str, Any]]:
        votes = self.box.legal_votes(self.ballot(), shared=True)
        return [
            c
            for c in chain(self._engine_commands(), votes)
            if not self.engine.private_choice(self.state, c)
        ]

    def _can_undo(self) -> bool:
        target = self._last_effective_command()
        return target is not None and not self._would_rehide(target)

    def _would_rehide(self, target: int) -> bool:
        """Whether undoing command ``target`` would hide again what someone
        has seen: an event of it showed a hidden card (the engine says which),
        or, in keeper mode, it ended the game, and the end shows the table
        everything the app held (roles, agendas, hands)."""
        if self.setup.mode == KEEPER and self.engine.is_over(self.state):
            return True  # nothing follows the end: target ended the game
        events = self._events_of.get(target, [])
        return any(self.engine.reveals_hidden(self.state, e) for e in events)

    def log_lines(self) -> list[tuple[str, dict[str, Any]]]:
        """The public log: one translatable line per event, undone ones
        marked. A seat's vote makes one line per ballot: a changed vote makes
        none, so the log never tells the table that someone changed theirs."""
        return self._lines.all()


class _LogLines:
    """The public log's lines, built as events are logged: each event is
    described once. An Undo marks the lines of the command it takes back
    (always the latest effective one), so the lines from that command on
    are built again from the ballot as it stood there; nothing before it
    changes."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lines: list[tuple[str, dict[str, Any]]] = []
        self.folded = 0  # log entries folded into lines so far
        self.voted: set[int] = set()  # seats with a vote standing in the open ballot
        # Where each command's entries begin: (log index, lines so far, voted then).
        self.starts: dict[int, tuple[int, int, frozenset[int]]] = {}

    def all(self) -> list[tuple[str, dict[str, Any]]]:
        self._catch_up()
        return list(self.lines)

    def latest(self, count: int) -> list[tuple[str, dict[str, Any]]]:
        self._catch_up()
        return self.lines[-count:]

    def take_back(self, number: int) -> None:
        """Command ``number`` was marked undone (or unmarked, a refused Undo):
        its lines and all after them are built again, at the next look."""
        start = self.starts.get(number)
        if start is None:  # not folded yet
            return
        self.folded, kept, voted = start
        del self.lines[kept:]
        self.voted = set(voted)
        while self.starts and next(reversed(self.starts)) >= number:
            self.starts.popitem()

    def _catch_up(self) -> None:
        table = self.table
        for number, event in table.log[self.folded :]:
            if number not in self.starts:
                self.starts[number] = (self.folded, len(self.lines), frozenset(self.voted))
            self.folded += 1
            line = self._line(number, event)
            if line is not None:
                self.lines.append(line)

    def _line(self, number: int, event: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        undone = number in self.table.undone
        kind = event["type"]
        if kind == UNDO:
            return ("log.undo", {})
        line: tuple[str, dict[str, Any]] | None
        if kind == VOTE:  # who voted, never what
            seat = event["seat"]
            line = None if seat in self.voted else ("log.vote", {"player": seat})
            if not undone:
                self.voted.add(seat)
        elif kind in (ABORT, CLOSE):
            self.voted.clear()
            line = ("log.ballot_abort", {}) if kind == ABORT else self.table.engine.describe(event)
        elif kind == RENAME:
            line = ("log.rename", {"was": event["was"], "name": event["name"]})
        else:
            line = self.table.engine.describe(event)
        if line is None:
            return None
        key, args = line
        return (key, {**args, "undone": undone})


def stored_setup(record: GameRecord) -> Setup:
    """The set-up a game was stored with, checked as a new game's seats and
    table settings are (a game stored before a setting existed gets its
    default); DamagedGame when the row does not read as a set-up of a game
    this version knows."""
    try:
        if record.setup is None:
            raise ValueError("its set-up or result is not JSON")
        setup = Setup.from_json(record.setup)
        spec_for(setup.game)
        normalise_seats(setup)
        normalise_table_settings(setup)
    except (KeyError, TypeError, ValueError, RuleError) as exc:
        raise DamagedGame(record.id, f"its set-up does not read ({exc!r})") from exc
    return setup


def _check_storable(command: Any) -> None:
    """A command must be a JSON object the store can keep as it came: no
    NaN or infinity either (Python's json writes them, SQLite's JSON cannot
    read them back, and a phone's body may carry them)."""
    if not isinstance(command, dict):
        raise RuleError("command.not_an_object")
    try:
        size = len(json.dumps(command, ensure_ascii=False, allow_nan=False).encode("utf-8"))
    except (TypeError, ValueError, RecursionError):  # a lone surrogate is a ValueError
        raise RuleError("command.not_json") from None
    if size > MAX_COMMAND_BYTES:
        raise RuleError("command.too_large")


def _bound_seat(source: str) -> int | None:
    """The seat a source is bound to, or None for the kiosk and local callers."""
    if not source.startswith(SEAT_SOURCE):
        return None
    number = source[len(SEAT_SOURCE) :].split(":", 1)[0]
    if not number.isdigit():
        raise RuleError("command.not_your_seat")
    return int(number)


def _run_chance(engine: Engine, state: Any, fate: Fate, events: list[Event]) -> list[Event]:
    """Let the engine draw every random (or forced) outcome it now waits for."""
    for _ in range(_MAX_CHANCE_STEPS):
        event = engine.chance(state, fate)
        if event is None:
            return events
        engine.apply(state, event)
        events.append(event)
    raise RuntimeError("the engine kept asking for chance outcomes")
