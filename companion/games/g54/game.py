"""G54's engine: the claim machinery with the five characters of the game."""

from ..coup.engine import ClaimEngine
from .sets import DEFAULTS, catalog, check_options, choose_set, ruleset_for

ENGINE = ClaimEngine(
    "g54",
    catalog(),
    ruleset_for,
    defaults=DEFAULTS,
    check_options=check_options,
    choose_set=choose_set,
)
