"""Icons of G54's 25 characters (see ``companion.games.icons``): each
character's symbol on a round token in its category's colour (finance green,
communications blue, force red, special purple), so a set's five read apart
by shape first and by category second."""

from __future__ import annotations

import math

from ..icons import (
    COIN,
    Arc,
    Ellipse,
    Icon,
    Icons,
    Line,
    Polygon,
    Shape,
    arc_points,
    circle,
    helmet,
    medallion,
    oval,
    rect,
    rounded_rect,
    scales,
    star,
    turned,
)
from .roles import COMMUNICATIONS, FINANCE, FORCE, ROLES, SPECIAL

TOKEN = {FINANCE: "green", COMMUNICATIONS: "blue", FORCE: "red", SPECIAL: "purple"}


def _stripes(x: float, y: float, w: float, h: float, n: int, colour: str) -> tuple[Shape, ...]:
    """``n`` slanted stripes across the band at ``x, y`` (a clapperboard's)."""
    step = w / (2 * n)
    slant = min(step, h)
    return tuple(
        Polygon(
            (
                (x + 2 * i * step + slant, y),
                (x + (2 * i + 1) * step + slant, y),
                (x + (2 * i + 1) * step, y + h),
                (x + 2 * i * step, y + h),
            ),
            colour,
        )
        for i in range(n)
    )


def _gear(teeth: int, outer: float, inner: float) -> Polygon:
    corners = []
    for i in range(teeth * 4):
        r = outer if i % 4 in (1, 2) else inner
        a = math.radians(-90 + 360 * (i - 0.5) / (teeth * 4))
        corners.append((50 + r * math.cos(a), 50 + r * math.sin(a)))
    return Polygon(tuple(corners), "paper", "steel", 1.5)


# -- finance ---------------------------------------------------------------------

BANK: tuple[Shape, ...] = (
    Polygon(((22, 39), (50, 20), (78, 39)), "paper"),
    rect(25, 40, 50, 5, "paper"),
    *(rect(x, 47, 7, 21, "paper") for x in (28, 40.5, 52.5, 65)),
    rect(22, 70, 56, 8, "paper"),
    circle(50, 31, 3.5, "green"),
)

MONEY_BAG: tuple[Shape, ...] = (
    circle(50, 60, 23, "paper"),
    Polygon(((39, 24), (61, 24), (56, 39), (44, 39)), "paper"),
    Line(((41, 40), (59, 40)), "gold_deep", 4.5),
    circle(50, 61, 10, "gold", "gold_deep", 2.5),
)

WHEAT: tuple[Shape, ...] = (
    Line(((50, 84), (50, 30)), "gold", 3.5),
    oval(50, 22, 5, 9, 0, "gold"),
    *(oval(50 + side * 7, y, 4.5, 9, side * 35, "gold") for y in (34, 46, 58) for side in (-1, 1)),
    Line(((43, 70), (57, 70)), "gold_deep", 4),
)

DIE: tuple[Shape, ...] = (
    rounded_rect(27, 27, 46, 46, 8, "paper", "steel", 2),
    *(circle(x, y, 4.8, "ink") for x, y in ((38, 38), (62, 38), (50, 50), (38, 62), (62, 62))),
)

MASK: tuple[Shape, ...] = (
    Polygon(
        (
            (16, 44),
            (30, 35),
            (50, 41),
            (70, 35),
            (84, 44),
            (79, 58),
            (64, 65),
            (55, 59),
            (50, 55),
            (45, 59),
            (36, 65),
            (21, 58),
        ),  # fmt: skip
        "ink",
        "paper",
        2.5,
    ),
    oval(35, 50, 8, 5.5, 10, "paper"),
    oval(65, 50, 8, 5.5, -10, "paper"),
    circle(35, 50.5, 2.5, "ink"),
    circle(65, 50.5, 2.5, "ink"),
)

# -- communications -------------------------------------------------------------

_ARM = turned(((24, 30), (76, 30), (76, 40), (24, 40)), -14, (24, 40))
CLAPPERBOARD: tuple[Shape, ...] = (
    rect(24, 44, 52, 34, "ink", "paper", 2.5),
    rect(24, 44, 52, 9, "paper"),
    *_stripes(24, 44, 52, 9, 4, "ink"),
    Polygon(_ARM, "paper", "paper", 2),
    Polygon(turned(((30, 30), (38, 30), (34, 40), (26, 40)), -14, (24, 40)), "ink"),
    Polygon(turned(((46, 30), (54, 30), (50, 40), (42, 40)), -14, (24, 40)), "ink"),
    Polygon(turned(((62, 30), (70, 30), (66, 40), (58, 40)), -14, (24, 40)), "ink"),
    Line(((32, 64), (68, 64)), "steel", 2.5),
)

