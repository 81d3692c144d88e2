"""The on-screen keyboard in a real headless Kivy window, driven by taps only:
names typed in Greek, Russian and Persian start a game that shows them; the
keyboard never covers the field it types into, at 800×480 and 720×1280, in
every language; its keys do what a Greek, Russian or Persian keyboard does;
a physical keyboard types into the field too, and nothing else."""

from __future__ import annotations

import pytest

from companion.table import EventStore
from companion.ui.system.kiosk_settings import KioskSettings

pytest.importorskip("kivy.base")
from kiosk_helpers import (
    MIN_TOUCH,
    drag_into_view,
    keyboard_shown,
    shown_texts,  # noqa: E402
    type_by_taps,
    window_shot,
)
from ui_helpers import PORTRAIT, fits_in_window, frames, show, tap  # noqa: E402

SIZES = [(800, 480), PORTRAIT]
NAMES = ["Νατάσα", "Наташа", "ناتاشا"]
LANGUAGES = ["en", "el", "ru", "fa"]


def size_id(size):
    return f"{size[0]}x{size[1]}"


def kiosk_at_home(window, tmp_path, size, lang="en"):
    from companion.ui.kiosk import Kiosk

    store = EventStore(tmp_path / "g.sqlite3")
    kiosk = Kiosk(store, None, lang=lang, settings=KioskSettings(tmp_path / "kiosk.ini"))
    return show(window, kiosk, size)


def seat_fields(kiosk):
    return [row.ids.name for row in reversed(kiosk.home.ids.seats.children)]


def choose(box, text):
    found = [b for b in box.children if b.text == text]
    assert found, [b.text for b in box.children]
    tap(found[0])


@pytest.fixture(autouse=True)
def no_keyboard_left():
    yield
    from companion.ui.widgets.touch_keyboard import keyboard

    keyboard().close()


def clear(board, field):
    while field.value:
        tap(board.key("back"))


def assert_clear_of_keyboard(field, board, window):
    """The field is whole, inside the window and above the keyboard."""
    frames(2)
    x, y = field.to_window(field.x, field.y)
    assert y >= board.top, (y, board.top)
    assert y + field.height <= window.height + 1
    assert x >= -1 and x + field.width <= window.width + 1


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_names_typed_on_the_keyboard_start_the_game_that_shows_them(window, tmp_path, size):
    kiosk = kiosk_at_home(window, tmp_path, size)
    choose(kiosk.home.ids.games, "Coup")
    fields = seat_fields(kiosk)
    assert len(fields) == 3
    for field, name, shot in zip(fields, NAMES, ("el", "ru", "fa")):
        type_by_taps(field, name, done=False)
        board = keyboard_shown()
        assert field.value == name and field.focused
        assert_clear_of_keyboard(field, board, window)
        window_shot(window, f"keyboard-home-{shot}-{size_id(size)}")
        tap(board.key("done"))
        assert not board.is_open and kiosk.home.choice.names[fields.index(field)] == name
    drag_into_view(kiosk.home.ids.start)
    tap(kiosk.home.ids.start)
    assert kiosk.current == "table"
    assert kiosk.table.names == NAMES
    screen = kiosk.table_screen
    frames(3)
    texts = " ".join(shown_texts(screen))
    for name in NAMES:
        assert name in texts, (name, texts)
    window_shot(window, f"keyboard-names-on-the-table-{size_id(size)}")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_keyboard_never_covers_the_field_it_types_into(window, tmp_path, size, lang):
    kiosk = kiosk_at_home(window, tmp_path, size, lang=lang)
    home = kiosk.home
    for _ in range(3):
        tap(home.ids.more)  # six seats: fields low on the screen
    fields = seat_fields(kiosk)
    assert len(fields) == 6
    for field in (fields[0], fields[3], fields[5]):  # the top, the middle, the lowest
        drag_into_view(field)
        layer_y = kiosk.y
        tap(field)
        board = keyboard_shown()
        assert board.target == field and field.focused
        assert_clear_of_keyboard(field, board, window)
        assert board.lang == lang, "it opens in the kiosk's language"
        for holder in board.ids.rows.children:
            for key in holder.children[0].children:
                assert key.height >= MIN_TOUCH and key.width >= MIN_TOUCH, key.text
                assert fits_in_window(key, window), (
                    key.text,
                    key.to_window(key.x, key.y),
                    key.size,
                    window.size,
                    board.size,
                )
        tap(board.key("done"))
        assert not board.is_open and kiosk.y == layer_y, "the screen slides back"
    window_shot(window, f"keyboard-home-6-seats-{lang}-{size_id(size)}")


