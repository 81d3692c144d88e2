"""Icons of Article 27's issues and agendas (see ``companion.games.icons``):
an issue is a mark on a hexagonal tile of its own colour, an agenda a mark
on a round token, so the two kinds differ in outline as well."""

from __future__ import annotations

from ..icons import (
    Arc,
    Ellipse,
    Icon,
    Icons,
    Line,
    Polygon,
    Shape,
    arc_points,
    circle,
    dove,
    helmet,
    medallion,
    oval,
    rect,
    regular_polygon,
    rounded_rect,
    scales,
    star,
)
from .rules import AGENDAS, ISSUES


def _issue(colour: str, *mark: Shape) -> Icon:
    return Icon((regular_polygon(50, 50, 46, 6, 0, colour, "paper", 4), *mark))


def _agenda(*mark: Shape) -> Icon:
    return Icon((*medallion("slate", "gold"), *mark))


CRATE: tuple[Shape, ...] = (
    rect(26, 30, 48, 42, "wood", "brown", 3),
    Line(((26, 30), (74, 72)), "brown", 4),
    Line(((26, 51), (74, 51)), "brown", 3),
    Line(((50, 30), (50, 72)), "brown", 3),
)

TALKS: tuple[Shape, ...] = (
    rounded_rect(18, 26, 38, 26, 8, "paper"),
    Polygon(((26, 50), (24, 62), (36, 51)), "paper"),
    rounded_rect(44, 44, 38, 26, 8, "sky", "paper", 2.5),
    Polygon(((72, 68), (76, 80), (62, 69)), "sky"),
    *(circle(x, 39, 3, "teal") for x in (28, 37, 46)),
)

HEART: tuple[Shape, ...] = (
    Polygon(
        (*arc_points(38, 42, 13, 140, 360, 16), *arc_points(62, 42, 13, 180, 400, 16), (50, 78)),
        "paper",
    ),
)

ATOM: tuple[Shape, ...] = (
    *(oval(50, 50, 32, 11, turn, None, "paper", 3.5) for turn in (0, 60, 120)),
    circle(50, 50, 7, "paper"),
)

COINS: tuple[Shape, ...] = tuple(
    shape
    for y in (72, 62, 52, 42)
    for shape in (
        rect(30, y - 5, 40, 5, "gold_deep"),
        Ellipse((50, y), 20, 6.5, "gold_deep"),
        Ellipse((50, y - 5), 20, 6.5, "gold", "gold_deep", 1.5),
    )
)

OLIVE: tuple[Shape, ...] = (
    Line(((30, 74), (56, 64)), "leaf", 3),
    oval(38, 66, 6, 3, -30, "leaf"),
    oval(48, 72, 6, 3, 20, "leaf"),
)

MEDAL: tuple[Shape, ...] = (
    Polygon(((32, 16), (46, 16), (56, 46), (44, 50)), "blue"),
    Polygon(((68, 16), (54, 16), (44, 46), (56, 50)), "red"),
    circle(50, 60, 20, "gold", "gold_deep", 3),
    star(50, 60, 11, 4.5, 5, "gold_deep"),
)

BULB: tuple[Shape, ...] = (
    circle(50, 40, 18, "gold"),
    Polygon(((40, 50), (60, 50), (58, 62), (42, 62)), "gold"),
    rect(42, 62, 16, 12, "silver"),
    Line(((42, 66), (58, 66)), "steel", 1.8),
    Line(((42, 70), (58, 70)), "steel", 1.8),
    Polygon(((45, 74), (55, 74), (50, 79)), "steel"),
    Arc((50, 40), 9, 200, 250, "paper", 3),
    *(
        Line((a, b), "gold", 3)
        for a, b in (
            ((50, 12), (50, 16)),
            ((24, 22), (28, 26)),
            ((76, 22), (72, 26)),
            ((18, 42), (23, 42)),
            ((82, 42), (77, 42)),
        )
    ),
)

BOLT: tuple[Shape, ...] = (
    Polygon(((58, 12), (28, 54), (47, 54), (38, 88), (72, 42), (53, 42), (66, 12)), "gold"),
)

_ISSUES = {
    "peacekeeping": _issue("blue", *helmet()),
    "smuggling": _issue("brown", *CRATE),
    "diplomatic": _issue("teal", *TALKS),
    "humanitarian": _issue("rose", *HEART),
    "nuclear": _issue("orange", *ATOM),
}
_AGENDAS = {
    "wealth": _agenda(*COINS),
    "peace": _agenda(*dove(), *OLIVE),
    "prestige": _agenda(*MEDAL),
    "innovation": _agenda(*BULB),
    "justice": _agenda(*scales()),
    "power": _agenda(*BOLT),
}
ICONS: Icons = {
    **{issue: _ISSUES[issue] for issue in ISSUES},
    **{agenda: _AGENDAS[agenda] for agenda in AGENDAS},
}
