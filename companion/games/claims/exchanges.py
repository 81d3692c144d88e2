"""Cards drawn from the court and what the actor keeps of them, and the
choices an action asks a player for."""

from __future__ import annotations

from ..base import Command, Event, RuleError, seat_of
from .state import ClaimState


def decide_keep(s: ClaimState, command: Command) -> Event:
    if s.phase != "exchange":
        raise RuleError("coup.not_now")
    seat = seat_of(command, s.players)
    t = s.turn
    if seat != t.actor:
        raise RuleError("coup.not_your_turn", player=seat)
    cards = command.get("cards")
    hand = s.hands[seat]
    if not isinstance(cards, (list, tuple)) or len(cards) != len(hand):
        raise RuleError("coup.keep_count", count=len(hand))
    pool = hand + list(t.drawn)
    for card in cards:
        if card not in pool:
            raise RuleError("coup.keep_not_offered")
        pool.remove(card)
    event: Event = {"type": "keep", "seat": seat, "cards": sorted(cards)}
    if t.give_back:
        give = command.get("give")
        if give not in pool:
            raise RuleError("coup.give_not_offered")
        event["give"] = give
    return event


def decide_choose(s: ClaimState, command: Command) -> Event:
    if s.phase != "choice":
        raise RuleError("coup.not_now")
    choice = s.turn.choice
    assert choice is not None  # the choice phase waits on one
    seat = seat_of(command, s.players)
    if seat != choice.seat:
        raise RuleError("coup.not_your_choice", player=seat)
    option = command.get("option")
    if option not in choice.options:
        raise RuleError("coup.bad_option", option=str(option)[:20])
    event: Event = {"type": "choose", "seat": seat, "kind": choice.kind, "option": option}
    if choice.private:
        event["private"] = True
    return event


def apply_exchange_drawn(s: ClaimState, e: Event) -> bool:
    t = s.turn
    for card in e["cards"]:
        s.court.remove(card)
    t.drawn += tuple(e["cards"])
    after = t.after_draw
    if after != "exchange":
        t.action.choose(s, t, after)
        return False
    t.step = s.phase = "exchange"
    return True


def apply_keep(s: ClaimState, e: Event) -> bool:
    t = s.turn
    pool = s.hands[t.actor] + list(t.drawn)
    for card in e["cards"]:
        pool.remove(card)
    s.hands[t.actor] = list(e["cards"])
    if "give" in e:  # one card back to the target it was taken from
        assert t.target is not None  # a card is given back to the target
        pool.remove(e["give"])
        s.hands[t.target].append(e["give"])
    s.court.extend(pool)
    t.drawn = ()
    t.give_back = False
    t.step = "done"
    return False


def apply_choose(s: ClaimState, e: Event) -> bool:
    t = s.turn
    t.action.choose(s, t, e["option"])
    return False
