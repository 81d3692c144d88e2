"""A seat's secrets card for everyone: every line readable (scrolled within
the card rather than cut off, at a small phone's width, in large text, in
every language), said again by a screen reader only when it changes, shown
and hidden by its button's click (what a screen reader's "activate" sends)
as well as by a finger's hold; and axe's best-practice rules (landmarks,
content in them, roles a tag allows) find nothing on a seat's page."""

from __future__ import annotations

import pytest
from a27_helpers import PK, a27_table, bribe, propose
from browser import EVERY_IMPACT, NO_PLAYWRIGHT, axe_violations, serve_in_thread, shot, take_seat
from test_accessibility import LOCALES, SEAT_STATES

from companion.i18n import LANGUAGES, translate
from companion.table import OPERATOR
from companion.web.server import LANG_COOKIE, TableServer

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect

WIDTHS = (320, 360, 390)
# Seats 0 and 2-5 pay seat 1, one influence each, for a vote or "other".
PAYERS = (0, 2, 3, 4, 5, 0, 2, 3)

# In the page: show the secrets (by their button) and find any line that is
# cut off: after scrolling it into view (the card's own scrolling, or the
# page's), some part of it still lies outside a box that clips it or off
# the screen's sides, or it is wider than its own box. A card that scrolls
# must take the keyboard's focus, to be scrolled without a finger.
CLIPPED = """() => {
    const view = document.getElementById("secret-view");
    const list = document.getElementById("secret-lines");
    if (list.hidden) document.getElementById("reveal").click();
    const problems = [];
    if (list.hidden) problems.push("not shown");
    if (view.scrollHeight > view.clientHeight && view.tabIndex < 0) {
        problems.push("scrolls, but not by keyboard");
    }
    for (const line of list.children) {
        line.scrollIntoView({ block: "nearest", inline: "nearest" });
        const box = line.getBoundingClientRect();
        const where = `line ${[...list.children].indexOf(line) + 1}`;
        if (box.left < -0.5 || box.right > innerWidth + 0.5) {
            problems.push(`${where}: off the screen`);
        }
        if (line.scrollWidth > line.clientWidth + 1) problems.push(`${where}: wider than its box`);
        for (let clip = line.parentElement; clip !== document.body; clip = clip.parentElement) {
            const style = getComputedStyle(clip);
            const outer = clip.getBoundingClientRect();
            const top = outer.top + clip.clientTop;
            const left = outer.left + clip.clientLeft;
            // A box that scrolls: every part of the line within what it
            // scrolls through; one that clips (and may have been scrolled
            // here by script, never by a person): within its unscrolled box.
            const from = top - clip.scrollTop;
            const to = from + (["auto", "scroll"].includes(style.overflowY)
                ? clip.scrollHeight : clip.clientHeight);
            const cutY = style.overflowY !== "visible"
                && (box.top < from - 0.5 || box.bottom > to + 0.5);
            const cutX = style.overflowX !== "visible"
                && (box.left < left - 0.5 || box.right > left + clip.clientWidth + 0.5);
            if (cutY || cutX) problems.push(`${where}: cut off by #${clip.id || clip.className}`);
        }
    }
    return { problems, lines: list.children.length };
}"""


def seated(page, base, server, seat: int) -> None:
    take_seat(
        page, f"{base}/join/{base.on_loop(lambda: server.links.token(server.table.game_id, seat))}"
    )
    expect(page.locator("#link")).to_have_attribute("data-state", "open")


def test_every_article_27_secret_can_be_read_at_every_width_size_and_language(
    store, tmp_path, phone
):
    """0 to 8 bribes to one seat, 320/360/390 px wide, normal and large
    text, en/el/ru/fa: no secret line is cut off, and the hidden card has
    one height whatever it holds. One page, its states changed in place."""
    from companion.table import EventStore

    problems = []
    for lang in LANGUAGES:
        table = a27_table(EventStore(tmp_path / f"{lang}.sqlite3"), 6)
        propose(table, PK, call_vote=False)
        server = TableServer(table)
        with serve_in_thread(server.app()) as base:
            phone.context.add_cookies([{"name": LANG_COOKIE, "value": lang, "url": base}])
            seated(phone, base, server, 1)
            expect(phone.locator("html")).to_have_attribute("lang", lang)
            hidden_heights = {}
            lines = phone.locator("#secret-lines li")
            for count in range(len(PAYERS) + 1):
                if count:
                    payer, kind = PAYERS[count - 1], ("yes", "other")[count % 2]
                    base.on_loop(lambda t=table, p=payer, k=kind: bribe(t, p, 1, 1, k, text="?"))
                expect(lines).to_have_count(4 + count)
                for large in (False, True):
                    phone.locator("#large-text").set_checked(large)
                    for width in WIDTHS:
                        phone.set_viewport_size({"width": width, "height": 700})
                        if phone.locator("#secret-lines").is_visible():
                            phone.locator("#reveal").dispatch_event("click")
                        height = phone.locator("#secrets").evaluate("card => card.offsetHeight")
                        hidden_heights.setdefault((large, width), set()).add(height)
                        found = phone.evaluate(CLIPPED)
                        assert found["lines"] == 4 + count
                        problems += [
                            f"{lang}, {count} bribes, {width} px{', large' if large else ''}: {p}"
                            for p in found["problems"]
                        ]
                        if (count, width) == (len(PAYERS), 320) and lang in ("en", "fa"):
                            shot(
                                phone, f"a27-secrets-8-bribes-320-{lang}{'-large' if large else ''}"
                            )
            phone.locator("#large-text").set_checked(False)
            assert all(len(h) == 1 for h in hidden_heights.values()), hidden_heights
    assert not problems, "\n".join(problems)


