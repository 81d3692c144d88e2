"""The operator's settings behind the PIN, in a real Kivy window over a real
store and a real settings file: a wrong PIN is refused and a burst of them
pauses the pad; the right one opens the settings, whose changes are kept
across a restart; ending a game keeps it in the history."""

from __future__ import annotations

import pytest

from companion.games.base import RuleError, Setup
from companion.table import EventStore, Table
from companion.ui.system.kiosk_settings import DEFAULT_PIN, GUESSES, KioskSettings

pytest.importorskip("kivy.base")
from kiosk_helpers import key, open_panels  # noqa: E402
from ui_helpers import SHOTS, fits_in_window, frames, show, tap  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_pin_refuses_a_burst_of_guesses_then_takes_the_right_one(tmp_path):
    clock = Clock()
    settings = KioskSettings(tmp_path / "kiosk.ini", clock=clock)
    assert settings.default_pin
    for _ in range(GUESSES):
        assert not settings.check_pin("9999")
    assert settings.locked_for() == 60
    assert not settings.check_pin(DEFAULT_PIN), "paused: even the right PIN waits"
    clock.now += 61
    assert settings.check_pin(DEFAULT_PIN)
    assert not settings.set_pin("12a4") and not settings.set_pin("123")
    assert not settings.set_pin("١٢٣٤"), "ASCII digits only"
    assert settings.set_pin("2468")
    again = KioskSettings(tmp_path / "kiosk.ini")
    assert again.check_pin("2468") and not again.default_pin
    assert (tmp_path / "kiosk.ini").stat().st_mode & 0o777 == 0o600, "the PIN is its owner's"


def test_the_pin_is_kept_as_a_salted_hash_and_an_old_plain_pin_is_upgraded(tmp_path):
    from companion.secret_hash import is_pin_hash, pin_matches

    path = tmp_path / "kiosk.ini"
    path.write_text("[kiosk]\npin = 4711\nlanguage = el\n")
    settings = KioskSettings(path)
    stored = settings.config.get("kiosk", "pin")
    assert "4711" not in path.read_text() and is_pin_hash(stored), "upgraded at the first start"
    assert settings.check_pin("4711") and not settings.check_pin("4712")
    assert settings.language == "el", "the rest of the file is kept"
    assert KioskSettings(path).config.get("kiosk", "pin") == stored, "hashed once, not again"
    assert settings.set_pin("2468")
    again = KioskSettings(path)
    other = again.config.get("kiosk", "pin")
    assert "2468" not in path.read_text() and other != stored
    assert again.check_pin("2468")
    # The same PIN twice makes two hashes (a salt of its own each time).
    settings.set_pin("2468")
    assert settings.config.get("kiosk", "pin") != other
    assert pin_matches("2468", settings.config.get("kiosk", "pin"))
    for forged in ("scrypt$1$8$1$00$00", "scrypt$16384$8$1$zz$00", "plain", ""):
        assert not pin_matches("2468", forged)


def test_settings_survive_a_restart_and_bad_values_fall_back(tmp_path):
    path = tmp_path / "kiosk.ini"
    settings = KioskSettings(path)
    settings.language, settings.volume, settings.rotation = "el", 0.35, 90
    settings.set_wifi(" Table 4 ", "bluff-well")
    settings.language, settings.rotation, settings.volume = "xx", 45, 7
    again = KioskSettings(path)
    assert (again.language, again.volume, again.rotation) == ("el", 1.0, 90)
    assert again.wifi == ("Table 4", "bluff-well")
    path.write_text("[kiosk]\nvolume = loud\nrotation = sideways\nlanguage = tlh\n")
    broken = KioskSettings(path)
    assert (broken.volume, broken.rotation, broken.language) == (0.8, 0, "en")
    assert not list(tmp_path.glob("*.partial")), "written whole, then put in place"
    path.write_bytes(b"[kiosk\npin = \xff\xfe\n")  # garbled: a power cut, a bad card
    garbled = KioskSettings(path)
    assert garbled.default_pin and garbled.volume == 0.8, "the defaults, never a crash"


GARBAGE = {
    "no-section": b"pin = 1234\nvolume = 0.2\n",
    "key-twice": b"[kiosk]\nvolume = 0.5\nvolume = 0.6\n",
    "section-twice": b"[kiosk]\nlanguage = el\n[kiosk]\n",
    "binary": bytes(range(256)) * 3,
    "utf-16": "[kiosk]\nlanguage = el\n".encode("utf-16"),
}


