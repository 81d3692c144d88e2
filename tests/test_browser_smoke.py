"""The browser test set-up itself: Debian's chromium, driven by Playwright as a
phone, talks to an aiohttp server running in a thread by fetch and by
websocket, screenshots are real pictures, and two phones keep separate
cookies (as a second phone at one seat will need)."""

from __future__ import annotations

import re
import uuid

import pytest
from aiohttp import web
from browser import NO_PLAYWRIGHT, PHONE, serve_in_thread, shot
from PIL import Image

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
NEW_VISITOR = re.compile(r"^new [0-9a-f]{32}$")

PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Smoke</title>
<style>
  body { font: 20px sans-serif; margin: 0; padding: 24px; min-height: 100vh;
         box-sizing: border-box;
         background: linear-gradient(#1d3557, #457b9d); color: #f1faee; }
  button { font-size: 28px; padding: 16px 32px; border-radius: 12px;
           background: #e63946; color: white; border: 0; }
</style></head>
<body>
<h1>Table Companion</h1>
<button>Take 1 coin</button>
<p id="result">No coin yet</p>
<p id="echo">No message yet</p>
<script>
  const socket = new WebSocket(`ws://${location.host}/ws`);
  socket.onopen = () => socket.send("hello from the phone");
  socket.onmessage = (event) => {
    document.getElementById("echo").textContent = event.data;
  };
  document.querySelector("button").onclick = async () => {
    const response = await fetch("/take", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({coins: 1}),
    });
    const {total} = await response.json();
    document.getElementById("result").textContent = `Coins: ${total}`;
  };
</script>
</body></html>
"""


def smoke_app() -> web.Application:
    taken: list[int] = []

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def take(request: web.Request) -> web.Response:
        taken.append((await request.json())["coins"])
        return web.json_response({"total": sum(taken)})

    async def echo(request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        async for message in socket:
            await socket.send_str(f"echo: {message.data}")
        return socket

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_post("/take", take)
    app.router.add_get("/ws", echo)
    return app


def test_a_phone_posts_by_fetch_and_hears_the_websocket(phone):
    with serve_in_thread(smoke_app()) as url:
        phone.goto(url)
        expect(phone.locator("#echo")).to_have_text("echo: hello from the phone")
        take = phone.get_by_role("button", name="Take 1 coin")
        take.tap()
        expect(phone.locator("#result")).to_have_text("Coins: 1")
        take.tap()
        expect(phone.locator("#result")).to_have_text("Coins: 2")
        path = shot(phone, "smoke")

    assert path.stat().st_size > 10_000
    with Image.open(path) as picture:
        width, height = picture.size
        colours = picture.convert("RGB").getcolors(maxcolors=1_000_000)
    scale = PHONE["device_scale_factor"]
    assert (width, height) == (
        PHONE["viewport"]["width"] * scale,
        PHONE["viewport"]["height"] * scale,
    )
    assert len(colours) > 100  # the gradient, the button and the text


def cookie_app() -> web.Application:
    """Gives each new visitor an id in a cookie and says who is visiting."""

    async def who(request: web.Request) -> web.Response:
        visitor = request.cookies.get("visitor")
        if visitor:
            return web.Response(text=f"<p id=who>returning {visitor}</p>", content_type="text/html")
        visitor = uuid.uuid4().hex
        response = web.Response(text=f"<p id=who>new {visitor}</p>", content_type="text/html")
        response.set_cookie("visitor", visitor, httponly=True, samesite="Strict")
        return response

    app = web.Application()
    app.router.add_get("/", who)
    return app


def test_two_phones_keep_separate_cookies(phones):
    first, second = phones(), phones()
    with serve_in_thread(cookie_app()) as url:
        first.goto(url)
        expect(first.locator("#who")).to_have_text(NEW_VISITOR)
        [first_cookie] = first.context.cookies()
        first.reload()
        expect(first.locator("#who")).to_have_text(f"returning {first_cookie['value']}")

        second.goto(url)
        expect(second.locator("#who")).to_have_text(NEW_VISITOR)
        [second_cookie] = second.context.cookies()

    assert first_cookie["value"] != second_cookie["value"]
    assert first.context.cookies() == [first_cookie]
