"""Icons of a game's pieces as plain data: a few simple shapes in a box of
100 × 100 units, x to the right and y down (as SVG counts), each painted with
colours named by role from a :class:`~.palette.Palette`, never by a free
value. Kivy-free and I/O-free: the kiosk draws an icon with canvas
instructions (``companion.ui.widgets.icon``), the phone pages with SVG
(``companion.web.icons``), from the same shapes.

A game's package declares its icons by the names it already gives its pieces
(its spec's ``icons``). Every icon here was drawn for this project from
circles, polygons, lines and arcs; none is copied from a published game.
An icon is decoration beside a word: the word carries the meaning, the icon
helps the eye find it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .palette import RGBA, Palette

SIZE = 100.0  # the side of an icon's box, in units
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom

# The colours an icon may be painted with, by role. A game's icons may add
# the colours its own palette gives meaning to (``with_colours``).
COLOURS = Palette(
    name="icons",
    colours={
        "ink": (0.13, 0.12, 0.12, 1),
        "paper": (0.96, 0.94, 0.88, 1),
        "gold": (0.95, 0.76, 0.26, 1),
        "gold_deep": (0.70, 0.50, 0.12, 1),
        "silver": (0.80, 0.82, 0.85, 1),
        "steel": (0.50, 0.55, 0.61, 1),
        "slate": (0.24, 0.26, 0.30, 1),
        "red": (0.80, 0.22, 0.20, 1),
        "rose": (0.92, 0.50, 0.56, 1),
        "orange": (0.93, 0.55, 0.16, 1),
        "blue": (0.22, 0.45, 0.78, 1),
        "sky": (0.58, 0.78, 0.95, 1),
        "teal": (0.12, 0.55, 0.58, 1),
        "green": (0.22, 0.58, 0.34, 1),
        "leaf": (0.55, 0.78, 0.36, 1),
        "purple": (0.50, 0.30, 0.64, 1),
        "brown": (0.56, 0.37, 0.22, 1),
        "wood": (0.78, 0.58, 0.36, 1),
    },
    pairs=(),
)


def with_colours(palette: Palette) -> Palette:
    """The icons' colours and a game's own (its names win), for icons that
    show what the game's palette gives meaning to (a party's colour)."""
    return Palette(
        name=f"icons+{palette.name}",
        colours={**COLOURS.colours, **palette.colours},
        pairs=palette.pairs,
    )


@dataclass(frozen=True)
class Ellipse:
    """An ellipse (a circle when ``rx == ry``), filled and/or outlined."""

    centre: Point
    rx: float
    ry: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0

    def outline(self, steps: int = 64) -> tuple[Point, ...]:
        cx, cy = self.centre
        return tuple(
            (cx + self.rx * math.cos(a), cy + self.ry * math.sin(a))
            for a in (2 * math.pi * i / steps for i in range(steps))
        )

    def extent(self) -> Box:
        cx, cy = self.centre
        pad = self.width / 2 if self.stroke else 0.0
        return (cx - self.rx - pad, cy - self.ry - pad, cx + self.rx + pad, cy + self.ry + pad)


@dataclass(frozen=True)
class Polygon:
    """A closed polygon (convex or not, not crossing itself), filled and/or
    outlined."""

    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0

    def extent(self) -> Box:
        return _extent(self.points, self.width / 2 if self.stroke else 0.0)


@dataclass(frozen=True)
class Line:
    """An open line through ``points``, with round ends and joints."""

    points: tuple[Point, ...]
    stroke: str
    width: float

    def extent(self) -> Box:
        return _extent(self.points, self.width / 2)


@dataclass(frozen=True)
class Arc:
    """Part of a circle's outline, from ``start`` to ``end`` degrees,
    clockwise from three o'clock (as y grows downwards), with round ends."""

    centre: Point
    radius: float
    start: float
    end: float
    stroke: str
    width: float

    def points(self, steps_per_turn: int = 72) -> tuple[Point, ...]:
        cx, cy = self.centre
        steps = max(2, math.ceil(abs(self.end - self.start) / 360 * steps_per_turn))
        return tuple(
            (cx + self.radius * math.cos(a), cy + self.radius * math.sin(a))
            for a in (
                math.radians(self.start + (self.end - self.start) * i / steps)
                for i in range(steps + 1)
            )
        )

    def extent(self) -> Box:
        return _extent(self.points(), self.width / 2)


Shape = Ellipse | Polygon | Line | Arc


@dataclass(frozen=True)
class Icon:
    """Shapes drawn in order (the last on top), with the palette their
    colours' roles are read from."""

    shapes: tuple[Shape, ...]
    palette: Palette = COLOURS

    def __post_init__(self) -> None:
        unknown = self.roles() - set(self.palette.colours)
        if unknown:
            raise ValueError(f"an icon names colours its palette lacks: {sorted(unknown)}")

    def roles(self) -> set[str]:
        return {
            role
            for shape in self.shapes
            for role in (getattr(shape, "fill", None), shape.stroke)
            if role is not None
        }

    def colour(self, role: str) -> RGBA:
        return self.palette.colours[role]

    def extent(self) -> Box:
        boxes = [shape.extent() for shape in self.shapes]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


