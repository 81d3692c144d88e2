"""The console's page in a real Chromium: login, a card kept live over the
WebSocket, Persian right to left, a hostile player name shown as text."""

from __future__ import annotations

import json
from pathlib import Path

from browser import serve_in_thread, shot
from mqtt_helpers import Mosquitto
from test_console import (  # noqa: F401
    HOSTILE,
    KEY,
    PASSWORD,
    _console_words,
    console_app,
    status,
    wait,
)

from companion.fleet import Broker, StatusPublisher

CATALOGS = Path(__file__).parents[1] / "companion" / "console" / "catalogs"


def console_words(lang: str) -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def test_the_page_is_live_translated_and_escaped(tmp_path, browser):
    broker = Mosquitto(tmp_path)
    broker.start()
    table = StatusPublisher(Broker.from_url(broker.url), "t1", reconnect=(1, 1), action_key=KEY)
    table.start()
    table.offer(status())
    wait(table.idle)
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            wait(lambda: "t1" in console.tables)
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            dialogs = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(base + "/")
            assert page.url.endswith("/login")
            page.fill("input[name=password]", PASSWORD)
            page.click("form.login button")
            page.wait_for_selector('article[data-table="t1"]')
            assert (
                page.locator('article[data-table="t1"] .players li')
                .nth(1)
                .inner_text()
                .startswith(HOSTILE)
            )
            assert page.locator("article img").count() == 0
            table.offer({**status(), "turn": 9, "timer": {"running": True, "remaining": 42}})
            page.wait_for_selector("text=turn 9")  # pushed, no reload
            shot(page, "console-390")
            # Staff typing a message: the table's next status updates the
            # card around the field and leaves what they typed.
            field = page.locator('article[data-table="t1"] .act-message input[name=text]')
            field.fill("Closing in ten minutes")
            table.offer({**status(), "turn": 10, "timer": {"running": True, "remaining": 41}})
            page.wait_for_selector("text=turn 10")
            assert field.input_value() == "Closing in ten minutes"
            # The console loses the broker: every table offline, and said
            # why; back, the tables' own messages bring them back.
            broker.stop()
            page.wait_for_selector(".broker-lost")
            assert "Offline" in page.locator('article[data-table="t1"] .online').inner_text()
            broker.start()
            page.wait_for_selector(".broker-lost", state="detached", timeout=15_000)
            page.wait_for_function(
                """() => document.querySelector('article[data-table="t1"] .online')
                        .innerText.includes("Online")""",
                timeout=15_000,
            )
            assert "turn 10" in page.locator('article[data-table="t1"]').inner_text()
            page.goto(base + "/?lang=fa")
            assert page.locator("html").get_attribute("dir") == "rtl"
            page.wait_for_selector("text=کنسول کافه")
            page.set_viewport_size({"width": 1280, "height": 800})
            page.goto(base + "/?lang=en")
            page.wait_for_selector('article[data-table="t1"]')
            shot(page, "console-1280")
            assert dialogs == []
            context.close()
        table.close()
    finally:
        broker.stop()


