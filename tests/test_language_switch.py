"""A language switch at the kiosk puts the table screen in that language in
sight: the one kept since it was last shown, or built ahead while nothing
happened (Kiosk.prepare_language), showing the table as it is now; only a
language never built is built at the switch. A kept screen must read, lay
out and draw exactly as one built fresh: in a real Kivy window (headless
with Mesa) over a real SQLite store."""

from __future__ import annotations

import hashlib
import time

import pytest

from companion.games.base import Fate, Setup
from companion.i18n import Messages
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from kiosk_helpers import walk, window_shot  # noqa: E402
from ui_helpers import frames, show, wait_for  # noqa: E402

SEATS = ["Anna", "Boris", "Chloé", "Dmitri", "Elena"]


def kiosk_at(window, tmp_path, size=(800, 480), build_ahead=False):
    """A kiosk showing a 5-seat Secret Hitler table in English."""
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import KioskSettings

    store = EventStore(tmp_path / "g.sqlite3")
    setup = Setup(game="secret_hitler", seats=SEATS, mode="keeper", options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=3))
    settings = KioskSettings(tmp_path / "k.ini")
    kiosk = Kiosk(store, table, lang="en", settings=settings, build_ahead=build_ahead)
    return show(window, kiosk, size)


def move_on(table, steps: int = 3) -> None:
    """The table commits a few commands (the first legal one each time)."""
    for _ in range(steps):
        table.execute(dict(next(c for c in table.legal_commands() if c["type"] != "undo")))


def labels(screen) -> list[tuple[str, tuple[int, int, int, int], tuple[int, int]]]:
    """Every label's text, box and drawn size (hidden ones too), in order,
    as last drawn (none drawn again here)."""
    from kivy.uix.label import Label

    found = []
    for widget in walk(screen):
        if isinstance(widget, Label):
            box = (*widget.to_window(*widget.pos), *widget.size)
            found.append((widget.text, tuple(round(v) for v in box), tuple(widget.texture_size)))
    return found


def drawn(screen) -> list[tuple[str, str]]:
    """Every shown label's text and a digest of its drawn pixels, in order
    (a difference names the label, not a screenful of bytes)."""
    from kivy.uix.label import Label

    return [
        (w.text, hashlib.sha256(w.texture.pixels).hexdigest())
        for w in walk(screen)
        if isinstance(w, Label) and w.text and w.texture is not None
    ]


def fresh(kiosk, lang: str):
    """The table screen in ``lang`` built at the switch, as a kiosk that
    kept none would (the kept one is forgotten first)."""
    kiosk.kept.pop(lang, None)
    kiosk.set_language(lang)
    frames(4)
    return kiosk.table_screen


def test_a_screen_shown_before_is_kept_and_shows_what_the_table_did_meanwhile(window, tmp_path):
    kiosk = kiosk_at(window, tmp_path)
    english = kiosk.table_screen
    kiosk.set_language("ru")
    frames(3)
    russian = kiosk.table_screen
    kiosk.set_language("en")
    frames(3)
    assert kiosk.table_screen is english  # kept, not built again
    move_on(kiosk.table)  # while the Russian screen is out of sight
    frames(3)
    kiosk.set_language("ru")
    frames(4)
    assert kiosk.table_screen is russian
    assert russian.lang == "ru" and russian.title_text == Messages("ru")("game.secret_hitler")
    kept = labels(russian)
    assert kept == labels(fresh(kiosk, "ru"))  # the table as it is now, word for word


def test_a_screen_built_ahead_reads_and_draws_as_one_built_at_the_switch(window, tmp_path):
    """Persian built ahead while English is in sight: its own writing
    direction (mirrored), its texts drawn as a fresh Persian screen's."""
    kiosk = kiosk_at(window, tmp_path)
    english = labels(kiosk.table_screen)
    ahead = kiosk.prepare_language("fa")
    frames(3)
    assert labels(kiosk.table_screen) == english  # the screen in sight is as it was
    move_on(kiosk.table)
    frames(3)
    kiosk.set_language("fa")
    frames(4)
    assert kiosk.table_screen is ahead
    kept, kept_pixels = labels(ahead), drawn(ahead)
    built = fresh(kiosk, "fa")
    assert built is not ahead
    assert kept == labels(built)
    assert kept_pixels == drawn(built)
    title = built.ids.bar.ids.title
    assert title.right > built.width / 2  # mirrored: the name on the right


