"""Article 27: The UN Security Council Game (3-6 players)."""

from pathlib import Path

from ..spec import BOOLEAN, FIRST, GameSpec, Option, Traits
from .rules import TIMER_SECONDS

SPEC = GameSpec(
    name="article27",
    order=1,
    catalogs=Path(__file__).with_name("catalogs"),
    engine_path=f"{__name__}.engine:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    icons_path=f"{__name__}.icons:ICONS",
    palette_path=f"{__name__}.palette:PALETTE",
    screen_path=f"{__name__}.screen:Article27TableScreen",
    min_players=3,
    max_players=6,
    options=(
        FIRST,
        Option("come_and_go", False, "a27.option.come_and_go", kind="flag", choices=BOOLEAN),
        Option(
            "lie_cheat_steal", False, "a27.option.lie_cheat_steal", kind="flag", choices=BOOLEAN
        ),
        Option("timer_seconds", TIMER_SECONDS, "a27.option.timer_seconds", kind="int"),
    ),
    variants=(
        ("come_and_go", (False, True)),
        ("lie_cheat_steal", (False, True)),
        ("timer_seconds", (TIMER_SECONDS, 120, 180, 240, 600)),
    ),
    traits=Traits(gavel=True, timer_pause=("pause", "resume")),
    # A seat's secrets and choices take up to 1.9 kB, and each bribe of the
    # round it is part of up to 0.9 kB more, its text included; with its
    # bribe form (every recipient, condition and issue, worded) they took at
    # most 4.4 kB in two bribes (tests/test_web_lengths.py): this covers two
    # bribes; a seat in more takes 9 kB (about ten), then 18 kB.
    private_bytes=4608,
    # Deflated on its own, as its socket sends it: at most 1.7 kB in two bribes.
    sealed_bytes=2048,
)


def __getattr__(name: str):
    """``ENGINE``, imported when first asked for (see ``spec``)."""
    if name == "ENGINE":
        return SPEC.engine
    raise AttributeError(name)