@pytest.mark.parametrize("content", GARBAGE.values(), ids=GARBAGE.keys())
def test_a_garbage_settings_file_is_set_aside_and_the_defaults_apply(tmp_path, content):
    path = tmp_path / "kiosk.ini"
    path.write_bytes(content)
    settings = KioskSettings(path)
    assert (settings.volume, settings.language, settings.rotation) == (0.8, "en", 0)
    assert settings.default_pin and settings.log_level == "info"
    assert settings.set_aside is not None and settings.set_aside.read_bytes() == content
    assert not path.exists(), "moved aside, kept whole for support"
    settings.volume = 0.3  # the next change writes a good file
    again = KioskSettings(path)
    assert again.volume == 0.3 and again.set_aside is None


def kiosk_with_game(tmp_path):
    from companion.ui.kiosk import Kiosk

    store = EventStore(tmp_path / "g.sqlite3")
    table = Table.start(store, Setup(game="coup", seats=["Ann", "Bob"], options={"first": 0}))
    return Kiosk(store, table, settings=KioskSettings(tmp_path / "kiosk.ini"))


def test_the_settings_open_with_the_pin_and_act_on_the_kiosk(window, tmp_path):
    from kivy.core.window import Window

    kiosk = show(window, kiosk_with_game(tmp_path), (800, 480))
    kiosk.go_home()
    frames(2)
    tap(kiosk.home.ids.settings)
    [pad] = open_panels(window)
    for digit in "1234":
        tap(key(pad, digit))
    assert pad.entered == "1234"
    tap(pad.ids.ok)
    assert pad.message == "Wrong PIN." and pad.entered == ""
    for digit in DEFAULT_PIN:
        tap(key(pad, digit))
    pad.export_to_png(str(SHOTS / "settings-pin-800x480.png"))
    tap(pad.ids.ok)
    frames(2)
    [panel] = open_panels(window)
    assert panel.pin_warning.startswith("The PIN is still the default")
    assert "could not be read" not in panel.pin_warning
    assert all(b.height >= 48 for b in (panel.ids.end_game, panel.ids.close, panel.ids.save_pin))
    assert fits_in_window(panel.ids.close, window)
    panel.children[0].export_to_png(str(SHOTS / "settings-800x480.png"))

    greek = next(b for b in panel.ids.languages.children if b.text == "Ελληνικά")
    tap(greek)
    assert kiosk.lang == "el" and kiosk.settings.language == "el"
    assert kiosk.home.choice.lang == "el"
    try:
        tap(next(b for b in panel.ids.rotations.children if b.text == "90°"))
        assert Window.rotation == 90 and kiosk.settings.rotation == 90
    finally:
        Window.rotation = 0
        kiosk.settings.rotation = 0
        frames(3)
    listeners = len(kiosk.table._listeners)
    tap(next(b for b in panel.ids.languages.children if b.text == "English"))
    assert len(kiosk.table._listeners) == listeners, "the old screen let go of the table"
    panel.volume = 0.25
    assert kiosk.sounds.volume == 0.25 and kiosk.table_screen.sounds is kiosk.sounds
    assert KioskSettings(tmp_path / "kiosk.ini").volume == 0.8, "saved on closing"

    game, ended = kiosk.table.game_id, kiosk.table
    tap(panel.ids.end_game)
    frames(2)
    assert kiosk.current == "home" and not open_panels(window)
    assert KioskSettings(tmp_path / "kiosk.ini").volume == 0.25
    assert kiosk.store.active_game() is None
    assert kiosk.store.game(game).status == "abandoned"
    assert kiosk.home.resume_text == ""
    # Nothing brings an ended game back: a press, a phone, the clock.
    with pytest.raises(RuleError) as refused:
        ended.execute({"type": "income", "seat": 0})
    assert refused.value.key == "table.game_ended"
    assert ended.tick() == []
    assert kiosk.store.game(game).status == "abandoned"


