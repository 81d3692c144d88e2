"""Coup (the original game), a ruleset on the claim framework (``..claims``):
its five characters (``rules``), its engine, words and icons; the kiosk
shows it on the framework's screen."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .. import claims
from ..claims.options import claim_options
from ..spec import GameSpec, Traits

if TYPE_CHECKING:
    from ..base import Engine

SPEC = GameSpec(
    name="coup",
    order=3,
    catalogs=(claims.CATALOGS, Path(__file__).with_name("catalogs")),
    engine_path=f"{__name__}.game:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    icons_path=f"{__name__}.icons:ICONS",
    screen_path=claims.SCREEN,
    min_players=2,
    max_players=6,
    # The Greek rulebook: play passes counter-clockwise, and a defender "may"
    # return and redraw the shown card.
    options=claim_options(direction="counterclockwise", redraw="optional"),
    variants=(
        ("direction", ("counterclockwise", "clockwise")),
        ("response_seconds", (None, 10, 20, 30)),
    ),
    traits=Traits(challenge_buzzer=True),
)


def __getattr__(name: str) -> Engine:
    """``ENGINE``, imported when first asked for (see ``spec``)."""
    if name == "ENGINE":
        return SPEC.engine
    raise AttributeError(name)