TWO_NAMES = {"en": ("Anna", "Ben"), "fa": ("عائشه", "علاء")}  # fa: ئ and ء


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_next_types_the_next_players_name_by_taps_only(window, tmp_path, size, lang):
    """**Next** moves from one player's name to the next (scrolled into view,
    clear of the keyboard), so two names are typed without leaving the
    keys; the last name has no Next. Persian's keys hold ئ and ء."""
    kiosk = kiosk_at_home(window, tmp_path, size, lang=lang)
    home = kiosk.home
    for _ in range(3):
        tap(home.ids.more)  # six seats: the later names below the fold at 800×480
    fields = seat_fields(kiosk)
    first, second = TWO_NAMES[lang]
    type_by_taps(fields[0], first, done=False)
    board = keyboard_shown()
    tap(board.key("next"))
    assert board.target == fields[1] and fields[1].focused and not fields[0].focused
    type_by_taps(fields[1], second, focus=False, done=False)
    assert [f.value for f in fields[:2]] == [first, second]
    assert home.choice.names[:2] == [first, second]
    assert_clear_of_keyboard(fields[1], board, window)
    window_shot(window, f"keyboard-next-{lang}-{size_id(size)}")
    for index in range(2, 6):
        nxt = board.key("next")
        assert fits_in_window(nxt, window) and nxt.height >= MIN_TOUCH
        tap(nxt)
        assert board.target == fields[index]
        assert_clear_of_keyboard(fields[index], board, window)
    with pytest.raises(KeyError):
        board.key("next")  # the last name: nothing after it
    for holder in board.ids.rows.children:
        for key in holder.children[0].children:
            assert key.width >= MIN_TOUCH and fits_in_window(key, window), key.text
    tap(board.key("done"))
    assert not board.is_open


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_settings_fields_are_typed_on_the_keyboard_too(window, tmp_path, size):
    kiosk = kiosk_at_home(window, tmp_path, size)
    tap(kiosk.home.ids.settings)
    [pad] = [w for w in window.children if type(w).__name__ == "PinPad"]
    for digit in "0000":
        tap(next(k for k in pad.ids.digits.children if k.text == digit))
    tap(pad.ids.ok)
    frames(2)
    [panel] = [w for w in window.children if type(w).__name__ == "OperatorSettings"]
    type_by_taps(panel.ids.ssid, "Café Table 4", done=False)
    board = keyboard_shown()
    assert_clear_of_keyboard(panel.ids.ssid, board, window)
    window_shot(window, f"keyboard-settings-wifi-{size_id(size)}")
    type_by_taps(panel.ids.password, "bluff-well 27!")
    drag_into_view(panel.ids.save_wifi)
    tap(panel.ids.save_wifi)
    assert kiosk.settings.wifi == ("Café Table 4", "bluff-well 27!")

    type_by_taps(panel.ids.pin, "24681357", done=False)
    board = keyboard_shown()
    assert board.page == "digits" and panel.ids.pin.shown == "●" * 8
    assert_clear_of_keyboard(panel.ids.pin, board, window)
    window_shot(window, f"keyboard-settings-pin-{size_id(size)}")
    tap(board.key("9"))
    assert panel.ids.pin.value == "24681357", "a PIN holds 8 digits at most"
    tap(board.key("done"))
    drag_into_view(panel.ids.save_pin)
    tap(panel.ids.save_pin)
    assert kiosk.settings.check_pin("24681357") and not kiosk.settings.default_pin
    panel.dismiss(animation=False)
    frames(2)


