"""The phone pages in a real browser (Debian's chromium, driven by
Playwright) against the real server: open a seat's link, tap to take the
seat, a second phone refused (also one that tapped first but opened the
seat's page later), secrets behind hold-to-reveal, a vote and the reveal,
reload and a restarted server resuming the seat, re-pairing. Screenshots of
each page at a phone's size land in screenshots/phone/."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from browser import NO_PLAYWRIGHT, serve_in_thread, shot, take_seat
from g54_helpers import challenge_lost
from page_helpers import choose_language
from sh_helpers import nominate, sh_table

from companion.table import EventStore, Table
from companion.web.server import COOKIE, CSRF_HEADER, TableServer, csrf_token

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect


def election(store):
    """Secret Hitler, keeper mode, five seats; the ballot on C is open."""
    table = sh_table(store, 5, mode="keeper")
    nominate(table, 2)
    return table


def vote_by_phone_api(base: str, server: TableServer, seat: int, choice: str) -> None:
    """Another seat's phone votes, through the same HTTP route a page uses."""
    phone = server.links.join(server.links.token(server.table.game_id, seat), None)
    request = urllib.request.Request(
        f"{base}/api/command",
        method="POST",
        data=json.dumps({"type": "vote", "choice": choice}).encode(),
        headers={
            "Content-Type": "application/json",
            "Cookie": f"{COOKIE}={phone.cookie}",
            CSRF_HEADER: csrf_token(phone),
        },
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 200


def hold(page, selector: str):
    """Press and keep holding (a finger on the screen)."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def seated(phones, base, server, seat: int):
    """A new phone that takes ``seat`` by its join link; returns (page, token)."""
    token = base.on_loop(lambda: server.links.token(server.table.game_id, seat))
    page = phones()
    take_seat(page, f"{base}/join/{token}")
    return page, token


def test_a_phone_joins_sees_its_role_votes_and_sees_the_reveal(store, phones):
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        bob, _ = seated(phones, base, server, 1)
        expect(bob).to_have_url(f"{base}/seat")
        expect(bob.locator("#name")).to_have_text("B")
        expect(bob.locator("#link")).to_have_text("Connected")
        expect(bob.locator("#reveal-hint")).to_have_text("Hold here to see your secrets")
        expect(bob.locator("#secret-lines")).to_be_hidden()
        shot(bob, "sh-seat-hidden")
        hold(bob, "#secrets")
        role = table.private_view(1)["role"]
        expect(bob.locator("#secret-lines")).to_contain_text(
            {
                "liberal": "You are a Liberal.",
                "fascist": "You are a Fascist.",
                "hitler": "You are Hitler.",
            }[role]
        )
        shot(bob, "sh-seat-revealed")
        bob.mouse.up()
        expect(bob.locator("#secret-lines")).to_be_hidden()
        buttons = bob.locator("#actions button")
        expect(buttons).to_have_text(["Ja!", "Nein"])
        buttons.nth(1).click()
        expect(bob.locator("#message")).to_have_text("Sent.")
        spectator = phones()
        spectator.goto(f"{base}/table")
        expect(spectator.locator("#log")).to_contain_text("B has voted.")
        bob_on_table = spectator.locator("#players > li").nth(1)
        expect(bob_on_table.locator("strong")).to_have_text("B")
        expect(bob_on_table.locator("li")).to_have_text(["on a phone"])
        for seat, choice in ((0, "ja"), (2, "ja"), (3, "nein"), (4, "ja")):
            vote_by_phone_api(base, server, seat, choice)
        expect(spectator.locator("#log")).to_contain_text("The votes are in: 3 Ja, 2 Nein.")
        expect(bob.locator("#actions")).to_have_text("Nothing for you to choose right now.")
        shot(spectator, "table-page")
        shot(bob, "sh-seat-after-vote")


def test_a_phone_s_vote_takes_as_many_bytes_ja_as_nein(store, phones):
    """What a page sends is padded (seat.js: COMMAND_BYTES): someone who
    sees the Wi-Fi's frames but not what they carry cannot tell a "Ja!"
    from a "Nein" by its length."""
    table = election(store)
    server = TableServer(table)
    sent = []

    def keep(request) -> None:
        if request.method == "POST":
            sent.append(len(request.post_data_buffer))

    with serve_in_thread(server.app()) as base:
        for seat, button in ((1, 0), (3, 1)):
            page, _ = seated(phones, base, server, seat)
            page.on("request", keep)
            page.locator("#actions button").nth(button).click()
            expect(page.locator("#message")).to_have_text("Sent.")
    assert sent == [512, 512]
    assert [table.private_view(seat)["ballot_vote"] for seat in (1, 3)] == ["ja", "nein"]


@pytest.mark.parametrize("locale, lang", [("en-GB", "en"), ("fa-IR", "fa")])
def test_a_join_link_asks_first_and_the_tap_takes_the_seat(store, phones, locale, lang):
    """Opening the link shows the seat and one big button, in the phone's
    language (Persian right to left), and claims nothing; the tap does, and
    the seat's page that follows makes the claim final."""
    from companion.i18n import Messages

    table = election(store)
    server = TableServer(table)
    t = Messages(lang, table.names)
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 1))
        page = phones(locale)
        page.goto(f"{base}/join/{token}")
        expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
        expect(page.locator(".take-seat .question")).to_have_text(
            t("web.join_question", number=2, player=1)
        )
        button = page.locator(".take-seat button")
        expect(button).to_have_text(t("web.join_button"))
        box, width = button.bounding_box(), page.viewport_size["width"]
        assert box["height"] >= 64 and box["width"] >= width * 0.8, box  # a thumb's target
        shot(page, f"join-{lang}")
        page.reload()  # looking again claims nothing either
        assert not base.on_loop(lambda: server.links.claimed(table.game_id, 1))
        button.click()
        expect(page).to_have_url(f"{base}/seat")
        expect(page.locator("#name")).to_have_text("B")
        assert base.on_loop(lambda: server.links.claimed(table.game_id, 1))


