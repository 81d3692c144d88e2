"""Icons of Coup's characters and its coins (see ``companion.games.icons``):
each character's symbol on a round token of its own colour."""

from __future__ import annotations

from ..icons import (
    COIN,
    Arc,
    Icon,
    Icons,
    Line,
    Polygon,
    arc_points,
    circle,
    medallion,
    rect,
    rounded_rect,
)
from .rules import AMBASSADOR, ASSASSIN, CAPTAIN, CONTESSA, DUKE

CROWN = Icon(
    (
        *medallion("purple"),
        Polygon(
            ((27, 66), (21, 34), (37, 50), (50, 27), (63, 50), (79, 34), (73, 66)),
            "gold",
            "gold_deep",
            2.5,
        ),
        rect(26, 62, 48, 11, "gold", "gold_deep", 2.5),
        circle(21, 32, 4.5, "gold"),
        circle(50, 25, 5, "gold"),
        circle(79, 32, 4.5, "gold"),
        circle(50, 67.5, 3.5, "red"),
        circle(37, 67.5, 2.5, "paper"),
        circle(63, 67.5, 2.5, "paper"),
    )
)

DAGGER = Icon(
    (
        *medallion("slate"),
        Polygon(((50, 11), (60, 27), (59, 57), (41, 57), (40, 27)), "silver", "steel", 2),
        Line(((50, 22), (50, 54)), "steel", 3),
        rounded_rect(28, 56, 44, 9, 3.5, "gold", "gold_deep", 2),
        rect(45, 65, 10, 15, "brown"),
        circle(50, 84, 6, "gold", "gold_deep", 2),
    )
)

ANCHOR = Icon(
    (
        *medallion("blue"),
        circle(50, 22, 6.5, None, "paper", 5),
        Line(((50, 29), (50, 79)), "paper", 6.5),
        Line(((35, 38), (65, 38)), "paper", 6.5),
        Arc((50, 54), 25, 25, 155, "paper", 6.5),
        Polygon(((67, 66), (81, 54), (79, 72)), "paper"),
        Polygon(((33, 66), (19, 54), (21, 72)), "paper"),
    )
)

SCROLL = Icon(
    (
        *medallion("green"),
        rect(29, 24, 42, 52, "paper", "wood", 2),
        rounded_rect(23, 17, 54, 11, 5.5, "wood", "brown", 2),
        rounded_rect(23, 72, 54, 11, 5.5, "wood", "brown", 2),
        Line(((36, 37), (64, 37)), "steel", 3),
        Line(((36, 46), (64, 46)), "steel", 3),
        Line(((36, 55), (54, 55)), "steel", 3),
        circle(61, 61, 6.5, "red", "paper", 1.5),
    )
)

_FAN_PIVOT = (50, 72)
_FAN_EDGE = arc_points(50, 72, 40, 200, 340, 24)
FAN = Icon(
    (
        *medallion("red"),
        Polygon((_FAN_PIVOT, *_FAN_EDGE), "paper", "gold", 3),
        *(Line((_FAN_PIVOT, _FAN_EDGE[i]), "rose", 2.5) for i in range(3, 24, 3)),
        Arc((50, 72), 26, 205, 335, "rose", 2.5),
        circle(50, 72, 6, "gold", "gold_deep", 2),
    )
)

ICONS: Icons = {
    DUKE: CROWN,
    ASSASSIN: DAGGER,
    CAPTAIN: ANCHOR,
    AMBASSADOR: SCROLL,
    CONTESSA: FAN,
    "coin": COIN,
}
