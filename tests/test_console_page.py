"""The console's page in a real Chromium: login, a card kept live over the
WebSocket, Persian right to left, a hostile player name shown as text."""

from __future__ import annotations

from browser import serve_in_thread, shot
from mqtt_helpers import Mosquitto
from test_console import HOSTILE, PASSWORD, _console_words, console_app, status, wait  # noqa: F401

from companion.fleet import Broker, StatusPublisher


def test_the_page_is_live_translated_and_escaped(tmp_path, browser):
    broker = Mosquitto(tmp_path)
    broker.start()
    table = StatusPublisher(Broker.from_url(broker.url), "t1", reconnect=(1, 1))
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
