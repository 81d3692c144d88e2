"""The first-game guide on the kiosk: while Article 27's clock runs it is a
compact strip under the bar that leaves the clock, the gavel, the issues,
the agenda track and the bar in view (paused, it is whole again), and a
step whose guide was answered "Got it" is not shown again after the kiosk
restarts (the kiosk's settings keep it)."""

from __future__ import annotations

import pytest
from a27_helpers import FakeClock

from companion.games.base import Fate, Setup
from companion.i18n import Messages
from companion.table import EventStore, Table
from companion.ui.system.kiosk_settings import KioskSettings

pytest.importorskip("kivy.base")
from kiosk_helpers import cut_labels, spilled_labels, walk, window_shot  # noqa: E402
from ui_helpers import PORTRAIT, fits_in_window, frames, show, tap  # noqa: E402

NAMES = ["Anna", "Ben", "Chloe", "Dimitris"]


def _table(store) -> Table:
    setup = Setup(
        game="article27",
        seats=NAMES,
        mode="keeper",
        options={"first": 0},
        table={"guide": True},
    )
    return Table.start(store, setup, fate=Fate(seed=5), clock=FakeClock())


def _kiosk(window, store, table, settings, lang="en", size=(800, 480)):
    from companion.ui.kiosk import Kiosk

    kiosk = show(window, Kiosk(store, table, lang=lang, settings=settings), size)
    frames(3)
    return kiosk


def _got_it(guide, lang):
    from kivy.uix.button import Button

    word = Messages(lang)("help.got_it")
    return next(w for w in walk(guide) if isinstance(w, Button) and w.text == word)


def _rect(widget):
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _overlap(one, other) -> bool:
    a, b = _rect(one), _rect(other)
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", [(800, 480), PORTRAIT], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_guide_leaves_what_the_clock_needs_in_view(window, tmp_path, lang, size):
    store = EventStore(tmp_path / "g.sqlite3")
    table = _table(store)
    kiosk = _kiosk(window, store, table, KioskSettings(tmp_path / "kiosk.ini"), lang, size)
    screen = kiosk.table_screen
    try:
        tap(_got_it(screen._help, lang))
        tap(screen.ids.gavel)  # the negotiation: the clock runs
        frames(3)
        assert table.timer()["running"]
        guide = screen._help
        assert guide is not None and guide.docked and guide.compact
        frames(2)
        needed = {name: screen.ids[name] for name in ("clock", "gavel", "pause", "board", "side")}
        needed.update(
            (b.text, b) for b in walk(screen.ids.bar) if hasattr(b, "on_press") and b.text
        )
        strip = guide.children[0]
        for name, part in needed.items():
            if part.opacity > 0 and part.height > 0:
                assert not _overlap(strip, part), (name, _rect(strip), _rect(part))
        button = _got_it(guide, lang)
        assert fits_in_window(guide.children[0], window) and fits_in_window(button, window)
        assert not cut_labels(guide) and not spilled_labels(guide)
        window_shot(window, f"guide-negotiation-{lang}-{size[0]}x{size[1]}")
        tap(screen.ids.pause)  # paused: time to read it whole
        frames(2)
        assert screen._help is guide and not guide.compact
        window_shot(window, f"guide-paused-{lang}-{size[0]}x{size[1]}")
        tap(_got_it(guide, lang))
        assert screen._help is None
    finally:
        screen.detach()


def test_got_it_is_remembered_after_a_restart(window, tmp_path):
    store = EventStore(tmp_path / "g.sqlite3")
    table = _table(store)
    ini = tmp_path / "kiosk.ini"
    kiosk = _kiosk(window, store, table, KioskSettings(ini))
    guide = kiosk.table_screen._help
    assert guide is not None and guide.docked, "a first game: the step is explained"
    tap(_got_it(guide, "en"))
    kiosk.table_screen.detach()
    # The kiosk restarts: its settings are read again from the file.
    again = _kiosk(window, store, Table.resume(store, table.game_id), KioskSettings(ini))
    screen = again.table_screen
    frames(3)
    assert screen._help is None, "the step answered with Got it is not explained again"
    tap(screen.ids.gavel)  # a new step is
    frames(3)
    assert screen._help is not None and screen._help.docked
    screen.detach()


def test_a_screen_built_ahead_shows_the_guide_it_never_showed(window, tmp_path):
    """The Greek screen built ahead (out of sight) while the English one
    explains the first step: a switch to Greek, which closes the English
    guide unanswered, explains that step in Greek; a screen out of sight
    opens none."""
    store = EventStore(tmp_path / "g.sqlite3")
    table = _table(store)
    kiosk = _kiosk(window, store, table, KioskSettings(tmp_path / "kiosk.ini"))
    assert kiosk.table_screen._help is not None  # the first step, in English
    greek = kiosk.prepare_language("el")
    frames(3)
    assert greek._help is None
    kiosk.set_language("el")
    frames(3)
    guide = greek._help
    assert guide is not None and guide.docked
    assert guide.title == Messages("el")("help.guide")
    tap(_got_it(guide, "el"))
    frames(2)
    kiosk.set_language("en")  # answered: not explained again, in any language
    frames(3)
    assert kiosk.table_screen._help is None
