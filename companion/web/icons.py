"""A piece's icon for the phone pages: an :class:`~companion.games.icons.Icon`
as a standalone SVG element, and every icon of a game as a JSON-ready
``{piece: svg}``. The icons are decoration beside the words that name the
pieces, so assistive technology skips them (``aria-hidden``, and
``focusable="false"`` keeps old browsers' tab order out of them)."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from ..games import icons
from ..games.palette import RGBA
from ..games.spec import GameSpec


def svg(icon: icons.Icon) -> str:
    """The icon as ``<svg viewBox="0 0 100 100" ...>``; the page sizes it."""
    body = "".join(_element(shape, icon) for shape in icon.shapes)
    side = _number(icons.SIZE)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'aria-hidden="true" focusable="false">{body}</svg>'
    )


def game_icons(spec: GameSpec) -> dict[str, str]:
    """Each of the game's icons as SVG, by the name the game gives the piece."""
    return {piece: svg(icon) for piece, icon in spec.icons.items()}


def _element(shape: icons.Shape, icon: icons.Icon) -> str:
    if isinstance(shape, icons.Ellipse):
        cx, cy = shape.centre
        geometry = (
            f'cx="{_number(cx)}" cy="{_number(cy)}" '
            f'rx="{_number(shape.rx)}" ry="{_number(shape.ry)}"'
        )
        return f"<ellipse {geometry}{_paint(shape.fill, shape.stroke, shape.width, icon)}/>"
    if isinstance(shape, icons.Polygon):
        paint = _paint(shape.fill, shape.stroke, shape.width, icon)
        return f'<polygon points="{_points(shape.points)}"{paint}/>'
    outline = shape.points if isinstance(shape, icons.Line) else shape.points()
    paint = _paint(None, shape.stroke, shape.width, icon)
    return f'<polyline points="{_points(outline)}"{paint}/>'


def _paint(fill: str | None, stroke: str | None, width: float, icon: icons.Icon) -> str:
    parts = [f" fill={quoteattr(_colour(icon.colour(fill)))}" if fill else ' fill="none"']
    if stroke:
        parts.append(
            f" stroke={quoteattr(_colour(icon.colour(stroke)))} "
            f'stroke-width="{_number(width)}" stroke-linecap="round" stroke-linejoin="round"'
        )
    return "".join(parts)


def _colour(rgba: RGBA) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgba[:3])


def _points(points: tuple[icons.Point, ...]) -> str:
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in points)


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")
