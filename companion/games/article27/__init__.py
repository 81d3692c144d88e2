"""Article 27: The UN Security Council Game (3-6 players)."""

from ..spec import GameSpec, Traits
from .rules import TIMER_SECONDS

SPEC = GameSpec(
    name="article27",
    order=1,
    engine_path=f"{__name__}.engine:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    screen_path=f"{__name__}.screen:Article27TableScreen",
    variants=(
        ("come_and_go", (False, True)),
        ("lie_cheat_steal", (False, True)),
        ("timer_seconds", (TIMER_SECONDS, 120, 180, 240, 600)),
    ),
    traits=Traits(gavel=True),
)


def __getattr__(name: str):
    """``ENGINE``, imported when first asked for (see ``spec``)."""
    if name == "ENGINE":
        return SPEC.engine
    raise AttributeError(name)
