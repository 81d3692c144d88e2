"""An action declared: who may declare which action now, what it names
(a target, more fields), what it costs, and the claim or window it opens."""

from __future__ import annotations

from typing import Any

from ..base import Command, Event, RuleError, seat_of
from .awaiting import living_seat, new_claim
from .blocks import after_action_claim
from .predicates import check_fee, everyone_reachable, forced_coup
from .rules import Action
from .state import ClaimState


def decide_declare(s: ClaimState, command: Command) -> Event:
    if s.phase != "action":
        raise RuleError("coup.not_now")
    seat = command.get("seat")
    t = s.turn
    if seat != t.actor or type(seat) is not int:
        seat = seat_of(command, s.players)
        raise RuleError("coup.not_your_turn", player=seat)
    action = s.ruleset.actions.get(command["type"])
    if action is None:  # a character not in this game's set
        raise RuleError("command.unknown", command=command["type"])
    _check_affordable(s, seat, action)
    event: Event = {"type": action.name, "seat": seat}
    if action.targeted:
        event["target"] = _target(s, action, seat, command)
    for field in action.extra:
        event[field] = _extra_field(s, action, seat, command, field)
    if action.check is not None:
        assert action.check_key is not None  # a check decides by its key
        refusal = action.check(action.check_key(s), event)
        if refusal is not None:
            raise refusal
    return event


def _check_affordable(s: ClaimState, seat: int, action: Action) -> None:
    """Refuse an action the seat may not take now: a second extra action, any
    but a Coup when one is forced, one it cannot pay for (or its fee)."""
    rules = s.ruleset
    coins = s.coins[seat]
    if s.turn.again and action.again:
        raise RuleError("coup.again_twice", character=action.character)
    if (
        coins >= rules.forced_coup_at  # (the cheap half of the rule first)
        and action.name != rules.coup_action
        and forced_coup(s, seat, coins)
    ):
        raise RuleError("coup.must_coup", coins=coins)
    if coins < action.price:
        raise RuleError("coup.cannot_afford", action=action.name, count=action.price, coins=coins)
    hooks = rules.hooks
    if hooks is not None and hooks.fee_key(s) is not None:
        check_fee(s, seat, action.character, more=action.price)


def _target(s: ClaimState, action: Action, seat: int, command: Command) -> int:
    """The player a targeted action names, if it may name them."""
    target = command.get("target")
    if type(target) is not int or not 0 <= target < s.players or not s.hands[target]:
        target = living_seat(s, command, "target")
    if target == seat and not action.self_target:
        raise RuleError("coup.target_self")
    hooks = s.ruleset.hooks
    if hooks is not None and target != seat:
        hooks.check_reach(s, action, seat, target)
    return target


def _extra_field(s: ClaimState, action: Action, seat: int, command: Command, field: str) -> Any:
    if field == "to":
        to = living_seat(s, command, "to")
        if to == seat and not action.self_target:
            raise RuleError("coup.target_self")
        return to
    if field == "role":
        role = command.get("role")
        if role not in s.ruleset.characters:
            raise RuleError("coup.unknown_character", character=str(role)[:20])
        return role
    raise RuleError("command.bad_field", field=field)


def apply_declare(s: ClaimState, e: Event) -> bool:
    """The action is declared and paid for; a character's opens its claim,
    a general one its window (or goes on to resolve)."""
    t = s.turn
    action = s.ruleset.actions[e["type"]]
    t.action = action
    t.target = e.get("target")
    if action.extra:
        t.extra = {field: e[field] for field in action.extra}
    if action.every_other:
        t.targets = everyone_reachable(s, t.actor)
    hooks = s.ruleset.hooks
    if hooks is not None:
        hooks.pay_fee(s, t.actor, action.character, False)
    _pay_cost(s, action)
    if action.character:
        t.claim = new_claim(s, t.actor, action.character, "action")
        t.step = "claim"
        s.phase = "challenge"
        return True
    after_action_claim(s, t)
    if t.step == "window":
        assert t.window is not None
        s.phase = t.window.kind
        return True
    return False


def _pay_cost(s: ClaimState, action: Action) -> None:
    t = s.turn
    cost = action.cost
    if not cost:
        return
    if action.pay_to_target:
        assert t.target is not None  # paid to the target it names
        s.transfer(t.actor, t.target, cost)
    else:
        s.coins[t.actor] -= cost
        s.treasury += cost
    t.paid = cost
