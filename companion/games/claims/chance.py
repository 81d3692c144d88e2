"""Chance in play: the outcomes nobody at the table decides (a card drawn
from the court, the only card left to lose)."""

from __future__ import annotations

from typing import Any

from ..base import Event, Fate, RuleError
from .predicates import reactions
from .state import ClaimState


def chance_event(s: ClaimState, fate: Fate) -> Event | None:
    """The event the phase waits on from chance, if it does (the start is
    ``setup.start_event``'s)."""
    phase = s.phase
    if phase == "redraw":
        return {"type": "redrawn", "seat": s.pending_redraw, "card": draw(s, fate, 1)[0]}
    if phase == "new_life":
        return {
            "type": "new_life",
            "seat": s.new_life[0],
            "card": draw(s, fate, 1)[0] if s.court else None,
        }
    if phase == "exchange_draw":
        k = min(s.turn.draw, len(s.court))
        return {"type": "exchange_drawn", "seat": s.turn.actor, "cards": draw(s, fate, k)}
    if phase == "lose":
        return _forced_loss(s)
    return None


def _forced_loss(s: ClaimState) -> Event | None:
    """The loss nobody chooses: the card a reaction named goes face up, as
    does the last card of a hand (keeper mode) with no reaction open."""
    seat = s.losses[0][0]
    if s.react_card is not None:
        return {"type": "lose", "seat": seat, "card": s.react_card}
    if s.keeper and len(s.hands[seat]) == 1 and (not s.ruleset.reactions or not reactions(s)):
        return {"type": "lose", "seat": seat, "card": s.hands[seat][0]}
    return None


def draw(s: ClaimState, fate: Fate, k: int) -> list[Any]:
    """k cards at random from the court (scripted draws first)."""
    court = s.court
    if not s.keeper:
        return [None] * k
    taken: list[int] = []
    for _ in range(k):
        card = fate.next("draws")
        if card is None:
            index = fate.rng.randrange(len(court))
            while index in taken:
                index = fate.rng.randrange(len(court))
        else:
            free = [i for i, c in enumerate(court) if c == card and i not in taken]
            if not free:
                raise RuleError("setup.bad_draw", card=str(card))
            index = free[0]
        taken.append(index)
    return [court[i] for i in taken]