Icons = Mapping[str, Icon]


def _extent(points: Iterable[Point], pad: float) -> Box:
    xs, ys = zip(*points, strict=True)
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


# -- shapes the games' icons are built from ------------------------------------


def circle(
    cx: float,
    cy: float,
    r: float,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.0,
) -> Ellipse:
    return Ellipse((cx, cy), r, r, fill, stroke, width)


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.0,
) -> Polygon:
    return Polygon(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), fill, stroke, width)


def rounded_rect(
    x: float,
    y: float,
    w: float,
    h: float,
    r: float,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.0,
) -> Polygon:
    corners = (
        (x + w - r, y + r, -90),
        (x + w - r, y + h - r, 0),
        (x + r, y + h - r, 90),
        (x + r, y + r, 180),
    )
    points = tuple(
        point for cx, cy, start in corners for point in arc_points(cx, cy, r, start, start + 90, 6)
    )
    return Polygon(points, fill, stroke, width)


def arc_points(
    cx: float, cy: float, r: float, start: float, end: float, steps: int = 16
) -> tuple[Point, ...]:
    """Points along a circle's arc (degrees as :class:`Arc` counts them),
    for outlines made of arcs and straight lines."""
    return tuple(
        (cx + r * math.cos(a), cy + r * math.sin(a))
        for a in (math.radians(start + (end - start) * i / steps) for i in range(steps + 1))
    )


def star(
    cx: float,
    cy: float,
    outer: float,
    inner: float,
    points: int = 5,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.0,
) -> Polygon:
    """A star with ``points`` tips, one straight up."""
    corners = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(-90 + 180 * i / points)
        corners.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return Polygon(tuple(corners), fill, stroke, width)


def regular_polygon(
    cx: float,
    cy: float,
    r: float,
    sides: int,
    turn: float = 0.0,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.0,
) -> Polygon:
    """A regular polygon, its first corner ``turn`` degrees from straight up."""
    corners = tuple(
        (cx + r * math.cos(a), cy + r * math.sin(a))
        for a in (math.radians(-90 + turn + 360 * i / sides) for i in range(sides))
    )
    return Polygon(corners, fill, stroke, width)


def oval(
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    turn: float = 0.0,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.0,
) -> Polygon:
    """An ellipse turned clockwise by ``turn`` degrees about its centre (a
    grain, a leaf, an orbit), as a polygon."""
    outline = Ellipse((cx, cy), rx, ry).outline(48)
    return Polygon(turned(outline, turn, (cx, cy)), fill, stroke, width)


def turned(points: Iterable[Point], degrees: float, about: Point = (50, 50)) -> tuple[Point, ...]:
    """``points`` turned clockwise by ``degrees`` about ``about``."""
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)
    ox, oy = about
    return tuple(
        (ox + (x - ox) * cos - (y - oy) * sin, oy + (x - ox) * sin + (y - oy) * cos)
        for x, y in points
    )


def medallion(fill: str, rim: str = "paper") -> tuple[Shape, ...]:
    """The round token a character's symbol sits on."""
    return (circle(50, 50, 46, fill, rim, 5),)


# -- symbols more than one game draws ------------------------------------------------


def scales(metal: str = "gold", strings: str = "paper") -> tuple[Shape, ...]:
    """A balance: justice, a judgement."""
    pans = tuple(
        shape
        for x in (24, 76)
        for shape in (
            Line(((x, 32), (x - 12, 54), (x + 12, 54), (x, 32)), strings, 1.8),
            Polygon(arc_points(x, 54, 13, 0, 180, 12), metal),
        )
    )
    return (
        Line(((50, 24), (50, 76)), metal, 4.5),
        Line(((22, 32), (78, 32)), metal, 4.5),
        Line(((36, 79), (64, 79)), metal, 6),
        circle(50, 22, 4.5, metal),
        *pans,
    )


def helmet(dome: str = "sky", brim: str = "paper") -> tuple[Shape, ...]:
    """A peacekeeper's helmet."""
    return (
        Polygon(arc_points(50, 60, 27, 180, 360, 24), dome, brim, 3),
        rounded_rect(18, 57, 64, 9, 4.5, brim),
        Line(((32, 45), (68, 45)), brim, 3),
    )


def dove(body: str = "paper", beak: str = "gold", eye: str = "ink") -> tuple[Shape, ...]:
    """A dove in flight, facing right."""
    return (
        Polygon(((36, 56), (18, 66), (22, 50)), body),
        oval(48, 54, 20, 11, -12, body),
        circle(65, 42, 8, body),
        Polygon(((71, 39), (80, 42), (71, 46)), beak),
        Polygon(((36, 50), (54, 46), (64, 20), (50, 28), (40, 36)), body, eye, 1.5),
        circle(67, 40.5, 1.8, eye),
    )


# -- the coin, shared by the games that count coins --------------------------------

COIN = Icon(
    (
        circle(50, 50, 45, "gold", "gold_deep", 7),
        circle(50, 50, 29, None, "gold_deep", 3.5),
        star(50, 50, 17, 7, 5, "gold_deep"),
        Arc((50, 50), 37, 200, 250, "paper", 4),
    )
)
