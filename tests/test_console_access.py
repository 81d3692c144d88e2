"""The console for keyboard and screen-reader users, in a real Chromium
against a real Mosquitto and the console's real server: a half-typed
message keeps its focus and caret when its card changes, alerts and an
action's reply are said in a live region (news only, never every tick),
each chart's figures are a table named by its title, the login's language
links work, and axe's best-practice rules find nothing on the login and
the cards. Also: a timer that never ran is no "Paused for long"."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from a27_helpers import a27_table
from browser import EVERY_IMPACT, NO_PLAYWRIGHT, axe_violations, serve_in_thread, shot
from test_console import (  # noqa: F401
    HOSTILE,
    KEY,
    PASSWORD,
    _console_words,
    console_app,
    signed,
    status,
    wait,
)

from companion.fleet import Broker, StatusPublisher, TableReporter, protocol
from companion.secret_hash import hash_pin

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
CATALOGS = Path(__file__).parents[1] / "companion" / "console" / "catalogs"
HEALTHY = {"phones": [0], "disk_free": 10**10}
ISOLATES = {0x2068: None, 0x2069: None}


def words(lang: str) -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def log_in(page, base: str, lang: str = "en") -> None:
    page.goto(f"{base}/login?lang={lang}")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.login button")
    expect(page).to_have_url(re.compile(r"/$|/\?"))


def publisher(broker, name: str = "t1") -> StatusPublisher:
    table = StatusPublisher(Broker.from_url(broker.url), name, reconnect=(1, 1), action_key=KEY)
    table.start()
    return table


def test_a_half_typed_message_keeps_its_focus_and_caret_when_a_player_is_renamed(
    tmp_path, broker, recorder, phone
):
    table, other = publisher(broker), publisher(broker, "t2")
    table.offer({**status(), "health": HEALTHY})
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            wait(lambda: "t1" in console.tables, timeout=15)
            log_in(phone, base)
            card = phone.locator('article[data-table="t1"]')
            field = card.get_by_label(words("en")["console.message"], exact=True)
            field.click()
            phone.keyboard.type("Closing minutes")
            for _ in "minutes":
                phone.keyboard.press("ArrowLeft")  # the caret before "minutes"
            renamed = {**status(), "health": HEALTHY}
            renamed["players"] = {"count": 2, "names": ["Annabel", HOSTILE]}
            table.offer(renamed)
            expect(card.locator(".players")).to_contain_text("Annabel")
            expect(field).to_be_focused()
            phone.keyboard.type("in ")
            # Another table comes: every card is pushed again.
            other.offer({**status(), "table": "t2", "health": HEALTHY})
            expect(phone.locator('article[data-table="t2"]')).to_be_visible()
            expect(field).to_be_focused()
            phone.keyboard.type("ten ")
            phone.keyboard.press("Enter")
            sent = recorder.wait_for("companion/t1/command", lambda m: m["action"] == "message")
            assert sent["args"]["text"] == "Closing in ten minutes"
    finally:
        table.close()
        other.close()


def _said(page) -> list[str]:
    """Everything the live region has said since _listen, without the
    marks that set a name apart in a right-to-left sentence."""
    return [line.translate(ISOLATES) for line in page.evaluate("() => window.__said")]


def _listen(page) -> None:
    page.evaluate(
        """() => {
            window.__said = [];
            const news = document.querySelector("#news");
            new MutationObserver(() => {
                if (news.textContent) window.__said.push(news.textContent);
            }).observe(news, { childList: true, characterData: true, subtree: true });
        }"""
    )


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_alerts_and_a_reply_are_said_once_in_a_live_region(
    tmp_path, broker, recorder, phones, lang
):
    say = words(lang)
    table = publisher(broker)
    table.offer({**status(), "health": HEALTHY})
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            wait(lambda: "t1" in console.tables, timeout=15)
            page = phones()
            log_in(page, base, lang)
            card = page.locator('article[data-table="t1"]')
            news = page.get_by_role("status")
            expect(news).to_have_count(1)
            expect(news).to_have_attribute("id", "news")
            _listen(page)
            # The pad stops answering: an alert, said once.
            lost = {**status(), "health": {**HEALTHY, "pad": "lost"}}
            table.offer(lost)
            expect(card.locator(".alert-pad_lost")).to_be_visible()
            pad_lost = say["console.news"].format(table="t1", news=say["console.alert.pad_lost"])
            page.wait_for_function("() => window.__said.length > 0")
            assert _said(page) == [pad_lost]
            # The next statuses keep the alert: nothing more is said.
            for turn in (4, 5):
                table.offer({**lost, "turn": turn})
                shown = re.compile(f"{turn}|{'۴۵'[turn - 4]}")  # Persian digits in fa
                expect(card.locator(".facts")).to_contain_text(shown)
            time.sleep(0.3)
            assert _said(page) == [pad_lost]
            shot(page, f"console-news-{lang}")
            # A message sent: the page reloads; the table's reply is said.
            card.get_by_label(say["console.message"], exact=True).fill("Last orders")
            card.locator(".act-message button").click()
            sent = recorder.wait_for("companion/t1/command", lambda m: m["action"] == "message")
            expect(card.locator(".reply")).to_have_text(say["console.reply.waiting"])
            _listen(page)
            reply = protocol.make_reply(sent["id"], "t1")
            recorder.client.publish("companion/t1/reply", signed(reply, protocol.REPLY), qos=1)
            done = say["console.reply.done.message"]
            expect(card.locator(".reply")).to_have_text(done)
            page.wait_for_function("() => window.__said.length > 0")
            assert _said(page) == [say["console.news"].format(table="t1", news=done)]
    finally:
        table.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_each_chart_s_figures_are_a_table_named_by_its_title(tmp_path, phones, lang):
    from companion.console.server import Console, make_app
    from companion.console.stats import Stats

    say = words(lang)
    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"))
    with serve_in_thread(make_app(console)) as base:
        finished = signed({**status(state="finished"), "table": "t2"})
        base.on_loop(lambda: console.receive("t2", "status", finished))
        page = phones()
        log_in(page, base, lang)
        for title in ("console.chart.per_day", "console.chart.length", "console.chart.hours"):
            chart = page.get_by_role("table", name=say[title], exact=True)
            expect(chart).to_have_count(1)
            expect(chart.get_by_role("row")).to_have_count(1)
        per_day = page.get_by_role("table", name=say["console.chart.per_day"], exact=True)
        expect(per_day.get_by_role("rowheader")).to_contain_text("t2 · 2026-12-01")
        expect(per_day.get_by_role("cell").last).to_have_text("1" if lang == "en" else "۱")


def test_the_login_s_language_links_translate_it(tmp_path, phone):
    from companion.console.server import Console, make_app
    from companion.console.stats import Stats

    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"))
    with serve_in_thread(make_app(console)) as base:
        phone.goto(base + "/login")
        expect(phone.locator("html")).to_have_attribute("lang", "en")
        phone.get_by_role("link", name=words("el")["console.language_name"]).click()
        expect(phone.locator("html")).to_have_attribute("lang", "el")
        expect(phone.locator("h1")).to_have_text(words("el")["console.title"])
        expect(phone.locator("form.login label")).to_have_text(
            words("el")["console.login.password"]
        )
        # Logged in, the cards keep the language chosen at the login.
        phone.fill("input[name=password]", PASSWORD)
        phone.click("form.login button")
        expect(phone.locator("html")).to_have_attribute("lang", "el")
        phone.get_by_role("link", name=words("fa")["console.language_name"]).click()
        expect(phone.locator("html")).to_have_attribute("dir", "rtl")
        expect(phone.locator("h1")).to_have_text(words("fa")["console.title"])


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_console_s_login_and_cards_have_no_best_practice_finding(tmp_path, phones, lang):
    from companion.console.server import Console, make_app
    from companion.console.stats import Stats

    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"))
    with serve_in_thread(make_app(console)) as base:
        timer = {"running": True, "remaining": 42}
        for name, state in (("t1", "playing"), ("t2", "finished")):
            message = signed({**status(state=state), "table": name, "timer": timer})
            base.on_loop(lambda n=name, m=message: console.receive(n, "status", m))
        page = phones()
        page.goto(f"{base}/login?lang={lang}")
        assert axe_violations(page, EVERY_IMPACT) == [], "the login"
        page.fill("input[name=password]", "not the password")
        page.click("form.login button")
        expect(page.locator(".wrong")).to_be_visible()
        assert axe_violations(page, EVERY_IMPACT) == [], "the login, refused"
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button")
        expect(page.locator('article[data-table="t2"]')).to_be_visible()
        expect(page.locator(".chart table").first).to_be_visible()
        assert axe_violations(page, EVERY_IMPACT) == [], "the cards"


def test_a_timer_that_never_ran_is_not_paused_for_long_and_one_paused_for_long_is(
    tmp_path, broker, store
):
    """Article 27's negotiation timer, as its table's reporter publishes it
    through Mosquitto: before the gavel it has never run (no alert, and the
    card says it has not started); started and then paused past the limit,
    it is an alert."""
    from companion.console.fleet import PAUSED, PAUSED_LONG
    from companion.console.run import linked_app
    from companion.console.server import Console
    from companion.console.stats import Stats

    now = [1000.0]
    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"), clock=lambda: now[0])
    app = linked_app(console, Broker.from_url(broker.url), client_id="console-timer")
    game = a27_table(store, 4)
    table = publisher(broker, "a27")
    reporter = TableReporter(table, "a27")
    say = words("en")
    try:
        with serve_in_thread(app) as base:
            reporter.follow(game)
            view = lambda: console.tables.get("a27")  # noqa: E731
            wait(lambda: view() is not None and view().timer is not None, timeout=15)
            assert view().timer["running"] is False, "it has not started"
            now[0] += PAUSED_LONG + 1
            base.on_loop(console.check_alerts)
            assert view().alerts(now[0]) == []
            card = base.on_loop(lambda: console.cards("en", {}))
            assert say["console.alert.paused_long"] not in card
            assert say["console.timer.waiting"].format(time="5:00") in card
            assert say["console.act.resume_timer"] not in card, "nothing to resume"
            # The gavel starts it; then it is paused, for long.
            game.execute({"type": "gavel"})
            wait(lambda: view().timer["running"] is True)
            game.execute({"type": "pause"})
            wait(lambda: view().timer["running"] is False)
            assert view().alerts(now[0]) == []
            now[0] += PAUSED_LONG + 1
            assert view().alerts(now[0]) == [PAUSED]
            card = base.on_loop(lambda: console.cards("en", {}))
            assert say["console.alert.paused_long"] in card
            assert say["console.timer.paused"].format(time="5:00") in card
    finally:
        table.close()