def test_a_second_phone_is_refused_with_a_clear_message(store, phones):
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        first, token = seated(phones, base, server, 0)
        second = phones()
        expect(first.locator("#name")).to_have_text("A")
        second.goto(f"{base}/join/{token}")
        expect(second.locator(".refusal")).to_have_text(
            re.compile("already on another phone. Ask the table to re-pair your seat")
        )
        shot(second, "refused-second-phone")


def test_of_two_phones_that_tapped_the_one_that_opens_the_seat_first_has_it(store, phones):
    """The slow phone tapped first, but the Wi-Fi dropped before it opened
    the seat's page; the quick one's opened. When the slow one's page loads,
    it says the seat is taken: a refusal, not a broken page."""
    table = election(store)
    server = TableServer(table)

    def cut_after_the_answer(route):
        route.fetch(max_redirects=0)  # the server answers, with the cookie,
        route.abort("internetdisconnected")  # and the line drops

    with serve_in_thread(server.app()) as base:
        link = f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, 4))}"
        slow, quick = phones(), phones()
        slow.goto(link)
        slow.route(link, cut_after_the_answer)
        with slow.expect_event("requestfailed"):
            slow.locator(".take-seat button").click()
        assert COOKIE in [cookie["name"] for cookie in slow.context.cookies()]
        assert not base.on_loop(lambda: server.links.claimed(table.game_id, 4))
        take_seat(quick, link)
        expect(quick.locator("#name")).to_have_text("E")
        slow.goto(f"{base}/seat")
        expect(slow.locator(".refusal")).to_have_text(re.compile("already on another phone"))
        expect(quick.locator("#link")).to_have_text("Connected")


def test_reload_and_a_restarted_server_give_the_seat_back(tmp_path, phones):
    path = tmp_path / "g.sqlite3"
    table = election(EventStore(path))
    server = TableServer(table)
    carol = phones()
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 2))
        take_seat(carol, f"{base}/join/{token}")
        expect(carol.locator("#name")).to_have_text("C")
        carol.reload()
        expect(carol.locator("#name")).to_have_text("C")
        expect(carol.locator("#link")).to_have_text("Connected")
    expect(carol.locator("#link")).to_have_text("Reconnecting…")
    table.store.close()
    resumed = Table.resume(EventStore(path))
    with serve_in_thread(TableServer(resumed).app()) as again:
        carol.goto(f"{again}/seat")  # the same cookie, no new scan
        expect(carol.locator("#name")).to_have_text("C")
        expect(carol.locator("#actions button")).to_have_text(["Ja!", "Nein"])