def test_a_table_without_a_pad_is_quiet_and_a_pad_that_stops_answering_alarms(tmp_path, browser):
    """Two kiosks' statuses as the kiosk makes them (its pad driver, its
    health, its reporter, a real publisher): one with no pad plugged in,
    one whose pad answers, then hangs. Only the hung pad is an alarm."""
    from companion.devices.pad import SerialPad
    from companion.devices.pad_sim import PadSimulator, PtyLink, wait_for
    from companion.fleet import TableReporter
    from companion.fleet.health import TableHealth
    from companion.games.base import Fate, Setup
    from companion.table import EventStore, Table

    broker = Mosquitto(tmp_path)
    broker.start()
    link = PtyLink(tmp_path)
    sim = PadSimulator(link, seats=3)
    tables = {}
    for name, port in (("padless", str(tmp_path / "no-pad-here")), ("padded", link.path)):
        pad = SerialPad(lambda _press: None, port, retry_interval=0.05, heartbeat_timeout=0.5)
        pad.start()
        publisher = StatusPublisher(
            Broker.from_url(broker.url), name, reconnect=(1, 1), action_key=KEY
        )
        health = TableHealth()
        reporter = TableReporter(publisher, name, health=health.fields)
        publisher.start()
        store = EventStore(tmp_path / f"{name}.sqlite3")
        reporter.follow(Table.start(store, Setup("coup", ["Anna", "Ben"], "keeper"), Fate(1)))
        tables[name] = (pad, health, reporter, publisher)

    def report() -> None:
        for pad, health, reporter, _publisher in tables.values():
            health.see_devices([pad.status()])
            reporter.tick()

    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(base + "/login")
            page.fill("input[name=password]", PASSWORD)
            page.click("form.login button")
            padless = page.locator('article[data-table="padless"]')
            padded = page.locator('article[data-table="padded"]')
            sim.start()
            assert wait_for(lambda: tables["padded"][0].status()["online"])
            report()
            page.wait_for_function(
                """() => document.querySelector('article[data-table="padded"] .health')
                        ?.innerText.includes("pad connected")"""
            )
            padless.wait_for()
            assert padless.locator(".alerts").count() == 0
            assert "alert" not in (padless.get_attribute("class") or "")
            assert "pad" not in padless.locator(".health").inner_text().lower()
            assert padded.locator(".alerts").count() == 0

            sim.pause()  # the pad hangs: no heartbeats
            assert wait_for(lambda: not tables["padded"][0].status()["online"])
            report()
            page.wait_for_selector('article[data-table="padded"] .alert-pad_lost')
            assert "Pad not answering" in padded.locator(".alerts").inner_text()
            assert "pad lost" in padded.locator(".health").inner_text()
            report()
            assert padless.locator(".alerts").count() == 0
            assert "pad" not in padless.locator(".health").inner_text().lower()
            shot(page, "console-pad-quiet-and-lost")
            page.close()
    finally:
        sim.stop()
        link.unplug()
        for pad, _health, _reporter, publisher in tables.values():
            pad.stop()
            publisher.close()
        broker.stop()


def test_only_a_table_with_a_screen_is_offered_a_message_in_a_labelled_box(tmp_path, browser):
    """A headless table (``companion serve``'s own serve) says it has no
    screen: its card offers no message. A kiosk's card does, in a box with
    a visible label of the staff's language."""
    from test_fleet_actions import Served

    from companion.games.base import Fate, Setup
    from companion.table import EventStore, Table

    broker = Mosquitto(tmp_path)
    broker.start()
    kiosk = StatusPublisher(Broker.from_url(broker.url), "kiosk", reconnect=(1, 1), action_key=KEY)
    kiosk.start()
    kiosk.offer({**status(), "table": "kiosk"})
    headless = Table.start(
        EventStore(tmp_path / "h.sqlite3"), Setup("coup", ["Anna", "Ben"], "keeper"), Fate(1)
    )
    served = Served(headless, broker, key=KEY)  # the café's one key
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            wait(lambda: {"kiosk", "t1"} <= set(console.tables), timeout=15)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(base + "/login")
            page.fill("input[name=password]", PASSWORD)
            page.click("form.login button")
            page.wait_for_selector('article[data-table="t1"] .actions')
            assert page.locator('article[data-table="t1"] .act-message').count() == 0
            assert page.locator('article[data-table="t1"] .act-repair_seat').count() == 1
            for lang in ("en", "fa"):
                page.goto(f"{base}/?lang={lang}")
                card = page.locator('article[data-table="kiosk"]')
                words = console_words(lang)
                field = card.get_by_label(words["console.message"], exact=True)
                assert field.get_attribute("name") == "text"
                label = card.locator(".act-message label")
                assert label.is_visible() and label.inner_text() == words["console.message"]
                assert page.locator('article[data-table="t1"] .act-message').count() == 0
            shot(page, "console-message-label-fa-390")
            page.close()
    finally:
        served.close()
        kiosk.close()
        broker.stop()
