"""The bar along the top of every table screen (issue 32): at a game's end
(Chart and New game shown) and during play, with every button the kiosk
gives it (Home, Buttons, Phones), at 800×480, 720×1280 and 1280×720, in
every language, the game's name is whole, its figures wrap only between
figures (never inside a word), nothing in the bar overlaps, and every button
is inside the window where a finger at its centre presses it."""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES

pytest.importorskip("kivy.base")
from kiosk_helpers import (  # noqa: E402
    cut_labels,
    figures_broken,
    spilled_labels,
    texture_fits,
    touch_reaches,
    window_shot,
)
from phase_playouts import PHASES, first_of_each_phase  # noqa: E402
from ui_helpers import PORTRAIT, fits_in_window, frames, show  # noqa: E402

SIZES = [(800, 480), PORTRAIT, (1280, 720)]
SHOT_LANGS = {"en", "el", "fa"}


def game_and_end(tmp_path, game):
    """(phase, table) at the game's first phase and at its end, each while
    the playout stands there."""
    first = True
    for phase, table, _clock in first_of_each_phase(tmp_path, game, "physical"):
        if first or phase == "over":
            first = False
            yield phase, table
        if phase == "over":
            return


def bar_faults(screen, window) -> list[str]:
    bar = screen.ids.bar
    ids = bar.ids
    faults = []
    shown = [w for w in bar.children if w.opacity > 0 and w.width > 0]
    buttons = [w for w in shown if hasattr(w, "state")]
    for button in buttons:
        if button.disabled:
            continue
        if not fits_in_window(button, window) or min(button.size) < 48:
            faults.append(f"{button.text!r} outside the window or too small")
        elif not touch_reaches(button, window):
            faults.append(f"{button.text!r} does not take a touch at its centre")
    for label in (ids.title, ids.info):
        if label.text and not texture_fits(label):
            faults.append(f"{label.text!r} overflows its box")
    if found := [w.text for w in cut_labels(bar)]:
        faults.append(f"cut: {found}")
    if found := figures_broken(ids.info):
        faults.append(f"figures broken inside: {found}")
    if ids.title.text and ids.title.width < ids.title.texture_size[0] - 1:
        faults.append(f"title cut: {ids.title.text!r}")
    if found := [w.text for w in spilled_labels(bar)]:
        faults.append(f"out of the bar: {found}")
    if not fits_in_window(bar, window):
        faults.append("the bar leaves the window")
    boxes = [w for w in shown if getattr(w, "text", "")]
    for i, one in enumerate(boxes):
        for other in boxes[i + 1 :]:
            if (
                one.collide_widget(other)
                and min(
                    one.right - other.x, other.right - one.x, one.top - other.y, other.top - one.y
                )
                > 1
            ):
                faults.append(f"{one.text!r} overlaps {other.text!r}")
    return faults


@pytest.mark.parametrize("game", sorted(PHASES))
def test_the_bar_is_whole_and_every_button_tappable(window, tmp_path, game):
    from companion.ui.screens.table_screen import screen_class

    failures = []
    for phase, table in game_and_end(tmp_path, game):
        for lang in LANGUAGES:
            screen = screen_class(game)(table, lang=lang)
            # What the kiosk gives the bar: Home, the seat buttons, the phones.
            screen.go_home = screen.open_phones = screen.open_buttons = lambda: None
            for size in SIZES:
                show(window, screen, size)
                frames(2)
                assert screen.game_over is (phase == "over")
                if phase == "over" and lang in SHOT_LANGS and size != (1280, 720):
                    window_shot(window, f"bar-{game}-over-{lang}-{size[0]}x{size[1]}")
                for fault in bar_faults(screen, window):
                    failures.append(f"{phase} {lang} {size[0]}×{size[1]}: {fault}")
            screen.detach()
    assert not failures, "\n".join(failures)
