"""The turn's structure: the deterministic steps between events. After each
event the state is advanced until it waits on someone (or on chance):
pending losses, redraws and elimination windows are settled first, then the
turn's own step goes on (a claim settled, blocks one by one, the action
resolved, the next turn)."""

from __future__ import annotations

from .awaiting import new_claim
from .blocks import after_action_claim, close_window, first_clockwise
from .losses import hold_elimination_window, settle_the_eliminated
from .state import Claim, ClaimState, Turn, Window

# The phases of a claim still being settled, by its status.
_CLAIM_PHASES = {"open": "challenge", "prove": "prove"}


def advance(s: ClaimState) -> None:
    """Step on until the table waits: on a phase someone answers, or chance."""
    while True:
        waiting = _settle_first(s)
        if waiting is None:
            waiting = _turn_step(s)
        if waiting:
            return


def _settle_first(s: ClaimState) -> bool | None:
    """What comes before the turn's own step: the winner, a redraw, a new
    life, an interrupt, a loss, an elimination's window. True: the table
    waits; False: one thing settled, look again; None: nothing to settle."""
    if s.winner is not None:
        settle_the_eliminated(s)
        s.phase = "over"
        return True
    if s.pending_redraw is not None:
        s.phase = "redraw"
        return True
    if s.new_life:
        s.phase = "new_life"
        return True
    current = s.interrupt
    if current is not None:
        if type(current) is Claim:
            return _settle_claim(s, current)
        s.phase = current.kind  # a window's kind names its phase
        return True
    if s.losses:
        if s.hands[s.losses[0][0]]:
            s.phase = "lose"
            return True
        s.losses.pop(0)  # already out: nothing left to lose
        s.reacted = False
        return False
    if s.probate:
        hold_elimination_window(s)
        return False
    return None


def _settle_claim(s: ClaimState, claim: Claim) -> bool:
    """Wait on a claim still open or challenged (True), or settle it."""
    waiting = _CLAIM_PHASES.get(claim.status)
    if waiting is not None:
        s.phase = waiting
        return True
    claim_settled(s, claim)
    return False


def _turn_step(s: ClaimState) -> bool:
    """The turn's own step: True when the table waits on it."""
    t = s.turn
    step = t.step
    if step == "claim":
        assert t.claim is not None
        return _settle_claim(s, t.claim)
    if step == "window":
        assert t.window is not None
        s.phase = t.window.kind
        return True
    if step == "resolve":
        t.resolved = True
        t.action.resolve(s, t)
    elif step == "blocks":
        _next_block(s, t)
    elif step in ("choice", "exchange", "exchange_draw"):
        s.phase = step
        return True
    elif step == "done":
        return end_turn(s, t)
    elif not s.hands[t.actor]:
        # Out before declaring anything (what came due struck at the
        # start of its turn): the turn ends.
        t.step = "done"
    else:
        s.phase = "action"
        return True
    return False


def _next_block(s: ClaimState, t: Turn) -> None:
    """The next of the blocks of an action on every other player, as a
    claim (clockwise from the actor), or the action resolves."""
    if not t.blocks:
        t.step = "resolve"
        return
    seat, character = first_clockwise(s, t.actor, t.blocks)
    t.blocks = tuple(b for b in t.blocks if b != (seat, character))
    t.claim = new_claim(s, seat, character, "block")
    t.step = "claim"


def claim_settled(s: ClaimState, claim: Claim) -> None:
    """What a settled claim leads to, by what it was for."""
    upheld = claim.status == "upheld"
    kind = claim.kind
    if kind == "action":
        _action_claim_settled(s, claim, upheld)
    elif kind == "block":
        _block_claim_settled(s, claim, upheld)
    elif kind == "join":
        _join_claim_settled(s, claim, upheld)
    elif kind == "react":
        s.interrupt = None
        if upheld:
            reward = s.ruleset.reactions[claim.character].reward
            assert reward is not None  # a life reaction gives something
            reward(s, claim.seat)
    elif kind == "elimination":
        if upheld:
            s.heirs.setdefault(s.probate[0], []).append(claim.seat)
        # The window comes back once the challenge's losses are settled.
        s.interrupt = None
    else:  # a block of what came due
        s.interrupt = None
        hooks = s.ruleset.hooks
        assert hooks is not None  # only a ruleset's hooks make something due
        hooks.due_settled(s, claim.seat, stopped=upheld)


def _action_claim_settled(s: ClaimState, claim: Claim, upheld: bool) -> None:
    """The action goes on, or, its claim failed, its coins come back."""
    t = s.turn
    t.claim = None
    if upheld:
        after_action_claim(s, t)
        return
    if t.action.on_failed is not None:
        t.action.on_failed(s, t, claim.challenger)
    if t.paid:  # a failed action claim gets its coins back
        if t.action.pay_to_target:
            assert t.target is not None  # paid to the target it names
            s.transfer(t.target, t.actor, t.paid)
        else:
            s.gain(t.actor, t.paid)
    t.step = "done"


def _block_claim_settled(s: ClaimState, claim: Claim, upheld: bool) -> None:
    """A block that stands spares its blocker (an action on every other
    player), stops part of the action, or all of it (no refund)."""
    t = s.turn
    t.claim = None
    if upheld:
        if t.action.every_other:
            t.protected |= {claim.seat}
        elif t.action.on_blocked is not None:
            t.action.on_blocked(s, t)  # the part the block does not reach
            return
        else:
            t.step = "done"  # the action is blocked; no refund
            return
    t.step = "blocks" if t.action.every_other else "resolve"


def _join_claim_settled(s: ClaimState, claim: Claim, upheld: bool) -> None:
    t = s.turn
    t.claim = None
    if upheld:
        t.joiners += (claim.seat,)
    window = t.window
    assert window is not None  # the join window the claim answered
    if len(window.passed) == len(window.eligible):
        close_window(s, window)
    else:
        t.step = "window"


def end_turn(s: ClaimState, t: Turn) -> bool:
    """The action is done: what comes due at the end of the turn opens
    its window (False: the table waits on it); else the actor takes the
    extra action its action gave, or the next living seat its turn."""
    another = bool(
        t.action is not None and t.action.again and t.resolved and not t.again and s.hands[t.actor]
    )
    hooks = s.ruleset.hooks
    if hooks is not None and not another:
        stoppers = hooks.due(s, t.actor)
        if stoppers is not None:
            s.interrupt = Window(hooks.due_kind, (t.actor,), stoppers)
            return False
    if s.eliminated:
        settle_the_eliminated(s)
    if another:
        s.turn = Turn(t.actor, again=True)
    else:
        s.turn = Turn(s.after[t.actor])
        s.turn_no += 1
    s.phase = "action"
    return True
