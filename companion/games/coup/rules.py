"""Coup's court: its five characters and the actions they claim, over the
claim framework (``..claims``)."""

from __future__ import annotations

from ..claims.general import COUP as COUP_ACTION
from ..claims.general import INCOME, exchange, lose_influence
from ..claims.rules import Action, Ruleset
from ..claims.state import ClaimState, Turn


def foreign_aid(s: ClaimState, t: Turn) -> None:
    s.gain(t.actor, 2)
    t.step = "done"


def tax(s: ClaimState, t: Turn) -> None:
    s.gain(t.actor, 3)
    t.step = "done"


def steal(s: ClaimState, t: Turn) -> None:
    assert t.target is not None  # a targeted action names its target
    s.transfer(t.target, t.actor, 2)
    t.step = "done"


DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = (
    "duke",
    "assassin",
    "captain",
    "ambassador",
    "contessa",
)

COUP = Ruleset(
    name="coup",
    characters=(DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA),
    actions={
        "income": INCOME,
        "foreign_aid": Action(
            "foreign_aid", foreign_aid, blockers=(DUKE,), target_blocks_only=False
        ),
        "coup": COUP_ACTION,
        "tax": Action("tax", tax, character=DUKE),
        "assassinate": Action(
            "assassinate",
            lose_influence,
            character=ASSASSIN,
            cost=3,
            targeted=True,
            blockers=(CONTESSA,),
        ),
        "steal": Action(
            "steal", steal, character=CAPTAIN, targeted=True, blockers=(CAPTAIN, AMBASSADOR)
        ),
        "exchange": Action("exchange", exchange, character=AMBASSADOR, draw=2),
    },
    action_order=("income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange"),
)
