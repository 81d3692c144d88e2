"""What the table is waiting on: the claim or the window being settled (an
interrupt first, then the turn's own), who may still answer it, and the
claims opened on it."""

from __future__ import annotations

from typing import TypeVar

from ..base import Command, RuleError, seat_of
from .state import Claim, ClaimState, Window

Awaited = TypeVar("Awaited", Claim, Window)


def awaited(s: ClaimState, kind: type[Awaited]) -> Awaited | None:
    """The claim or the window (by ``kind``) the table is settling, if any:
    an interrupt first, then the turn's own."""
    current = s.interrupt
    if current is None:
        t = s.turn
        current = t.claim if t.step == "claim" else t.window if t.step == "window" else None
    return current if type(current) is kind else None


def current_claim(s: ClaimState) -> Claim:
    """The claim of the challenge or prove phase: an interrupt first."""
    claim = s.interrupt or s.turn.claim
    assert isinstance(claim, Claim)  # these phases settle a claim
    return claim


def current_window(s: ClaimState) -> Window:
    """The window of a window phase: an interrupt first."""
    window = s.interrupt or s.turn.window
    assert isinstance(window, Window)  # a window's kind names its phase
    return window


def still_to_answer(eligible: tuple[int, ...], passed: set[int]) -> tuple[int, ...]:
    return tuple([i for i in eligible if i not in passed]) if passed else eligible


def responders(s: ClaimState) -> list[int]:
    """Seats that may still answer the open claim or window."""
    claim = awaited(s, Claim)
    if claim is not None:
        return list(still_to_answer(claim.eligible, claim.passed)) if claim.status == "open" else []
    window = awaited(s, Window)
    if window is not None:
        return list(still_to_answer(window.eligible, window.passed))
    return []


def living_seat(s: ClaimState, command: Command, key: str = "seat") -> int:
    seat = seat_of(command, s.players, key)
    if not s.hands[seat]:
        raise RuleError("coup.player_out", player=seat)
    return seat


def responder(
    s: ClaimState,
    command: Command,
    eligible: tuple[int, ...],
    passed: set[int],
    claimant: int | None = None,
) -> int:
    """The seat answering the open claim or window, if it may."""
    seat = command.get("seat")
    if type(seat) is int and seat in eligible and seat not in passed:
        return seat
    seat = living_seat(s, command)
    if seat == claimant:
        raise RuleError("coup.own_claim")
    if seat in passed:
        raise RuleError("coup.already_passed", player=seat)
    raise RuleError("coup.not_your_block", player=seat)


def new_claim(s: ClaimState, seat: int, character: str, kind: str) -> Claim:
    """A claim opened, and its record in the seat's public list of claims."""
    record = {"turn": s.turn_no, "character": character, "kind": kind, "result": "open"}
    s.claims[seat].append(record)
    return Claim(seat, character, kind, s.others[seat], record, s.now)