def test_screens_out_of_sight_keep_their_own_direction_through_a_turn(window, tmp_path):
    """English and Persian each kept while the other is in sight: each reads
    and draws as one built fresh when back, though the table moved on, even
    in the frame of the switch."""
    kiosk = kiosk_at(window, tmp_path)
    english = kiosk.table_screen
    persian = kiosk.prepare_language("fa")
    frames(3)
    move_on(kiosk.table)  # in the frame of the switch: drawn before the turn
    kiosk.set_language("fa")
    frames(4)
    move_on(kiosk.table)
    kiosk.set_language("en")
    frames(4)
    assert_in_sight_as_built(kiosk, english, "en")
    move_on(kiosk.table, 2)
    kiosk.set_language("fa")
    frames(4)
    assert_in_sight_as_built(kiosk, persian, "fa")


def test_a_text_laid_out_out_of_sight_is_drawn_again_in_its_own_direction(window, tmp_path):
    """A kept Persian screen changes a text while English is in sight (laid
    out left to right then): back in sight, it draws as one built fresh."""
    kiosk = kiosk_at(window, tmp_path)
    persian = kiosk.prepare_language("fa")
    kiosk.set_language("fa")
    frames(4)
    persian.caption_text = "؟"
    frames(2)
    kiosk.set_language("en")
    frames(2)
    persian.caption_text = ""  # the bar's line again, laid out left to right
    frames(3)
    kiosk.set_language("fa")
    frames(4)
    assert_in_sight_as_built(kiosk, persian, "fa")


def test_a_caption_ends_when_its_screen_is_back_in_sight(window, tmp_path, monkeypatch):
    """A sound's caption on a screen put out of sight does not run out
    there (nothing out of sight changes): it is gone when the screen is
    back, which then draws as one built fresh."""
    from companion.ui.screens import table_screen

    monkeypatch.setattr(table_screen, "CAPTION_SECONDS", 0.05)
    kiosk = kiosk_at(window, tmp_path)
    persian = kiosk.prepare_language("fa")
    kiosk.set_language("fa")
    frames(2)
    persian.sound("gavel")
    kiosk.set_language("en")
    time.sleep(0.2)
    frames(3)
    assert persian.caption_text == Messages("fa")("sound.gavel")
    kiosk.set_language("fa")
    frames(4)
    assert persian.caption_text == ""
    assert_in_sight_as_built(kiosk, persian, "fa")


def assert_in_sight_as_built(kiosk, kept, lang: str) -> None:
    """``kept`` is the table screen in sight, and reads and draws as one
    built now in ``lang``."""
    assert kiosk.table_screen is kept
    texts, pixels = labels(kept), drawn(kept)
    built = fresh(kiosk, lang)
    assert texts == labels(built)
    assert pixels == drawn(built)


def test_the_screens_are_built_ahead_while_nothing_happens(window, tmp_path, monkeypatch):
    from companion.ui import kiosk as kiosk_module
    from companion.ui.text.fonts import kiosk_languages

    monkeypatch.setattr(kiosk_module, "AHEAD_SECONDS", 0.2)
    kiosk = kiosk_at(window, tmp_path, build_ahead=True)
    assert wait_for(lambda: set(kiosk.kept) == set(kiosk_languages()), 10)
    shown = kiosk.table_screen
    assert shown.lang == "en" and kiosk.current == "table"
    # The hidden screens follow nothing: a commit costs the screen in sight alone.
    assert [s for s in kiosk.kept.values() if s.updated in kiosk.session._listeners] == [shown]


def test_a_new_game_elsewhere_lets_the_kept_screens_go(window, tmp_path):
    kiosk = kiosk_at(window, tmp_path)
    kiosk.prepare_language("el")
    setup = Setup(game="coup", seats=SEATS[:3], options={"first": 0})
    kiosk.session.start(setup, fate=Fate(seed=1))
    frames(3)
    assert set(kiosk.kept) == {"en"} and kiosk.kept["en"] is kiosk.table_screen
    kiosk.set_language("el")
    frames(3)
    assert kiosk.table_screen.title_text == Messages("el")("game.coup")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_switch_shots(window, tmp_path, size):
    """English to Persian and back through kept screens, for a person to
    look at."""
    kiosk = kiosk_at(window, tmp_path, size)
    kiosk.prepare_language("fa")
    move_on(kiosk.table)
    kiosk.set_language("fa")
    frames(4)
    window_shot(window, f"language-switch-en-fa-{size[0]}x{size[1]}")
    move_on(kiosk.table, 2)
    kiosk.set_language("en")
    frames(4)
    window_shot(window, f"language-switch-fa-en-{size[0]}x{size[1]}")


