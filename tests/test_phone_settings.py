"""A phone's own settings in a real browser: it vibrates (the Vibration API,
recorded by a stand-in for the browser's ``navigator.vibrate``) when its
seat's turn comes, a ballot opens for it or it must choose, one pattern per
cue and the same for seats whose secrets differ, never when its setting is
off; and large text, which the page keeps across a reload."""

from __future__ import annotations

import pytest
from browser import NO_PLAYWRIGHT, serve_in_thread, take_seat
from sh_helpers import nominate, sh_table

from companion.games.base import Fate, Setup
from companion.table import Table
from companion.web.server import TableServer

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
TURN, BALLOT, CHOOSE = [200], [90, 80, 90], [300, 120, 300]  # seat.js: BUZZ
# The browser's Vibration API, replaced before any page script runs by one
# that records each pattern asked for.
RECORD_VIBRATIONS = """
window.vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
    configurable: true,
    value: (pattern) => { window.vibrations.push(pattern); return true; },
});
"""


def seated(phones, base, server, seat: int):
    """A phone that records its vibrations, on ``seat``, connected."""
    page = phones()
    page.add_init_script(RECORD_VIBRATIONS)
    token = base.on_loop(lambda: server.links.token(server.table.game_id, seat))
    take_seat(page, f"{base}/join/{token}")
    expect(page.locator("#link")).to_have_attribute("data-state", "open")
    return page


def vibrations(page) -> list[list[int]]:
    return page.evaluate("() => window.vibrations")


def test_a_ballot_buzzes_every_voter_alike_whatever_their_roles(store, phones):
    """Seats with different secret roles (a liberal, a fascist, Hitler)
    feel the same pattern when the ballot opens; a phone whose setting is
    off (kept across a reload) feels nothing."""
    table = sh_table(store, 5, mode="keeper")  # the night is over: A nominates
    roles = [table.private_view(seat)["role"] for seat in range(5)]
    voters = [roles.index(role) for role in ("liberal", "fascist", "hitler") if role in roles[1:]]
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        pages = [seated(phones, base, server, seat) for seat in voters]
        quiet = seated(phones, base, server, next(s for s in range(1, 5) if s not in voters))
        expect(quiet.locator("#vibrate")).to_be_checked()  # on unless turned off
        quiet.locator("#vibrate").uncheck()
        quiet.reload()
        expect(quiet.locator("#link")).to_have_attribute("data-state", "open")
        expect(quiet.locator("#vibrate")).not_to_be_checked()
        assert all(vibrations(page) == [] for page in [*pages, quiet]), "opening buzzes nothing"
        base.on_loop(lambda: nominate(table, 2))
        for page in pages:
            expect(page.locator("#actions button")).to_have_text(["Ja!", "Nein"])
        expect(quiet.locator("#actions button")).to_have_text(["Ja!", "Nein"])
        assert [vibrations(page) for page in pages] == [[BALLOT]] * len(pages)
        assert vibrations(quiet) == []
    assert len({roles[seat] for seat in voters}) >= 2


def test_a_turn_and_a_loss_buzz_their_own_patterns(store, phones):
    """Coup: Cat's turn comes (her phone buzzes "turn"); she claims the
    Duke, Ann challenges and Cat, who has none, must answer with a card of
    hers (her phone buzzes "choose"). Ann's phone, whose turn is over,
    stays still."""
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], mode="keeper", options={"first": 0})
    deal = {"hands": [["duke", "captain"], ["captain", "duke"], ["assassin", "contessa"]]}
    table = Table.start(store, setup, fate=Fate(seed=3, script=deal))
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        ann, cat = (seated(phones, base, server, seat) for seat in (0, 2))
        base.on_loop(lambda: table.execute({"type": "income", "seat": 0}))
        expect(cat.locator("#status")).to_contain_text("Cat")
        base.on_loop(lambda: table.execute({"type": "tax", "seat": 2}))
        base.on_loop(lambda: table.execute({"type": "challenge", "seat": 0}))
        expect(cat.locator("#actions button").first).to_be_visible()
        assert vibrations(cat) == [TURN, CHOOSE]
        assert vibrations(ann) == []


@pytest.mark.parametrize("path", ["/seat", "/table"])
def test_large_text_grows_the_page_and_is_kept(store, phones, path):
    table = sh_table(store, 5, mode="keeper")
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = seated(phones, base, server, 1)
        page.goto(f"{base}{path}")
        heading = page.locator("h1")
        expect(heading).not_to_have_text("…")

        def size() -> float:
            return float(heading.evaluate("h => parseFloat(getComputedStyle(h).fontSize)"))

        box = page.locator("#large-text")
        expect(box).not_to_be_checked()
        normal = size()
        box.check()
        expect(page.locator("html")).to_have_class("large-text")
        assert size() >= normal * 1.3
        page.reload()
        expect(page.locator("#large-text")).to_be_checked()
        expect(page.locator("html")).to_have_class("large-text")
        assert size() >= normal * 1.3
        page.locator("#large-text").uncheck()
        assert size() == normal
