"""Coup's engine: the claim machinery with Coup's five characters."""

from . import SPEC
from .engine import ClaimEngine
from .rules import COUP

# The options' defaults are the spec's: the Greek rulebook's direction and
# redraw; ``response_seconds`` None (the table closes the window).
ENGINE = ClaimEngine(
    "coup",
    COUP,
    lambda options: COUP,
    defaults=SPEC.defaults(),
    players=(SPEC.min_players, SPEC.max_players),
)
