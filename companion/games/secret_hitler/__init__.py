"""Secret Hitler (5-10 players)."""

from pathlib import Path

from ..spec import FIRST, GameSpec, Traits

SPEC = GameSpec(
    name="secret_hitler",
    order=2,
    catalogs=Path(__file__).with_name("catalogs"),
    engine_path=f"{__name__}.engine:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    icons_path=f"{__name__}.icons:ICONS",
    palette_path=f"{__name__}.palette:PALETTE",
    screen_path=f"{__name__}.screen:SecretHitlerTableScreen",
    min_players=5,
    max_players=10,
    options=(FIRST,),
    # "I have seen my role": not secret, but the seat's own to say, on its
    # phone (keeper mode's night).
    traits=Traits(acknowledgements=frozenset(("confirm",))),
)


def __getattr__(name: str):
    """``ENGINE``, imported when first asked for (see ``spec``)."""
    if name == "ENGINE":
        return SPEC.engine
    raise AttributeError(name)
