"""The pages' icon (``/favicon.ico``): a round table in gold with six seats
around it, drawn here with Pillow (a dependency of the table already) and
written as an ICO of the sizes a browser's tab and a phone's home screen
ask for. Every page links it, and a browser that asks for ``/favicon.ico``
on its own finds it too: no page costs the journal a 404.

Drawn once, on the first request, large and then scaled down, so its
edges are smooth at 16 px."""

from __future__ import annotations

import io
import math
from functools import cache

from aiohttp import web

SIZES = (16, 32, 48, 64)
CANVAS = 256  # drawn at this size, then scaled down to each of SIZES
INK = (29, 34, 38, 255)  # the pages' card colour (app.css --card)
GOLD = (255, 201, 64, 255)  # the pages' accent (app.css --accent)
SEATS = 6
ICON_MAX_AGE = 86400  # seconds: the icon never changes while the table runs


@cache
def favicon() -> bytes:
    """The icon as ICO bytes."""
    from PIL import Image, ImageDraw  # only when a browser first asks

    image = Image.new("RGBA", (CANVAS, CANVAS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    middle = CANVAS / 2
    draw.ellipse((0, 0, CANVAS - 1, CANVAS - 1), fill=INK)
    table = CANVAS * 0.24
    draw.ellipse((middle - table, middle - table, middle + table, middle + table), fill=GOLD)
    seat, ring = CANVAS * 0.085, CANVAS * 0.36
    for index in range(SEATS):
        angle = 2 * math.pi * index / SEATS - math.pi / 2
        x, y = middle + ring * math.cos(angle), middle + ring * math.sin(angle)
        draw.ellipse((x - seat, y - seat, x + seat, y + seat), fill=GOLD)
    written = io.BytesIO()
    image.save(written, format="ICO", sizes=[(side, side) for side in SIZES])
    return written.getvalue()


async def favicon_response(request: web.Request) -> web.Response:
    """``GET /favicon.ico``, for the table's server and the waiting page's."""
    return web.Response(
        body=favicon(),
        content_type="image/x-icon",
        headers={"Cache-Control": f"max-age={ICON_MAX_AGE}"},
    )
