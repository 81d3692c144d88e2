"""Claims and their challenges: who may challenge or pass, the claim
standing when nobody (else) does, and the challenged claimant showing the
card or conceding."""

from __future__ import annotations

from ..base import Command, Event, RuleError, seat_of
from .awaiting import current_claim, current_window, responder
from .blocks import close_window
from .predicates import can_show
from .state import Claim, ClaimState


def decide_challenge(s: ClaimState, command: Command) -> Event:
    if s.phase != "challenge":
        action = s.turn.action
        if action is not None and action.character is not None:
            # A character's action whose claim has been answered (nobody
            # challenged in time, or it was shown): too late, not "general".
            raise RuleError("coup.claim_answered", character=action.character)
        raise RuleError("coup.nothing_to_challenge")
    claim = current_claim(s)
    seat = command.get("seat")
    if type(seat) is not int or seat not in claim.eligible or seat in claim.passed:
        seat = responder(s, command, claim.eligible, claim.passed, claim.seat)
    return {"type": "challenge", "seat": seat}


def decide_pass(s: ClaimState, command: Command) -> Event:
    phase = s.phase
    claimant: int | None = None
    if phase == "challenge":
        claim = current_claim(s)
        eligible, passed, claimant = claim.eligible, claim.passed, claim.seat
    elif phase in s.ruleset.window_phases:
        window = current_window(s)
        eligible, passed = window.eligible, window.passed
    else:
        raise RuleError("coup.not_now")
    seat = command.get("seat")
    if type(seat) is not int or seat not in eligible or seat in passed:
        seat = responder(s, command, eligible, passed, claimant)
    return {"type": "pass", "seat": seat}


def decide_proceed(s: ClaimState, command: Command) -> Event:
    if s.phase != "challenge" and s.phase not in s.ruleset.window_phases:
        raise RuleError("coup.not_now")
    return {"type": "proceed"}


def _claimant(s: ClaimState, command: Command) -> tuple[int, Claim]:
    if s.phase != "prove":
        raise RuleError("coup.not_now")
    claim = current_claim(s)
    seat = command.get("seat")
    if seat != claim.seat or type(seat) is not int:
        seat = seat_of(command, s.players)
        raise RuleError("coup.not_challenged", player=seat)
    return seat, claim


def decide_show(s: ClaimState, command: Command) -> Event:
    seat, claim = _claimant(s, command)
    character = claim.character
    if not can_show(s, claim):
        raise RuleError(
            "coup.card_not_held" if s.keeper else "coup.all_copies_face_up", character=character
        )
    redraw = command.get("redraw", True)
    if type(redraw) is not bool:
        raise RuleError("command.bad_field", field="redraw")
    if (
        not redraw
        and claim.kind != "react"  # a reaction's card is turned up
        and s.options.get("redraw", "mandatory") == "mandatory"
    ):
        raise RuleError("coup.redraw_mandatory")
    return {"type": "show", "seat": seat, "character": character, "redraw": redraw}


def decide_concede(s: ClaimState, command: Command) -> Event:
    seat, _ = _claimant(s, command)
    return {"type": "concede", "seat": seat}


def apply_challenge(s: ClaimState, e: Event) -> bool:
    claim = current_claim(s)
    claim.challenger = e["seat"]
    claim.record["result"] = "challenged"
    claim.record["challenger"] = e["seat"]
    claim.status = "prove"
    s.phase = "prove"
    return True


def apply_pass(s: ClaimState, e: Event) -> bool:
    answered = current_claim(s) if s.phase == "challenge" else current_window(s)
    answered.passed.add(e["seat"])
    if len(answered.passed) < len(answered.eligible):
        return True
    return apply_proceed(s, e)  # everyone has answered


def apply_proceed(s: ClaimState, e: Event) -> bool:
    if s.phase == "challenge":
        claim = current_claim(s)
        # Nobody (else) challenges: the claim stands.
        claim.record["result"] = "unchallenged"
        claim.status = "upheld"
    else:
        close_window(s, current_window(s))
    return False


def apply_show(s: ClaimState, e: Event) -> bool:
    """The claimant shows the card: the claim stands, the challenger loses
    a life, and the card goes back for a new one (a reaction's stays out)."""
    claim = current_claim(s)
    claim.record["result"] = "upheld"
    claim.status = "upheld"
    seat, character = claim.seat, claim.character
    if claim.kind == "react":
        # The card shown is the life being lost: it is turned up once the
        # reaction has taken effect (a new life it gives comes first).
        s.react_card = character
    elif s.keeper and e["redraw"]:
        s.hands[seat].remove(character)
        s.court.append(character)
        s.pending_redraw = seat
    assert claim.challenger is not None  # a claim shown was challenged
    s.losses.append((claim.challenger, "challenge"))
    return False


def apply_concede(s: ClaimState, e: Event) -> bool:
    claim = current_claim(s)
    claim.record["result"] = "failed"
    claim.status = "failed"
    s.losses.append((claim.seat, "challenge"))
    return False
