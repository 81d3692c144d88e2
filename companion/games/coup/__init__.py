"""Coup (the original game) on the shared claim / challenge / block engine."""

from pathlib import Path

from ..spec import GameSpec, Traits
from .options import claim_options

SPEC = GameSpec(
    name="coup",
    order=3,
    catalogs=Path(__file__).with_name("catalogs"),
    engine_path=f"{__name__}.game:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    icons_path=f"{__name__}.icons:ICONS",
    screen_path=f"{__name__}.screen:CoupTableScreen",
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


def __getattr__(name: str):
    """``ENGINE``, imported when first asked for (see ``spec``)."""
    if name == "ENGINE":
        return SPEC.engine
    raise AttributeError(name)
