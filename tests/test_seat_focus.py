"""A seat's page keeps the keyboard's place through a state change (WCAG
2.4.3, 2.1.1): its action buttons are updated where they stand, never drawn
anew, so the focus stays on the action it was on; when that action is gone
the focus moves to the actions' heading and the page says so."""

from __future__ import annotations

import pytest
from a27_helpers import PK, a27_table, bribe, propose
from browser import NO_PLAYWRIGHT, serve_in_thread
from g54_helpers import g54_table
from sh_helpers import nominate, sh_table

from companion.games.base import Fate, Setup
from companion.table import OPERATOR, Table, seat_source
from companion.web.server import TableServer

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect


def seated(phones, base, server, seat: int):
    page = phones()
    token = base.on_loop(lambda: server.links.token(server.table.game_id, seat))
    page.goto(f"{base}/join/{token}")
    page.locator(".take-seat button").click()
    expect(page.locator("#link")).to_have_attribute("data-state", "open")
    return page


def tab_to(page, label: str) -> None:
    """Press Tab until the focus is on the button named ``label``."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.textContent") == label:
            return
    raise AssertionError(f"Tab never reached {label!r}")


def focused(page) -> str:
    return page.evaluate(
        "() => document.activeElement.tagName + ':' + document.activeElement.textContent"
    )


def test_a_vote_stays_focused_when_another_seat_votes_and_enter_sends_it(store, phones):
    table = sh_table(store, 5, mode="keeper")
    nominate(table, 2)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = seated(phones, base, server, 4)
        expect(page.locator("#actions button")).to_have_text(["Ja!", "Nein"])
        tab_to(page, "Nein")
        base.on_loop(lambda: table.execute({"type": "vote", "seat": 0, "choice": "ja"}))
        expect(page.locator("#board")).to_contain_text("A: voted")
        assert focused(page) == "BUTTON:Nein"
        page.keyboard.press("Enter")
        expect(page.locator("#message")).to_have_text("Sent.")
    assert table.private_view(4)["ballot_vote"] == "nein"


def test_when_the_focused_vote_goes_the_focus_moves_to_the_heading_and_the_page_says_so(
    store, phones
):
    """Seat 4's phone voted "Nein" and stays on it (the vote may change);
    the ballot closes as the others vote: the buttons go, the focus lands
    on the actions' heading, not on the page's body, and a polite status
    says why."""
    table = sh_table(store, 5, mode="keeper")
    nominate(table, 2)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = seated(phones, base, server, 4)
        tab_to(page, "Nein")
        page.keyboard.press("Enter")
        expect(page.locator("#vote-note")).to_be_visible()
        assert focused(page) == "BUTTON:Nein"

        def everyone_else_votes() -> None:
            for seat in range(4):
                table.execute({"type": "vote", "seat": seat, "choice": "ja"})

        base.on_loop(everyone_else_votes)
        expect(page.locator("#actions")).to_have_text("Nothing for you to choose right now.")
        assert focused(page) == "H2:Your choices"
        expect(page.locator("#actions-note")).to_have_attribute("role", "status")
        expect(page.locator("#actions-note")).to_have_text(
            "The choice you were on is no longer offered."
        )


def test_an_article_27_answer_stays_focused_when_another_bribe_arrives(store, phones):
    table = a27_table(store, 4)
    propose(table, PK, call_vote=False)
    first = bribe(table, 0, 1, 1, "yes", accept=False)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = seated(phones, base, server, 1)
        buttons = page.locator("#actions button")
        expect(buttons).to_have_count(3)
        accept = page.locator("#actions button", has_text="Accept bribe #1")
        tab_to(page, accept.text_content())
        second = base.on_loop(lambda: bribe(table, 2, 1, 1, "yes", accept=False))
        expect(buttons).to_have_count(6)
        assert focused(page) == "BUTTON:Accept bribe #1"
        page.keyboard.press("Enter")
        expect(page.locator("#message")).to_have_text("Sent.")
    states = {b["id"]: b["status"] for b in table.private_view(1)["bribes"]}
    assert (states[first], states[second]) == ("accepted", "offered")


def renamed_while_focused(store, phones, table, label: str) -> None:
    """Seat 0's phone is on ``label`` (a challenged claim's answer, which
    names the player), and the kiosk renames seat 0: the same answer is
    still focused, under its new wording, and Enter still sends it."""
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = seated(phones, base, server, 0)
        tab_to(page, label)
        base.on_loop(
            lambda: table.execute({"type": "rename", "seat": 0, "name": "Zoe"}, source=OPERATOR)
        )
        renamed = label.replace("Ann", "Zoe")
        expect(page.locator("#actions button").nth(1)).to_have_text(renamed)
        assert focused(page) == f"BUTTON:{renamed}"
        page.keyboard.press("Enter")
        expect(page.locator("#message")).to_have_text("Sent.")


def test_a_coup_answer_stays_focused_when_the_kiosk_renames_its_player(store, phones):
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], mode="keeper", options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=3))
    table.execute({"type": "tax", "seat": 0})
    table.execute({"type": "challenge", "seat": 1}, source=seat_source(1))
    renamed_while_focused(store, phones, table, "Ann cannot show it")
    conceded = [c["type"] for c in table.phone_commands(0)]
    assert conceded == ["lose", "lose"], "conceded, Ann turns up a card"


def test_a_g54_answer_stays_focused_when_the_kiosk_renames_its_player(store, phones):
    table = g54_table(store, "starter")
    table.execute({"type": "banker", "seat": 0})
    table.execute({"type": "challenge", "seat": 1}, source=seat_source(1))
    renamed_while_focused(store, phones, table, "Ann cannot show it")
    conceded = [c["type"] for c in table.phone_commands(0)]
    assert conceded == ["lose", "lose"], "conceded, Ann turns up a card"
