"""Every page a person meets, checked by axe-core (tests/axe, pinned by its
package-lock.json) in a real chromium: no serious or critical violation on
a seat's page in each game, the public table, a join link's page, the
waiting page, a refusal, and the console's login and cards, in English,
Greek, Russian and Persian (right to left); the phone pages also in large
text and in the phone's dark mode. The checker itself is shown to
catch a real fault first: a test that finds nothing must be able to find
something."""

from __future__ import annotations

import json
import re

import pytest
from a27_helpers import PK, a27_table, propose
from browser import NO_PLAYWRIGHT, axe_violations, serve_in_thread, take_seat
from g54_helpers import challenge_lost
from sh_helpers import nominate, sh_table
from test_console import KEY, PASSWORD, signed, status

from companion.games.base import Fate, Setup
from companion.i18n import LANGUAGES, Messages
from companion.table import Table
from companion.web.server import TableServer
from companion.web.waiting import waiting_app

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
LOCALES = {"en": "en-GB", "el": "el-GR", "ru": "ru-RU", "fa": "fa-IR"}
assert set(LOCALES) == set(LANGUAGES)


def assert_accessible(page, lang: str, what: str) -> None:
    """The page speaks ``lang`` in its direction, and axe finds nothing
    serious or critical in it (the assertion names each rule and element)."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
    found = axe_violations(page)
    assert not found, f"{what} ({lang}): " + "; ".join(
        f"{v['id']} [{v['impact']}] {v['help']}: {', '.join(v['targets'])}" for v in found
    )


def sh_election(store) -> tuple[Table, int]:
    """Secret Hitler, keeper mode: the ballot on C is open (seat 1 votes)."""
    table = sh_table(store, 5, mode="keeper")
    nominate(table, 2)
    return table, 1


def a27_negotiation(store) -> tuple[Table, int]:
    """Article 27: an issue proposed, seat 1 may offer a bribe."""
    table = a27_table(store, 4)
    propose(table, PK, call_vote=False)
    return table, 1


def coup_turn(store) -> tuple[Table, int]:
    """Coup, keeper mode: seat 0's turn, every action on its phone."""
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], mode="keeper", options={"first": 0})
    return Table.start(store, setup, fate=Fate(seed=3)), 0


def g54_loss(store) -> tuple[Table, int]:
    """G54: Bob challenged and lost, and turns up a card chosen by number."""
    return challenge_lost(store), 1


SEAT_STATES = {
    "secret_hitler": sh_election,
    "article27": a27_negotiation,
    "coup": coup_turn,
    "g54": g54_loss,
}


