"""The phones' address before the first game of a start-up: the kiosk is on
its home screen and there is no table to join yet, but phones may already
be on the Pi's own Wi-Fi or have scanned its QR code. Every address answers
with a page, in the phone's language, that says the table is being set up
and whose script looks again every few seconds (a page that reloaded itself
on a timer would throw a screen reader back to its top each time); once a
game starts the table's server takes the port and the same address opens
the game."""

from __future__ import annotations

from html import escape

from aiohttp import web

from ..i18n import Messages, direction
from .favicon import favicon_response
from .server import PAGES, phone_language, security_headers

RETRY_SECONDS = 5
WAITING_HEADER = "X-Companion-Waiting"  # the page's script looks for it (waiting.js)


def waiting_app() -> web.Application:
    app = web.Application(middlewares=[security_headers])
    app.router.add_get("/static/waiting.js", _script)
    app.router.add_get("/favicon.ico", favicon_response)
    app.router.add_route("*", "/{tail:.*}", _waiting)
    return app


async def _script(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(PAGES / "static" / "waiting.js")


async def _waiting(request: web.Request) -> web.Response:
    t = Messages(phone_language(request))
    page = (
        f'<!doctype html><html lang="{t.lang}" dir="{direction(t.lang)}"'
        f' data-retry="{RETRY_SECONDS}"><head>'
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        '<link rel="icon" href="/favicon.ico">'
        f"<title>{escape(t('web.title_waiting'))}</title>"
        '<script src="/static/waiting.js" defer></script></head><body>'
        f"<main><h1>{escape(t('app.title'))}</h1>"
        f'<p role="status">{escape(t("web.waiting"))}</p></main>'
        "</body></html>"
    )
    return web.Response(text=page, content_type="text/html", headers={WAITING_HEADER: "1"})
