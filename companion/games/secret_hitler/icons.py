"""Icons of Secret Hitler's policies and presidential powers (see
``companion.games.icons``). A policy is a tile in its party's colour, and
the two tiles differ in their mark as well (a dove, a skull), so they read
apart without their colours. A power is a mark on a dark token; the veto's
is the sign for "no" over a tile."""

from __future__ import annotations

import math

from ..icons import (
    Icon,
    Icons,
    Line,
    Polygon,
    Shape,
    arc_points,
    circle,
    dove,
    medallion,
    rect,
    rounded_rect,
    star,
    with_colours,
)
from .palette import PALETTE
from .rules import EXECUTE, FASCIST, INVESTIGATE, LIBERAL, PEEK, SPECIAL_ELECTION

VETO = "veto"  # the command a chancellor asks for a veto with, once it is unlocked
COLOURS = with_colours(PALETTE)


def _tile(party: str) -> tuple[Shape, ...]:
    return (
        rounded_rect(17, 6, 66, 88, 9, party, "paper", 3),
        rounded_rect(24, 13, 52, 74, 5, None, "paper", 1.8),
    )


def _eye(cx: float, cy: float, half_width: float, half_height: float) -> Polygon:
    """An almond: two arcs of one circle's size meeting at the corners."""
    r = (half_width**2 + half_height**2) / (2 * half_height)
    d = r - half_height
    a = math.degrees(math.asin(d / r))
    upper = arc_points(cx, cy + d, r, 180 + a, 360 - a, 12)
    lower = arc_points(cx, cy - d, r, a, 180 - a, 12)
    return Polygon((*upper, *lower[1:-1]), "paper")


LIBERAL_TILE = Icon((*_tile(LIBERAL), *dove("paper", "gold", LIBERAL)), COLOURS)

FASCIST_TILE = Icon(
    (
        *_tile(FASCIST),
        circle(50, 43, 17, "paper"),
        rounded_rect(40, 48, 20, 18, 4, "paper"),
        circle(43.5, 44, 5, FASCIST),
        circle(56.5, 44, 5, FASCIST),
        Polygon(((50, 50), (47, 56), (53, 56)), FASCIST),
        *(Line(((x, 59), (x, 65)), FASCIST, 2) for x in (45, 50, 55)),
    ),
    COLOURS,
)

MAGNIFIER = Icon(
    (
        *medallion("slate"),
        Line(((58, 58), (76, 76)), "wood", 10),
        circle(44, 44, 19, "sky", "paper", 6),
        circle(38, 38, 5, "paper"),
    ),
    COLOURS,
)

CANDIDATE = Icon(
    (
        *medallion("slate"),
        star(50, 32, 15, 6.5, 5, "gold"),
        rect(28, 52, 44, 7, "paper"),
        Polygon(((34, 59), (66, 59), (61, 82), (39, 82)), "paper"),
        Line(((42, 66), (58, 66)), "steel", 2.5),
    ),
    COLOURS,
)

PEEK_TILES = Icon(
    (
        *medallion("slate"),
        *(rounded_rect(x, 52, 18, 26, 3, "paper", "steel", 1.5) for x in (23, 41, 59)),
        _eye(50, 32, 24, 12),
        circle(50, 32, 8, "ink"),
        circle(52.5, 29.5, 2.5, "paper"),
    ),
    COLOURS,
)

CROSSHAIR = Icon(
    (
        *medallion("slate"),
        circle(50, 50, 24, None, FASCIST + "_text", 5),
        *(
            Line((a, b), "paper", 5)
            for a, b in (
                ((50, 14), (50, 36)),
                ((50, 64), (50, 86)),
                ((14, 50), (36, 50)),
                ((64, 50), (86, 50)),
            )
        ),
        circle(50, 50, 4, FASCIST + "_text"),
    ),
    COLOURS,
)

NO_SIGN = Icon(
    (
        *medallion("slate"),
        rounded_rect(36, 24, 28, 52, 4, "paper"),
        circle(50, 50, 29, None, FASCIST + "_text", 7),
        Line(((30, 30), (70, 70)), FASCIST + "_text", 7),
    ),
    COLOURS,
)

ICONS: Icons = {
    LIBERAL: LIBERAL_TILE,
    FASCIST: FASCIST_TILE,
    INVESTIGATE: MAGNIFIER,
    SPECIAL_ELECTION: CANDIDATE,
    PEEK: PEEK_TILES,
    EXECUTE: CROSSHAIR,
    VETO: NO_SIGN,
}
