"""Windows: the moments several players may answer an action (block it,
join it), who may, and what the table does when the window closes. An
action on every other player gathers its blocks here, to settle them one by
one (``turns``)."""

from __future__ import annotations

from ..base import Command, Event, RuleError
from .awaiting import awaited, new_claim, responder
from .predicates import check_fee, may_join, pay_fee, stops_due_early
from .state import ClaimState, Turn, Window


def decide_block(s: ClaimState, command: Command) -> Event:
    window = awaited(s, Window)
    seat, character = command.get("seat"), command.get("character")
    if window is None and stops_due_early(s, seat, character):
        assert isinstance(seat, int) and isinstance(character, str)  # the actor, a stopper
        check_fee(s, seat, character, counter=True)
        return {"type": "block", "seat": seat, "character": character}
    hooks = s.ruleset.hooks
    due = hooks is not None and window is not None and window.kind == hooks.due_kind
    if window is None or (window.kind != "block" and not due):
        raise RuleError("coup.cannot_block_now")
    seat = responder(s, command, window.eligible, window.passed)
    if character not in window.blockers:
        action = hooks.due_action if due and hooks is not None else s.turn.action.name
        raise RuleError("coup.cannot_block_with", action=action, character=str(character)[:20])
    check_fee(s, seat, character, counter=True)
    return {"type": "block", "seat": seat, "character": character}


def decide_join(s: ClaimState, command: Command) -> Event:
    window = awaited(s, Window)
    if window is None or window.kind != "join":
        raise RuleError("coup.not_now")
    seat = responder(s, command, window.eligible, window.passed)
    action = s.turn.action
    if not may_join(s, seat, action):
        if action.join == "pay":
            raise RuleError(
                "coup.cannot_afford", action="join", count=action.join_fee, coins=s.coins[seat]
            )
        hooks = s.ruleset.hooks
        assert hooks is not None  # only a fee keeps a seat from claiming to join
        raise hooks.unpaid(action.character)
    return {"type": "join", "seat": seat}


def apply_block(s: ClaimState, e: Event) -> bool:
    """A block: of what came due (an interrupt), one of several on an action
    on every other player (gathered), or the claim the action waits on."""
    seat, character = e["seat"], e["character"]
    hooks = s.ruleset.hooks
    if hooks is not None:
        hooks.pay_fee(s, seat, character, True)
    t = s.turn
    if s.interrupt is not None or t.step == "action":
        # What comes due, stopped as it does or at the start of the turn.
        assert hooks is not None  # only a ruleset's hooks make something due
        s.interrupt = new_claim(s, seat, character, hooks.due_kind)
        return False
    window = t.window
    assert window is not None  # the block window this block answers
    if t.action.every_other:
        t.blocks += ((seat, character),)
        window.passed.add(seat)
        if len(window.passed) == len(window.eligible):
            close_window(s, window)
        return False
    t.window = None
    t.claim = new_claim(s, seat, character, "block")
    t.step = "claim"
    s.phase = "challenge"
    return True


def apply_join(s: ClaimState, e: Event) -> bool:
    t = s.turn
    seat = e["seat"]
    if t.action.join == "pay":  # pay the fee to share in the action
        s.pay(seat, t.action.join_fee)
        t.joiners += (seat,)
        t.window = None
        after_join(s, t)
        return False
    pay_fee(s, seat, t.action.character)
    assert t.window is not None  # the join window this join answers
    t.window.passed.add(seat)
    t.claim = new_claim(s, seat, t.action.character, "join")
    t.step = "claim"
    return False


def close_window(s: ClaimState, window: Window) -> None:
    """Everyone who may answer has answered (or the table says nobody else)."""
    if s.interrupt is window:
        s.interrupt = None
        if window.kind == "elimination":
            s.probate.pop(0)
        else:  # nobody stopped what came due
            hooks = s.ruleset.hooks
            assert hooks is not None  # only a ruleset's hooks make something due
            hooks.due_settled(s, window.eligible[0], stopped=False)
        return
    t = s.turn
    t.window = None
    if window.kind == "join":
        after_join(s, t)
    elif t.blocks:
        t.step = "blocks"
    else:
        t.step = "resolve"


def after_action_claim(s: ClaimState, t: Turn) -> None:
    """The action's claim stands (or it claimed none): others may join it,
    or block it, or it resolves."""
    action = t.action
    if action.join:
        eligible = s.others[t.actor]
        if action.join == "pay":  # the target does not pay to see itself fall
            eligible = tuple([i for i in eligible if i != t.target])
        t.window = Window("join", eligible)
        t.step = "window" if eligible else "resolve"
    elif action.blockers:
        open_block(s, t)
    else:
        t.step = "resolve"


def after_join(s: ClaimState, t: Turn) -> None:
    if t.action.join == "pay" and not t.joiners:
        t.step = "done"  # nobody paid: the action's cost is spent
    else:
        open_block(s, t)


def open_block(s: ClaimState, t: Turn) -> None:
    """Open the block window: the target alone, every other living player
    (each for themselves), or anyone for the whole action; with nobody
    able to block the action resolves at once."""
    action = t.action
    if not action.blockers:
        t.step = "resolve"
        return
    eligible: tuple[int, ...]
    if action.every_other:
        eligible = t.targets
    elif not action.target_blocks_only:
        eligible = s.others[t.actor]
    elif t.target is not None and t.target != t.actor and s.hands[t.target]:
        eligible = (t.target,)
    else:
        eligible = ()
    if eligible:
        t.window = Window("block", eligible, action.blockers)
        t.step = "window"
    else:
        t.step = "resolve"


def first_clockwise(
    s: ClaimState, actor: int, blocks: tuple[tuple[int, str], ...]
) -> tuple[int, str]:
    """The block to settle next: clockwise from the player after the actor."""
    order = s.clockwise_from(actor)
    return min(blocks, key=lambda b: order.index(b[0]) if b[0] in order else len(order))
