"""The engine contract every game follows (see docs/architecture.md).

A game engine is a pure state machine with no I/O, no clock and no global
randomness:

* ``new_state(setup)`` builds the state before any event;
* ``decide(state, command)`` validates a command against the state and returns
  the events it produces, or raises :class:`RuleError` and changes nothing;
* ``apply(state, event)`` folds one event into the state (in place), so state is
  the fold of the event log;
* ``chance(state, fate)`` returns the event recording a random outcome when the
  state waits for one (a deal, a draw), or ``None``; the outcome is written into
  the event, so replaying the log needs no random generator;
* ``public_view(state)`` and ``private_view(state, seat)`` are the only ways
  state leaves the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .views import BallotSpec, Claim, Timer, View

PHYSICAL = "physical"
KEEPER = "keeper"
MODES = (PHYSICAL, KEEPER)

Command = dict[str, Any]
Event = dict[str, Any]


class FrozenCommand(dict):
    """A command handed out by an engine's ``legal_commands``: engines share
    these between calls, so they refuse changes (copy with ``dict(c)``)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("legal commands are shared; copy one with dict() to change it")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> FrozenCommand:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenCommand:
        return self

    def __reduce__(self) -> tuple[type[FrozenCommand], tuple[dict[str, Any]]]:
        return (FrozenCommand, (dict(self),))


class RuleError(Exception):
    """An illegal command. Carries a message key and arguments, never prose,
    so every person sees the reason in their own language."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args

    def __repr__(self) -> str:
        return f"RuleError({self.key!r}, {self.args_!r})"


@dataclass
class Setup:
    """Everything fixed when a game is created: who sits where, the secrecy
    mode and the game's options."""

    game: str
    seats: list[dict[str, Any]]
    mode: str = PHYSICAL
    options: dict[str, Any] = field(default_factory=dict)
    # How the table runs, whatever the game (see companion/table/settings.py).
    table: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.seats)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "mode": self.mode,
            "options": self.options,
            "table": self.table,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        return cls(
            game=data["game"],
            seats=list(data["seats"]),
            mode=data.get("mode", PHYSICAL),
            options=dict(data.get("options") or {}),
            table=dict(data.get("table") or {}),
        )


class Fate:
    """The source of random outcomes for chance steps.

    A script (a fixed deal, a list of draws) is consumed first, so tests and
    bug reports can reproduce a table exactly; anything unscripted comes from
    the generator: a seeded one for reproducible runs, the operating system's
    otherwise.
    """

    def __init__(self, seed: int | None = None, script: dict[str, Any] | None = None) -> None:
        self.rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self.script: dict[str, Any] = {
            k: (list(v) if isinstance(v, list) else v) for k, v in (script or {}).items()
        }

    def take(self, key: str) -> Any:
        """The whole scripted value for ``key`` (used once), or None."""
        return self.script.pop(key, None)

    def next(self, key: str) -> Any:
        """The next element of the scripted list ``key``, or None when the
        script has none left."""
        queue = self.script.get(key)
        if queue is None:
            return None
        if not isinstance(queue, list):
            raise RuleError("setup.bad_deal")
        return queue.pop(0) if queue else None


class Engine(Protocol):
    name: str
    min_players: int
    max_players: int

    def check_setup(self, setup: Setup) -> None: ...
    def new_state(self, setup: Setup) -> Any: ...
    def decide(self, state: Any, command: Command) -> list[Event]: ...
    def apply(self, state: Any, event: Event) -> None: ...
    def chance(self, state: Any, fate: Fate) -> Event | None: ...
    def reveals_hidden(self, state: Any, event: Event) -> bool: ...
    def legal_commands(self, state: Any) -> Sequence[Command]: ...
    def private_choice(self, state: Any, command: Command) -> bool: ...
    def is_over(self, state: Any) -> bool: ...
    def ballot(self, state: Any) -> BallotSpec | None: ...
    def timer(self, state: Any, now: float) -> Timer | None: ...
    def due(self, state: Any, now: float) -> Command | None: ...
    def result(self, state: Any) -> dict[str, Any] | None: ...
    def next_game_options(self, state: Any) -> dict[str, Any]: ...
    def public_view(self, state: Any) -> View: ...
    def private_view(self, state: Any, seat: int) -> View: ...
    def describe(self, event: Event) -> tuple[str, dict[str, Any]] | None: ...


class BuzzerEngine(Engine, Protocol):
    """The engine of a game with the ``challenge_buzzer`` trait (spec.Traits)."""

    def open_claim(self, state: Any) -> Claim | None: ...


class GavelEngine(Engine, Protocol):
    """The engine of a game with the ``gavel`` trait (spec.Traits)."""

    def gavel_command(self, state: Any) -> Command | None: ...


def checked_options(
    setup: Setup, name: str, low: int, high: int, defaults: dict[str, Any]
) -> dict[str, Any]:
    """The checks every game makes of a setup: player count, mode, known
    options, and the ``first`` option (a seat or "random"). Returns the
    options with the defaults filled in."""
    n = setup.players
    if not low <= n <= high:
        raise RuleError("setup.player_count", game=name, low=low, high=high, count=n)
    if setup.mode not in MODES:
        raise RuleError("setup.bad_mode", mode=str(setup.mode))
    if not isinstance(setup.options, dict):
        raise RuleError("setup.bad_field", field="options")
    options = {**defaults, **setup.options}
    unknown = set(options) - set(defaults)
    if unknown:
        raise RuleError("setup.unknown_option", option=sorted(unknown)[0])
    first = options.get("first", "random")
    if first != "random" and not (type(first) is int and 0 <= first < n):
        raise RuleError("setup.bad_option", option="first", value=str(first))
    return options


def first_seat(option: Any, fate: Fate, players: int) -> int:
    """The seat that starts: the option's, else a scripted one, else random."""
    if option != "random":
        return option
    first = fate.take("first")
    if first is None:
        return fate.rng.randrange(players)
    if type(first) is not int or not 0 <= first < players:
        raise RuleError("setup.bad_deal")
    return first


def same_items(given: Any, expected: list[str]) -> bool:
    """Whether a scripted list holds exactly the expected strings, in any order."""
    return (
        isinstance(given, list)
        and all(isinstance(x, str) for x in given)
        and sorted(given) == sorted(expected)
    )


def seat_of(command: Command, players: int, key: str = "seat") -> int:
    """The seat index a command names under ``key``, validated."""
    seat = command.get(key)
    if type(seat) is not int or not 0 <= seat < players:
        raise RuleError("command.bad_seat", field=key)
    return seat