MICROPHONE: tuple[Shape, ...] = (
    Arc((50, 42), 17, 0, 180, "paper", 4),
    rounded_rect(39, 16, 22, 36, 11, "silver", "paper", 2),
    *(Line(((42, y), (58, y)), "steel", 2) for y in (26, 33, 40)),
    Line(((50, 59), (50, 76)), "paper", 4.5),
    Line(((38, 78), (62, 78)), "paper", 5.5),
)

FILM_REEL: tuple[Shape, ...] = (
    circle(50, 50, 32, "silver", "paper", 2.5),
    *(
        circle(50 + 18 * math.cos(a), 50 + 18 * math.sin(a), 8, "blue")
        for a in (math.radians(-90 + 72 * i) for i in range(5))
    ),
    circle(50, 50, 4.5, "steel"),
    Arc((50, 50), 27, 40, 70, "paper", 2.5),
)

NOTEPAD: tuple[Shape, ...] = (
    rect(24, 24, 36, 52, "paper", "steel", 2),
    *(circle(x, 24, 2.8, None, "steel", 2) for x in (31, 39, 47, 55)),
    *(Line(((30, y), (54, y)), "steel", 2.5) for y in (38, 47, 56, 65)),
    Polygon(turned(((60, 26), (69, 26), (69, 66), (64.5, 76), (60, 66)), 25, (64, 50)), "gold"),
    Polygon(turned(((60, 66), (69, 66), (64.5, 76)), 25, (64, 50)), "wood"),
    Polygon(turned(((60, 22), (69, 22), (69, 27), (60, 27)), 25, (64, 50)), "rose"),
)

QUILL: tuple[Shape, ...] = (
    Polygon(
        (
            (30, 80),
            (36, 62),
            (46, 42),
            (60, 26),
            (76, 14),
            (72, 30),
            (64, 46),
            (52, 62),
            (38, 72),
        ),  # fmt: skip
        "paper",
    ),
    Line(((30, 80), (72, 20)), "steel", 2),
    *(Line(((44 + 6 * i, 60 - 9 * i), (54 + 6 * i, 54 - 9 * i)), "silver", 1.5) for i in range(3)),
    Line(((24, 86), (32, 76)), "ink", 3.5),
)

# -- force -------------------------------------------------------------------------

FEDORA: tuple[Shape, ...] = (
    oval(50, 63, 36, 9, 0, "ink", "paper", 2.5),
    Polygon(((29, 62), (33, 34), (44, 29), (50, 35), (56, 29), (67, 34), (71, 62)), "ink"),
    Polygon(((31, 52), (69, 52), (70, 60), (30, 60)), "paper"),
    Polygon(((33, 34), (44, 29), (50, 35), (56, 29), (67, 34)), None, "paper", 2),
)

RANK: tuple[Shape, ...] = (
    star(50, 40, 24, 10, 5, "gold", "gold_deep", 1.5),
    Line(((30, 66), (50, 75), (70, 66)), "gold", 6),
    Line(((30, 77), (50, 86), (70, 77)), "gold", 6),
)

MOUNTAINS: tuple[Shape, ...] = (
    Polygon(((14, 76), (40, 36), (56, 58), (64, 48), (86, 76)), "paper"),
    Polygon(((40, 36), (47, 47), (42, 44), (36, 48), (33, 47)), "steel"),
    Line(((40, 37), (40, 17)), "paper", 3),
    Polygon(((40, 16), (58, 21), (40, 27)), "gold"),
)

_HEAD = turned(((27, 33), (61, 33), (61, 47), (27, 47)), -40, (44, 40))
GAVEL: tuple[Shape, ...] = (
    Line(((44, 40), (69, 68)), "wood", 6),
    Polygon(_HEAD, "wood", "paper", 2),
    Polygon(turned(((33, 32), (37, 32), (37, 48), (33, 48)), -40, (44, 40)), "brown"),
    Polygon(turned(((51, 32), (55, 32), (55, 48), (51, 48)), -40, (44, 40)), "brown"),
    rounded_rect(50, 72, 32, 10, 4, "wood", "paper", 2),
)

SHIELD: tuple[Shape, ...] = (
    Polygon(
        ((27, 22), (50, 18), (73, 22), (73, 48), (67, 65), (50, 82), (33, 65), (27, 48)),
        "steel",
        "paper",
        3,
    ),
    Line(((50, 20), (50, 80)), "silver", 2),
    circle(50, 47, 12, "gold", "gold_deep", 2.5),
    star(50, 47, 6, 2.6, 5, "gold_deep"),
)

