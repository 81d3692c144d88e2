"""Coup: Rebellion G54 on the claim framework (``..claims``): the same
machinery as Coup, with five of 25 characters (see ``sets``), shown on the
framework's screen with G54's words (its tokens, its reference cards)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .. import claims
from ..claims.options import claim_options
from ..spec import BOOLEAN, GameSpec, Option, Traits

if TYPE_CHECKING:
    from ..base import Engine

SPEC = GameSpec(
    name="g54",
    order=4,
    catalogs=(claims.CATALOGS, Path(__file__).with_name("catalogs")),
    engine_path=f"{__name__}.game:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    icons_path=f"{__name__}.icons:ICONS",
    screen_path=claims.SCREEN,
    min_players=2,
    max_players=6,
    # ``set``: "random" (drawn by category when the game starts; ``advanced``
    # lets the advanced characters in), "starter" (the rulebook's first-game
    # set), or five characters' names (see ``sets``).
    options=(
        *claim_options(direction="clockwise", redraw="mandatory"),
        Option("set", "random", "g54.option.set", kind="names", choices=("random", "starter")),
        Option("advanced", False, "g54.option.advanced", kind="flag", choices=BOOLEAN),
        # The category the Communist is drawn from.
        Option("communist", "special", "g54.option.communist", choices=("special", "force")),
        Option(
            "treaty_two_players",
            "lifted",
            "g54.option.treaty_two_players",
            choices=("lifted", "binding"),
        ),
        Option("tax_on", "every_claim", "g54.option.tax_on", choices=("every_claim", "actions")),
    ),
    variants=(
        ("set", ("random", "starter")),
        ("advanced", (False, True)),
        ("response_seconds", (None, 10, 20, 30)),
    ),
    traits=Traits(challenge_buzzer=True),
)


def __getattr__(name: str) -> Engine:
    """``ENGINE``, imported when first asked for (see ``spec``)."""
    if name == "ENGINE":
        return SPEC.engine
    raise AttributeError(name)
