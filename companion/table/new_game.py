"""What the home screen asks before a game starts, as plain data: the game,
the players in seat order with how each one votes, the secrecy mode, the
kiosk's language and the variants the game offers. It checks nothing the
engine checks: ``setup()`` builds the Setup and ``Table.start`` refuses a bad
one with a RuleError the screen can word."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..games import names, spec_for
from ..games.base import KEEPER, PHYSICAL, Setup
from ..games.spec import Variant
from .seats import INPUTS

MODES = (PHYSICAL, KEEPER)


def game_order() -> list[str]:
    """The games the home screen offers, in its order."""
    return names()


def variants_of(game: str) -> tuple[Variant, ...]:
    """The variants a table may choose at the kiosk (the game's spec says
    which): option and the values a tap steps through, the engine's default
    first. Options only tests and scripts set (a fixed first player, a deal)
    are not offered."""
    return spec_for(game).variants


def player_limits(game: str) -> tuple[int, int]:
    """The fewest and most players the game seats (its spec's)."""
    spec = spec_for(game)
    return spec.min_players, spec.max_players


@dataclass
class NewGame:
    game: str = field(default_factory=lambda: game_order()[0])
    names: list[str] = field(default_factory=lambda: ["", "", ""])
    inputs: list[str] = field(default_factory=lambda: ["kiosk"] * 3)
    mode: str = PHYSICAL
    lang: str = "en"
    options: dict[str, Any] = field(default_factory=dict)
    guide: bool = False  # a first game: the kiosk explains each new kind of step

    def choose_game(self, game: str) -> None:
        """Another game: the player count moves into its range, and its own
        variants start at their defaults."""
        self.game = game
        low, high = player_limits(game)
        self.set_players(min(max(len(self.names), low), high))
        self.options = {}

    def set_players(self, count: int) -> None:
        low, high = player_limits(self.game)
        count = min(max(count, low), high)
        self.names = (self.names + [""] * count)[:count]
        self.inputs = (self.inputs + ["kiosk"] * count)[:count]

    def move_up(self, seat: int) -> None:
        """The player in ``seat`` changes places with the one before (seat
        order is the order round the table)."""
        if 0 < seat < len(self.names):
            for seats in (self.names, self.inputs):
                seats[seat - 1], seats[seat] = seats[seat], seats[seat - 1]

    def next_input(self, seat: int) -> str:
        """Step the seat's input: kiosk, buttons, pad, phone, and round again."""
        self.inputs[seat] = INPUTS[(INPUTS.index(self.inputs[seat]) + 1) % len(INPUTS)]
        return self.inputs[seat]

    def variants(self) -> list[tuple[str, Any]]:
        """The game's variants with their current values."""
        return [
            (option, self.options.get(option, values[0]))
            for option, values in variants_of(self.game)
        ]

    def next_value(self, option: str) -> Any:
        values = dict(variants_of(self.game))[option]
        current = self.options.get(option, values[0])
        step = values.index(current) + 1 if current in values else 0
        self.options[option] = values[step % len(values)]
        return self.options[option]

    def setup(self, default_name: Callable[[int], str]) -> Setup:
        """The Setup to start; an empty name becomes ``default_name`` of the
        seat's number ("Player 3"; in the reader's own digits: "بازیکن ۳")."""
        seats = [
            {
                "name": name.strip() or default_name(seat + 1),
                "lang": self.lang,
                "input": source,
            }
            for seat, (name, source) in enumerate(zip(self.names, self.inputs))
        ]
        options = {k: v for k, v in self.options.items() if v is not None}
        table = {"guide": True} if self.guide else {}
        return Setup(game=self.game, seats=seats, mode=self.mode, options=options, table=table)

    @classmethod
    def like(cls, setup: Setup) -> NewGame:
        """The choices that made ``setup``: the home screen starts from the
        last game's table."""
        offered = dict(variants_of(setup.game))
        # Only values the home screen offers: a game set up elsewhere (a
        # command line's own seconds, a chosen set of characters) starts the
        # choice from the default instead.
        return cls(
            game=setup.game,
            names=[s["name"] for s in setup.seats],
            inputs=[s.get("input", "kiosk") for s in setup.seats],
            mode=setup.mode,
            lang=setup.seats[0].get("lang", "en") if setup.seats else "en",
            options={
                k: v for k, v in setup.options.items() if k in offered and _offered(v, offered[k])
            },
            guide=setup.table.get("guide") is True,
        )


def _offered(value: Any, values: tuple[Any, ...]) -> bool:
    """Whether ``value`` is one of ``values`` (True is not 1, 10.0 is not 10)."""
    return any(type(value) is type(v) and value == v for v in values)