def test_re_pairing_leaves_the_old_phone_seatless(store, phones):
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        lost, token = seated(phones, base, server, 3)
        expect(lost.locator("#name")).to_have_text("D")
        new_token = base.on_loop(lambda: server.repair(3))
        # The open page notices at once and shows it has no seat any more.
        expect(lost.locator(".refusal")).to_have_text(re.compile("has no seat in this game"))
        shot(lost, "re-paired-old-phone")
        found = phones()
        take_seat(found, f"{base}/join/{new_token}")
        expect(found.locator("#name")).to_have_text("D")
        lost.goto(f"{base}/join/{token}")
        expect(lost.locator(".refusal")).to_have_text(re.compile("does not open a seat"))


def test_a_re_paired_phone_whose_close_was_lost_finds_out_when_it_reconnects(store, phones):
    """The connection drops (Wi-Fi, a sleeping phone) just as the seat is
    re-paired, so the re-pair's close never reaches the page: when it tries
    again, it asks the server, learns it holds no seat, and says so."""
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        lost, _ = seated(phones, base, server, 3)
        expect(lost.locator("#link")).to_have_text("Connected")

        def drop_then_re_pair():
            for socket in list(server._seat_sockets):
                socket._req.transport.abort()  # no close frame: the line is cut
            server.links.repair(table.game_id, 3)

        base.on_loop(drop_then_re_pair)
        expect(lost.locator(".refusal")).to_have_text(re.compile("has no seat in this game"))


def test_an_article_27_bribe_is_offered_from_the_phone(store, phones):
    from a27_helpers import PK, a27_table, propose

    table = a27_table(store, 4)
    propose(table, PK, call_vote=False)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        ben, _ = seated(phones, base, server, 1)
        expect(ben.locator("#offer-title")).to_have_text("Offer a bribe")
        ben.locator("#offer-to").get_by_role("radio", name="to A").check()
        ben.locator("#offer-kind").get_by_role("radio", name="to vote Yes").check()
        ben.locator("#offer-amount").fill("3")
        expect(ben.locator("#offer-text-field")).to_be_hidden()
        shot(ben, "a27-offer")
        ben.locator("#offer-send").click()
        expect(ben.locator("#message")).to_have_text("Sent.")
        bribes = table.private_view(1)["bribes"]
        assert [(b["to"], b["amount"], b["kind"]) for b in bribes] == [(0, 3, "yes")]
        hold(ben, "#secrets")
        expect(ben.locator("#secret-lines")).to_contain_text("behind your screen")
        number = bribes[0]["mine"]
        expect(ben.locator("#secret-lines")).to_contain_text(
            f"Bribe #{number}: B to A, 3 influence to vote Yes: waiting for an answer"
        )
        # Its button calls it the same way (not by the number it carries).
        expect(ben.locator("#actions button")).to_have_text([f"Withdraw bribe #{number}"])
        shot(ben, "a27-secrets-with-bribe")
        ben.mouse.up()


