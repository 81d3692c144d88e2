"""A seat's page and its socket's protocol in a real browser (Debian's
chromium via Playwright) against the real server: a state the page fails
to show leaves its socket open (no reconnect loop); a browser without
``DecompressionStream("deflate-raw")`` reads its states as plain text and
plays; a page from before an update (its socket asks for no frames) is
closed with 4001, reloads and runs the new scripts, whose URLs carry their
version; a socket that missed states (wakes coalesced) is sent the latest,
which its page reads right."""

from __future__ import annotations

import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from browser import NO_PLAYWRIGHT, serve_in_thread, shot, take_seat
from sh_helpers import nominate, sh_table

from companion.table import seat_source
from companion.web.server import STATIC_VERSION, TableServer

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect

ROOT = Path(__file__).resolve().parent.parent
# The last commit whose seat page read its socket's messages as JSON text.
BEFORE_FRAMES = "8761a62"
NOTHING_TO_CHOOSE = "Nothing for you to choose right now."


def election(store):
    """Secret Hitler, keeper mode, five seats; the ballot on C is open."""
    table = sh_table(store, 5, mode="keeper")
    nominate(table, 2)
    return table


def vote(table, seats, choice: str = "ja") -> None:
    for seat in seats:
        table.execute({"type": "vote", "seat": seat, "choice": choice}, source=seat_source(seat))


def sockets_of(page) -> list[str]:
    """The URLs of the sockets ``page`` opens, as it opens them."""
    urls: list[str] = []
    page.on("websocket", lambda socket: urls.append(socket.url))
    return urls


def seat_page(phones, base, server, seat: int, init_script: str | None = None):
    token = base.on_loop(lambda: server.links.token(server.table.game_id, seat))
    page = phones()
    if init_script is not None:
        page.add_init_script(init_script)
    opened = sockets_of(page)
    take_seat(page, f"{base}/join/{token}")
    return page, opened


def test_a_state_the_page_fails_to_show_keeps_its_socket_open(store, phones):
    """Showing a state throws (a page's bug): the page logs it and keeps its
    socket, rather than closing it and being sent the same state again on
    the next one, every half second; the next state shows."""
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        bob, opened = seat_page(phones, base, server, 1)
        expect(bob.locator("#link")).to_have_text("Connected")
        errors: list[str] = []
        bob.on("console", lambda message: errors.append(message.text))
        bob.evaluate("() => { window.renderForms = () => { throw new Error('broken render'); }; }")
        base.on_loop(lambda: vote(table, [0]))
        bob.wait_for_timeout(2500)  # five reconnects' time, were the socket closed
        assert len(opened) == 1, opened
        assert any("broken render" in error for error in errors), errors
        expect(bob.locator("#link")).to_have_text("Connected")
        bob.evaluate("() => { window.renderForms = () => {}; }")
        base.on_loop(lambda: vote(table, [1, 2, 3, 4]))
        expect(bob.locator("#actions")).to_have_text(NOTHING_TO_CHOOSE)
        assert len(opened) == 1, opened


def test_a_browser_that_cannot_inflate_reads_plain_text_and_votes(store, phones):
    """No ``DecompressionStream`` (Chrome before 103, Safari before 16.4):
    the page asks its socket for the padded text ``/api/seat`` sends, and
    plays as any other."""
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        bob, opened = seat_page(
            phones, base, server, 1, init_script="delete window.DecompressionStream;"
        )
        expect(bob.locator("#name")).to_have_text("B")
        expect(bob.locator("#link")).to_have_text("Connected")
        buttons = bob.locator("#actions button")
        expect(buttons).to_have_text(["Ja!", "Nein"])
        buttons.nth(1).click()
        expect(bob.locator("#message")).to_have_text("Sent.")
        assert base.on_loop(lambda: table.private_view(1)["ballot_vote"]) == "nein"
        base.on_loop(lambda: vote(table, [0, 2, 3, 4]))
        expect(bob.locator("#actions")).to_have_text(NOTHING_TO_CHOOSE)
        shot(bob, "sh-seat-plain-text")
        assert [url.partition("/ws")[2] for url in opened] == ["?frames=text"]


