"""The general actions every ruleset of the claim family shares (no
character is claimed for them), and the resolutions rulesets build their
characters' actions from."""

from __future__ import annotations

from .rules import Action
from .state import ClaimState, Turn


def income(s: ClaimState, t: Turn) -> None:
    s.gain(t.actor, 1)
    t.step = "done"


def lose_influence(s: ClaimState, t: Turn) -> None:
    """A Coup (or a character's attack): the target loses one influence, if
    any is left."""
    assert t.target is not None  # a targeted action names its target
    if s.alive(t.target):
        s.queue_loss(t.target, t.action.name)
    t.step = "done"


def begin_exchange(s: ClaimState, t: Turn, draw: int, after: str = "exchange") -> None:
    """Draw ``draw`` cards from the court for the actor (keeper mode), then
    exchange (or, with ``after``, let the action's ``choose`` go on). With the
    real cards hidden on the table (physical mode) the app draws nothing and
    the court keeps its size; an action with more to it still goes on."""
    if s.keeper:
        t.draw, t.after_draw = draw, after
        t.step = "exchange_draw"
    elif after == "exchange":
        t.step = "done"
    else:
        t.action.choose(s, t, after)


def exchange(s: ClaimState, t: Turn) -> None:
    """An exchange of the action's ``draw`` cards with the court."""
    begin_exchange(s, t, t.action.draw)


INCOME = Action("income", income)
COUP = Action("coup", lose_influence, cost=7, targeted=True)
