"""The whole kiosk by touch alone, at the Pi's two screens (800×480, and Touch
Display 2's 720×1280): from home, the PIN and the settings (a new PIN typed
on the keyboard), the players' names typed on the keyboard, the game chosen
and started, played to its end by taps on what the screen offers, the next
game, home again; then the new PIN opens the settings and ends that game.
Every touch goes through the window's input, as a finger's would."""

from __future__ import annotations

import random

import pytest

from companion.table import EventStore
from companion.ui.system.kiosk_settings import KioskSettings

pytest.importorskip("kivy.base")
from kiosk_helpers import MIN_TOUCH, drag_into_view, type_by_taps, window_shot  # noqa: E402
from ui_helpers import fits_in_window, frames, show, tap  # noqa: E402

pytestmark = pytest.mark.slow  # each whole kiosk session takes many seconds

COUP = ("Coup", "coup", ["Νατάσα", "Наташа", "ناتاشا"])
G54 = ("Coup: Rebellion G54", "g54", ["Ana", "Zoë"])
HITLER = ("Secret Hitler", "secret_hitler", ["Ana", "Ben", "Chloé", "Dev", "Eli"])
# Coup and Secret Hitler at both screens; G54 (Coup's screen with its cards)
# on the portrait one. Article 27's whole game by taps is in test_ui_article27.
CASES = [
    ((800, 480), COUP),
    ((720, 1280), COUP),
    ((800, 480), HITLER),
    ((720, 1280), HITLER),
    ((720, 1280), G54),
]


def size_id(size):
    return f"{size[0]}x{size[1]}"


def panels(window, name):
    return [w for w in window.children if type(w).__name__ == name]


def touch_button(widget) -> None:
    """Tap a button, first dragging its list into view if it is scrolled away."""
    drag_into_view(widget)
    assert widget.height >= MIN_TOUCH and widget.width >= MIN_TOUCH, widget.text
    assert fits_in_window(widget, widget.get_root_window()), widget.text
    tap(widget)


def until_closed(window, name: str) -> None:
    """Let a panel's closing animation run out."""
    import time

    end = time.monotonic() + 2
    while panels(window, name) and time.monotonic() < end:
        frames(1)
    assert not panels(window, name)


def enter_pin(window, pin: str) -> None:
    [pad] = panels(window, "PinPad")
    digits = {key.text: key for key in pad.ids.digits.children}
    for digit in pin:
        tap(digits[digit])
    tap(pad.ids.ok)
    frames(2)


def choice(box, text):
    found = [b for b in box.children if b.text == text]
    assert found, [b.text for b in box.children]
    return found[0]


def offered(window, screen) -> list:
    """What a finger can tap now: the buttons of a panel over the screen (the
    night read aloud covers it until closed), else the screen's commands and
    a seat when one is to be picked."""
    from kivy.uix.button import Button
    from kivy.uix.modalview import ModalView

    over = [w for w in window.children if isinstance(w, ModalView)]
    if over:
        buttons = [w for w in over[0].walk() if isinstance(w, Button)]
    else:
        buttons = sorted(screen.ids.commands.children, key=lambda b: b.text)
    buttons = [
        b for b in buttons if getattr(b, "on_release", None) and b.opacity > 0 and not b.disabled
    ]
    if over:
        return buttons
    return buttons + [p for p in screen._panels if getattr(p, "selectable", False)]


def play_to_the_end(window, kiosk, seed: int) -> int:
    """Tap what the screen offers, a seeded choice each time, until the game
    is over."""
    screen = kiosk.table_screen
    pick = random.Random(seed)
    taps = 0
    while not screen.game_over:
        choices = offered(window, screen)
        assert choices, screen.status_text
        touch_button(pick.choice(choices))
        assert screen.message_text == "", screen.message_text
        taps += 1
        assert taps < 1500, "the game ends"
    return taps


@pytest.mark.parametrize(
    "size, case", CASES, ids=[f"{size_id(size)}-{case[1]}" for size, case in CASES]
)
def test_from_home_to_a_finished_game_and_the_settings_by_touch_alone(window, tmp_path, size, case):
    from companion.ui.kiosk import Kiosk

    game, key, names = case
    store = EventStore(tmp_path / "g.sqlite3")
    kiosk = show(window, Kiosk(store, None, settings=KioskSettings(tmp_path / "kiosk.ini")), size)
    home = kiosk.home

    # The settings, behind the PIN: a new one, typed on the keyboard.
    touch_button(home.ids.settings)
    enter_pin(window, "0000")
    [settings] = panels(window, "OperatorSettings")
    type_by_taps(settings.ids.pin, "2468")
    touch_button(settings.ids.save_pin)
    assert kiosk.settings.check_pin("2468")
    touch_button(settings.ids.close)
    until_closed(window, "OperatorSettings")

    # The game and its players, their names typed.
    touch_button(choice(home.ids.games, game))
    while len(home.choice.names) > len(names):
        touch_button(home.ids.fewer)
    while len(home.choice.names) < len(names):
        touch_button(home.ids.more)
    for row, name in zip(reversed(home.ids.seats.children), names):
        type_by_taps(row.ids.name, name)
    touch_button(home.ids.start)
    assert kiosk.current == "table" and kiosk.table.setup.game == key
    assert kiosk.table.names == names

    taps = play_to_the_end(window, kiosk, seed=size[0] + len(names))
    assert taps > 5
    window_shot(window, f"touch-only-{key}-over-{size_id(size)}")

    # The next game at the same table, then home, which offers to resume it.
    touch_button(kiosk.table_screen.ids.bar.ids.new_game)
    assert not kiosk.table.is_over and kiosk.table.names[0] in names
    touch_button(kiosk.table_screen.ids.bar.ids.home)
    assert kiosk.current == "home" and home.resume_text

    # The new PIN opens the settings, which end the game.
    touch_button(home.ids.settings)
    enter_pin(window, "0000")
    [pad] = panels(window, "PinPad")
    assert pad.message == "Wrong PIN.", "the old PIN no longer opens them"
    enter_pin(window, "2468")
    [settings] = panels(window, "OperatorSettings")
    touch_button(settings.ids.end_game)
    frames(2)
    assert store.active_game() is None and home.resume_text == ""
