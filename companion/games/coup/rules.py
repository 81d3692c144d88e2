"""Characters and actions as data plus small functions.

The claim / challenge / block machinery in ``engine.py`` knows nothing about
particular characters: a ruleset lists the characters in the court, the
actions (with the character each claims, its cost, whether it targets, who
may block it and with which characters) and one small ``resolve`` function per
action. Coup: Rebellion G54 is another ruleset over the same machinery.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .state import CoupState, Turn

Resolve = Callable[[CoupState, Turn], None]


@dataclass(frozen=True)
class Action:
    name: str
    resolve: Resolve
    character: str | None = None     # the character claimed; None: a general action
    cost: int = 0                    # paid when declared
    targeted: bool = False
    blockers: tuple[str, ...] = ()   # characters that may block it
    target_blocks_only: bool = True  # False: any other living player may block

    @property
    def blockable(self) -> bool:
        return bool(self.blockers)


@dataclass(frozen=True)
class Ruleset:
    name: str
    characters: tuple[str, ...]
    actions: dict[str, Action]
    copies: int = 3                  # copies of each character in the court
    coins: int = 50                  # coins in the game
    start_coins: int = 2
    hand_size: int = 2
    forced_coup_at: int = 10         # at the start of a turn, with this many: Coup only
    coup_action: str = "coup"
    exchange_draw: int = 2
    min_players: int = 2
    max_players: int = 6
    action_order: tuple[str, ...] = field(default=())

    def deck(self) -> list[str]:
        return [c for c in self.characters for _ in range(self.copies)]

    def blocking_characters(self) -> frozenset[str]:
        return frozenset(c for a in self.actions.values() for c in a.blockers)


# -- resolutions of the original game's actions ------------------------------

def income(s: CoupState, t: Turn) -> None:
    s.gain(t.actor, 1)
    t.stage = "done"


def foreign_aid(s: CoupState, t: Turn) -> None:
    s.gain(t.actor, 2)
    t.stage = "done"


def tax(s: CoupState, t: Turn) -> None:
    s.gain(t.actor, 3)
    t.stage = "done"


def lose_influence(s: CoupState, t: Turn) -> None:
    """Coup and Assassinate: the target loses one influence, if any is left."""
    if s.alive(t.target):
        s.queue_loss(t.target)
    t.stage = "done"


def steal(s: CoupState, t: Turn) -> None:
    s.transfer(t.target, t.actor, 2)
    t.stage = "done"


def exchange(s: CoupState, t: Turn) -> None:
    # With the real cards hidden on the table (physical mode) the app has
    # nothing to do: the court keeps its size.
    t.stage = "exchange_draw" if s.keeper else "done"


DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = (
    "duke", "assassin", "captain", "ambassador", "contessa")

COUP = Ruleset(
    name="coup",
    characters=(DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA),
    actions={
        "income": Action("income", income),
        "foreign_aid": Action("foreign_aid", foreign_aid, blockers=(DUKE,),
                              target_blocks_only=False),
        "coup": Action("coup", lose_influence, cost=7, targeted=True),
        "tax": Action("tax", tax, character=DUKE),
        "assassinate": Action("assassinate", lose_influence, character=ASSASSIN,
                              cost=3, targeted=True, blockers=(CONTESSA,)),
        "steal": Action("steal", steal, character=CAPTAIN, targeted=True,
                        blockers=(CAPTAIN, AMBASSADOR)),
        "exchange": Action("exchange", exchange, character=AMBASSADOR),
    },
    action_order=("income", "foreign_aid", "coup", "tax", "assassinate",
                  "steal", "exchange"),
)