def test_a_coup_phone_turns_up_a_card_chosen_by_number(store, phones):
    table = challenge_lost(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        bob, _ = seated(phones, base, server, 1)
        expect(bob.locator("#actions button")).to_have_text(["Turn up card 1", "Turn up card 2"])
        hold(bob, "#secrets")
        expect(bob.locator("#secret-lines")).to_have_text("Your cards: 1. Guerrilla, 2. Politician")
        shot(bob, "g54-lose-by-number")
        bob.mouse.up()
        bob.locator("#actions button").nth(1).click()
        expect(bob.locator("#message")).to_have_text("Sent.")
    assert table.public_view()["players"][1]["revealed"] == ["politician"]


def test_every_seat_s_secrets_card_has_one_size_at_night(store, phones):
    """A fascist's teammates make more lines than a liberal's role; a
    neighbour glancing at two phones must not see a taller card, hidden or
    shown, and the longer secrets must still fit."""
    from companion.games.base import Fate, Setup

    setup = Setup(
        game="secret_hitler",
        seats=[chr(65 + i) for i in range(10)],
        mode="keeper",
        options={"first": 0},
    )
    table = Table.start(store, setup, fate=Fate(seed=5))
    roles = [table.private_view(seat)["role"] for seat in range(10)]
    liberal, fascist = roles.index("liberal"), roles.index("fascist")
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        pages = [seated(phones, base, server, seat)[0] for seat in (liberal, fascist)]
        boxes = []
        for page in pages:
            expect(page.locator("#actions button")).to_have_text(["I have seen it"])
            boxes.append(page.locator("#secrets").bounding_box())
            hold(page, "#secrets")
            expect(page.locator("#secret-lines")).to_be_visible()
            boxes.append(page.locator("#secrets").bounding_box())
            assert page.locator("#secrets").evaluate(
                "card => card.scrollHeight <= card.clientHeight"
            )
        expect(pages[1].locator("#secret-lines li")).to_have_count(4)  # role, 3 teammates
        expect(pages[0].locator("#secret-lines li")).to_have_count(1)
        shot(pages[1], "sh-fascist-night-revealed")
        for page in pages:
            page.mouse.up()
    assert all(box == boxes[0] for box in boxes), boxes


@pytest.mark.parametrize("locale, lang", [("el-GR", "el"), ("ru-RU", "ru"), ("fa-IR", "fa")])
def test_each_phone_reads_its_own_language(store, phones, locale, lang):
    """A phone speaks its browser's language whatever the kiosk and the other
    phones speak, Persian right to left; the menu changes it on the spot, and
    the secrets come worded in it from the server."""
    from companion.i18n import translate

    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        visitor, _ = seated(phones, base, server, 1)
        local = phones(locale)
        token = base.on_loop(lambda: server.links.token(server.table.game_id, 2))
        local.goto(f"{base}/join/{token}")
        expect(local.locator(".take-seat button")).to_have_text(translate("web.join_button", lang))
        local.locator(".take-seat button").click()
        expect(local.locator("html")).to_have_attribute("lang", lang)
        expect(local.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
        expect(local.locator("#reveal-hint")).to_have_text(translate("web.hold_to_reveal", lang))
        expect(visitor.locator("#reveal-hint")).to_have_text("Hold here to see your secrets")
        hold(local, "#secrets")
        role = table.private_view(2)["role"]
        expect(local.locator("#secret-lines")).to_contain_text(
            translate(f"phone.role.{role}", lang)
        )
        local.mouse.up()
        name, link = (local.locator(s).bounding_box() for s in ("#name", "#link"))
        if lang == "fa":  # mirrored: the name on the right
            assert name["x"] > link["x"]
        else:
            assert name["x"] < link["x"]
        shot(local, f"sh-seat-{lang}")
        # The English phone turns Persian from its own menu; the other phone stays.
        choose_language(visitor, "fa")
        expect(visitor.locator("html")).to_have_attribute("dir", "rtl")
        expect(visitor.locator("#reveal-hint")).to_have_text(translate("web.hold_to_reveal", "fa"))
        expect(visitor.locator("#actions button")).to_have_text(
            [translate("choice.ja", "fa"), translate("choice.nein", "fa")]
        )
        expect(local.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize("locale, lang", [("fa-IR", "fa"), ("el-GR", "el")])
def test_the_table_page_words_the_game_in_its_own_language(store, phones, locale, lang):
    """The public table's log comes worded by the server in the page's
    language, game terms included, and its figures in the reader's digits;
    another page in another language reads its own at the same time."""
    from companion.games.base import Fate, Setup
    from companion.i18n import Messages

    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=3))
    table.execute({"type": "tax", "seat": 0})
    server = TableServer(table)
    t = Messages(lang, table.names)
    with serve_in_thread(server.app()) as base:
        page, english = phones(locale), phones("en-GB")
        for viewer in (page, english):
            viewer.goto(f"{base}/table")
        claim = [
            line
            for key, args in table.log_lines()
            if key != "log.started"
            for line in [t.log_line(key, args)]
        ][0]
        assert "duke" not in claim.lower(), "the game's term is worded, not its key"
        expect(page.locator("#log")).to_contain_text(claim)
        expect(page.locator("#players > li").nth(1)).to_contain_text(t("ui.coins", count=2))
        expect(english.locator("#log")).to_contain_text("Ann claims the Duke")
        # A change reaches both pages (made on the server's loop, as the
        # kiosk and the phones make theirs).
        base.on_loop(lambda: table.execute({"type": "pass", "seat": 1}))
        expect(page.locator("#log")).to_contain_text(t.log_line(*table.log_lines()[-1]))
        expect(english.locator("#log")).to_contain_text(
            Messages("en", table.names).log_line(*table.log_lines()[-1])
        )
        if lang == "fa":  # each row runs right to left: the name first
            row = page.locator("#players > li").nth(1)
            expect(row).to_contain_text("۲")
            name, coins = row.locator("strong").bounding_box(), row.bounding_box()
            assert name["x"] + name["width"] > coins["x"] + coins["width"] * 0.8, (name, coins)
            shot(page, "table-page-fa")


def test_a_refused_press_is_explained_on_that_seat_s_phone_only(store, phones):
    """Keeper mode: a Veto is the seat's to cast on its phone (it depends on
    the influence behind its screen). Pressed on the seat's buttons it is
    refused, and the refusal is said on that seat's phone, not another's."""
    import asyncio
    import time

    from a27_helpers import PK, a27_table, propose

    from companion.devices.controls import Controls
    from companion.devices.press import Press

    table = a27_table(store, 4, mode="keeper")
    propose(table, PK)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        dora, _ = seated(phones, base, server, 3)
        cara, _ = seated(phones, base, server, 2)
        expect(dora.locator("#link")).to_have_text("Connected")
        expect(cara.locator("#link")).to_have_text("Connected")
        refusals = []

        def press_veto() -> None:
            def refused(seat, error):
                refusals.append((seat, error.key))
                server.tell_seat(seat, error)

            controls = Controls(table, loop=asyncio.get_running_loop(), on_refusal=refused)
            controls.handle(Press(seat=3, button=1, at=time.monotonic(), device="gpio"))

        base.on_loop(press_veto)
        assert refusals == [(3, "device.choice_on_phone")]
        expect(dora.locator("#message")).to_have_text(
            "Choose that on your phone: the buttons cannot take it."
        )
        shot(dora, "a27-refused-press")
        expect(cara.locator("#actions button").first).to_be_visible()
        expect(cara.locator("#message")).to_have_text("")
    assert table.public_view()["ballot"]["voted"] == []


def test_the_waiting_page_opens_the_game_once_the_table_answers(phone):
    """Before the first game the address answers with the waiting page,
    which stays put (no timed reload) and, once the table's server answers
    instead, opens what it serves."""
    from companion.web.waiting import RETRY_SECONDS, waiting_app

    with serve_in_thread(waiting_app()) as base:
        phone.goto(f"{base}/table")
        expect(phone.locator("p[role=status]")).to_have_text(re.compile("being set up"))
        loads = []
        phone.on("load", lambda _page: loads.append(phone.url))
        phone.wait_for_timeout(RETRY_SECONDS * 1000 + 1500)  # it has looked again
        assert loads == []
        table = "<!doctype html><html lang=en><title>Table</title><h1 id=game>The game</h1>"
        phone.route(
            f"{base}/table",
            lambda route: route.fulfill(status=200, content_type="text/html", body=table),
        )
        expect(phone.locator("#game")).to_have_text("The game")


def test_no_page_asks_for_anything_it_is_not_given(store, phones):
    """Every page (a join link, a seat, the table, a refusal, the waiting
    page) links the icon, and the server gives it (a real ICO) to whoever
    asks for /favicon.ico; nothing else a page asks for ends in an error.
    (Headless chromium asks for no icon by itself: the test asks.)"""
    from io import BytesIO

    from PIL import Image

    from companion.web.waiting import waiting_app

    table = election(store)
    server = TableServer(table)
    failed = []

    def watch(response) -> None:
        if response.request.resource_type == "document":
            return  # a refusal's own status is its answer
        if response.status >= 400:
            failed.append((response.status, response.url))

    def visit(page, base: str, path: str, ready: str) -> None:
        page.on("response", watch)
        if path:
            page.goto(f"{base}{path}")
        expect(page.locator(ready).first).to_be_visible()
        assert page.locator('link[rel="icon"]').get_attribute("href") == "/favicon.ico"
        # Asked for as a browser asks for it, linked or not.
        answer = page.request.get(f"{base}/favicon.ico")
        assert answer.status == 200 and answer.headers["content-type"] == "image/x-icon"
        icon = Image.open(BytesIO(answer.body()))
        assert icon.format == "ICO" and icon.size[0] >= 16

    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 1))
        visit(phones(), base, f"/join/{token}", ".take-seat button")
        seat = phones()
        seat.on("response", watch)
        take_seat(seat, f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, 2))}")
        visit(seat, base, "", "#actions button")
        visit(phones(), base, "/table", "#players > li")
        visit(phones(), base, "/join/not-a-token", ".refusal")
    with serve_in_thread(waiting_app()) as base:
        visit(phones(), base, "/table", "p[role=status]")
    assert failed == []