# -- special -------------------------------------------------------------------------

GEAR: tuple[Shape, ...] = (
    _gear(10, 33, 25),
    circle(50, 50, 11, "purple", "steel", 1.5),
)

BARRIER: tuple[Shape, ...] = (
    rect(24, 36, 11, 40, "paper"),
    rect(19, 74, 21, 7, "paper"),
    rect(34, 41, 50, 11, "paper"),
    *(rect(x, 41, 7, 11, "red") for x in (41, 55, 69)),
    circle(29.5, 46.5, 3, "steel"),
)

GLOBE: tuple[Shape, ...] = (
    circle(50, 50, 30, "sky", "paper", 3),
    Ellipse((50, 50), 13, 30, None, "paper", 2.5),
    Line(((20, 50), (80, 50)), "paper", 2.5),
    Line(((24, 35), (76, 35)), "paper", 2.5),
    Line(((24, 65), (76, 65)), "paper", 2.5),
)

BOOK: tuple[Shape, ...] = (
    Polygon(((50, 34), (36, 28), (20, 30), (20, 70), (36, 68), (50, 76)), "paper", "steel", 2),
    Polygon(((50, 34), (64, 28), (80, 30), (80, 70), (64, 68), (50, 76)), "paper", "steel", 2),
    Line(((50, 34), (50, 76)), "steel", 2.5),
    *(Line(((26, y), (44, y + 4)), "silver", 2) for y in (40, 48, 56)),
    *(Line(((56, y + 4), (74, y)), "silver", 2) for y in (40, 48, 56)),
)

LANTERN: tuple[Shape, ...] = (
    Arc((50, 22), 6, 180, 360, "paper", 3),
    Polygon(((40, 32), (60, 32), (55, 23), (45, 23)), "paper"),
    rect(38, 32, 24, 36, "gold", "paper", 3),
    oval(50, 52, 5, 10, 0, "orange"),
    oval(50, 55, 2.5, 5, 0, "paper"),
    rect(34, 68, 32, 7, "paper"),
)

BALLOT_BOX: tuple[Shape, ...] = (
    rect(26, 48, 48, 32, "paper", "steel", 2),
    Line(((37, 48), (63, 48)), "ink", 3.5),
    rect(40, 20, 20, 28, "paper", "steel", 2),
    Line(((44, 34), (49, 40), (57, 28)), "green", 3.5),
    Line(((34, 62), (66, 62)), "silver", 2.5),
)

BELL: tuple[Shape, ...] = (
    Arc((50, 22), 5, 180, 360, "gold", 3),
    Polygon(
        (*arc_points(50, 38, 13, 180, 360, 12), (65, 52), (74, 66), (26, 66), (35, 52)), "gold"
    ),
    rounded_rect(22, 64, 56, 8, 4, "gold", "gold_deep", 2),
    circle(50, 77, 5.5, "gold_deep"),
    Arc((50, 40), 8, 200, 260, "paper", 2.5),
)

MEGAPHONE: tuple[Shape, ...] = (
    Polygon(((30, 42), (66, 24), (66, 72), (30, 56)), "paper"),
    rect(20, 42, 11, 14, "paper"),
    Line(((40, 56), (42, 72)), "paper", 5),
    Arc((66, 48), 12, -45, 45, "paper", 3),
    Arc((66, 48), 20, -45, 45, "paper", 3),
)

_SYMBOLS: dict[str, tuple[Shape, ...]] = {
    "banker": BANK,
    "capitalist": MONEY_BAG,
    "farmer": WHEAT,
    "speculator": DIE,
    "spy": MASK,
    "director": CLAPPERBOARD,
    "newscaster": MICROPHONE,
    "producer": FILM_REEL,
    "reporter": NOTEPAD,
    "writer": QUILL,
    "crime_boss": FEDORA,
    "general": RANK,
    "guerrilla": MOUNTAINS,
    "judge": GAVEL,
    "mercenary": SHIELD,
    "communist": GEAR,
    "customs_officer": BARRIER,
    "foreign_consular": GLOBE,
    "intellectual": BOOK,
    "lawyer": scales(),
    "missionary": LANTERN,
    "peacekeeper": helmet(),
    "politician": BALLOT_BOX,
    "priest": BELL,
    "protestor": MEGAPHONE,
}

ICONS: Icons = {
    **{role.name: Icon((*medallion(TOKEN[role.category]), *_SYMBOLS[role.name])) for role in ROLES},
    "coin": COIN,
}
