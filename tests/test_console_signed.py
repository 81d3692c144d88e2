"""Fake tables on a broker anyone may publish to, against a real Mosquitto
and the console's real aiohttp server: a table's statuses and replies are
signed with the café's key (protocol.sign), and the console believes only
those. An unsigned or badly signed table is shown marked, with no actions;
a forged status never replaces a real table's; a forged "done" is not
believed; and thousands of fakes come a page of cards at a time."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from browser import serve_in_thread, shot
from mqtt_helpers import Recorder
from test_console import (  # noqa: F401
    KEY,
    PASSWORD,
    _console_words,
    console_app,
    get,
    login,
    opener,
    status,
    wait,
)
from test_console_page import console_words

from companion.fleet import Broker, StatusPublisher, protocol
from companion.fleet.protocol import REPLY, STATUS, sign
from companion.i18n import Messages

FAKES = 2000


@pytest.fixture
def stranger(mqtt_client):
    """Anyone on the broker: a client that publishes what it likes."""
    return mqtt_client


def publish(client, topic: str, message: dict, retain: bool = False) -> None:
    client.publish(topic, json.dumps(message), qos=1, retain=retain).wait_for_publish(5)


def card(page_html: str, name: str) -> str:
    start = page_html.index(f'data-table="{name}"')
    return page_html[start : page_html.index("</article>", start)]


def real_table(broker, name: str = "t1", **fields) -> StatusPublisher:
    """A table with the café's key, publishing its status (it takes no
    actions: nothing here answers for it but a forger)."""
    table = StatusPublisher(Broker.from_url(broker.url), name, reconnect=(1, 1), action_key=KEY)
    table.start()
    table.offer({**status(), "table": name, **fields})
    wait(table.idle)
    return table


def test_fake_tables_forged_statuses_and_a_forged_done_are_not_believed(tmp_path, broker, stranger):
    table = real_table(broker)
    recorder = Recorder(broker.port)
    # Before the console starts, retained: a fake table, a status signed
    # with another key, and the real table's own status copied to another
    # table's topic.
    fake = {**status(), "table": "fake", "players": {"count": 1, "names": ["Mallory"]}}
    publish(stranger, "companion/fake/status", fake, retain=True)
    publish(stranger, "companion/fake/online", {"online": True}, retain=True)
    other_key = {**status(), "table": "t2"}
    publish(stranger, "companion/t2/status", sign(b"x" * 32, STATUS, other_key), retain=True)
    copied = recorder.wait_for("companion/t1/status", lambda s: "sig" in s)
    publish(stranger, "companion/t3/status", copied, retain=True)
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            staff = opener()
            login(staff, base)
            wait(lambda: {"t1", "t2", "t3", "fake"} <= set(console.tables))
            # A forged status for the real table, after its real one.
            forged = {**status(state="finished"), "players": {"count": 1, "names": ["Mallory"]}}
            publish(stranger, "companion/t1/status", forged)
            time.sleep(0.3)
            _url, page = get(staff, base + "/")
            real = card(page, "t1")
            assert "Anna" in real and "Mallory" not in real, "the forged status was taken"
            assert "act-end_game" in real and 'class="unsigned-note"' not in real
            words = console_words("en")
            for name in ("fake", "t2", "t3"):
                shown = card(page, name)
                assert 'class="unsigned-note"' in shown, name
                assert words["console.unsigned"].replace("'", "&#x27;") in shown
                assert words["console.online"] not in shown, "not shown as live"
                assert "<form" not in shown, f"{name} is offered actions"
            assert page.index('data-table="t1"') < page.index('data-table="fake"'), "real first"
            assert [row[0] for row in console.stats.rows()] == ["t1"], "a fake's game counted"
            csrf = page.split('name="csrf" value="')[1].split('"')[0]

            def act(name: str) -> None:
                form = {"csrf": csrf, "table": name, "action": "end_game"}
                get(staff, urllib.request.Request(base + "/action", urlencode(form)))

            with pytest.raises(urllib.error.HTTPError) as refused:
                act("fake")
            assert refused.value.code == 400
            # A forger answers the real table's action before it can: "done"
            # unsigned, signed with another key, and signed for another table.
            act("t1")
            sent = recorder.wait_for("companion/t1/command", lambda m: True)
            done = protocol.make_reply(sent["id"], "t1")
            publish(stranger, "companion/t1/reply", done)
            publish(stranger, "companion/t1/reply", sign(b"x" * 32, REPLY, done))
            elsewhere = sign(KEY, REPLY, {**done, "table": "t2"})
            publish(stranger, "companion/t1/reply", elsewhere)
            time.sleep(0.3)
            assert words["console.reply.waiting"] in card(get(staff, base + "/")[1], "t1")
            wait(lambda: words["console.reply.no_answer"] in get(staff, base + "/")[1])
            assert words["console.reply.done.end_game"] not in get(staff, base + "/")[1]
            # The real table's signed reply is believed.
            act("t1")
            sent = recorder.wait_for("companion/t1/command", lambda m: m["id"] != done["id"])
            table.reply(protocol.make_reply(sent["id"], "t1"))
            wait(lambda: words["console.reply.done.end_game"] in get(staff, base + "/")[1])
    finally:
        recorder.close()
        table.close()


def urlencode(form: dict[str, str]) -> bytes:
    return urllib.parse.urlencode(form).encode()


def test_thousands_of_fake_tables_come_a_page_of_cards_at_a_time(
    tmp_path, broker, stranger, browser
):
    table = real_table(broker, "zz-real")  # last by name, first as the one signed
    total = FAKES + 2
    try:
        app, console = console_app(broker, tmp_path)
        with serve_in_thread(app) as base:
            staff = opener()
            login(staff, base)
            wait(lambda: "zz-real" in console.tables)
            # Published once the console listens, a batch at a time it has
            # taken: Mosquitto queues a client at most 1,000 messages and
            # drops the rest (retained ones past that at a subscribe too).
            for batch in range(0, FAKES, 250):
                for number in range(batch, batch + 250):
                    name = f"fake-{number:04d}"
                    fake = json.dumps({**status(), "table": name})
                    stranger.publish(f"companion/{name}/status", fake, 1, True)
                wait(lambda batch=batch: len(console.tables) >= batch + 251, timeout=60)
            publish(stranger, "companion/fake-9999/online", {"online": True}, retain=True)
            wait(lambda: len(console.tables) >= total)
            assert len(console.tables) == total
            started = time.monotonic()
            _url, page = get(staff, base + "/")
            took = time.monotonic() - started
            assert len(page.encode()) < 200_000, f"{len(page.encode())} bytes"
            assert took < 3.0, f"{took:.1f} s"
            assert page.count("<article") == 50
            assert page.index('data-table="zz-real"') < page.index('data-table="fake-0000"')
            words = console_words("en")
            assert words["console.page.shown"].format(first=1, last=50, total=total) in page
            assert 'rel="prev"' not in page
            second = page.split('rel="next"')[0].rsplit('href="', 1)[1].split('"')[0]
            _url, page = get(staff, base + second.replace("&amp;", "&"))
            assert page.count("<article") == 50 and 'data-table="fake-0049"' in page
            assert 'data-table="zz-real"' not in page and 'rel="prev"' in page
            shown = words["console.page.shown"].format(first=51, last=100, total=total)
            assert shown in page
            last = (total + 49) // 50
            _url, page = get(staff, f"{base}/?page={last}")
            assert page.count("<article") == total - 50 * (last - 1)
            assert 'rel="next"' not in page
            # A page in a real browser: its socket keeps the page it shows.
            for lang, size in (("en", (800, 480)), ("fa", (720, 1280)), ("en", (720, 1280))):
                view = browser.new_page(viewport={"width": size[0], "height": size[1]})
                view.goto(base + "/login")
                view.fill("input[name=password]", PASSWORD)
                view.click("form.login button")
                view.goto(f"{base}/?lang={lang}")
                view.wait_for_selector('article[data-table="zz-real"]')
                shot(view, f"console-pages-1-{lang}-{size[0]}x{size[1]}")
                words = console_words(lang)
                view.get_by_role("link", name=words["console.page.next"]).first.click()
                view.wait_for_selector('article[data-table="fake-0049"]')
                # Tappable (its height read in one go: the socket's first
                # cards may replace the element meanwhile).
                view.wait_for_function(
                    """() => {
                        const links = [...document.querySelectorAll('.pages a[rel="prev"]')];
                        return links.length === 2
                            && links.every((a) => a.getBoundingClientRect().height >= 44);
                    }"""
                )
                moved = {**status(), "table": "fake-0049", "turn": 77}
                publish(stranger, "companion/fake-0049/status", moved)
                view.wait_for_selector(f"text={Messages(lang)('console.turn', value='77')}")
                assert view.locator("article").count() == 50, "pushed: still one page"
                assert view.locator('article[data-table="zz-real"]').count() == 0
                shot(view, f"console-pages-{lang}-{size[0]}x{size[1]}")
                view.close()
                publish(stranger, "companion/fake-0049/status", {**status(), "table": "fake-0049"})
    finally:
        table.close()