def a27_kiosk(window, tmp_path, settings=None, build_ahead=False):
    """A kiosk in English showing an Article 27 table with a 2-minute timer,
    every agenda revealed (the gavel starts the debate next)."""
    from a27_helpers import DI, HU, NU, PK, SM, FakeClock
    from a27_kiosk_helpers import kiosk_table

    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import KioskSettings

    clock = FakeClock()
    table = kiosk_table(tmp_path / "g.sqlite3", clock=clock, timer_seconds=120)
    agendas = ("peace", "wealth", "power", "justice", "prestige")
    for issue, agenda in zip((PK, SM, DI, HU, NU), agendas):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    settings = settings or KioskSettings(tmp_path / "k.ini")
    kiosk = Kiosk(
        table.store,
        table,
        lang="en",
        settings=settings,
        sounds_dir=tmp_path / "s",
        build_ahead=build_ahead,
    )
    return show(window, kiosk, (800, 480)), clock


@pytest.mark.parametrize("ahead", [True, False])
def test_a_kept_screen_put_back_sounds_nothing_already_heard(window, tmp_path, ahead):
    """The warning played in English is not played again by the Greek
    screen, built ahead before the timer ran (or shown before it ran), nor
    said on its bar: a screen put back takes what happened as heard."""
    kiosk, clock = a27_kiosk(window, tmp_path)
    if ahead:
        kiosk.prepare_language("el")
    else:
        kiosk.set_language("el")
        frames(2)
        kiosk.set_language("en")
    frames(3)
    assert kiosk.table_screen.strike_gavel()
    clock.advance(95)  # 25 s left: the warning
    kiosk.table_screen.tick()
    assert kiosk.sounds.played == ["gavel", "warning"]
    kiosk.set_language("el")
    frames(2)
    kiosk.table_screen.tick()
    assert kiosk.sounds.played == ["gavel", "warning"]
    assert kiosk.table_screen.caption_text == ""
    clock.advance(30)  # the time runs out in Greek: heard as ever
    kiosk.table_screen.tick()
    frames(1)
    assert kiosk.sounds.played[2:] == ["expiry"]


def take_income(table) -> None:
    """The player whose turn it is takes income."""
    table.execute({"type": "income", "seat": table.public_view()["current"]})


def test_a_kept_claims_screen_does_not_call_a_turn_already_called(window, tmp_path):
    """Coup with turns announced: the turn that came while the Greek screen
    was kept out of sight is not called again when it is put back."""
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import KioskSettings

    store = EventStore(tmp_path / "g.sqlite3")
    setup = Setup(game="coup", seats=SEATS[:3], options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=1))
    settings = KioskSettings(tmp_path / "k.ini")
    settings.narration, settings.announce_turns = True, True
    kiosk = show(window, Kiosk(store, table, lang="en", settings=settings), (800, 480))
    kiosk.prepare_language("el")
    frames(3)
    take_income(table)  # the next turn, called in English
    frames(1)
    assert kiosk.table_screen.caption_text == Messages("en", SEATS[:3])(
        "speech.claim.turn", player=table.public_view()["current"]
    )
    kiosk.set_language("el")
    frames(2)
    assert kiosk.table_screen.lang == "el" and kiosk.table_screen.caption_text == ""
    take_income(table)  # the next turn is called in Greek
    frames(1)
    assert kiosk.table_screen.caption_text == Messages("el", SEATS[:3])(
        "speech.claim.turn", player=table.public_view()["current"]
    )


def test_a_new_game_from_the_table_screen_lets_the_kept_screens_go(window, tmp_path):
    """The table screen's own "New game": the screens kept for the last
    game go (the last game's Table with them), the one in sight stays."""
    import gc
    import weakref

    from companion.ui.system.collector import SETTLE_FRAMES

    kiosk = kiosk_at(window, tmp_path)
    ahead = kiosk.prepare_language("el")
    frames(3)
    old = ahead.table
    assert old is kiosk.table
    gone = weakref.ref(ahead)  # frozen as it was built
    del ahead
    shown = kiosk.table_screen
    assert shown.new_game()
    assert kiosk.kept == {"en": shown} and kiosk.table is shown.table is not old
    assert gone().updated not in kiosk.session._listeners
    frames(SETTLE_FRAMES + 1)  # thawed and collected
    gc.collect()
    assert gone() is None
    kiosk.set_language("el")
    frames(3)
    assert kiosk.table_screen.table is kiosk.table


def full_collections(during) -> int:
    """How many full collections (generation 2) run while ``during()`` runs."""
    import gc

    seen = []

    def heard(phase, info):
        if phase == "stop" and info["generation"] == 2:
            seen.append(info)

    gc.callbacks.append(heard)
    try:
        during()
    finally:
        gc.callbacks.remove(heard)
    return len(seen)


