"""The kiosk's home screen and its screens, in a real Kivy window (headless
with Mesa) over a real SQLite store: choose a game, its players and
variants, start it, go home and resume the same table, see past games."""

from __future__ import annotations

import pytest

from companion.games.base import Setup
from companion.i18n import Messages
from companion.table import EventStore, Table
from companion.table.new_game import NewGame

pytest.importorskip("kivy.base")
from kiosk_helpers import type_by_taps  # noqa: E402
from ui_helpers import (
    PORTRAIT,
    SHOTS,
    SIZES,
    fits_in_window,
    frames,  # noqa: E402
    screenshot,
    show,
    tap,
)


def kiosk_on(store, table=None, settings=None):
    """The kiosk on ``store`` (its settings beside it, unless given)."""
    from companion.ui.kiosk import Kiosk

    return Kiosk(store, table, lang="en", settings=settings)


def choice(box, text):
    found = [b for b in box.children if b.text == text]
    assert found, f"no {text!r} among {[b.text for b in box.children]}"
    return found[0]


def seat_rows(home):
    return sorted(home.ids.seats.children, key=lambda row: row.seat)


def test_the_choices_follow_the_game_s_limits_and_variants():
    choice_ = NewGame()
    choice_.choose_game("secret_hitler")
    assert len(choice_.names) == 5 and choice_.variants() == []
    choice_.set_players(12)
    assert len(choice_.names) == 10
    choice_.choose_game("coup")
    assert len(choice_.names) == 6
    assert choice_.variants() == [("direction", "counterclockwise"), ("response_seconds", None)]
    assert choice_.next_value("direction") == "clockwise"
    assert choice_.next_value("response_seconds") == 10
    assert choice_.next_input(2) == "buttons"
    choice_.names[:3] = ["Ann", "Bob", "Cat"]
    choice_.move_up(2)
    choice_.move_up(0)  # the first seat has none before it
    assert choice_.names[:3] == ["Ann", "Cat", "Bob"]
    assert choice_.inputs[:3] == ["kiosk", "buttons", "kiosk"]
    choice_.names[:3] = ["", "", ""]
    setup = choice_.setup(lambda number: Messages("en")("home.default_name", number=number))
    assert [s["name"] for s in setup.seats][:3] == ["Player 1", "Player 2", "Player 3"]
    persian = choice_.setup(lambda number: Messages("fa")("home.default_name", number=number))
    assert [s["name"] for s in persian.seats][:3] == ["بازیکن ۱", "بازیکن ۲", "بازیکن ۳"]
    assert setup.seats[1]["input"] == "buttons"
    assert setup.options == {"direction": "clockwise", "response_seconds": 10}
    again = NewGame.like(setup)
    assert again.game == "coup" and again.options == setup.options
    assert again.names == [s["name"] for s in setup.seats]
    # A game set up on the command line, with values home does not offer:
    # home starts those choices from the default, and a tap steps on.
    elsewhere = Setup(
        game="g54",
        seats=[{"name": "Ann"}, {"name": "Bob"}],
        options={"response_seconds": 15.0, "set": ["banker", "director"], "advanced": True},
    )
    like = NewGame.like(elsewhere)
    assert like.options == {"advanced": True}
    assert like.variants() == [("set", "random"), ("advanced", True), ("response_seconds", None)]
    like.options["response_seconds"] = 12.5
    assert like.next_value("response_seconds") is None


@pytest.mark.parametrize("size", [*SIZES, PORTRAIT], ids=lambda s: f"{s[0]}x{s[1]}")
def test_home_renders_with_large_targets_at_every_size(window, tmp_path, size):
    from companion.ui.widgets.buttons import ChoiceButton

    kiosk = show(window, kiosk_on(EventStore(tmp_path / "g.sqlite3")), size)
    home = kiosk.home
    assert kiosk.current == "home"
    assert home.resume_text == ""
    buttons = [w for w in home.walk() if isinstance(w, ChoiceButton)]
    # games, modes and the first-game switch, the kiosk's languages, A27's variants
    assert len(buttons) == 4 + 3 + 4 + 3
    assert all(b.height >= 48 for b in buttons)
    for widget in (home.ids.start, home.ids.history, home.ids.settings):
        assert fits_in_window(widget, window)
    for row in seat_rows(home):
        assert row.ids.source.height >= 48 and row.ids.name.height >= 48
    screenshot(window, f"home-{size[0]}x{size[1]}")


