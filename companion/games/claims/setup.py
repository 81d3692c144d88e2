"""A claim game's start: its options checked, the deal (with the set of
characters chosen by chance, for a game of sets) and the first turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import Event, Fate, RuleError, first_seat
from .rules import Ruleset
from .state import ClaimState, Turn

DIRECTIONS = ("clockwise", "counterclockwise")
REDRAW_RULES = ("optional", "mandatory")
# The longest response countdown a table may set (option response_seconds).
MAX_RESPONSE_SECONDS = 120

# A game's ruleset from its options (None: decided by chance at the start).
RulesetFor = Callable[[dict[str, Any]], Ruleset | None]
# The set of characters drawn at the start: the fields it adds to "started".
ChooseSet = Callable[[ClaimState, Fate], dict[str, Any]]


def check_common_options(options: dict[str, Any]) -> None:
    """Refuse a bad value of the options every claim game has."""
    if options.get("direction", "clockwise") not in DIRECTIONS:
        raise RuleError("setup.bad_option", option="direction", value=str(options["direction"]))
    if options.get("redraw", "mandatory") not in REDRAW_RULES:
        raise RuleError("setup.bad_option", option="redraw", value=str(options["redraw"]))
    seconds = options.get("response_seconds")
    if seconds is not None and (
        type(seconds) not in (int, float) or not 1 <= seconds <= MAX_RESPONSE_SECONDS
    ):
        raise RuleError("setup.bad_option", option="response_seconds", value=str(seconds)[:40])


def start_event(
    s: ClaimState, fate: Fate, choose_set: ChooseSet | None, ruleset_for: RulesetFor
) -> Event:
    """The "started" event: who plays first, the set (if drawn now) and,
    in keeper mode, the hands dealt."""
    n = s.players
    event: Event = {"type": "started", "first": first_seat(s.options["first"], fate, n)}
    court = s.court
    if choose_set is not None:
        event.update(choose_set(s, fate))
        ruleset = ruleset_for({**s.options, "set": event["set"]})
        assert ruleset is not None  # a chosen set names its ruleset
        court = ruleset.deck() if s.keeper else [None] * len(ruleset.cards)
    if s.keeper:
        size = s.ruleset.hand_size
        hands = fate.take("hands")
        if hands is None:
            deck = list(court)
            fate.rng.shuffle(deck)
            hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]
        else:
            hands = checked_deal(hands, n, size, court)
        event["hands"] = hands
    return event


def checked_deal(hands: Any, players: int, size: int, court: list[Any]) -> list[list[str]]:
    """A scripted deal, if it is one this court can deal."""
    pool = list(court)
    if not isinstance(hands, list) or len(hands) != players:
        raise RuleError("setup.bad_deal")
    for hand in hands:
        if not isinstance(hand, list) or len(hand) != size:
            raise RuleError("setup.bad_deal")
        for card in hand:
            if card not in pool:
                raise RuleError("setup.bad_deal")
            pool.remove(card)
    return [list(hand) for hand in hands]


def apply_started(s: ClaimState, e: Event, ruleset_for: RulesetFor | None) -> bool:
    """The game begins: the set's court (``ruleset_for``: the set was drawn
    now), the starting coins, the hands, the first turn (then settled as
    any event is: False)."""
    if ruleset_for is not None:
        ruleset = ruleset_for({**s.options, "set": e["set"]})
        assert ruleset is not None  # a chosen set names its ruleset
        s.ruleset = ruleset
        deck = ruleset.deck()
        s.court = deck if s.keeper else [None] * len(deck)
    for seat in range(s.players):
        s.gain(seat, s.ruleset.start_coins)
    hands = e.get("hands")
    for seat in range(s.players):
        if hands is None:
            s.hands[seat] = [s.court.pop() for _ in range(s.ruleset.hand_size)]
        else:
            for card in hands[seat]:
                s.court.remove(card)
            s.hands[seat] = list(hands[seat])
    s.set_living(tuple(range(s.players)))
    s.turn = Turn(e["first"])
    s.turn_no = 1
    s.phase = "action"
    return False
