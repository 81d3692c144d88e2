"""Lives lost and what follows: the card turned up, a reaction claimed on
the loss (or on another's elimination), a new life drawn, a redraw after a
card shown, and an eliminated player's coins and window."""

from __future__ import annotations

from ..base import Command, Event, RuleError, seat_of
from .awaiting import awaited, new_claim, responder
from .predicates import check_fee, pay_fee, reactions
from .state import ClaimState, Window


def card_named(s: ClaimState, seat: int, command: Command) -> str:
    """A card the seat turns up or hands over: one it holds (keeper), one
    of which a copy is still hidden somewhere (physical)."""
    card = command.get("card")
    if not isinstance(card, str) or card not in s.ruleset.characters:
        raise RuleError("coup.unknown_character", character=str(card)[:20])
    if s.keeper:
        if card not in s.hands[seat]:
            raise RuleError("coup.card_not_held", character=card)
    elif s.face_up(card) >= s.ruleset.copies:
        raise RuleError("coup.all_copies_face_up", character=card)
    return card


def decide_lose(s: ClaimState, command: Command) -> Event:
    if s.phase != "lose":
        raise RuleError("coup.not_now")
    seat = command.get("seat")
    if seat != s.losses[0][0] or type(seat) is not int:
        seat = seat_of(command, s.players)
        raise RuleError("coup.not_your_loss", player=seat)
    card = command.get("card")
    if not (s.keeper and card in s.hands[seat]):  # else: a card held, surely fine
        card = card_named(s, seat, command)
    if s.react_card is not None and card != s.react_card:
        raise RuleError("coup.card_set_aside", character=s.react_card)
    return {"type": "lose", "seat": seat, "card": card}


def decide_react(s: ClaimState, command: Command) -> Event:
    """Claim a reaction: on losing a life, or on another player's
    elimination."""
    character = command.get("character")
    window = awaited(s, Window)
    if window is not None and window.kind == "elimination":
        seat = responder(s, command, window.eligible, window.passed)
        if character not in window.blockers:
            raise RuleError("coup.not_a_reaction", character=str(character)[:20])
        check_fee(s, seat, character, counter=True)
        return {"type": "react", "seat": seat, "character": character}
    if s.phase != "lose":
        raise RuleError("coup.not_now")
    seat = seat_of(command, s.players)
    if seat != s.losses[0][0]:
        raise RuleError("coup.not_your_loss", player=seat)
    if type(character) is not str or character not in reactions(s):
        if type(character) is str and character in s.ruleset.reactions:
            check_fee(s, seat, character, counter=True)
        raise RuleError("coup.not_a_reaction", character=str(character)[:20])
    event: Event = {"type": "react", "seat": seat, "character": character}
    if s.keeper:
        # The claim is about the card being lost: it is named now, set
        # aside, and turned up once the claim is settled.
        event["card"] = card_named(s, seat, command)
    return event


def apply_lose(s: ClaimState, e: Event) -> bool:
    """The loss at the head of the queue: the card goes face up."""
    seat, card = e["seat"], e["card"]
    s.losses.pop(0)
    s.reacted = False
    s.react_card = None
    hand = s.hands[seat]
    if s.keeper:
        hand.remove(card)
    else:
        hand.pop()
    s.revealed[seat].append(card)
    if not hand:
        _eliminate(s, seat)
    return False


def _eliminate(s: ClaimState, seat: int) -> None:
    """Out: the coins go back (or to those whose claims on the elimination
    stand) once the action has resolved (the Coup rulebook's example,
    step 8); what the ruleset's pieces held lapses."""
    s.eliminated.append(seat)
    s.set_living(tuple([i for i in s.living if i != seat]))
    if len(s.living) == 1:
        s.winner = s.living[0]
        return
    if s.ruleset.hooks is not None:
        s.ruleset.hooks.eliminated(s, seat)
    if s.ruleset.on_elimination:
        s.probate.append(seat)


def apply_react(s: ClaimState, e: Event) -> bool:
    seat, character = e["seat"], e["character"]
    pay_fee(s, seat, character, counter=True)
    window = awaited(s, Window)
    if window is not None and window.kind == "elimination":
        window.passed.add(seat)
        s.window_after = window
        s.interrupt = new_claim(s, seat, character, "elimination")
        return False
    s.reacted = True
    s.react_card = e.get("card")
    s.interrupt = new_claim(s, seat, character, "react")
    return False


def apply_redrawn(s: ClaimState, e: Event) -> bool:
    s.court.remove(e["card"])
    s.hands[e["seat"]].append(e["card"])
    s.pending_redraw = None
    return False


def apply_new_life(s: ClaimState, e: Event) -> bool:
    """A reaction that stood draws its claimant a card from the court, a
    new life."""
    s.new_life.pop(0)
    if s.court:
        if s.keeper:
            s.court.remove(e["card"])
        else:
            s.court.pop()
        s.hands[e["seat"]].append(e["card"])
    return False


def settle_the_eliminated(s: ClaimState) -> None:
    """Players knocked out during the action give up their coins: to those
    whose claims on the elimination stood (shared, the rest to the
    treasury), or to the treasury."""
    for seat in s.eliminated:
        heirs = s.heirs.pop(seat, [])
        coins = s.coins[seat]
        if heirs and coins:
            share = coins // len(heirs)
            for heir in heirs:
                s.transfer(seat, heir, share)
        if s.coins[seat]:
            s.pay(seat, s.coins[seat])
    s.eliminated.clear()


def hold_elimination_window(s: ClaimState) -> None:
    """The window for reactions to the elimination at the head of
    ``probate``: opened, or back after a claim interrupted it, unless
    everyone still in has answered."""
    window, s.window_after = s.window_after, None
    if window is None:
        s.interrupt = Window("elimination", s.others[s.probate[0]], s.ruleset.on_elimination)
        return
    window.eligible = tuple([i for i in window.eligible if s.hands[i]])
    window.passed &= set(window.eligible)
    if len(window.passed) < len(window.eligible):
        s.interrupt = window
    else:
        s.probate.pop(0)