@pytest.mark.slow
def test_touch_chooses_and_starts_a_game_then_home_resumes_the_same_table(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen

    store = EventStore(tmp_path / "g.sqlite3")
    kiosk = show(window, kiosk_on(store), (1280, 720))
    home = kiosk.home
    tap(choice(home.ids.games, "Coup"))
    assert home.players_text == "Players: 3 (this game: 2–6)"
    tap(home.ids.more)
    assert len(seat_rows(home)) == 4
    tap(home.ids.fewer)
    tap(home.ids.fewer)
    rows = seat_rows(home)
    assert len(rows) == 2
    type_by_taps(rows[0].ids.name, "Stelios with a far too long name here")
    type_by_taps(rows[1].ids.name, "Natassa")
    tap(rows[0].ids.source)
    tap(seat_rows(home)[1].ids.up)  # Natassa sits first
    assert seat_rows(home)[1].input_text == "Buttons"
    assert seat_rows(home)[0].ids.up.disabled
    tap(choice(home.ids.variants, "Turns: counterclockwise"))
    tap(choice(home.ids.modes, "App keeps the cards"))
    screenshot(window, "home-coup-chosen-1280x720")
    tap(home.ids.start)
    assert kiosk.current == "table"
    screen = kiosk.table_screen
    assert isinstance(screen, ClaimTableScreen)
    table = kiosk.table
    assert table.names == ["Natassa", "Stelios with a far too l"]
    assert table.setup.mode == "keeper" and table.setup.options["direction"] == "clockwise"
    assert table.setup.seats[1]["input"] == "buttons"
    assert store.active_game().id == table.game_id

    tap(screen.ids.bar.ids.home)
    assert kiosk.current == "home"
    assert home.resume_text == "Resume Coup: Natassa, Stelios with a far too l"
    tap(home.ids.resume)
    assert kiosk.current == "table" and kiosk.table is table, "one Table per game"


def test_a_refused_setup_is_said_and_starts_nothing(window, tmp_path):
    store = EventStore(tmp_path / "g.sqlite3")
    kiosk = show(window, kiosk_on(store), (800, 480))
    home = kiosk.home
    tap(choice(home.ids.games, "Coup"))
    rows = seat_rows(home)
    type_by_taps(rows[0].ids.name, "Ann")
    type_by_taps(rows[1].ids.name, "ann")
    tap(home.ids.start)
    assert home.message_text == "Two players are called “ann”."
    assert kiosk.current == "home" and store.active_game() is None


def test_past_games_are_listed_and_a_restart_shows_the_same_table(window, tmp_path):
    path = tmp_path / "g.sqlite3"
    store = EventStore(path)
    first = Table.start(store, Setup(game="coup", seats=["Ann", "Bob"], options={"first": 0}))
    first.execute({"type": "income", "seat": 0})
    kiosk = show(window, kiosk_on(store, Table.resume(store)), (800, 480))
    assert kiosk.current == "table" and kiosk.table.game_id == first.game_id
    kiosk.go_home()
    frames(2)
    home = kiosk.home
    assert home.choice.game == "coup" and home.choice.names == ["Ann", "Bob"]
    tap(home.ids.start)  # a new game would end the first: the operator's PIN
    [pad] = [w for w in window.children if w.__class__.__name__ == "PinPad"]
    assert kiosk.table.game_id == first.game_id, "nothing ended before the PIN"
    for digit in "0000":
        pad.digit(digit)
    tap(pad.ids.ok)
    second = kiosk.table
    assert second.game_id != first.game_id
    kiosk.go_home()
    frames(2)
    view = home.open_history()
    frames(3)
    assert len(view.lines) == 1
    assert view.lines[0].endswith("· Coup · Ann, Bob · not finished")
    view.dismiss(animation=False)
    store.close()

    store = EventStore(path)  # the kiosk restarts
    again = show(window, kiosk_on(store, Table.resume(store)), (800, 480))
    assert again.current == "table" and again.table.game_id == second.game_id
    assert again.table_screen.status_text == kiosk.table_screen.status_text
    from companion.table import StoreError

    left_behind = Table.resume(store, first.game_id)  # the first game stays ended
    with pytest.raises(StoreError):
        left_behind.execute({"type": "income", "seat": 1})
    assert store.game(first.game_id).status == "abandoned"
    bar = again.table_screen.ids.bar
    for name in ("home", "log", "undo"):
        assert fits_in_window(bar.ids[name], window) and bar.ids[name].height >= 48
    screenshot(window, "kiosk-coup-table-800x480")


def test_on_screen_seat_buttons_vote_through_the_simulated_header(window, tmp_path):
    """No GPIO here: the kiosk's seat buttons drive the real pin map's mock
    pins, and each press travels the hardware's road (debounce, Press, the
    table's controls) to a vote; the table screen shows who has voted, then
    turns every vote at once."""
    import asyncio
    import time

    from gpiozero.pins.mock import MockFactory
    from sh_helpers import nominate, sh_table

    from companion.devices.controls import Controls
    from companion.devices.gpio import GpioTable
    from companion.devices.pinmap import load_pinmap
    from companion.ui.system.kiosk_settings import KioskSettings
    from companion.ui.widgets.seat_buttons import PinButton, SeatButtons

    store = EventStore(tmp_path / "g.sqlite3")
    table = sh_table(store, 5)
    loop = asyncio.new_event_loop()
    factory = MockFactory()
    pinmap = load_pinmap()
    refusals = []
    controls = Controls(table, loop=loop, on_refusal=lambda seat, e: refusals.append(e.key))
    header = GpioTable(pinmap, controls.handle, factory=factory)
    try:
        kiosk = show(
            window, kiosk_on(store, table, KioskSettings(tmp_path / "kiosk.ini")), (800, 480)
        )
        panel = SeatButtons(pinmap, factory, table, "en")
        panel.open(animation=False)
        frames(3)
        seats = [
            [w for w in row.children[::-1] if isinstance(w, PinButton)]
            for row in panel.ids.rows.children[::-1]
        ]
        assert len(seats) == 5, "one row per seat at the table (the map has six)"
        assert all(fits_in_window(b, window) for row in seats for b in row)
        assert [b.text for b in seats[0]] == ["Not now"] * 3
        assert all(b.disabled for row in seats for b in row), "nothing to press before the vote"
        nominate(table, 2)
        assert [b.text for b in seats[0]] == ["Ja!", "Nein", "Not now"]
        assert [b.disabled for b in seats[0]] == [False, False, True]
        assert all(b.height >= 48 for row in seats for b in row)
        frames(2)
        panel.children[0].export_to_png(str(SHOTS / "seat-buttons-800x480.png"))
        ballot = kiosk.table_screen.ids.ballot
        for seat, row in enumerate(seats):
            tap(row[0 if seat != 3 else 1])
            if seat < 4:
                assert ballot.chips[seat].text == f"{table.names[seat]}\nvoted"
        assert refusals == []
        deadline = time.monotonic() + 5
        while ballot.revealing and time.monotonic() < deadline:
            frames(1)
        assert [c.text.split("\n")[1] for c in ballot.chips] == ["Ja!"] * 3 + ["Nein", "Ja!"]
        assert ballot.result_text == "The government is elected."
        assert table.public_view()["last_votes"] == ["ja", "ja", "ja", "nein", "ja"]
        assert [b.text for b in seats[0]] == ["Not now"] * 3
        panel.dismiss(animation=False)
        frames(2)
        listening = [getattr(listener, "__self__", None) for listener in table._listeners]
        assert panel not in listening and panel.session not in listening
    finally:
        header.close()
        loop.close()


@pytest.mark.parametrize(
    "game, title, screen",
    [
        ("Article 27", "article27", "Article27TableScreen"),
        ("Secret Hitler", "secret_hitler", "SecretHitlerTableScreen"),
        ("Coup", "coup", "ClaimTableScreen"),
        ("Coup: Rebellion G54", "g54", "ClaimTableScreen"),
    ],
)
def test_each_game_starts_from_home_by_touch(window, tmp_path, game, title, screen):
    store = EventStore(tmp_path / "g.sqlite3")
    kiosk = show(window, kiosk_on(store), (800, 480))
    tap(choice(kiosk.home.ids.games, game))
    tap(kiosk.home.ids.start)
    assert kiosk.home.message_text == ""
    assert kiosk.current == "table" and kiosk.table.setup.game == title
    assert type(kiosk.table_screen).__name__ == screen
    assert kiosk.table.names[0] == "Player 1"


# -- a damaged store (issue 18, item 11) ------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", [*SIZES, PORTRAIT], ids=lambda s: f"{s[0]}x{s[1]}")
def test_home_tells_of_a_damaged_store_readably(window, tmp_path, size, lang):
    """The longest telling: the file moved aside, the games that read copied
    into a new store, those that did not named. The unfinished game plays on;
    home says what happened whenever it is shown, until a game starts."""
    from damage_helpers import leaf_pages, many_games, zero_pages
    from kiosk_helpers import assert_readable_layout

    from companion.table.damage import open_store, resume_active
    from companion.ui.kiosk import Kiosk

    path = tmp_path / "companion.sqlite3"
    many_games(path, 40)
    pages = leaf_pages(path, "events")
    zero_pages(path, pages[len(pages) // 2])
    store, damage = open_store(path)
    table, _ = resume_active(store)
    kiosk = show(window, Kiosk(store, table, lang=lang, damage=damage), size)
    assert kiosk.current == "table"
    kiosk.go_home()
    frames(2)
    home = kiosk.home
    lines = home.notice_text.splitlines()
    assert len(lines) == 2 and damage.moved_to.name in lines[0]
    if lang == "en":
        assert lines[0].startswith("The game store was damaged: it is kept for support as ")
        assert lines[0].endswith(
            f"and the {damage.copied} games that could still be read were copied into a new one."
        )
        numbers = ", ".join(str(n) for n in damage.set_aside)
        assert lines[1] == (
            f"Games {numbers} could not be read and were set aside; they are kept for support."
        )
    screenshot(window, f"home-damaged-store-{lang}-{size[0]}x{size[1]}")
    assert_readable_layout(
        home,
        window,
        [home.ids.start, home.ids.history, home.ids.settings, home.ids.resume],
        scrolled=home.ids.scroll,
    )
    home.ids.notice.texture_update()
    assert home.ids.notice.height >= home.ids.notice.texture_size[1]
    store.close()


def test_resuming_a_game_whose_rows_cannot_be_read_sets_it_aside_and_home_says_so(window, tmp_path):
    """A kiosk on a store the command line did not check (``--new`` without
    a game leaves the unfinished one to home): Resume finds the damage."""
    from damage_helpers import BAD_EVENTS, BAD_SETUPS, UNFINISHED, three_games, write

    path = tmp_path / "companion.sqlite3"
    three_games(path)
    write(path, "UPDATE events SET body=? WHERE game_id=3 AND seq=4", BAD_EVENTS["not JSON"])
    store = EventStore(path)
    kiosk = show(window, kiosk_on(store), (800, 480))
    home = kiosk.home
    assert home.resume_text == "Resume Coup: Fay, Gus, Hal" and home.notice_text == ""
    tap(home.ids.resume)
    assert kiosk.current == "home" and kiosk.table is None
    assert home.notice_text == "Game 3 could not be read and was set aside; it is kept for support."
    assert home.resume_text == "" and store.game(UNFINISHED).status == "damaged"
    view = home.open_history()
    frames(3)
    assert view.lines[0].endswith("· Coup · Fay, Gus, Hal · could not be read; kept for support")
    assert [line.split(" · ")[2] for line in view.lines[1:]] == ["Cy, Dee, Eve", "Ann, Ben"]
    view.dismiss(animation=False)
    tap(home.ids.start)  # nothing unfinished now: no PIN asked
    assert kiosk.current == "table"
    kiosk.go_home()
    assert home.notice_text == "", "told until a game starts"
    store.close()

    write(path, "UPDATE games SET setup=? WHERE id=4", BAD_SETUPS["not JSON"])
    store = EventStore(path)
    kiosk = show(window, kiosk_on(store), (800, 480))
    home = kiosk.home
    assert home.resume_text == "Resume game 4"
    assert home.choice.names == ["Fay", "Gus", "Hal"], "the latest game that reads"
    tap(home.ids.resume)
    assert home.notice_text.startswith("Game 4 could not be read")
    view = home.open_history()
    frames(3)
    assert view.lines[0].endswith("· game 4 · could not be read; kept for support")
    view.dismiss(animation=False)
    store.close()


def test_a_language_switch_rebuilds_the_screen_in_sight_and_the_other_when_shown(window, tmp_path):
    """A switch costs one screen: the one in sight is built again at once,
    the other in the new language when it is next shown (never stale)."""
    from companion.games.base import Fate
    from companion.ui.system.kiosk_settings import KioskSettings

    store = EventStore(tmp_path / "g.sqlite3")
    setup = Setup(game="coup", seats=["Anna", "Boris", "Chloé"], options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=1))
    kiosk = show(window, kiosk_on(store, table, KioskSettings(tmp_path / "k.ini")), (800, 480))
    kiosk.go_home()
    frames(2)
    home_before = kiosk.home
    kiosk.current = "table"  # back at the table (as resume would)
    kiosk.set_language("el")
    frames(2)
    assert kiosk.table_screen.lang == "el"
    assert kiosk.table_screen.title_text == Messages("el")("game.coup")
    kiosk.go_home()
    frames(2)
    assert kiosk.home is home_before and kiosk.home.title_text == Messages("el")("app.title")
    kiosk.set_language("ru")  # on home: the table screen waits
    assert kiosk.table_screen.lang == "el"
    kiosk.resume()
    frames(2)
    assert kiosk.current == "table" and kiosk.table_screen.lang == "ru"
    assert kiosk.table_screen.title_text == Messages("ru")("game.coup")