def test_a_switch_to_a_kept_screen_runs_no_full_collection(window, tmp_path):
    """A full collection (47 M instructions on a 10-seat table) for each
    screen built, not for a kept one put back in sight; one built ahead is
    frozen as it is built, in the stall already taken."""
    from companion.ui.system.collector import SETTLE_FRAMES

    kiosk = kiosk_at(window, tmp_path)
    frames(SETTLE_FRAMES + 1)

    def ahead():
        kiosk.prepare_language("el")

    def switch(lang):
        def to():
            kiosk.set_language(lang)
            frames(SETTLE_FRAMES + 1)

        return to

    assert full_collections(ahead) == 1  # as it is built, no frame later
    assert full_collections(lambda: frames(SETTLE_FRAMES + 1)) == 0
    assert full_collections(switch("el")) == 0  # built ahead
    assert full_collections(switch("en")) == 0  # shown before
    assert full_collections(switch("ru")) == 1  # built at the switch


def touch_often(window, seconds: float) -> None:
    """A finger tapping the middle of the window every 0.1 s."""
    import time

    from kivy.tests.common import UnitTestTouch

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        touch = UnitTestTouch(window.width / 2, window.height / 2)
        touch.touch_down()
        frames(1)
        touch.touch_up()
        frames(1)
        time.sleep(0.1)


def ahead_soon(window, tmp_path, monkeypatch):
    """A kiosk that builds ahead after half a second of quiet."""
    from companion.ui import kiosk as kiosk_module

    monkeypatch.setattr(kiosk_module, "AHEAD_SECONDS", 0.5)
    return kiosk_at(window, tmp_path, build_ahead=True)


def test_touches_on_a_panel_put_the_build_ahead_off(window, tmp_path, monkeypatch):
    """The PIN pad open over the table: neither while it is open nor while
    a finger keeps tapping it is a screen built; once it is closed and the
    table quiet, they are."""
    import time

    from companion.ui.text.fonts import kiosk_languages

    kiosk = ahead_soon(window, tmp_path, monkeypatch)
    pad = kiosk.open_settings()
    before = list(kiosk.kept)  # (one may be built as the kiosk is first shown)
    assert len(before) < len(kiosk_languages())
    frames(2)
    touch_often(window, 2.0)
    end = time.monotonic() + 1.5  # open, untouched
    while time.monotonic() < end:
        frames(1)
    assert list(kiosk.kept) == before
    pad.dismiss(animation=False)
    frames(2)
    touch_often(window, 1.5)  # on the table screen itself
    assert list(kiosk.kept) == before
    assert wait_for(lambda: set(kiosk.kept) == set(kiosk_languages()), 15)


def test_nothing_is_built_ahead_while_a_sound_plays(window, tmp_path, monkeypatch):
    import time

    kiosk = ahead_soon(window, tmp_path, monkeypatch)
    kiosk.sounds.play_file("a spoken line", tmp_path / "line.wav", 2.0)  # 2 s long
    before = list(kiosk.kept)  # (one may be built as the kiosk is first shown)
    assert len(before) < 4
    end = time.monotonic() + 1.5
    while time.monotonic() < end:
        frames(1)
    assert list(kiosk.kept) == before
    assert wait_for(lambda: len(kiosk.kept) > len(before), 10)


def test_nothing_is_built_ahead_while_a_ballot_is_revealed(window, tmp_path, monkeypatch):
    """Article 27's vote turned face up (0.9 s): no build stalls it."""
    from a27_kiosk_helpers import tile

    from companion.table import seat_source
    from companion.ui import kiosk as kiosk_module
    from companion.ui.system.kiosk_settings import KioskSettings

    monkeypatch.setattr(kiosk_module, "AHEAD_SECONDS", 0.6)
    settings = KioskSettings(tmp_path / "k.ini")
    settings.volume = 0  # no sound to wait for: the reveal alone
    kiosk, _clock = a27_kiosk(window, tmp_path, settings, build_ahead=True)
    screen, table = kiosk.table_screen, kiosk.table
    screen.strike_gavel()
    screen.move_issue(tile(screen, "Diplomatic sanctions"))
    screen.strike_gavel()  # Vote!
    for seat in range(3):
        table.execute({"type": "vote", "seat": seat, "choice": "yes"}, source=seat_source(seat))
    frames(1)
    ballot, before = screen.ids.ballot, list(kiosk.kept)
    assert ballot.revealing and len(before) < 4  # some to build still
    while ballot.revealing:  # (a frame that ends it may build: the reveal is over)
        assert list(kiosk.kept) == before
        frames(1)
    assert wait_for(lambda: len(kiosk.kept) > len(before), 10)
