"""Reflow (WCAG 1.4.10): at 320 CSS px every page a person meets scrolls
only up and down. A seat's page and `/table` of each game, a join link's
page, a refusal and the waiting page, in English, Greek, Russian and Persian,
at both text sizes (the waiting page, shown before any game, has no Large
text and is looked at in both anyway): the document is no wider than the viewport and no
element's edge passes either side of it (a page wider than the screen makes
a phone's browser zoom out, undoing Large text). One phone per server goes
through every language (its cookie) and size (its storage), reloading."""

from __future__ import annotations

import pytest
from browser import NO_PLAYWRIGHT, serve_in_thread, take_seat
from test_accessibility import SEAT_STATES

from companion.i18n import LANGUAGES
from companion.web.server import LANG_COOKIE, TableServer
from companion.web.waiting import waiting_app

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
NARROW = {"width": 320, "height": 640}
SIZES = ("normal", "large")

# What passes the viewport's edges, every fold open (the language menu, the
# rules, the rename form): the document's own width, and each element whose
# box ends right of it or begins left of it (by more than rounding), named
# by its tag, id and classes.
OVERFLOW = """(width) => {
    for (const fold of document.querySelectorAll("details")) fold.open = true;
    for (const menu of document.querySelectorAll("[aria-expanded=false]")) menu.click();
    const root = document.documentElement;
    const name = (e) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : "")
        + [...e.classList].map((c) => `.${c}`).join("");
    const out = [...document.querySelectorAll("body *")].filter((e) => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5);
    }).map((e) => {
        const box = e.getBoundingClientRect();
        return `${name(e)} ${Math.round(box.left)}..${Math.round(box.right)}`;
    });
    return { scroll: root.scrollWidth, client: root.clientWidth, out: out.slice(0, 5) };
}"""
LARGE = "() => document.documentElement.classList.contains('large-text')"


def in_every_way(page, url: str, ready, sizes: bool = True) -> list[str]:
    """Open ``url`` in each language and text size (``sizes``: the page has
    Large text, and shows it when it is on); what overflows in each."""
    faults = []
    host = url.split("/")[2].split(":")[0]
    page.goto(url)  # the storage is the page's origin's
    for lang in LANGUAGES:
        cookie = {"name": LANG_COOKIE, "value": lang, "domain": host, "path": "/"}
        page.context.add_cookies([cookie])
        for size in SIZES:
            page.evaluate(
                "(on) => localStorage.setItem('companion.large_text', on)",
                "on" if size == "large" else "off",
            )
            page.goto(url)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            ready(page)
            if sizes:
                large = page.evaluate(LARGE)
                assert large == (size == "large"), f"{url} {lang}: Large text {size}, class {large}"
            found = page.evaluate(OVERFLOW, NARROW["width"])
            if max(found["scroll"], found["client"]) > NARROW["width"] or found["out"]:
                faults.append(f"{url.split('/', 3)[-1] or '/'} {lang} {size}: {found}")
    return faults


def connected(page) -> None:
    expect(page.locator("#link")).to_have_attribute("data-state", "open")
    expect(page.locator("h1")).not_to_have_text("…")


def shown(selector: str):
    return lambda page: expect(page.locator(selector)).to_be_visible()


def narrow_phone(phones):
    page = phones()
    page.set_viewport_size(NARROW)
    return page


def test_every_page_reflows_at_320_px_in_every_language_and_text_size(store, phones):
    faults = []
    for game, state in SEAT_STATES.items():
        table, seat = state(store)
        server = TableServer(table)
        with serve_in_thread(server.app()) as base:
            page = narrow_phone(phones)
            tokens = base.on_loop(
                lambda t=table, s=server: [s.links.token(t.game_id, n) for n in range(len(t.names))]
            )
            take_seat(page, f"{base}/join/{tokens[seat]}")
            for path in ("/", "/table"):
                faults += [f"{game} {f}" for f in in_every_way(page, base + path, connected)]
            if game == "secret_hitler":  # the pages with no game of their own
                other = tokens[(seat + 1) % len(tokens)]
                faults += in_every_way(page, f"{base}/join/{other}", shown(".take-seat button"))
                faults += in_every_way(page, f"{base}/join/not-a-token", shown(".refusal"))
    with serve_in_thread(waiting_app()) as base:
        faults += in_every_way(narrow_phone(phones), f"{base}/join/x", shown("main p"), sizes=False)
    assert not faults, "\n".join(faults)
