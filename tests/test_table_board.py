"""The public board everywhere: in every phase of every game, in both
secrecy modes and in each language, every text the kiosk's table screen
shows (its labels: seats, tracks, piles, issues, clock, ballot, bribes...;
not its buttons, its command strip or its bar) is on the public ``/table``
page, read from the page's DOM in a real chromium. A seat's page shows the
same board under its own secrets; the table page is laid out for a TV, a
tablet and a phone.

The page is served from a second ``Table`` resumed from the same SQLite
file, so the server's thread never shares a table with the kiosk's."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("kivy.base")
from browser import NO_PLAYWRIGHT, serve_in_thread, shot, take_seat  # noqa: E402
from kiosk_helpers import shown_labels, walk  # noqa: E402
from phase_playouts import PHASES, first_of_each_phase  # noqa: E402
from ui_helpers import frames, wait_for  # noqa: E402

from companion.i18n import LANGUAGES  # noqa: E402
from companion.table import EventStore, Table  # noqa: E402
from companion.web.server import TableServer  # noqa: E402

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
LOCALES = {"en": "en-GB", "el": "el-GR", "ru": "ru-RU", "fa": "fa-IR"}
SIZE = (1280, 720)
MARKUP = re.compile(r"\[/?(?:color|b|i|u|s|sub|sup|size|font)(?:=[^\]]*)?\]")


BIDI = re.compile("[\u061c\u200e\u200f\u2066-\u2069]")


def plain(text: str) -> str:
    """Text as compared: Kivy's markup and the invisible marks of direction
    gone, every run of spaces one space."""
    return " ".join(BIDI.sub("", MARKUP.sub("", text)).split())


def kiosk_lines(screen) -> list[str]:
    """Every line of text the table screen shows of the game: its labels,
    less the bar (its title and figures are the page's heading and facts)
    and the command strip (the kiosk's own controls)."""
    left_out = {id(w) for part in (screen.ids.bar, screen.ids.commands) for w in walk(part)}
    lines = []
    for label in shown_labels(screen):
        if id(label) not in left_out:
            lines += [plain(line) for line in label.text.split("\n") if plain(line)]
    return lines


def put_on(window, screen) -> None:
    """``screen`` alone in the window, at the kiosk's 1280×720."""
    if window.children != [screen]:
        window.clear()
        for child in list(window.children):
            window.remove_widget(child)
        window.size = SIZE
        window.add_widget(screen)


def settle(screen) -> None:
    """The screen as it stands between steps: time shown, laid out, its
    animations done."""
    screen.show_time()
    frames(2)
    ballots = [w for w in walk(screen) if hasattr(w, "revealing")]
    if any(b.revealing for b in ballots):
        assert wait_for(lambda: not any(b.revealing for b in ballots), 5.0)
        frames(1)


def resumed(table: Table, clock) -> Table:
    """The same game, from its SQLite file, for the server's thread."""
    again = Table.resume(EventStore(table.store.path), table.game_id, clock=clock)
    assert again is not None and again.public_view() == table.public_view()
    return again


@pytest.mark.parametrize("mode", ["physical", "keeper"])
@pytest.mark.parametrize("game", sorted(PHASES))
def test_every_text_the_kiosk_shows_is_on_the_table_page(window, phones, tmp_path, game, mode):
    """Each phase in each language: a kiosk screen and a page for each."""
    from companion.ui.screens.table_screen import screen_class

    pages = {lang: phones(LOCALES[lang]) for lang in LANGUAGES}
    states = first_of_each_phase(tmp_path, game, mode)
    phase, table, clock = next(states)
    server, screens, checked = TableServer(resumed(table, clock)), {}, []
    with serve_in_thread(server.app()) as base:
        while True:
            served = resumed(table, clock)
            base.on_loop(lambda served=served: server.session.switch(served))
            for lang, page in pages.items():
                # Shown only when looked at: the playouts run faster unwatched.
                if lang in screens:
                    screens[lang].follow(table)
                else:
                    screens[lang] = screen_class(game)(table, lang=lang)
                screen = screens[lang]
                put_on(window, screen)
                settle(screen)
                page.goto(f"{base}/table")
                expect(page.locator("#status")).to_have_text(
                    table.spec.words.status_line(table.public_view(), screen.t)
                )
                text = plain(page.locator("body").inner_text())
                missing = [line for line in kiosk_lines(screen) if line not in text]
                assert not missing, f"{game} ({mode}, {lang}), {phase}: not on /table: {missing}"
                screen.detach()
            checked.append(phase)
            served.store.close()
            try:
                phase, table, clock = next(states)
            except StopIteration:
                break
    assert set(checked) == PHASES[game][mode]


# A state of each game worth a picture: its board at its fullest.
PICTURED = {
    "coup": "challenge",
    "g54": "challenge",
    "secret_hitler": "election",
    "article27": "voting",
}
VIEWPORTS = [(1920, 1080), (1024, 768), (390, 844)]


@pytest.mark.parametrize("game", sorted(PICTURED))
def test_a_seat_s_page_shows_the_table_s_board_under_its_secrets(browser, phones, tmp_path, game):
    """The board on a seat's phone is the table page's, word for word, below
    the seat's own secrets and actions; the table page is laid out for a TV,
    a tablet and a phone (screenshots/phone/table-<game>-<size>.png)."""
    table, clock = next(
        (table, clock)
        for phase, table, clock in first_of_each_phase(tmp_path, game, "keeper")
        if phase == PICTURED[game]
    )
    server = TableServer(resumed(table, clock))
    with serve_in_thread(server.app()) as base:
        for width, height in VIEWPORTS:
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.goto(f"{base}/table")
            expect(page.locator("#players > li")).to_have_count(len(table.names))
            if width > height:  # the board beside the cards and the log
                board, log = (
                    page.locator("#board").bounding_box(),
                    page.locator("#log-card").bounding_box(),
                )
                assert log["x"] >= board["x"] + board["width"] - 1
            on_table = page.locator("#board").inner_text()
            shot(page, f"table-{game}-{width}x{height}")
            context.close()
        seat = phones()
        token = base.on_loop(lambda: server.links.token(server.table.game_id, 0))
        take_seat(seat, f"{base}/join/{token}")
        expect(seat.locator("#players > li")).to_have_count(len(table.names))
        assert seat.locator("#board").inner_text() == on_table
        secrets = seat.locator("#secrets").bounding_box()
        assert seat.locator("#board").bounding_box()["y"] > secrets["y"]
        shot(seat, f"seat-{game}-390x844")


# Each svg drawn on /table: its piece, the words of the element it sits in,
# and whether that element is a track's slot (a slot may have no word: the
# track's title counts its tiles).
DRAWN_ICONS = """() => [...document.querySelectorAll("#board svg, #reference svg")].map((svg) => [
  svg.dataset.piece, svg.parentElement.textContent.trim(),
  svg.closest(".kind-track") !== null, svg.getAttribute("aria-hidden")])"""


def icons_named(state: dict) -> list[tuple[str, str]]:
    """(piece, the words beside its icon) for every icon the table's state
    names: a board item's (and its detail's), a seat line's, a card's."""
    named = []
    for part in state["board"]["parts"]:
        for entry in part["items"]:
            named += [(entry["icon"], entry["text"])] if entry["icon"] else []
            named += [(entry["detail_icon"], entry["detail"])] if entry["detail_icon"] else []
    for seat in state["board"]["seats"]:
        named += [(p, line) for line, ps in zip(seat["lines"], seat["icons"]) for p in ps]
    return named + [(card["piece"], card["name"]) for card in state["reference"] if card["piece"]]


# Pieces each game's playouts must show somewhere on /table (its board and cards).
SHOWN_PIECES = {
    "coup": {"coin"},
    "g54": {"coin"},
    "secret_hitler": {"liberal", "fascist", "investigate", "peek", "execute", "veto"},
    "article27": {"peacekeeping", "nuclear", "wealth", "justice"},
}


@pytest.mark.parametrize("game", sorted(PHASES))
def test_each_piece_s_icon_is_drawn_beside_its_words_on_the_table_page(phones, tmp_path, game):
    """In every phase (keeper mode, English): each icon the board and the
    cards name is an svg inside the element whose words name its piece,
    hidden from assistive technology, and no icon stands without words
    (but a filled track slot's tile, counted by the track's title)."""
    page, seen = phones(LOCALES["en"]), set()
    states = first_of_each_phase(tmp_path, game, "keeper")
    phase, table, clock = next(states)
    server = TableServer(resumed(table, clock))
    with serve_in_thread(server.app()) as base:
        while True:
            served = resumed(table, clock)
            base.on_loop(lambda served=served: server.session.switch(served))
            page.goto(f"{base}/table")
            expect(page.locator("#status")).not_to_be_empty()
            state = page.evaluate("fetch('/api/table').then((response) => response.json())")
            drawn = page.evaluate(DRAWN_ICONS)
            for piece, words in icons_named(state):
                assert any(p == piece and words in beside for p, beside, _, _ in drawn), (
                    f"{game}, {phase}: no {piece} icon beside {words!r}"
                )
            for piece, beside, in_track, hidden in drawn:
                assert hidden == "true", piece
                assert beside or in_track, f"{game}, {phase}: the {piece} icon stands alone"
                seen.add(piece)
            served.store.close()
            try:
                phase, table, clock = next(states)
            except StopIteration:
                break
    assert SHOWN_PIECES[game] <= seen, f"{game}: never drawn: {SHOWN_PIECES[game] - seen}"
    if game in ("coup", "g54"):  # a character turned up (and G54's cards)
        assert seen - {"coin"}, f"{game}: no character drawn"