def test_the_checker_finds_a_button_with_no_name(store, phone):
    """A real fault, put into a real page: axe reports it, by rule and element."""
    table, _ = coup_turn(store)
    with serve_in_thread(TableServer(table).app()) as base:
        phone.goto(f"{base}/table")
        expect(phone.locator("#players > li")).to_have_count(3)
        assert axe_violations(phone) == []
        phone.evaluate(
            """() => {
                const button = document.createElement("button");
                button.id = "nameless";
                document.body.append(button);
            }"""
        )
        found = axe_violations(phone)
    assert [(v["id"], v["impact"], v["targets"]) for v in found] == [
        ("button-name", "critical", ["#nameless"])
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", SEAT_STATES)
def test_a_seat_s_page_passes_axe(store, phones, game, lang):
    table, seat = SEAT_STATES[game](store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = phones(LOCALES[lang])
        take_seat(
            page, f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, seat))}"
        )
        expect(page.locator("#link")).to_have_attribute("data-state", "open")
        expect(page.locator("#actions > *").first).to_be_visible()
        assert_accessible(page, lang, f"{game}'s seat page")
        page.locator("#rename summary").click()  # the rename form, open
        assert_accessible(page, lang, f"{game}'s seat page, renaming")
        page.locator("#large-text").check()
        assert_accessible(page, lang, f"{game}'s seat page, in large text")
        page.emulate_media(color_scheme="dark")  # the phone's dark mode: its own colours
        assert_accessible(page, lang, f"{game}'s seat page, dark")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_page_passes_axe(store, phones, lang):
    table, _ = coup_turn(store)
    table.execute({"type": "tax", "seat": 0})
    with serve_in_thread(TableServer(table).app()) as base:
        page = phones(LOCALES[lang])
        page.goto(f"{base}/table")
        expect(page.locator("#link")).to_have_attribute("data-state", "open")
        expect(page.locator("#log li").first).to_be_visible()
        assert_accessible(page, lang, "the table page")
        page.locator("#large-text").check()
        assert_accessible(page, lang, "the table page, in large text")
        page.emulate_media(color_scheme="dark")
        assert_accessible(page, lang, "the table page, dark")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_join_link_and_a_refusal_pass_axe(store, phones, lang):
    table, _ = sh_election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = phones(LOCALES[lang])
        page.goto(f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, 0))}")
        expect(page.locator(".take-seat button")).to_be_visible()
        assert_accessible(page, lang, "a join link's page")
        page.emulate_media(color_scheme="dark")
        assert_accessible(page, lang, "a join link's page, dark")
        page.goto(f"{base}/join/not-a-token")
        expect(page.locator(".refusal")).to_be_visible()
        assert_accessible(page, lang, "a refusal")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_waiting_page_passes_axe(phones, lang):
    with serve_in_thread(waiting_app()) as base:
        page = phones(LOCALES[lang])
        page.goto(f"{base}/join/anything")
        expect(page.locator("h1")).to_be_visible()
        assert_accessible(page, lang, "the waiting page")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_console_s_login_and_cards_pass_axe(tmp_path, phones, lang):
    from companion.console.server import Console, make_app
    from companion.console.stats import Stats
    from companion.secret_hash import hash_pin

    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"))
    timer = {"running": True, "remaining": 42}
    with serve_in_thread(make_app(console)) as base:
        for name, state in (("t1", "playing"), ("t2", "finished")):
            message = {**status(state=state), "table": name, "timer": timer}
            base.on_loop(lambda n=name, m=message: console.receive(n, "status", signed(m)))
        page = phones(LOCALES[lang])
        page.goto(f"{base}/login?lang={lang}")
        assert_accessible(page, lang, "the console's login")
        page.fill("input[name=password]", "not the password")
        page.click("form.login button")
        expect(page.locator(".wrong")).to_be_visible()
        assert_accessible(page, lang, "the console's login, refused")
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button")
        expect(page).to_have_url(re.compile(r"/$|/\?"))
        expect(page.locator('article[data-table="t2"]')).to_be_visible()
        assert_accessible(page, lang, "the console's cards")
        # A page of many: unsigned tables, marked, and the links between pages.
        for number in range(60):
            fake = json.dumps({**status(), "table": f"u{number:02d}"}).encode()
            base.on_loop(lambda n=number, m=fake: console.receive(f"u{n:02d}", "status", m))
        page.reload()
        expect(page.locator(".unsigned-note").first).to_be_visible()
        expect(page.locator('nav.pages a[rel="next"]')).to_be_visible()
        assert_accessible(page, lang, "the console's first page of cards")


def test_the_table_s_log_adds_new_lines_and_keeps_those_it_showed(store, phone):
    """The log is a live region: a screen reader reads what is added, so
    the lines already there stay as they were and only the new one comes."""
    table, _ = coup_turn(store)
    table.execute({"type": "tax", "seat": 0})
    with serve_in_thread(TableServer(table).app()) as base:
        phone.goto(f"{base}/table")
        lines = phone.locator("#log li")
        expect(lines).to_have_count(2)
        lines.evaluate_all("items => items.forEach((item) => { item.dataset.seen = 'yes'; })")
        base.on_loop(lambda: table.execute({"type": "pass", "seat": 1}))
        expect(lines).to_have_count(3)
        expect(phone.locator("#log li[data-seen]")).to_have_count(2)
        expect(lines.last).not_to_have_attribute("data-seen", "yes")


