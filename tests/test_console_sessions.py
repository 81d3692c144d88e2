"""The console's sessions through its real server on 127.0.0.1: made only by
a login, their cookie's flags and lifetime, idle and absolute expiry (an
open page closed when its session ends), a cap, and logging out, over HTTP
and in a real Chromium (the Log out button, in English and Persian)."""

from __future__ import annotations

import asyncio
import json
import threading

import aiohttp
from browser import serve_in_thread, shot
from test_console import PASSWORD, _console_words, status  # noqa: F401
from test_console_auth import call, console, log_in, make_app, staff
from test_console_page import console_words


def test_a_request_without_a_cookie_makes_no_session(tmp_path):
    the_console = console(tmp_path)
    with serve_in_thread(make_app(the_console)) as base:
        for _ in range(20):
            assert call(base, "GET", "/")[0] == 303
            assert call(base, "GET", "/login")[0] == 200
            assert call(base, "GET", "/ws")[0] == 401
            assert call(base, "POST", "/action", form={"csrf": "x"})[0] == 403
        assert len(the_console.sessions) == 0
        assert call(base, "POST", "/logout", form={"csrf": "x"})[0] == 303
        assert len(the_console.sessions) == 0
        code, cookies, _answer = log_in(base)
        assert code == 303 and len(the_console.sessions) == 1, "a login makes one"


def test_the_session_cookie_has_its_flags_and_a_lifetime(tmp_path):
    from companion.console.sessions import ABSOLUTE_SECONDS

    with serve_in_thread(make_app(console(tmp_path))) as base:
        _code, cookies, _answer = log_in(base)
        session = cookies["console_session"]["console_session"]
        assert session["httponly"] and session["samesite"] == "Strict"
        assert session["max-age"] == str(int(ABSOLUTE_SECONDS))
        assert not session["secure"], "plain HTTP (no TLS proxy): a Secure cookie is never sent"


def socket_closes(base, cookie, act):
    """Open the page's socket, run ``act`` (in another thread, as the server
    runs in its own), and return how the socket ended: its close code."""

    async def go():
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(base + "/ws", headers={"Cookie": cookie}) as ws:
                assert "cards" in json.loads((await ws.receive(timeout=10)).data)
                acting = asyncio.ensure_future(asyncio.to_thread(act))
                while True:
                    message = await ws.receive(timeout=20)
                    if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                        await acting
                        return ws.close_code

    return asyncio.run(go())


def logged_in(base, cookie) -> bool:
    """Whether the page opens with this cookie (else it sends to the login)."""
    code, answer, _body = call(base, "GET", "/", {"Cookie": cookie})
    assert code == 200 or (code, answer["Location"]) == (303, "/login")
    return code == 200


def test_sessions_expire_when_idle_and_after_a_day_s_shift(tmp_path):
    from companion.console.server import LOGGED_OUT
    from companion.console.sessions import ABSOLUTE_SECONDS, IDLE_SECONDS

    now = [1000.0]
    the_console = console(tmp_path, clock=lambda: now[0])
    with serve_in_thread(make_app(the_console)) as base:
        cookie, _csrf = staff(base)
        now[0] += IDLE_SECONDS - 1
        assert logged_in(base, cookie), "used within the idle time"
        now[0] += IDLE_SECONDS + 1
        assert not logged_in(base, cookie), "idle too long"
        assert len(the_console.sessions) == 0

        cookie, _csrf = staff(base)
        born = now[0]
        while now[0] - born < ABSOLUTE_SECONDS - IDLE_SECONDS:
            now[0] += IDLE_SECONDS / 2
            assert logged_in(base, cookie), "in use all along"
        now[0] = born + ABSOLUTE_SECONDS + 1
        assert not logged_in(base, cookie), "a session lasts a shift at most"

        # A page left open keeps its session in use, until its shift is over:
        # then the page's socket is closed, and no card reaches it any more.
        cookie, _csrf = staff(base)
        born = now[0]

        def pass_the_day():
            now[0] += IDLE_SECONDS * 1.5
            threading.Event().wait(6)  # the server looks every 5 s
            assert len(the_console.sessions) == 1, "the open page kept it"
            now[0] = born + ABSOLUTE_SECONDS + 1

        assert socket_closes(base, cookie, pass_the_day) == LOGGED_OUT
        assert not logged_in(base, cookie)


def test_sessions_are_capped(tmp_path):
    """Past the cap a login ends the session least recently used, and its
    page still open is closed."""
    from companion.console.server import LOGGED_OUT
    from companion.console.sessions import MAX_SESSIONS

    now = [1000.0]
    the_console = console(tmp_path, clock=lambda: now[0])
    with serve_in_thread(make_app(the_console)) as base:
        cookies = [staff(base)[0]]

        def log_in_many():  # all at one time: the first made goes first
            for _ in range(MAX_SESSIONS + 4):
                cookies.append(staff(base)[0])

        assert socket_closes(base, cookies[0], log_in_many) == LOGGED_OUT
        assert len(the_console.sessions) == MAX_SESSIONS
        assert [logged_in(base, cookie) for cookie in cookies[:5]] == [False] * 5, "the oldest"
        assert all(logged_in(base, cookie) for cookie in cookies[5:])


def test_logging_out_ends_the_session_and_its_open_pages(tmp_path):
    from companion.console.server import LOGGED_OUT

    the_console = console(tmp_path)
    with serve_in_thread(make_app(the_console)) as base:
        cookie, csrf = staff(base)
        code, _answer, _body = call(base, "POST", "/logout", {"Cookie": cookie}, {"csrf": "x"})
        assert code == 403 and logged_in(base, cookie), "a forged logout"
        answers = []

        def log_out():
            answers.append(call(base, "POST", "/logout", {"Cookie": cookie}, {"csrf": csrf}))

        assert socket_closes(base, cookie, log_out) == LOGGED_OUT
        code, answer, _body = answers[0]
        assert (code, answer["Location"]) == (303, "/login")
        assert 'console_session=""' in " ".join(answer.get_all("Set-Cookie"))
        assert not logged_in(base, cookie), "the old cookie opens nothing"
        assert len(the_console.sessions) == 0


def test_the_log_out_button(tmp_path, browser):
    """Staff tap Log out (in Persian, right to left, too): the login page,
    and the other tab of the same browser goes to it as well."""
    the_console = console(tmp_path)
    with serve_in_thread(make_app(the_console)) as base:
        base.on_loop(lambda: the_console.receive("t1", "status", json.dumps(status()).encode()))
        for lang, size in (("en", (390, 844)), ("fa", (1280, 800)), ("fa", (390, 844))):
            context = browser.new_context(viewport={"width": size[0], "height": size[1]})
            page = context.new_page()
            page.goto(f"{base}/login?lang={lang}")
            page.fill("input[name=password]", PASSWORD)
            page.click("form.login button")
            page.wait_for_selector('article[data-table="t1"]')
            other = context.new_page()
            other.goto(base + "/")
            other.wait_for_selector('article[data-table="t1"]')
            button = page.locator("form.logout button")
            assert button.inner_text() == console_words(lang)["console.logout"]
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] >= 0
            assert box["x"] + box["width"] <= size[0]
            shot(page, f"console-logout-{lang}-{size[0]}")
            button.click()
            page.wait_for_url("**/login")
            page.wait_for_selector("form.login")
            other.wait_for_url("**/login")  # its socket closed: it reloads
            page.goto(base + "/")
            assert page.url.endswith("/login")
            assert len(the_console.sessions) == 0
            context.close()
