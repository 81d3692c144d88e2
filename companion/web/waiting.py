"""The phones' address before the first game of a start-up: the kiosk is on
its home screen and there is no table to join yet, but phones may already
be on the Pi's own Wi-Fi or have scanned its QR code. Every address answers
with a page, in the phone's language, that says the table is being set up
and looks again every few seconds; once a game starts the table's server
takes the port and the same address opens the game."""

from __future__ import annotations

from html import escape

from aiohttp import web

from ..i18n import Messages, direction
from .server import phone_language, security_headers

RETRY_SECONDS = 5


def waiting_app() -> web.Application:
    app = web.Application(middlewares=[security_headers])
    app.router.add_route("*", "/{tail:.*}", _waiting)
    return app


async def _waiting(request: web.Request) -> web.Response:
    t = Messages(phone_language(request))
    page = (
        f'<!doctype html><html lang="{t.lang}" dir="{direction(t.lang)}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f'<meta http-equiv="refresh" content="{RETRY_SECONDS}">'
        f"<title>{escape(t('app.title'))}</title></head><body>"
        f"<h1>{escape(t('app.title'))}</h1><p>{escape(t('web.waiting'))}</p>"
        "</body></html>"
    )
    return web.Response(text=page, content_type="text/html")