def test_a_keyboard_shows_the_secrets_while_its_key_is_held(store, phone):
    """Hold to reveal works without a finger: the card's button takes the
    focus, Space held down shows the secrets and letting go hides them."""
    table, seat = sh_election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        take_seat(
            phone, f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, seat))}"
        )
        expect(phone.locator("#link")).to_have_attribute("data-state", "open")
        phone.locator("#reveal").focus()
        phone.keyboard.down(" ")
        expect(phone.locator("#secret-lines")).to_be_visible()
        assert_accessible(phone, "en", "the seat page, its secrets shown")
        phone.keyboard.up(" ")
        expect(phone.locator("#secret-lines")).to_be_hidden()


def test_what_a_screen_reader_finds_by_role_and_name(store, phones):
    """The parts a screen reader goes to, found the way it finds them: by
    role and accessible name (Persian, to be sure the names are worded)."""
    from companion.i18n import translate

    def t(key: str) -> str:
        return translate(key, "fa")

    table, seat = a27_negotiation(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = phones(LOCALES["fa"])
        take_seat(
            page, f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, seat))}"
        )
        expect(page.get_by_role("button", name=t("web.show_secrets"))).to_be_visible()
        for key in ("web.offer_to", "web.offer_kind"):  # a form's choices: a named group of radios
            group = page.get_by_role("group", name=t(key))
            expect(group).to_be_visible()
            expect(group.get_by_role("radio").first).to_be_visible()
        language = page.get_by_role("button", name=f"{t('web.language')}: {t('web.language_name')}")
        expect(language).to_have_attribute("aria-expanded", "false")
        language.click()
        expect(page.get_by_role("button", name="English")).to_have_attribute("lang", "en")
        expect(page.get_by_role("checkbox", name=t("web.vibrate"))).to_be_checked()
        expect(page.get_by_role("checkbox", name=t("web.large_text"))).not_to_be_checked()
        expect(page.get_by_role("status").filter(has_text=t("web.connected"))).to_be_visible()
        page.goto(f"{base}/table")
        expect(page.get_by_role("log", name=t("ui.log"))).to_contain_text(table.names[0])


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_table_page_shows_what_the_table_waits_for_its_figures_and_cards(store, phones, lang):
    """/table says what the kiosk's bar and status line say, and shows the
    cards the kiosk keeps in sight (G54's five characters), worded in the
    page's language; it passes axe with them."""
    table, _ = g54_loss(store)
    t, words, view = Messages(lang, table.names), table.spec.words, table.public_view()
    cards = words.reference_cards(view, t)
    assert len(cards) == 6, "the set's five characters and the general actions"
    with serve_in_thread(TableServer(table).app()) as base:
        page = phones(LOCALES[lang])
        page.goto(f"{base}/table")
        expect(page.locator("#link")).to_have_attribute("data-state", "open")
        expect(page.locator("#status")).to_have_text(words.status_line(view, t))
        expect(page.locator("#facts")).to_have_text(" · ".join(words.bar_items(view, t)))
        expect(page.locator("#reference-title")).to_have_text(t("web.reference"))
        expect(page.locator("#reference dt")).to_have_text([card.name for card in cards])
        expect(page.locator("#reference dd")).to_have_text([card.text for card in cards])
        assert_accessible(page, lang, "G54's table page with its cards")


def test_the_table_page_shows_no_cards_where_the_game_keeps_none(store, phones):
    table, _ = coup_turn(store)
    table.execute({"type": "income", "seat": 0})
    t, words, view = Messages("en", table.names), table.spec.words, table.public_view()
    with serve_in_thread(TableServer(table).app()) as base:
        page = phones(LOCALES["en"])
        page.goto(f"{base}/table")
        expect(page.locator("#link")).to_have_attribute("data-state", "open")
        expect(page.locator("#status")).to_have_text(words.status_line(view, t))
        expect(page.locator("#facts")).to_contain_text(t("ui.turn", count=2))
        expect(page.locator("#reference-card")).to_be_hidden()
