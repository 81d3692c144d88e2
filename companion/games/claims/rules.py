"""Characters and actions as data plus small functions.

The claim / challenge / block machinery (``engine.py`` and the modules it
calls) knows nothing about particular characters: a ruleset lists the
characters in the court, the actions (with the character each claims, its
cost, whether it targets, who may block it and with which characters) and
one small ``resolve`` function per action; a ruleset adds pieces of its own
(tokens, fees) through ``Hooks``. A game with sets of characters builds a
ruleset for each set over the same machinery. The general actions every
ruleset of the family shares are in ``general.py``; a game's own characters
are in its package.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..base import RuleError
from .state import ClaimState, Turn

# With this many coins at the start of a turn, a Coup is the only action.
FORCED_COUP_AT = 10

Resolve = Callable[[ClaimState, Turn], None]
# The extra cost of a failed claim, given the challenger (None: nobody challenged).
OnFailed = Callable[[ClaimState, Turn, int | None], None]


@dataclass(frozen=True)
class Action:
    name: str
    resolve: Resolve
    character: str | None = None  # the character claimed; None: a general action
    cost: int = 0  # paid when declared
    targeted: bool = False
    blockers: tuple[str, ...] = ()  # characters that may block it
    target_blocks_only: bool = True  # False: any other living player may block
    draw: int = 0  # cards an exchange draws from the court
    pay_to_target: bool = False  # the cost goes to the target, not the treasury
    needs: int = 0  # coins needed to declare it, if more than the cost
    every_other: bool = False  # hits every other living player, each may block
    extra: tuple[str, ...] = ()  # more fields the declaration names ("to", "role")
    join: str | None = None  # "claim": others may claim it too; "pay": pay to join
    join_fee: int = 0  # what joining costs ("pay")
    on_failed: OnFailed | None = None  # the extra cost of a claim caught bluffing
    # What still happens when a block stands: a block cancels only the part
    # of the action it blocks (a swap with a player still draws from the court).
    # None: the whole action is cancelled (Coup), with no refund.
    on_blocked: Resolve | None = None
    choose: Callable[[ClaimState, Turn, Any], None] | None = None  # after a choice
    again: bool = False  # the actor then takes another action
    self_target: bool = False  # the actor may be the player named
    # More validation: ``check`` gives the refusal of a declaration (or
    # None) from what ``check_key`` says of the state and the declaration
    # alone, so the commands kept by that key are the ones it allows.
    check: Callable[[Any, dict[str, Any]], RuleError | None] | None = None
    check_key: Callable[[ClaimState], Any] | None = None
    price: int = field(init=False)  # coins the actor must hold to declare it
    plain: bool = field(init=False)  # names nobody and nothing, no check: one command

    def __post_init__(self) -> None:
        if (self.check is None) != (self.check_key is None):
            raise ValueError(f"{self.name}: a check decides by its check_key")
        object.__setattr__(self, "price", max(self.cost, self.needs))
        object.__setattr__(
            self, "plain", not (self.targeted or self.extra or self.check is not None)
        )


class Hooks:
    """What a ruleset adds to the claim machinery beyond its characters'
    actions and reactions. The machinery calls these at fixed points and
    knows nothing of what they mean (a ruleset without them has ``hooks``
    None): pieces of the ruleset's own kept in the state (``extras``), a fee
    on claiming a character, players an action cannot reach, and something
    that comes due at the end of its holder's turn which named characters
    may stop, then or at the start of that turn."""

    # The kind of the window, phase and claim of what comes due, and the
    # action it is named by in messages.
    due_kind = "due"
    due_action = "due"

    def new_extras(self) -> Any:
        """The ruleset's own pieces, kept in the state as ``extras``."""
        return None

    def public(self, s: ClaimState) -> dict[str, Any]:
        """What the ruleset adds to the public view."""
        return {}

    # -- a fee on claiming a character --------------------------------------
    def fee_key(self, s: ClaimState) -> Any:
        """None while no fee is in force, else what the fees depend on (the
        commands kept for a situation are kept by it)."""
        return None

    def fee(self, s: ClaimState, seat: int, character: str | None, counter: bool) -> int:
        """What ``seat`` pays before claiming ``character``; ``counter``: the
        claim is a block or a reaction, not an action."""
        return 0

    def pay_fee(self, s: ClaimState, seat: int, character: str | None, counter: bool) -> None:
        """Pay the fee ``fee`` names (the seat can: it was checked)."""

    def unpaid(self, character: str | None) -> RuleError:
        """The refusal of a claim whose seat cannot pay its fee (a ruleset
        may name its fee in its own words)."""
        return RuleError("coup.fee_unpaid", character=character)

    # -- who an action cannot reach -----------------------------------------
    def reach_key(self, s: ClaimState) -> Any:
        """None while every player may be reached, else what reach depends on."""
        return None

    def check_reach(self, s: ClaimState, action: Action, seat: int, target: int) -> None:
        """Raise the refusal if ``action`` by ``seat`` cannot reach ``target``."""

    # -- what comes due ---------------------------------------------------------
    def due(self, s: ClaimState, seat: int) -> tuple[str, ...] | None:
        """None if nothing comes due at the end of ``seat``'s turn, else the
        characters that may stop it."""
        return None

    def due_settled(self, s: ClaimState, seat: int, stopped: bool) -> None:
        """What came due for ``seat`` was stopped (a block that stood) or not."""

    def eliminated(self, s: ClaimState, seat: int) -> None:
        """``seat`` is out: what it held of the ruleset's pieces lapses."""


