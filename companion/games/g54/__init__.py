"""Coup: Rebellion G54 on the shared claim / challenge / block engine: the
same machinery as Coup, with five of 25 characters (see ``sets``), shown on
Coup's screen."""

from pathlib import Path

from ..spec import GameSpec, Traits

SPEC = GameSpec(
    name="g54",
    order=4,
    catalogs=Path(__file__).with_name("catalogs"),
    engine_path=f"{__name__}.game:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    icons_path=f"{__name__}.icons:ICONS",
    screen_path="companion.games.coup.screen:CoupTableScreen",
    variants=(
        ("set", ("random", "starter")),
        ("advanced", (False, True)),
        ("response_seconds", (None, 10, 20, 30)),
    ),
    traits=Traits(challenge_buzzer=True),
)


def __getattr__(name: str):
    """``ENGINE``, imported when first asked for (see ``spec``)."""
    if name == "ENGINE":
        return SPEC.engine
    raise AttributeError(name)
