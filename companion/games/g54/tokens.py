"""G54's tokens, and the hooks through which they work in the claim machinery.

Four characters put a token in play (digest C2): the Mercenary a Disappear
token (its holder loses a life at the end of its next turn, unless a
Mercenary stops it), the Peacekeeper the Peacekeeping token (only a Coup
reaches its holder), the Foreign Consular a Treaty (its two holders may not
target each other, not even with a Coup) and the Customs Officer a Tax
(every other player pays the taxer 1 before claiming the taxed character).
The machinery asks these hooks who may be targeted, what a claim costs, what
comes due at a turn's end and what an elimination lapses; it never reads the
tokens themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import RuleError
from ..claims.rules import Action, Hooks
from ..claims.state import ClaimState

DISAPPEAR_TOKENS = 3  # the components: three Disappear tokens (digest C2)
MERCENARY = "mercenary"


@dataclass
class Tokens:
    """The tokens on the table (a game's ``extras``)."""

    disappear: dict[int, int] = field(default_factory=dict)  # holder -> Disappear tokens
    peacekeeper: int | None = None  # holder of the Peacekeeping token
    treaty: tuple[int, int] | None = None  # the two holders of a Treaty
    tax: tuple[int, str] | None = None  # (taxer, taxed character)


class TokenHooks(Hooks):
    """The tokens of one set of characters: ``in_play``, the tokens its
    characters put in play; ``stoppers``, the characters that stop a
    Disappear token (the Mercenary, if it is in the set)."""

    due_kind = "disappear"
    due_action = MERCENARY

    def __init__(self, in_play: tuple[str, ...], stoppers: tuple[str, ...]) -> None:
        self.in_play = in_play
        self.stoppers = stoppers

    def new_extras(self) -> Tokens:
        return Tokens()

    def public(self, s: ClaimState) -> dict[str, Any]:
        tokens: Tokens = s.extras
        every = {
            "disappear": {str(k): v for k, v in tokens.disappear.items()},
            "peacekeeping": tokens.peacekeeper,
            "treaty": None if tokens.treaty is None else list(tokens.treaty),
            "tax": (
                None if tokens.tax is None else {"taxer": tokens.tax[0], "character": tokens.tax[1]}
            ),
        }
        return {
            "roles": list(s.ruleset.characters),
            "tokens": {k: every[k] for k in self.in_play},
        }

    # -- the Tax --------------------------------------------------------------
    def fee_key(self, s: ClaimState) -> Any:
        tax = s.extras.tax
        return None if tax is None else (tax, s.options.get("tax_on"))

    def fee(self, s: ClaimState, seat: int, character: str | None, counter: bool) -> int:
        """Every other player pays the taxer 1 before claiming the taxed
        character; a block or a reaction too, unless the table taxes actions
        only."""
        tax = s.extras.tax
        if tax is None or character != tax[1] or seat == tax[0]:
            return 0
        return 0 if counter and s.options.get("tax_on") == "actions" else 1

    def pay_fee(self, s: ClaimState, seat: int, character: str | None, counter: bool) -> None:
        if s.extras.tax is not None and self.fee(s, seat, character, counter):
            s.transfer(seat, s.extras.tax[0], 1)

    def unpaid(self, character: str | None) -> RuleError:
        return RuleError("g54.tax_unpaid", character=character)

    # -- Peacekeeping and the Treaty ----------------------------------------------
    def reach_key(self, s: ClaimState) -> Any:
        tokens: Tokens = s.extras
        if tokens.peacekeeper is None and tokens.treaty is None:
            return None
        return (tokens.peacekeeper, tokens.treaty, s.options.get("treaty_two_players"))

    def check_reach(self, s: ClaimState, action: Action, seat: int, target: int) -> None:
        """Peacekeeping keeps its holder out of reach of anything but a Coup;
        a Treaty keeps its two holders from targeting each other, Coup
        included (with two players left only if the table chose so)."""
        tokens: Tokens = s.extras
        if target == tokens.peacekeeper and action.name != s.ruleset.coup_action:
            raise RuleError("g54.peacekept", player=target)
        treaty = tokens.treaty
        if (
            treaty is not None
            and seat in treaty
            and target in treaty
            and (len(s.living) > 2 or s.options.get("treaty_two_players") == "binding")
        ):
            raise RuleError("g54.treaty", player=target)

    # -- Disappear ------------------------------------------------------------------
    def due(self, s: ClaimState, seat: int) -> tuple[str, ...] | None:
        """A Disappear token comes due at the end of its holder's turn; the
        Mercenary stops it then, or at the start of that turn (see
        docs/games/g54.md, U1)."""
        return self.stoppers if s.extras.disappear.get(seat) else None

    def due_settled(self, s: ClaimState, seat: int, stopped: bool) -> None:
        """The token goes back to the pool; unless a Mercenary's block stood,
        its holder loses a life."""
        disappear = s.extras.disappear
        disappear[seat] -= 1
        if not disappear[seat]:
            del disappear[seat]
        if not stopped:
            s.queue_loss(seat, "disappear")

    def eliminated(self, s: ClaimState, seat: int) -> None:
        """The tokens an eliminated player held lapse."""
        tokens: Tokens = s.extras
        if tokens.peacekeeper == seat:
            tokens.peacekeeper = None
        if tokens.tax is not None and tokens.tax[0] == seat:
            tokens.tax = None
        if tokens.treaty is not None and seat in tokens.treaty:
            tokens.treaty = None
        tokens.disappear.pop(seat, None)
