"""The console's guards through its real server on 127.0.0.1, with real HTTP
and WebSocket clients: a socket or a POST from another origin is refused,
CSRF tokens are compared in constant time, the login limit is per client
behind the trusted TLS proxy (and nobody else chooses their address), and
wrong passwords are checked off the event loop."""

from __future__ import annotations

import ast
import asyncio
import http.client
import json
import subprocess
import sys
import threading
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

import aiohttp
from browser import serve_in_thread
from test_console import KEY, PASSWORD, _console_words, signed, status  # noqa: F401

from companion.secret_hash import hash_pin

COMPANION = Path(__file__).parents[1] / "companion"
PROXY_HEADERS = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "console.example"}


def console(tmp_path, **kwargs):
    from companion.console.server import Console
    from companion.console.stats import Stats

    return Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"), **kwargs)


def call(base, method, path, headers=None, form=None):
    """One request, no redirect followed: (status, headers, body)."""
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    sent = dict(headers or {})
    body = None
    if form is not None:
        body = urllib.parse.urlencode(form).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        connection.close()


def set_cookies(headers) -> dict[str, SimpleCookie]:
    """The cookies a response sets, each with its attributes."""
    found = {}
    for line in headers.get_all("Set-Cookie") or []:
        cookie = SimpleCookie()
        cookie.load(line)
        found.update({name: cookie for name in cookie})
    return found


def cookie_header(cookies: dict[str, SimpleCookie]) -> str:
    return "; ".join(f"{name}={cookie[name].value}" for name, cookie in cookies.items())


def form_csrf(page: str) -> str:
    return page.split('name="csrf" value="')[1].split('"')[0]


def log_in(base, headers=None, password=PASSWORD):
    """Log in as a browser does (the login page, then its form), sending
    ``headers`` with both: (status, the login's cookies, its set-cookie)."""
    headers = headers or {}
    _status, answer, page = call(base, "GET", "/login", headers)
    given = set_cookies(answer)
    sent = {**headers, "Cookie": cookie_header(given)}
    code, answer, _body = call(
        base, "POST", "/login", sent, {"csrf": form_csrf(page), "password": password}
    )
    return code, {**given, **set_cookies(answer)}, answer


def staff(base, headers=None) -> tuple[str, str]:
    """A logged-in session: its Cookie header and the CSRF token of its page."""
    code, cookies, _answer = log_in(base, headers)
    assert code == 303, code
    cookie = f"console_session={cookies['console_session']['console_session'].value}"
    _status, _answer, page = call(base, "GET", "/", {**(headers or {}), "Cookie": cookie})
    return cookie, form_csrf(page) if 'name="csrf"' in page else ""


def open_socket(base, cookie, origin=None) -> tuple[int, object]:
    """Open /ws with ``cookie`` and ``origin`` (none: no Origin header):
    (101 and its first message) or (the refusal's status, None)."""

    async def go():
        headers = {"Cookie": cookie} | ({"Origin": origin} if origin else {})
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(base + "/ws", headers=headers) as ws:
                    return 101, json.loads((await ws.receive(timeout=10)).data)
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status, None

    return asyncio.run(go())


def test_a_socket_from_another_origin_is_refused(tmp_path):
    """/ws's first message carries the session's CSRF token: a page of
    another site, or of another port or scheme of this host, gets none."""
    with serve_in_thread(make_app(console(tmp_path))) as base:
        cookie, _csrf = staff(base)
        port = urllib.parse.urlsplit(base).port
        for origin in (
            "http://evil.example",
            f"http://127.0.0.1:{port + 1}",
            f"https://127.0.0.1:{port}",
            "null",
        ):
            code, first = open_socket(base, cookie, origin)
            assert (code, first) == (403, None), origin
        for origin in (base, None):  # its own page; a client that is no browser
            code, first = open_socket(base, cookie, origin)
            assert code == 101 and "cards" in first, origin


def test_an_action_from_another_origin_is_refused(tmp_path):
    taken = []
    the_console = console(tmp_path, send=lambda table, action: taken.append(action))
    with serve_in_thread(make_app(the_console)) as base:
        base.on_loop(lambda: the_console.receive("t1", "status", signed(status())))  # a real table
        cookie, csrf = staff(base)
        port = urllib.parse.urlsplit(base).port
        act = {"csrf": csrf, "table": "t1", "action": "pause_timer"}
        for origin in (f"http://127.0.0.1:{port + 1}", "http://evil.example", "null"):
            code, _h, _b = call(base, "POST", "/action", {"Cookie": cookie, "Origin": origin}, act)
            assert code == 403, origin
        # A token that is no ASCII is refused as wrong, not with an error.
        forged = {**act, "csrf": "é" * len(csrf)}
        code, _h, _b = call(base, "POST", "/action", {"Cookie": cookie, "Origin": base}, forged)
        assert code == 403
        assert taken == [], "nothing sent to the table"
        code, _h, _b = call(base, "POST", "/action", {"Cookie": cookie, "Origin": base}, act)
        assert code == 303 and [a["action"] for a in taken] == ["pause_timer"]


