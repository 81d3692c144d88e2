"""G54's engine: the claim framework with the five characters of the game."""

from ..base import BuzzerEngine
from ..claims.engine import ClaimEngine
from . import SPEC
from .sets import catalog, check_options, choose_set, ruleset_for

ENGINE: BuzzerEngine = ClaimEngine(
    "g54",
    catalog(),
    ruleset_for,
    defaults=SPEC.defaults(),
    players=(SPEC.min_players, SPEC.max_players),
    check_options=check_options,
    choose_set=choose_set,
)
