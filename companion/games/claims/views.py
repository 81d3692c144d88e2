"""What leaves the engine: the public view, a seat's private view, who the
table waits for, the claim a buzzer answers, the response countdown and the
log's line for an event."""

from __future__ import annotations

from typing import Any

from ..base import Event
from ..views import Claim as BuzzerClaim
from ..views import Timer, View
from .awaiting import awaited, current_claim, responders
from .rules import Ruleset
from .state import Claim, ClaimState, Turn, Window


def public_view(s: ClaimState, game: str) -> View:
    t = s.turn
    lent = t.target if t.give_back else None  # a card handed over is still a life
    view: View = {
        "game": game,
        "mode": "keeper" if s.keeper else "physical",
        "phase": s.phase,
        "turn": s.turn_no,
        "direction": s.options.get("direction", "clockwise"),
        "current": None if s.phase in ("setup", "over") else t.actor,
        "waiting_for": waiting_for(s),
        "treasury": s.treasury,
        "court": len(s.court),
        "players": [
            {
                "seat": i,
                "coins": s.coins[i],
                "influence": len(s.hands[i]) + (i == lent),
                "revealed": list(s.revealed[i]),
                "out": s.phase != "setup" and i not in s.living,
                "claims": [dict(c) for c in s.claims[i]],
            }
            for i in range(s.players)
        ],
        "pending": None if t.action is None or s.phase == "over" else _pending(s, t),
        "losing": None if not s.losses else {"seat": s.losses[0][0], "reason": s.losses[0][1]},
        "winner": s.winner,
    }
    if s.ruleset.hooks is not None:
        view.update(s.ruleset.hooks.public(s))
    return view


def _pending(s: ClaimState, t: Turn) -> dict[str, Any]:
    """The action in play and where it stands."""
    claim = awaited(s, Claim)
    window = awaited(s, Window)
    return {
        "action": t.action.name,
        "actor": t.actor,
        "target": t.target,
        **t.extra,
        "paid": t.paid,
        "step": t.step,
        "claim": None if claim is None else _claim(claim),
        "window": None if window is None else _window(window),
        "targets": list(t.targets),
        "protected": sorted(t.protected),
        "joiners": list(t.joiners),
        "again": t.again,
        "choice": (
            None
            if t.choice is None
            else {
                "seat": t.choice.seat,
                "kind": t.choice.kind,
                "cards": t.choice.private,  # the options are cards of its hand
            }
        ),
    }


def _claim(claim: Claim) -> dict[str, Any]:
    return {
        "seat": claim.seat,
        "character": claim.character,
        "kind": claim.kind,
        "challenger": claim.challenger,
        "passed": sorted(claim.passed),
    }


def _window(window: Window) -> dict[str, Any]:
    return {
        "kind": window.kind,
        "passed": sorted(window.passed),
        "characters": list(window.blockers),
    }


def private_view(s: ClaimState, seat: int) -> View:
    """What only ``seat`` may see: in keeper mode its hidden cards and, while
    it exchanges, the cards drawn from the court."""
    view: View = {"seat": seat}
    if s.keeper:
        view["hand"] = sorted(s.hands[seat])
        t = s.turn
        if t.drawn and t.actor == seat and s.phase in ("exchange", "choice"):
            view["drawn"] = list(t.drawn)
    return view


def waiting_for(s: ClaimState) -> list[int]:
    """Seats whose answer the table is waiting for."""
    phase = s.phase
    t = s.turn
    if phase == "action" or phase == "exchange":
        return [t.actor]
    if phase == "challenge" or phase in s.ruleset.window_phases:
        return responders(s)
    if phase == "prove":
        return [current_claim(s).seat]
    if phase == "lose":
        return [s.losses[0][0]]
    if phase == "choice":
        assert t.choice is not None
        return [t.choice.seat]
    return []


def buzzer_claim(s: ClaimState) -> BuzzerClaim | None:
    """The claim a seat's challenge buzzer answers now, or None: its key
    (presses race for one claim), its claimant, and the way play passes
    (an exact tie goes to the seat nearest after the claimant)."""
    claim = awaited(s, Claim)
    if s.phase != "challenge" or s.turn.action is None or claim is None:
        return None
    return {
        "key": (s.turn_no, claim.seat, claim.character, claim.kind),
        "claimant": claim.seat,
        "step": -1 if s.options.get("direction") == "counterclockwise" else 1,
    }


def response_timer(s: ClaimState, now: float) -> Timer | None:
    """The response countdown of the claim open to challenge, when the
    table plays with one (option ``response_seconds``)."""
    deadline = response_deadline(s)
    if deadline is None:
        return None
    seconds = s.options["response_seconds"]
    return {
        "kind": "response",
        "running": True,
        "remaining": max(0.0, min(float(seconds), deadline - now)),
        "seconds": seconds,
    }


def response_deadline(s: ClaimState) -> float | None:
    """When the claim open to challenge stands unchallenged, if it has a
    countdown."""
    seconds = s.options.get("response_seconds")
    if not seconds or s.phase != "challenge":
        return None
    claim = s.interrupt or s.turn.claim
    assert not isinstance(claim, Window)  # the challenge phase settles a claim
    if claim is None or claim.opened_at is None:
        return None
    return claim.opened_at + seconds


_SEAT_ONLY = frozenset(("challenge", "pass", "concede", "redrawn", "keep", "join", "new_life"))


def describe(catalog: Ruleset, event: Event) -> tuple[str, dict[str, Any]] | None:
    """A public, translatable line for the table's log: never a hidden card
    (``catalog``: every action and reaction the game knows)."""
    kind = event["type"]
    if kind in catalog.actions:
        return _describe_action(event)
    if kind == "react":
        reaction = catalog.reactions.get(event["character"])
        life = reaction is not None and reaction.when != "elimination"
        return (
            "log.react_card" if life else "log.react",
            {"player": event["seat"], "character": event["character"]},
        )
    if kind in _SEAT_ONLY:
        return f"log.{kind}", {"player": event["seat"]}
    return _describe_other(event)


def _describe_action(event: Event) -> tuple[str, dict[str, Any]]:
    args = {"player": event["seat"], "target": event.get("target")}
    if "to" in event:
        args["to"] = event["to"]
    if "role" in event:
        args["character"] = event["role"]
    return f"log.action.{event['type']}", args


def _describe_other(event: Event) -> tuple[str, dict[str, Any]] | None:
    kind = event["type"]
    if kind == "started":
        if "set" in event:
            return "log.started_set", {"player": event["first"], "characters": event["set"]}
        return "log.started", {"player": event["first"]}
    if kind == "block":
        return "log.block", {"player": event["seat"], "character": event["character"]}
    if kind == "lose":
        return "log.lose", {"player": event["seat"], "character": event["card"]}
    if kind == "show":
        return "log.show", {"player": event["seat"], "character": event["character"]}
    if kind == "exchange_drawn":
        return "log.exchange_drawn", {"player": event["seat"], "count": len(event["cards"])}
    if kind == "choose":  # a private choice's option is a hidden card
        if event.get("private"):
            return f"log.choose.{event['kind']}", {"player": event["seat"]}
        return f"log.choose.{event['kind']}.{event['option']}", {"player": event["seat"]}
    if kind == "proceed":
        return "log.proceed", {}
    return None