@pytest.mark.slow
def test_the_keys_type_as_each_language_s_keyboard_does(window, tmp_path):
    from companion.ui.text.keyboard_layouts import ACCENT, ZWNJ

    kiosk = kiosk_at_home(window, tmp_path, (800, 480), lang="el")
    field = seat_fields(kiosk)[0]
    tap(field)
    board = keyboard_shown()
    while field.value:
        tap(board.key("back"))
    assert board.shift, "a name starts with a capital"
    tap(board.key("ν"))
    assert field.value == "Ν" and not board.shift
    tap(board.key(ACCENT))
    assert board.accent == 1 and board.key(ACCENT).lit and board.key(ACCENT).text == "΄"
    tap(board.key("α"))
    assert field.value == "Νά" and not board.accent, "the tonos goes on the next vowel"
    tap(board.key(ACCENT))
    tap(board.key("τ"))
    assert field.value == "Νάτ", "a consonant takes no tonos: it is typed as it is"
    tap(board.key("space"))
    assert board.shift, "each word of a name starts with a capital"
    tap(board.key("space"))
    assert field.value == "Νάτ ", "one space at a time"
    tap(board.key("shift"))
    tap(board.key("ω"))
    assert field.value == "Νάτ ω"
    tap(board.key("back"))
    tap(board.key("back"))
    assert field.value == "Νάτ"

    tap(board.key("language"))  # Greek → Russian → Persian → English
    assert board.lang == "ru" and board.key("ж")
    tap(board.key("language"))
    assert board.lang == "fa" and not board.shift, "Persian has no capitals"
    with pytest.raises(KeyError):
        board.key("shift")
    clear(board, field)
    tap(board.key(ZWNJ))
    assert field.value == "", "no half-space to start a name"
    for char in "می" + ZWNJ + ZWNJ + "کشد":
        tap(board.key(char))
    assert field.value == "می" + ZWNJ + "کشد", "one half-space between letters"
    assert field.align == "right", "Persian is typed right to left"
    tap(board.key("language"))
    assert board.lang == "en"
    clear(board, field)
    for char in "chlo":
        tap(board.key(char))
    tap(board.key(ACCENT))
    tap(board.key("e"))
    assert field.value == "Chloé"
    for _ in range(4):  # ´ ` ^ ¨
        tap(board.key(ACCENT))
    assert board.key(ACCENT).text == "¨"
    tap(board.key("space"))
    tap(board.key("z"))
    assert field.value == "Chloé Z", "an accent waits for a letter, not a space"
    clear(board, field)
    for char in "abcdefghijklmnopqrstuvwxyz":
        tap(board.key(char))
    assert len(field.value) == 24 and field.value.startswith("Abc"), "24 characters at most"
    assert field.align == "left"
    tap(board.key("page"))
    assert board.page == "signs"
    assert board.key("7") and board.key("@")
    tap(board.key("page"))
    assert board.page == "letters"


def test_holding_back_deletes_on_and_a_tap_elsewhere_closes_after_doing_its_job(window, tmp_path):
    import time

    from kivy.tests.common import UnitTestTouch

    kiosk = kiosk_at_home(window, tmp_path, (800, 480))
    first, second = seat_fields(kiosk)[:2]
    type_by_taps(first, "Konstantinos Papadopoulos", done=False)
    board = keyboard_shown()
    back = board.key("back")
    x, y = back.to_window(*back.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        frames(1)
    touch.touch_up()
    frames(2)
    assert len(first.value) < len("Konstantinos Papadopou") - 3, "held, ⌫ keeps going"
    left = len(first.value)
    frames(10)
    assert len(first.value) == left, "let go, it stops"

    # Another field: the keyboard moves to it (and the first keeps its text).
    tap(board.key("done"))
    drag_into_view(second)
    tap(second)
    assert board.target == second and second.focused and not first.focused
    # A tap elsewhere (a choice of game) does what it does, then the keyboard closes.
    games = kiosk.home.ids.games
    article = next(b for b in games.children if b.text == "Article 27")
    drag_into_view(article)
    if board.is_open and article.to_window(article.x, article.y)[1] < board.top:
        pytest.fail("the choice is hidden by the keyboard")
    tap(article)
    frames(2)
    assert kiosk.home.choice.game == "article27"
    assert not board.is_open and kiosk.y == 0


def test_a_physical_keyboard_types_into_the_field_and_nothing_else(window, tmp_path):
    kiosk = kiosk_at_home(window, tmp_path, (800, 480))
    from companion.ui.system.lockdown import lock_down

    lock_down(window)
    try:
        field = seat_fields(kiosk)[0]
        tap(field)
        board = keyboard_shown()
        field.value = ""
        window.dispatch("on_textinput", "Ana")
        assert field.value == "Ana"
        assert window.dispatch("on_key_down", 8, 22, None, []), "Backspace"
        assert field.value == "An"
        assert window.dispatch("on_key_down", 27, 9, None, []), "Esc is swallowed"
        assert board.is_open and field.value == "An"
        assert window.dispatch("on_key_down", 13, 36, None, []), "Enter closes"
        assert not board.is_open
    finally:
        from companion.ui.system.lockdown import _refuse_close, _swallow_key

        window.unbind(on_key_down=_swallow_key, on_request_close=_refuse_close)
