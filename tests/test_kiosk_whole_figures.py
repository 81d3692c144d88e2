"""The screen at arm's length (issue 22): at the original 7-inch display's
800×480, every table screen in every phase of every game, in both secrecy
modes and in each of the kiosk's languages (English too), and the home
screen for each game, show every text whole: no label, no button cut by
Kivy (shortened to one line with "...", or a box of fixed height leaving
its last lines out; see ``kiosk_helpers.is_cut``), and none spilling out
of the boxes that hold it over its neighbours (a seat's name above its
panel, the bar above the screen: ``kiosk_helpers.spilled_labels``). Coins, the treasury,
the court, timers, tracks, names and the bar's line are what a player reads
across the table.

A layout keeps a text whole by wrapping it, stacking it or giving it room,
never by shrinking it: what a player needs to read is never set below
``MIN_FONT`` (sp(14), the size of the smallest figure on a panel: Coup's
tokens and claims, a Secret Hitler seat's details at 800×480; the
election tracker went from sp(13) to sp(14) with this test). The test
holds every shown label Kivy may shorten (``shorten``) to it. Words set
smaller today (a Coup card's text, sp(12); a Secret Hitler slot's word,
sp(12); Article 27's track legend, sp(13)) are there to look up, not to
read across the table, and are left as they were."""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES
from companion.table import EventStore

pytest.importorskip("kivy.base")
from kiosk_helpers import cut_labels, settle, shown_labels, spilled_labels  # noqa: E402
from kivy.metrics import sp  # noqa: E402
from phase_playouts import PHASES, first_of_each_phase  # noqa: E402
from ui_helpers import frames, show  # noqa: E402

SIZE = (800, 480)
MIN_FONT = 14  # sp: nothing a player reads across the table is smaller


def cut(widget) -> list[tuple[str, float]]:
    """(text, font size) of each text the widget shows cut."""
    return [(w.text, w.font_size) for w in cut_labels(widget)]


def shortened_labels(widget) -> list:
    """The shown labels a narrow box would shorten (``shorten``): the ones a
    layout could be tempted to fix by a smaller size."""
    return [w for w in shown_labels(widget) if w.shorten]


@pytest.mark.parametrize("mode", ["physical", "keeper"])
@pytest.mark.parametrize("game", sorted(PHASES))
def test_every_table_screen_shows_its_texts_whole_at_800x480(window, tmp_path, game, mode):
    """One screen per language follows the playouts' tables from phase to
    phase (one window, no screenshots: a failure names the phase, the
    language and the texts cut)."""
    from companion.ui.screens.table_screen import screen_class

    screens, failures, checked = {}, [], set()
    window.size = SIZE
    for phase, table, _clock in first_of_each_phase(tmp_path, game, mode):
        for lang in LANGUAGES:
            if lang in screens:
                screens[lang].follow(table)
            else:
                screens[lang] = screen_class(game)(table, lang=lang)
            screen = screens[lang]
            for child in list(window.children):
                window.remove_widget(child)
            window.add_widget(screen)
            settle(screen)
            if found := cut(screen):
                failures.append(f"{phase} ({lang}): {found}")
            if found := [w.text for w in spilled_labels(screen)]:
                failures.append(f"{phase} ({lang}): spilled out of their boxes: {found}")
            small = [
                (w.text, w.font_size)
                for w in shortened_labels(screen)
                if w.font_size < sp(MIN_FONT) - 0.5
            ]
            assert not small, f"{phase} ({lang}): set below sp({MIN_FONT}): {small}"
            screen.detach()  # the playouts run faster unwatched
        checked.add(phase)
    assert checked == PHASES[game][mode]
    assert not failures, f"{game} ({mode}) at 800×480, texts cut:\n" + "\n".join(failures)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_screen_shows_its_texts_whole_at_800x480(window, tmp_path, lang):
    from companion.ui.kiosk import Kiosk

    kiosk = show(window, Kiosk(EventStore(tmp_path / "h.sqlite3"), None, lang=lang), SIZE)
    failures = []
    for game in sorted(PHASES):
        kiosk.home.choose_game(game)
        frames(2)
        if found := cut(kiosk.home):
            failures.append(f"{game}: {found}")
        if found := [w.text for w in spilled_labels(kiosk.home)]:
            failures.append(f"{game}: spilled out of their boxes: {found}")
    assert not failures, f"home ({lang}) at 800×480, texts cut:\n" + "\n".join(failures)