def test_a_phone_shows_the_vote_it_sent_and_may_change_it_while_the_ballot_is_open(store, phones):
    """Votes are changeable by default: after a vote the phone says it is
    in, shows it behind hold-to-reveal with the other secrets, and offers
    the choices again (the button pressed keeps the focus); a change is
    taken. A table that locks votes offers no change, and says the vote is in."""
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        bob, _ = seated(phones, base, server, 1)
        buttons = bob.locator("#actions button")
        expect(bob.locator("#vote-note")).to_be_hidden()
        buttons.nth(1).click()
        expect(bob.locator("#message")).to_have_text("Sent.")
        expect(bob.locator("#vote-note")).to_have_text(
            "Your vote is in (hold the card above to see it). "
            "You can change it until the last vote is in."
        )
        expect(buttons).to_have_text(["Ja!", "Nein"])
        expect(buttons.nth(1)).to_be_focused()
        hold(bob, "#secrets")
        expect(bob.locator("#secret-lines")).to_contain_text("Your vote: Nein")
        bob.mouse.up()
        shot(bob, "sh-seat-vote-changeable")
        buttons.nth(0).click()
        expect(bob.locator("#message")).to_have_text("Sent.")
        assert base.on_loop(lambda: table.private_view(1)["ballot_vote"]) == "ja"
        hold(bob, "#secrets")
        expect(bob.locator("#secret-lines")).to_contain_text("Your vote: Ja!")
        bob.mouse.up()
    locked_table = sh_table(store, 5, mode="keeper", table={"votes": "locked"})
    nominate(locked_table, 2)
    server = TableServer(locked_table)
    with serve_in_thread(server.app()) as base:
        bob, _ = seated(phones, base, server, 1)
        bob.locator("#actions button").nth(0).click()
        expect(bob.locator("#vote-note")).to_have_text(
            "Your vote is in (hold the card above to see it)."
        )
        expect(bob.locator("#actions button")).to_have_count(0)


