"""A piece's icon on the kiosk: ``IconView`` draws an
:class:`~companion.games.icons.Icon`'s shapes with canvas instructions,
in the largest square its box holds, centred. The shapes are drawn from
the box's corner and moved with it (a layout that moves the box changes
one translation); they are drawn again when the box changes size (once a
frame, with each polygon's triangles cut once for good).

Either give it the icon (``IconView(icon=spec.icons["coin"])``) or the piece's
name and its game's spec (``IconView(piece="duke", spec=spec)``). An icon
beside a word says nothing the word does not.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Mesh, PopMatrix, PushMatrix, Translate
from kivy.graphics.tesselator import TYPE_POLYGONS, WINDING_ODD, Tesselator
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from ...games import icons

# Kivy's ``Line(width=w)`` reaches ``w`` either side of its path.
_HALF = 0.5

ToBox = Callable[[icons.Point], tuple[float, float]]


class IconView(Widget):
    """Draws on its own canvas (a kv rule may add to ``canvas.before`` or
    ``canvas.after``)."""

    icon = ObjectProperty(None, allownone=True)
    piece = StringProperty("")
    spec = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # Once a frame however many of these change (a layout moves the box,
        # then sizes it): before the frame is drawn.
        redraw = Clock.create_trigger(self._redraw, -1)
        self.bind(size=redraw, icon=redraw, piece=redraw, spec=redraw, pos=self._move)
        self._corner: Translate | None = None  # where the drawn shapes are put
        self._redraw()

    def _move(self, *_args) -> None:
        if self._corner is not None:
            self._corner.xy = self.pos

    def shown(self) -> icons.Icon | None:
        """The icon drawn: the one given, else the spec's for ``piece``."""
        if self.icon is not None:
            return self.icon
        if self.spec is None or not self.piece:
            return None
        return self.spec.icons[self.piece]

    def _redraw(self, *_args) -> None:
        self.canvas.clear()
        self._corner = None
        icon = self.shown()
        if icon is None:
            return
        side = min(self.width, self.height)
        scale = side / icons.SIZE
        left = (self.width - side) / 2  # from the box's corner
        top = (self.height + side) / 2

        def at(point: icons.Point) -> tuple[float, float]:
            return left + point[0] * scale, top - point[1] * scale

        with self.canvas:
            PushMatrix()
            self._corner = Translate(*self.pos)
            for shape in icon.shapes:
                _draw(shape, icon, at, scale)
            PopMatrix()


def _draw(shape: icons.Shape, icon: icons.Icon, at: ToBox, scale: float) -> None:
    width = max(1.0, shape.width * scale * _HALF)
    if isinstance(shape, icons.Ellipse):
        cx, cy = shape.centre
        (x0, y0), (x1, y1) = at((cx - shape.rx, cy + shape.ry)), at((cx + shape.rx, cy - shape.ry))
        if shape.fill:
            Color(*icon.colour(shape.fill))
            Ellipse(pos=(x0, y0), size=(x1 - x0, y1 - y0), segments=max(24, int(scale * 40)))
        if shape.stroke:
            Color(*icon.colour(shape.stroke))
            Line(ellipse=(x0, y0, x1 - x0, y1 - y0), width=width)
    elif isinstance(shape, icons.Polygon):
        points = _flat(shape.points, at)
        if shape.fill:
            Color(*icon.colour(shape.fill))
            _fill(shape.points, at)
        if shape.stroke:
            Color(*icon.colour(shape.stroke))
            Line(points=points, close=True, joint="round", width=width)
    else:
        outline = shape.points if isinstance(shape, icons.Line) else shape.points()
        Color(*icon.colour(shape.stroke))
        Line(points=_flat(outline, at), cap="round", joint="round", width=width)


def _flat(points: tuple[icons.Point, ...], at: ToBox) -> list[float]:
    return [coordinate for point in points for coordinate in at(point)]


def _fill(points: tuple[icons.Point, ...], at: ToBox) -> None:
    """A polygon's inside: its triangles, placed in the box."""
    for vertices, indices in _triangles(points):
        placed: list[float] = []
        for x, y in zip(vertices[0::4], vertices[1::4]):
            placed.extend((*at((x, y)), 0.0, 0.0))
        Mesh(vertices=placed, indices=indices, mode="triangle_fan")


@lru_cache(maxsize=1024)
def _triangles(points: tuple[icons.Point, ...]) -> tuple[tuple[list[float], list[int]], ...]:
    """A polygon (it need not be convex) cut into triangle fans, in the
    icon's units: once per polygon, however often and wherever it is drawn
    (libtess2 clears large buffers for every cut, a frame's worth of work
    when a screen's icons are redrawn)."""
    tesselator = Tesselator()
    tesselator.add_contour([coordinate for point in points for coordinate in point])
    if not tesselator.tesselate(WINDING_ODD, TYPE_POLYGONS):
        return ()
    return tuple((list(vertices), list(indices)) for vertices, indices in tesselator.meshes)
