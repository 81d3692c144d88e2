"""Axe-core's best-practice rules too (every impact, `landmark-one-main` and
`region` among them) find nothing on the pages a phone meets without a
seat's secrets: `/table` of each game, a join link's page, a refusal and
the waiting page, in English and Persian (right to left), /table also with its language
menu open. Every text lies in a landmark: the header (banner) and one
<main>."""

from __future__ import annotations

import pytest
from browser import EVERY_IMPACT, NO_PLAYWRIGHT, axe_violations, serve_in_thread
from page_helpers import language_cookie
from test_accessibility import SEAT_STATES

from companion.web.server import TableServer
from companion.web.waiting import waiting_app

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
LANGS = ("en", "fa")


def findings(page, what: str) -> list[str]:
    return [
        f"{what}: {v['id']} [{v['impact']}] {v['help']}: {', '.join(v['targets'])}"
        for v in axe_violations(page, impacts=EVERY_IMPACT)
    ]


def test_the_pages_without_a_seat_pass_every_axe_rule(store, phones):
    found = []
    page = phones()
    for game, state in SEAT_STATES.items():
        table, _ = state(store)
        server = TableServer(table)
        with serve_in_thread(server.app()) as base:
            token = base.on_loop(lambda t=table, s=server: s.links.token(t.game_id, 0))
            for lang in LANGS:
                language_cookie(page, base, lang)
                page.goto(f"{base}/table")
                expect(page.locator("#link")).to_have_attribute("data-state", "open")
                expect(page.locator("#log li").first).to_be_visible()
                found += findings(page, f"{game} /table {lang}")
                page.locator("#language").click()
                expect(page.locator("#language-list")).to_be_visible()
                found += findings(page, f"{game} /table {lang}, its language menu open")
                if game == "secret_hitler":
                    page.goto(f"{base}/join/{token}")
                    expect(page.locator(".take-seat button")).to_be_visible()
                    found += findings(page, f"a join link's page {lang}")
                    page.goto(f"{base}/join/not-a-token")
                    expect(page.locator(".refusal")).to_be_visible()
                    found += findings(page, f"a refusal {lang}")
    with serve_in_thread(waiting_app()) as base:
        for lang in LANGS:
            language_cookie(page, base, lang)
            page.goto(f"{base}/join/anything")
            expect(page.locator("h1")).to_be_visible()
            found += findings(page, f"the waiting page {lang}")
    assert not found, "\n".join(found)