MUTATIONS = """() => {
    window.secretsChanges = [];
    new MutationObserver((records) => window.secretsChanges.push(...records.map(
        (r) => `${r.type} ${r.target.nodeName}#${r.target.id || ""}`
            + ` +${r.addedNodes.length} -${r.removedNodes.length}`
    ))).observe(document.getElementById("secrets"),
        { subtree: true, childList: true, characterData: true, attributes: true });
}"""


@pytest.mark.parametrize("shown", [False, True])
def test_the_secrets_card_is_rewritten_only_when_its_secrets_change(store, phone, shown):
    """The card is a live region: a state that leaves this seat's secrets as
    they were changes nothing in it (a screen reader says nothing); a new
    secret adds its line and touches no other."""
    table = a27_table(store, 4)
    propose(table, PK, call_vote=False)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        seated(phone, base, server, 1)
        lines = phone.locator("#secret-lines li")
        expect(lines).to_have_count(4)
        if shown:
            phone.locator("#reveal").dispatch_event("click")
            expect(lines.first).to_be_visible()
        phone.evaluate(MUTATIONS)
        # The kiosk renames seat 3: the board changes, seat 1's secrets not.
        base.on_loop(
            lambda: table.execute({"type": "rename", "seat": 3, "name": "Dora"}, source=OPERATOR)
        )
        expect(phone.locator("#board")).to_contain_text("Dora")
        assert phone.evaluate("() => window.secretsChanges") == []
        base.on_loop(lambda: bribe(table, 0, 1, 1, "yes"))
        expect(lines).to_have_count(5)
        changes = phone.evaluate("() => window.secretsChanges")
    assert changes and all(
        change.endswith("+1 -0") for change in changes if "childList UL" in change
    )
    assert [c for c in changes if "childList UL" in c] == ["childList UL#secret-lines +1 -0"]


def test_a_click_alone_shows_and_hides_the_secrets_and_a_hold_leaves_them_hidden(store, phone):
    """A screen reader's "activate" is a click with no finger down: the
    button shows the secrets, a second click hides them, and its state is
    said (aria-expanded, its words). A finger held on the card, or on the
    button, shows them only while it is down; the click that ends the hold
    does not leave them shown; a key held on the button likewise, while a key
    pressed toggles them. A quick tap on the button shows them; putting the
    page away hides them."""
    table, seat = SEAT_STATES["secret_hitler"](store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        seated(phone, base, server, seat)
        button, lines = phone.locator("#reveal"), phone.locator("#secret-lines")
        expect(button).to_have_text("Show my secrets")
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(button).to_have_attribute("aria-controls", "secret-lines")
        button.dispatch_event("click")
        expect(lines).to_be_visible()
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(button).to_have_text("Hide my secrets")
        button.dispatch_event("click")
        expect(lines).to_be_hidden()
        expect(button).to_have_attribute("aria-expanded", "false")
        for held in ("#reveal-hint", "#reveal"):
            box = phone.locator(held).bounding_box()
            phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            phone.mouse.down()
            expect(lines).to_be_visible()
            phone.wait_for_timeout(600)  # a hold, not a tap
            phone.mouse.up()
            expect(lines).to_be_hidden()
            phone.wait_for_timeout(300)  # nothing comes back after the release
            expect(lines).to_be_hidden()
        button.focus()  # a key pressed shows them, pressed again hides them
        phone.keyboard.press(" ")
        expect(lines).to_be_visible()
        phone.keyboard.press("Enter")
        expect(lines).to_be_hidden()
        phone.keyboard.down("Enter")  # a key held is a hold
        expect(lines).to_be_visible()
        phone.wait_for_timeout(600)
        phone.keyboard.up("Enter")
        expect(lines).to_be_hidden()
        button.click()  # a quick tap
        expect(lines).to_be_visible()
        phone.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        expect(lines).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("game", SEAT_STATES)
def test_a_seat_s_page_passes_axe_s_best_practices_too(store, phones, game, lang):
    """Every finding axe has, the best-practice rules' among them
    (landmark-one-main, region, aria-allowed-role): none, secrets hidden
    and shown."""
    table, seat = SEAT_STATES[game](store)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = phones(LOCALES[lang])
        seated(page, base, server, seat)
        expect(page.locator("#actions > *").first).to_be_visible()
        page.set_viewport_size({"width": 320, "height": 740})
        assert_nothing_found(page, f"{game}'s seat page ({lang})")
        shot(page, f"seat-320-{game}-{lang}-hidden")
        expect(page.locator("#reveal")).to_have_text(translate("web.show_secrets", lang))
        page.locator("#reveal").dispatch_event("click")
        expect(page.locator("#secret-lines")).to_be_visible()
        assert_nothing_found(page, f"{game}'s seat page, secrets shown ({lang})")
        shot(page, f"seat-320-{game}-{lang}-shown")


def assert_nothing_found(page, what: str) -> None:
    found = axe_violations(page, impacts=EVERY_IMPACT)
    assert not found, f"{what}: " + "; ".join(
        f"{v['id']} [{v['impact']}]: {', '.join(v['targets'])}" for v in found
    )
