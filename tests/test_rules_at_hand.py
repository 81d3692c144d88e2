"""The rules at hand where people read them: the kiosk's "?" opens what is
happening now and the game's quick reference, and follows the table while
open; a first game's guide says each new kind of step once, low on the
screen, and holds up neither the timer nor the ballot; the public table and
a seat's page show the same words (each game's ``explain`` and
``quick_reference``, from the public view alone)."""

from __future__ import annotations

import pytest

from companion.games.base import Fate, Setup
from companion.i18n import LANGUAGES, Messages
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from a27_helpers import FakeClock  # noqa: E402
from browser import NO_PLAYWRIGHT, serve_in_thread, shot, take_seat  # noqa: E402
from kiosk_helpers import assert_readable_layout, walk, window_shot  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.utils import escape_markup  # noqa: E402
from sh_helpers import nominate, sh_table, vote_all  # noqa: E402
from ui_helpers import SHOTS, frames, show, tap  # noqa: E402

from companion.web.server import TableServer  # noqa: E402

SIZE = (800, 480)


def coup(store, **table) -> Table:
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], options={"first": 0}, table=dict(table))
    return Table.start(store, setup, fate=Fate(seed=3))


def help_panels(window) -> list:
    """The rules at hand or the guide, where open over the screen."""
    from companion.ui.panels.help_panel import HelpPanel

    return [w for w in window.children if isinstance(w, HelpPanel)]


def panel_words(panel) -> str:
    return panel.ids.words.text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_question_mark_opens_the_rules_at_hand_and_they_follow_the_table(window, store, lang):
    from companion.games.claims.screen import ClaimTableScreen

    table = coup(store)
    screen = show(window, ClaimTableScreen(table, lang=lang), SIZE)
    tap(screen.ids.bar.ids.help)
    (panel,) = help_panels(window)
    t, words = screen.t, table.spec.words
    assert panel.now == words.explain(table.public_view(), t)
    assert panel.reference == words.quick_reference(table.public_view(), t)
    for line in panel.now + [heading for heading, _ in panel.reference]:
        assert escape_markup(line) in panel_words(panel)
    content = panel.children[0]
    buttons = [w for w in walk(content) if isinstance(w, Button)]
    assert_readable_layout(content, window, buttons, scrolled=content.children[1])
    SHOTS.mkdir(parents=True, exist_ok=True)
    content.export_to_png(str(SHOTS / f"rules-at-hand-coup-{lang}-800x480.png"))
    table.execute({"type": "tax", "seat": 0})  # Ann claims the Duke: the panel follows
    frames(2)
    assert panel.now == words.explain(table.public_view(), t)
    assert t.names[0] in panel.now[0]
    tap(buttons[-1])
    assert help_panels(window) == []


def test_a_first_game_says_each_new_step_once_and_waits_for_a_tap(window, store):
    from companion.games.claims.screen import ClaimTableScreen

    table = coup(store, guide=True)
    screen = show(window, ClaimTableScreen(table, lang="en"), SIZE)
    frames(2)
    (guide,) = help_panels(window)
    assert guide.docked and guide.title == "First game: a new step"
    assert guide.now == table.spec.words.explain(table.public_view(), screen.t)
    got_it = [w for w in walk(guide) if isinstance(w, Button)][-1]
    assert got_it.text == "Got it"
    tap(got_it)
    assert help_panels(window) == []
    table.execute({"type": "tax", "seat": 0})  # a claim: a new kind of step
    frames(2)
    (guide,) = help_panels(window)
    assert "Duke" in " ".join(guide.now)
    tap([w for w in walk(guide) if isinstance(w, Button)][-1])
    table.execute({"type": "pass", "seat": 1})
    table.execute({"type": "pass", "seat": 2})  # Bob's turn: an action, as before
    frames(2)
    assert table.public_view()["phase"] == "action"
    assert help_panels(window) == [], "a kind of step the table has seen is not said again"