def test_a_login_from_another_origin_is_refused(tmp_path):
    with serve_in_thread(make_app(console(tmp_path))) as base:
        code, _cookies, _answer = log_in(base, {"Origin": "http://evil.example"})
        assert code == 403
        code, _cookies, _answer = log_in(base, {"Origin": base})
        assert code == 303


def test_csrf_tokens_are_compared_in_constant_time():
    """No CSRF token is compared with == or != (which stop at the first
    difference): every comparison goes through ``same_secret``."""
    found = []
    for path in sorted(COMPANION.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                isinstance(op, ast.Eq | ast.NotEq) for op in node.ops
            ):
                if "csrf" in ast.unparse(node).lower():
                    found.append(f"{path.relative_to(COMPANION)}:{node.lineno}")
    assert found == []


def make_app(the_console, trusted_proxy=None):
    """The console's page alone (no broker), behind ``trusted_proxy`` if given."""
    from companion.console.server import make_app

    return make_app(the_console, trusted_proxy)


def wrong_logins(base, count, headers_for):
    """``count`` wrong logins one after another; their statuses."""
    return [log_in(base, headers_for(n), "wrong")[0] for n in range(count)]


def test_behind_the_trusted_proxy_the_limit_is_per_client(tmp_path):
    """Behind the TLS proxy every request comes from its address: the limit
    counts the client it forwards (the last X-Forwarded-For), so one client
    guessing locks out nobody else, nor escapes by writing its own entries."""
    from companion.console.server import FAILED_LOGINS

    with serve_in_thread(make_app(console(tmp_path), "127.0.0.1")) as base:

        def guesser(n):  # the entries before the proxy's own are the client's to invent
            return {**PROXY_HEADERS, "X-Forwarded-For": f"198.51.100.{n}, 203.0.113.5"}

        codes = wrong_logins(base, FAILED_LOGINS + 2, guesser)
        assert codes == [403] * FAILED_LOGINS + [429] * 2
        other = {**PROXY_HEADERS, "X-Forwarded-For": "203.0.113.6"}
        code, cookies, _answer = log_in(base, other)
        assert code == 303, "another client logs in"
        session = cookies["console_session"]["console_session"]
        assert session["secure"] and session["httponly"], "served over TLS: a Secure cookie"
        assert session["samesite"] == "Strict"
        # The page over TLS: its own origin is the proxy's https one.
        cookie = f"console_session={session.value}"
        sent = {**other, "Cookie": cookie}
        _code, _answer, page = call(base, "GET", "/", sent)
        act = {"csrf": form_csrf(page), "table": "t1", "action": "pause_timer"}
        plain = {**sent, "Origin": "http://console.example"}
        code, _h, _b = call(base, "POST", "/action", plain, act)
        assert code == 403, "the page over plain HTTP is another origin"
        tls = {**sent, "Origin": "https://console.example"}
        code, _h, _b = call(base, "POST", "/action", tls, act)
        assert code == 400, "its own origin: the action is read (no such table)"


def test_forwarded_headers_from_any_other_peer_are_ignored(tmp_path):
    from companion.console.server import FAILED_LOGINS

    for proxy in (None, "192.0.2.1"):  # none configured; another address
        with serve_in_thread(make_app(console(tmp_path), proxy)) as base:

            def liar(n):
                return {**PROXY_HEADERS, "X-Forwarded-For": f"203.0.113.{n}"}

            assert wrong_logins(base, FAILED_LOGINS + 1, liar)[-1] == 429
            code, _cookies, _answer = log_in(base)
            assert code == 429, "its own address is the one that guessed"


def test_the_proxy_setting_takes_an_address_only(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "console", "--trusted-proxy", "proxy.example"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "not an IP address" in done.stderr


def test_wrong_logins_sent_together_do_not_stall_the_page(tmp_path):
    """scrypt takes its tenth of a second in a thread: twenty wrong logins
    at once leave the console answering a static file at once, and guesses
    sent together are counted like guesses one after another."""
    from companion.console.server import FAILED_LOGINS

    with serve_in_thread(make_app(console(tmp_path))) as base:
        _status, answer, page = call(base, "GET", "/login")
        sent = {"Cookie": cookie_header(set_cookies(answer))}
        guess = {"csrf": form_csrf(page), "password": "wrong"}
        start = threading.Barrier(21)
        codes = []

        def attempt():
            start.wait()
            codes.append(call(base, "POST", "/login", sent, guess)[0])

        guessers = [threading.Thread(target=attempt) for _ in range(20)]
        for thread in guessers:
            thread.start()
        start.wait()
        waits = []
        while any(thread.is_alive() for thread in guessers) or not waits:
            began = time.monotonic()
            assert call(base, "GET", "/static/console.css")[0] == 200
            waits.append(time.monotonic() - began)
        for thread in guessers:
            thread.join()
        assert max(waits) < 0.3, f"a static file waited {max(waits):.2f} s"
        assert sorted(codes) == [403] * FAILED_LOGINS + [429] * (20 - FAILED_LOGINS)
