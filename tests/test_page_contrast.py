"""Contrast on the pages as rendered in a real chromium: the phone pages in
the dark scheme and the light one (the join page, a seat's page with its
secrets held open, its vote buttons, a vote sent and a refusal, the public
table page, the refusal page) and the café console with a table in alert,
every text measured from the page's pixels against WCAG AA (4.5:1; 3:1 for
large text). The player whose turn it is is marked by a sign as well as a
colour, a table in alert by its words."""

from __future__ import annotations

import re

import pytest
from browser import NO_PLAYWRIGHT, serve_in_thread, shot, take_seat
from helpers import new_table
from mqtt_helpers import Mosquitto
from page_pixels import page_readings
from sh_helpers import nominate, sh_table

from companion.fleet import Broker, StatusPublisher
from companion.games.base import RuleError
from companion.table import EventStore
from companion.web.server import TableServer

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect

SCHEMES = ("dark", "light")


def _low(page, what: str) -> list[str]:
    readings = page_readings(page)
    assert len(readings) >= 2, (what, [r.text for r in readings])
    return [f"{what}: {r}" for r in readings if r.ratio < r.needed]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_text_of_a_seat_s_pages_meets_wcag_aa(tmp_path, phones, scheme):
    table = sh_table(EventStore(tmp_path / "g.sqlite3"), 5, mode="keeper")
    nominate(table, 2)
    server = TableServer(table)
    low = []
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(server.table.game_id, 1))
        page = phones()
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{base}/join/{token}")
        expect(page.locator(".take-seat button")).to_be_visible()
        low += _low(page, "join")
        take_seat(page, f"{base}/join/{token}")
        expect(page.locator("#link")).to_have_text("Connected")
        low += _low(page, "seat")
        box = page.locator("#secrets").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        expect(page.locator("#secret-lines")).to_be_visible()
        low += _low(page, "seat, secrets held open")
        page.mouse.up()
        page.locator("#actions button").nth(1).click()
        expect(page.locator("#message")).to_have_text("Sent.")
        low += _low(page, "seat, a vote sent")
        base.on_loop(lambda: server.tell_seat(1, RuleError("device.choice_on_phone")))
        message = page.locator("#message")
        base.on_loop(lambda: table.execute({"type": "vote", "seat": 0, "choice": "ja"}))
        expect(message).to_have_text(re.compile("Choose that on your phone"))
        low += _low(page, "seat, a refusal")
        shot(page, f"seat-refusal-{scheme}")
        second = phones()
        second.emulate_media(color_scheme=scheme)
        second.goto(f"{base}/join/{token}")
        expect(second.locator(".refusal")).to_be_visible()
        low += _low(second, "refusal")
    assert low == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_table_page_marks_whose_turn_it_is_by_a_sign_and_meets_wcag_aa(tmp_path, phone, scheme):
    table = new_table(EventStore(tmp_path / "g.sqlite3"), ["Natassa", "Stelios", "Giorgos"])
    table.execute({"type": "income", "seat": 0})  # Stelios's turn
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        phone.emulate_media(color_scheme=scheme)
        phone.goto(f"{base}/table")
        current = phone.locator("#players > li.current strong")
        expect(current).to_have_text("Stelios")
        # Once the page has drawn its board (its icons come after the state).
        phone.wait_for_function(
            "() => getComputedStyle(document.querySelector('#players > li.current strong'),"
            " '::before').content !== ''"
        )
        sign = current.evaluate("(e) => getComputedStyle(e, '::before').content")
        assert sign.startswith('"▶\u00a0"'), sign  # then its alternative text: none
        others = phone.locator("#players > li:not(.current) strong").first
        assert others.evaluate("(e) => getComputedStyle(e, '::before').content") == "none"
        shot(phone, f"table-page-{scheme}")
        assert _low(phone, "table") == []


def test_the_console_with_a_table_in_alert_meets_wcag_aa(tmp_path, browser):
    from test_console import KEY, PASSWORD, console_app, status, wait

    broker = Mosquitto(tmp_path)
    broker.start()
    table = StatusPublisher(Broker.from_url(broker.url), "t1", reconnect=(1, 1), action_key=KEY)
    table.start()
    lost = {**status(), "health": {"phones": [0], "disk_free": 10**8, "pad": "lost"}}
    table.offer(lost)
    wait(table.idle)
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            wait(lambda: "t1" in console.tables)
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(base + "/")
            page.fill("input[name=password]", PASSWORD)
            page.click("form.login button")
            card = page.locator('article[data-table="t1"]')
            expect(card).to_have_class(re.compile(r"\balert\b"))
            expect(card.locator(".alerts")).to_contain_text("Pad not answering")
            low = _low(page, "console")
            shot(page, "console-alert-contrast")
            context.close()
        table.close()
    finally:
        broker.stop()
    assert low == []