def test_the_guide_holds_up_neither_the_timer_nor_the_ballot(window, store, tmp_path):
    from companion.games.article27.screen import Article27TableScreen
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    clock = FakeClock()
    setup = Setup(
        game="article27",
        seats=list("ABCD"),
        mode="keeper",
        options={"first": 0},
        table={"guide": True},
    )
    store = EventStore(tmp_path / "a27.sqlite3")
    table = Table.start(store, setup, fate=Fate(seed=1), clock=clock)
    screen = show(window, Article27TableScreen(table, lang="en"), (1280, 720))
    for panel in help_panels(window):
        panel.dismiss(animation=False)  # gone now, not after its fade
    table.execute(table.gavel_command())  # negotiation: a new step, and its clock runs
    frames(2)
    (guide,) = help_panels(window)
    before = table.timer()["remaining"]
    clock.advance(10)
    screen.tick()
    frames(1)
    assert table.timer()["remaining"] == before - 10, "the timer runs on under the guide"
    clock_label = next(w for w in walk(screen) if getattr(w, "text", None) == screen.countdown_text)
    window_shot(window, "guide-article27-negotiation-1280x720")
    middle = clock_label.to_window(*clock_label.center)[1]
    low, high = middle - clock_label.texture_size[1] / 2, middle + clock_label.texture_size[1] / 2
    assert low >= guide.top or high <= guide.y, "the clock stays in sight"
    assert guide.compact, "while the clock runs: a strip under the bar"
    tile = next(w for w in walk(screen.ids.table) if getattr(w, "name", "") == "Peacekeeping")
    tap(tile)  # the screen beside the guide takes its taps: an issue to the floor
    assert table.public_view()["floor"] == ["peacekeeping"]
    assert help_panels(window) == [guide], "and the guide waits for its own tap"
    guide.dismiss(animation=False)

    sh = sh_table(EventStore(tmp_path / "sh.sqlite3"), 5, table={"guide": True})
    screen = show(window, SecretHitlerTableScreen(sh, lang="en"), (1280, 720))
    for panel in help_panels(window):
        panel.dismiss(animation=False)
    nominate(sh, 2)  # an election: the guide says it, and the votes come in beneath it
    frames(2)
    assert len(help_panels(window)) == 1
    vote_all(sh, "ja")
    frames(2)
    assert sh.ballot() is None and sh.public_view()["last_election"]["elected"]


def test_the_home_screen_s_switch_starts_a_first_game(window, tmp_path):
    from companion.ui.kiosk import Kiosk

    kiosk = show(window, Kiosk(EventStore(tmp_path / "g.sqlite3"), None, lang="en"), (1280, 720))
    home = kiosk.home

    def button(box, text):
        (found,) = [b for b in box.children if b.text == text]
        return found

    tap(button(home.ids.games, "Coup"))
    tap(button(home.ids.modes, "First game: off"))
    assert button(home.ids.modes, "First game: on").chosen  # lit, and says so
    tap(home.ids.start)
    assert kiosk.table.setup.table["guide"] is True
    frames(2)
    assert [p.title for p in help_panels(window)] == ["First game: a new step"]


expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect
LOCALES = {"en": "en-GB", "el": "el-GR", "ru": "ru-RU", "fa": "fa-IR"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_page_and_a_seat_s_page_read_the_rules_at_hand(phones, store, lang):
    table = sh_table(store, 7, mode="keeper")
    nominate(table, 3)
    server, t = TableServer(table), Messages(lang, table.names)
    words, view = table.spec.words, table.public_view()
    with serve_in_thread(server.app()) as base:
        on_table, on_seat = phones(LOCALES[lang]), phones(LOCALES[lang])
        on_table.goto(f"{base}/table")
        token = base.on_loop(lambda: server.links.token(table.game_id, 1))
        take_seat(on_seat, f"{base}/join/{token}")
        for name, page in (("table", on_table), ("seat", on_seat)):
            expect(page.locator("#explain-title")).to_have_text(t("help.now"))
            expect(page.locator("#explain li")).to_have_text(words.explain(view, t))
            rules = words.quick_reference(view, t)
            page.locator("#rules-title").click()  # the quick reference, unfolded
            expect(page.locator("#rules dt")).to_have_text([heading for heading, _ in rules])
            expect(page.locator("#rules dd")).to_have_text([text for _, text in rules])
            shot(page, f"rules-at-hand-{name}-{lang}")