def old_script(name: str) -> str:
    return subprocess.run(
        ["git", "show", f"{BEFORE_FRAMES}:companion/web/pages/static/{name}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def serving(script: str):
    """A route handler that answers with ``script``."""
    return lambda route: route.fulfill(body=script, content_type="text/javascript")


def test_a_page_from_before_the_update_reloads_into_the_new_one(store, phones):
    """A page loaded before an update runs its old scripts, which read a
    socket's messages as JSON text: its socket, which asks for no frames,
    is closed with 4001, the page reloads, and the scripts it loads then
    (their URLs versioned, never an old cached copy) read the frames."""
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 1))
        bob = phones()
        opened = sockets_of(bob)
        for name in ("common.js", "seat.js"):  # the old scripts, for the first load only
            bob.route(f"**/static/{name}*", serving(old_script(name)), times=1)
        take_seat(bob, f"{base}/join/{token}")
        expect(bob.locator("#name")).to_have_text("B")
        expect(bob.locator("#actions button")).to_have_text(["Ja!", "Nein"])
        # The old page may show the seat before its socket is refused: wait
        # for the reloaded page's socket (up to 10 s) before looking.
        deadline = time.monotonic() + 10
        while len(opened) < 2 and time.monotonic() < deadline:
            bob.wait_for_timeout(50)
        assert [url.partition("/ws")[2] for url in opened] == ["", "?frames=binary"]
        scripts = bob.eval_on_selector_all("script[src]", "all => all.map((s) => s.src)")
        assert scripts and all(src.endswith(f"?v={STATIC_VERSION}") for src in scripts)


def test_every_page_s_scripts_and_style_carry_their_version(store):
    """/seat, /table, a join link's page and a refusal: every script and
    style URL ends in ``?v=`` and the hash of the pages' static files."""
    table = election(store)
    server = TableServer(table)
    assert re.fullmatch("[0-9a-f]{16}", STATIC_VERSION)
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 1))
        for path in ("/seat", "/table", f"/join/{token}", "/join/not-a-seat"):
            try:
                with urllib.request.urlopen(f"{base}{path}") as response:
                    page = response.read().decode()
            except urllib.error.HTTPError as refused:  # a refusal's page
                page = refused.read().decode()
            urls = re.findall(r'(?:src|href)="(/static/[^"]*)"', page)
            assert len(urls) >= 2, (path, page)
            assert all(url.endswith(f"?v={STATIC_VERSION}") for url in urls), (path, urls)


def test_a_socket_that_missed_states_is_sent_the_latest_and_its_page_reads_it(store, phones):
    """All five votes in one turn of the server's loop: the seat's socket
    wakes once and is sent the latest state only, its shared part deflated
    after the last one the page was sent (not the ones it missed), and the
    page shows that state."""
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 1))
        bob = phones()
        frames: list[bytes] = []
        bob.on(
            "websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload))
        )
        take_seat(bob, f"{base}/join/{token}")
        expect(bob.locator("#actions button")).to_have_text(["Ja!", "Nein"])
        for _ in range(100):  # the socket's first state (the page shows /api/seat's before)
            if frames:
                break
            bob.wait_for_timeout(50)
        first = len(frames)
        assert first == 1, frames
        base.on_loop(lambda: vote(table, [0, 1, 2, 3, 4]))
        expect(bob.locator("#actions")).to_have_text(NOTHING_TO_CHOOSE)
        expect(bob.locator("#status")).to_have_text(table.status_line("en"))
        missed = frames[first:]
        assert 1 <= len(missed) < 5, "the five states came as fewer frames"
        assert all(isinstance(frame, bytes) and frame[0] == 1 for frame in missed), [
            (type(frame), frame[:1]) for frame in frames
        ]
