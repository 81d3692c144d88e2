"""Coup's and G54's command strip holds still (issue 32): claims pile up on
the cards, the words above the strip change, the commands themselves change
from step to step, and still the strip's first button does not move within
a turn, a button that stays keeps its place, and every button lies inside
the window, at every seat count from two to six, at 800×480, 720×1280 and
1280×720, in every language (a finger taps where the last button was)."""

from __future__ import annotations

import random

import pytest

from companion.i18n import LANGUAGES

pytest.importorskip("kivy.base")
from kiosk_helpers import touch_reaches, window_shot  # noqa: E402
from phase_playouts import _G54_SETS, new_table  # noqa: E402
from ui_helpers import PORTRAIT, fits_in_window, frames, show  # noqa: E402

SIZES = [(800, 480), PORTRAIT, (1280, 720)]
STEPS = 30  # commands a playout sends (several turns, each of several steps)


def strip(screen) -> list[tuple[str, tuple[int, int]]]:
    """(text, window position of its bottom corner on the side where lines
    start: the right in Persian) of each button of the strip, in order."""
    from companion.ui.text.direction import writing

    found = []
    for button in reversed(screen.ids.commands.children):
        x, y = button.to_window(button.right if writing.rtl else button.x, button.y)
        found.append((button.text, (round(x), round(y))))
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", ["coup", "g54"])
def test_the_command_strip_holds_still_through_a_turn(window, tmp_path, game, size):
    from companion.ui.screens.table_screen import screen_class

    failures, shown = [], 0
    for players in range(2, 7):
        lang = LANGUAGES[players % len(LANGUAGES)]
        options = {"set": _G54_SETS[players % len(_G54_SETS)]} if game == "g54" else {}
        path = tmp_path / f"{game}-{players}.sqlite3"
        table, _clock = new_table(path, game, "physical", players, options, seed=players)
        screen = screen_class(game)(table, lang=lang)
        screen.go_home = screen.open_phones = screen.open_buttons = lambda: None
        show(window, screen, size)
        rng, before, where = random.Random(players), None, f"{players} seats, {lang}"
        for step in range(STEPS):
            if table.is_over:
                break
            frames(2)
            turn, now = table.public_view()["turn"], strip(screen)
            for button in screen.ids.commands.children:
                shown += 1
                if not fits_in_window(button, window):
                    failures.append(f"{where}, step {step}: {button.text!r} outside the window")
                elif step % 10 == 0 and not touch_reaches(button, window):
                    failures.append(f"{where}, step {step}: {button.text!r} takes no touch")
            if before is not None and before[0] == turn and before[1] and now:
                if before[1][0][1] != now[0][1]:
                    failures.append(
                        f"{where}, step {step}: the first button moved {before[1][0]} -> {now[0]}"
                    )
                for index, (text, place) in enumerate(before[1][: len(now)]):
                    if now[index][0] == text and now[index][1] != place:
                        failures.append(f"{where}, step {step}: {text!r} moved")
            if step == 20 and players in (2, 6):
                window_shot(window, f"strip-{game}-{players}-{lang}-{size[0]}x{size[1]}")
            before = (turn, now)
            table.execute(rng.choice(table.legal_commands()))
        screen.detach()
        table.store.close()
    assert shown, "the playouts showed commands"
    assert not failures, "\n".join(failures[:20])