def test_a_phone_whose_choice_is_on_the_table_s_screen_says_so(store, phones):
    """The candidate nominates a Chancellor on the kiosk: its phone says the
    choice is made on the table's screen, not that there is nothing to
    choose; a seat the table does not wait for has nothing to choose."""
    from companion.i18n import translate

    table = sh_table(store, 5, mode="keeper")
    candidate = table.public_view()["candidate"]
    other = (candidate + 1) % 5
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page, _ = seated(phones, base, server, candidate)
        expect(page.locator("#status")).to_contain_text("nominate")
        expect(page.locator("#actions")).to_have_text(
            "You choose this on the table's screen, not on this phone."
        )
        shot(page, "sh-candidate-on-kiosk")
        persian = phones("fa-IR")
        take_seat(
            persian,
            f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, other))}",
        )
        expect(persian.locator("#actions")).to_have_text(translate("web.nothing_to_do", "fa"))
        choose_language(page, "fa")  # worded in the phone's language
        expect(page.locator("#actions")).to_have_text(translate("web.at_table", "fa"))
        shot(page, "sh-candidate-on-kiosk-fa")


def test_a_name_being_typed_is_kept_when_the_table_changes(store, phones):
    """The rename form open, the player types, looks away from the field
    (it loses the focus, as it does when Save is tapped); a state arrives
    meanwhile (another seat votes). What was typed is still there, and
    Save keeps it."""
    table = election(store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        bob, _ = seated(phones, base, server, 1)
        expect(bob.locator("#link")).to_have_text("Connected")
        bob.locator("#rename-title").click()
        field = bob.locator("#rename-name")
        field.fill("Βασίλης")
        field.blur()
        vote_by_phone_api(base, server, 0, "ja")
        expect(bob.locator("#players > li").first).to_contain_text("A")
        expect(bob.locator("#status")).to_contain_text("1 of 5")
        expect(field).to_have_value("Βασίλης")
        bob.locator("#rename-save").click()
        expect(bob.locator("#name")).to_have_text("Βασίλης")