@dataclass(frozen=True)
class Reaction:
    """A character claimed in reaction rather than as an action. ``when``:
    "life" (on losing a life), "life_not_coup" (the same, but not to a Coup)
    or "elimination" (on another player's elimination: those whose claims
    stand share the eliminated player's coins). ``reward``: what a life
    reaction that stands gives its claimant."""

    when: str
    reward: Callable[[ClaimState, int], None] | None = None


@dataclass(frozen=True)
class Ruleset:
    name: str
    characters: tuple[str, ...]
    actions: dict[str, Action]
    copies: int = 3  # copies of each character in the court
    coins: int = 50  # coins in the game
    start_coins: int = 2
    hand_size: int = 2
    forced_coup_at: int = FORCED_COUP_AT  # at the start of a turn, with this many: Coup only
    coup_action: str = "coup"
    action_order: tuple[str, ...] = field(default=())
    # Characters claimed in reaction rather than as an action.
    reactions: dict[str, Reaction] = field(default_factory=dict)
    unlimited_treasury: bool = False
    hooks: Hooks | None = None  # what the ruleset adds to the machinery (see Hooks)
    window_phases: frozenset[str] = field(init=False)  # phases that wait on a window
    on_elimination: tuple[str, ...] = field(init=False)  # the "elimination" reactions
    on_life: tuple[str, ...] = field(init=False)  # reactions to a lost life
    on_coup: tuple[str, ...] = field(init=False)  # those open to a Coup's victim
    cards: tuple[str, ...] = field(init=False)  # the court, unshuffled
    menu: tuple[Action, ...] = field(init=False)  # the actions in menu order

    def __post_init__(self) -> None:
        object.__setattr__(self, "menu", tuple(self.actions[n] for n in self.action_order))
        due = () if self.hooks is None else (self.hooks.due_kind,)
        object.__setattr__(self, "window_phases", frozenset(("block", "join", "elimination", *due)))
        object.__setattr__(
            self,
            "on_elimination",
            tuple(c for c, r in self.reactions.items() if r.when == "elimination"),
        )
        object.__setattr__(
            self,
            "on_life",
            tuple(c for c, r in self.reactions.items() if r.when in ("life", "life_not_coup")),
        )
        object.__setattr__(
            self, "on_coup", tuple(c for c, r in self.reactions.items() if r.when == "life")
        )
        object.__setattr__(
            self, "cards", tuple(c for c in self.characters for _ in range(self.copies))
        )

    def deck(self) -> list[str]:
        """A fresh list of the court's cards, every copy of every character."""
        return list(self.cards)
