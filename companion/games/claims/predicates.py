"""The rules a claim, a block or an action is allowed by: each one rule,
which ``decide`` refuses by and ``legal_commands`` offers by."""

from __future__ import annotations

from typing import Any

from ..base import RuleError
from .rules import Action
from .state import Claim, ClaimState


def pays_fee(
    s: ClaimState, seat: int, character: str | None, counter: bool = False, more: int = 0
) -> bool:
    """Whether ``seat`` can pay the fee for claiming ``character`` on top
    of the ``more`` coins the claim costs itself."""
    hooks = s.ruleset.hooks
    fee = 0 if hooks is None else hooks.fee(s, seat, character, counter)
    return fee + more <= s.coins[seat]


def check_fee(
    s: ClaimState, seat: int, character: str | None, counter: bool = False, more: int = 0
) -> None:
    """Refuse a claim whose seat cannot pay the fee (the ``more`` coins
    are checked first, so the refusal names what is missing)."""
    if not pays_fee(s, seat, character, counter, more):
        hooks = s.ruleset.hooks
        assert hooks is not None  # only a ruleset's hooks charge a fee
        raise hooks.unpaid(character)


def pay_fee(s: ClaimState, seat: int, character: str | None, counter: bool = False) -> None:
    hooks = s.ruleset.hooks
    if hooks is not None:
        hooks.pay_fee(s, seat, character, counter)


def may_join(s: ClaimState, seat: int, action: Action) -> bool:
    """Whether ``seat`` can join the action: pay its fee, or pay the fee
    for claiming its character too."""
    if action.join == "pay":
        return s.coins[seat] >= action.join_fee
    return pays_fee(s, seat, action.character)


def forced_coup(s: ClaimState, seat: int, coins: int) -> list[int]:
    """Whom ``seat`` must Coup: with ``forced_coup_at`` coins at the start
    of its turn (an extra action is not a turn's start), a Coup is its
    only action. Empty: not forced, or nobody is in reach."""
    if s.turn.again or coins < s.ruleset.forced_coup_at:
        return []
    return coup_targets(s, seat)


def coup_targets(s: ClaimState, seat: int) -> list[int]:
    """Whom ``seat`` may Coup. A player who must Coup but may reach nobody
    (the ruleset keeps the last other player out of reach) plays on as
    usual."""
    coup = s.ruleset.actions[s.ruleset.coup_action]
    return [i for i in s.others[seat] if reachable(s, coup, seat, i)]


def everyone_reachable(s: ClaimState, seat: int) -> tuple[int, ...]:
    """The players the actor's action on every other player reaches,
    clockwise from the next."""
    action = s.turn.action
    return tuple([i for i in s.clockwise_from(seat) if reachable(s, action, seat, i)])


def reachable(s: ClaimState, action: Action, seat: int, target: int) -> bool:
    """Whether ``action`` by ``seat`` may name ``target`` (the one rule
    the declaration checks and the menus offer by)."""
    hooks = s.ruleset.hooks
    if hooks is None or target == seat:
        return True
    try:
        hooks.check_reach(s, action, seat, target)
    except RuleError:
        return False
    return True


def stops_due_early(s: ClaimState, seat: Any, character: Any) -> bool:
    """Whether ``seat`` may stop what comes due at the end of its turn
    now: at the start of that turn, before it declares an action."""
    t = s.turn
    hooks = s.ruleset.hooks
    if hooks is None or s.phase != "action" or seat != t.actor or t.again:
        return False
    stoppers = hooks.due(s, t.actor)
    return stoppers is not None and character in stoppers


def reactions(s: ClaimState) -> tuple[str, ...]:
    """The reactions open to the player losing a life now."""
    if not s.ruleset.reactions or s.phase != "lose" or s.reacted:
        return ()
    seat, reason = s.losses[0]
    rules = s.ruleset
    open_now = rules.on_coup if reason == "coup" else rules.on_life
    if rules.hooks is None or rules.hooks.fee_key(s) is None:
        return open_now
    return tuple([c for c in open_now if pays_fee(s, seat, c, counter=True)])


def can_show(s: ClaimState, claim: Claim) -> bool:
    """Whether the claimant can show the character: holds it (keeper mode;
    for a reaction, set it aside), or a copy is still hidden (physical)."""
    if not s.keeper:
        return s.face_up(claim.character) < s.ruleset.copies
    if claim.kind == "react":
        return s.react_card == claim.character
    return claim.character in s.hands[claim.seat]
