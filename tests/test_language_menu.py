"""A page's language, chosen on purpose (WCAG 3.2.2) and marked (3.1.2): the
menu on a seat's page and on /table changes nothing on an arrow key, only
on a press of a language's own button, then opens in it with the focus back
on the menu; each language in it is marked with its own `lang`, the one read
now with aria-current; and every page a phone meets (a seat's, /table, a
join link's, a refusal, the waiting page) is titled in its language."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from browser import NO_PLAYWRIGHT, serve_in_thread, take_seat
from page_helpers import language_cookie
from test_accessibility import coup_turn

from companion.i18n import LANGUAGES, translate
from companion.web.server import TableServer
from companion.web.waiting import waiting_app

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect


@contextmanager
def seated(store, phones):
    """A phone on its seat at a served Coup table: (page, base, link), the
    link a join link of another seat."""
    table, seat = coup_turn(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        tokens = base.on_loop(lambda: [server.links.token(table.game_id, n) for n in (seat, 1)])
        page = phones()
        take_seat(page, f"{base}/join/{tokens[0]}")
        yield page, base, f"/join/{tokens[1]}"


def connected(page) -> None:
    expect(page.locator("#link")).to_have_attribute("data-state", "open")


@pytest.mark.parametrize("path", ["/", "/table"])
def test_an_arrow_key_changes_no_language_and_a_choice_does(store, phones, path):
    with seated(store, phones) as (page, base, _):
        page.goto(base + path)
        connected(page)
        page.evaluate("() => { window.notReloaded = true; }")
        menu = page.locator("#language")
        menu.focus()
        for key in ("ArrowDown", "ArrowDown", "ArrowUp", "ArrowRight"):
            page.keyboard.press(key)
        page.wait_for_timeout(1000)  # a reload, had one begun, would be done
        assert page.evaluate("() => window.notReloaded === true"), "the page loaded again"
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(menu).to_be_focused()
        # Enter opens the menu, Tab goes through its languages, and Enter on
        # Greek chooses it: the page comes in Greek, the focus on the menu.
        page.keyboard.press("Enter")
        expect(menu).to_have_attribute("aria-expanded", "true")
        for _ in range(LANGUAGES.index("el") + 1):
            page.keyboard.press("Tab")
        expect(page.get_by_role("button", name="Ελληνικά")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("html")).to_have_attribute("lang", "el")
        connected(page)
        expect(menu).to_contain_text("Ελληνικά")
        expect(menu).to_be_focused()
        expect(menu).to_have_attribute("aria-expanded", "false")
        # Escape closes the menu, the focus where it was.
        page.keyboard.press("Enter")
        expect(page.locator("#language-list")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#language-list")).to_be_hidden()
        expect(menu).to_be_focused()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_in_the_menu_is_marked_with_its_own_lang(store, phones, lang):
    """Each language's button carries its `lang` (a screen reader reads
    "Ελληνικά" in a Greek voice on an English page), the one read now is
    marked aria-current, and the menu is named in the page's language."""
    with seated(store, phones) as (page, base, _):
        language_cookie(page, base, lang)
        for path in ("/", "/table"):
            page.goto(base + path)
            connected(page)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            name = f"{translate('web.language', lang)}: {translate('web.language_name', lang)}"
            expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
            choices = page.locator("#language-list button").evaluate_all(
                "(all) => all.map((b) => [b.lang, b.textContent, b.getAttribute('aria-current')])"
            )
            assert choices == [
                [other, translate("web.language_name", other), "true" if other == lang else None]
                for other in LANGUAGES
            ], path


def test_every_page_is_titled_in_its_language(store, phones):
    """Each page's title says what it is, in the page's language (the app's
    name kept as each language has it)."""
    with seated(store, phones) as (page, base, join):
        titles = {
            "/": "web.title_seat",
            "/table": "web.title_table",
            join: "web.title_join",
            "/join/not-a-token": "web.title_refused",
        }
        for lang in LANGUAGES:
            language_cookie(page, base, lang)
            for path, key in titles.items():
                assert lang == "en" or translate(key, lang) != translate(key, "en"), key
                page.goto(base + path)
                expect(page.locator("html")).to_have_attribute("lang", lang)
                expect(page).to_have_title(translate(key, lang))
    with serve_in_thread(waiting_app()) as base:
        page = phones()
        for lang in LANGUAGES:
            language_cookie(page, base, lang)
            page.goto(f"{base}/join/anything")
            expect(page).to_have_title(translate("web.title_waiting", lang))
