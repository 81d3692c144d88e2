"""Coup's engine: the claim framework with Coup's five characters."""

from ..base import BuzzerEngine
from ..claims.engine import ClaimEngine
from . import SPEC
from .rules import COUP

# The options' defaults are the spec's: the Greek rulebook's direction and
# redraw; ``response_seconds`` None (the table closes the window).
ENGINE: BuzzerEngine = ClaimEngine(
    "coup",
    COUP,
    lambda options: COUP,
    defaults=SPEC.defaults(),
    players=(SPEC.min_players, SPEC.max_players),
)
