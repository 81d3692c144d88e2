"""Helpers for the phone pages in a real browser (tests/browser.py has the
fixtures): a page's language, chosen from its menu as a person does or set
in the phone's cookie as that choice leaves it."""

from __future__ import annotations

from companion.web.server import LANG_COOKIE


def choose_language(page, lang: str) -> None:
    """Open a seat's or the table's language menu and press ``lang``'s own
    button; returns once the page has loaded again in it."""
    from playwright.sync_api import expect

    page.locator("#language").click()
    page.locator(f'#language-list button[lang="{lang}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def language_cookie(page, base: str, lang: str) -> None:
    """The phone's chosen language, as its menu leaves it: every page of
    ``base`` opened next comes in ``lang``."""
    host = base.split("/")[2].split(":")[0]
    page.context.add_cookies([{"name": LANG_COOKIE, "value": lang, "domain": host, "path": "/"}])