def test_saved_language_and_rotation_apply_at_start_and_an_open_wifi_shows(window, tmp_path):
    from kivy.core.window import Window

    from companion.ui.kiosk import Kiosk
    from companion.ui.panels.settings_view import OperatorSettings

    settings = KioskSettings(tmp_path / "kiosk.ini")
    settings.language, settings.rotation = "el", 90
    settings.set_wifi("Cafe Anna", "")  # an open network
    store = EventStore(tmp_path / "g.sqlite3")
    try:
        kiosk = Kiosk(store, None, settings=KioskSettings(tmp_path / "kiosk.ini"))
        assert kiosk.lang == "el" and Window.rotation == 90
    finally:
        Window.rotation = 0
    frames(3)
    panel = OperatorSettings(kiosk)
    assert (panel.ids.ssid.value, panel.ids.password.value) == ("Cafe Anna", "")
    assert kiosk.settings.wifi == ("Cafe Anna", None)


def test_the_settings_screen_says_a_damaged_file_was_set_aside(window, tmp_path):
    from companion.ui.kiosk import Kiosk
    from companion.ui.panels.settings_view import OperatorSettings

    (tmp_path / "kiosk.ini").write_bytes(GARBAGE["key-twice"])
    kiosk = show(
        window,
        Kiosk(
            EventStore(tmp_path / "g.sqlite3"), None, settings=KioskSettings(tmp_path / "kiosk.ini")
        ),
        (800, 480),
    )
    frames(2)
    panel = OperatorSettings(kiosk)
    panel.open(animation=False)
    frames(3)
    name = kiosk.settings.set_aside.name
    assert panel.pin_warning.splitlines() == [
        f"The settings file could not be read: it is kept as {name}, and the defaults apply "
        "until you change a setting.",
        "The PIN is still the default, 0000: choose your own below.",
    ]
    panel.children[0].export_to_png(str(SHOTS / "settings-set-aside-800x480.png"))
    panel.dismiss()


def test_the_settings_say_no_pad_for_a_table_without_one_and_not_answering_once_lost(
    window, tmp_path
):
    """A pad driver that never heard a pad is no fault; one that heard the
    pad, then nothing, is."""
    from companion.devices.pad import SerialPad
    from companion.devices.pad_sim import PadSimulator, PtyLink, wait_for
    from companion.ui.panels.settings_view import OperatorSettings

    kiosk = show(window, kiosk_with_game(tmp_path), (800, 480))
    link = PtyLink(tmp_path)
    absent = SerialPad(lambda _press: None, str(tmp_path / "no-pad-here"), retry_interval=0.05)
    pad = SerialPad(lambda _press: None, link.path, retry_interval=0.05, heartbeat_timeout=0.5)
    sim = PadSimulator(link, seats=3)
    absent.start()
    pad.start()
    try:
        kiosk.show_devices([absent.status(), pad.status()])
        assert OperatorSettings(kiosk).devices_text == "No button pad heard yet."
        assert kiosk.table_screen.devices_text == ""
        _devices_shot(window, kiosk, "settings-no-pad")
        sim.start()
        assert wait_for(lambda: pad.status()["online"])
        kiosk.show_devices([absent.status(), pad.status()])
        assert OperatorSettings(kiosk).devices_text == "Button pad: answering"
        sim.pause()
        assert wait_for(lambda: not pad.status()["online"])
        kiosk.show_devices([absent.status(), pad.status()])
        assert OperatorSettings(kiosk).devices_text == "Button pad: not answering"
        assert kiosk.table_screen.devices_text == "Button pad not answering"
        _devices_shot(window, kiosk, "settings-pad-lost")
    finally:
        sim.stop()
        pad.stop()
        absent.stop()
        link.unplug()


def _devices_shot(window, kiosk, name: str) -> None:
    """The settings scrolled to their devices, in Persian, at 800×480 and
    720×1280, for a person to look at."""
    from kivy.uix.scrollview import ScrollView

    from companion.ui.panels.settings_view import OperatorSettings

    kiosk.set_language("fa")
    try:
        for size in ((800, 480), (720, 1280)):
            window.size = size
            frames(3)
            panel = OperatorSettings(kiosk)
            panel.open(animation=False)
            frames(3)
            next(w for w in panel.walk() if isinstance(w, ScrollView)).scroll_y = 0
            frames(3)
            panel.children[0].export_to_png(str(SHOTS / f"{name}-fa-{size[0]}x{size[1]}.png"))
            panel.dismiss(animation=False)
            frames(2)
    finally:
        kiosk.set_language("en")
        window.size = (800, 480)
        frames(3)
