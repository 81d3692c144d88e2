"""scripts/pi-system/screen.py, which tells from QEMU's screendump of the
booted guest whether the kiosk's home screen is on it or a text console
(scripts/pi-system-check, check "kiosk"): it must know the real home screen,
drawn by Kivy, and refuse a console and a blank screen."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from companion.table import EventStore
from companion.ui.widgets import palette

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "pi-system" / "screen.py"
spec = importlib.util.spec_from_file_location("pi_system_screen", SCRIPT)
assert spec is not None and spec.loader is not None
screen = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = screen  # a dataclass looks its module up there
spec.loader.exec_module(screen)


def ppm(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PPM")
    return out.getvalue()


def eight_bit(colour) -> tuple[int, int, int]:
    return tuple(round(channel * 255) for channel in colour[:3])


def test_its_colours_are_the_kiosk_palettes():
    assert screen.SCREEN == eight_bit(palette.SCREEN)
    assert screen.BUTTON == eight_bit(palette.BUTTON)
    assert screen.BUTTON_CHOSEN == eight_bit(palette.BUTTON_CHOSEN)


def test_the_home_screen_kivy_draws_is_home(window, tmp_path):
    from kiosk_helpers import window_shot
    from ui_helpers import show

    from companion.ui.kiosk import Kiosk

    kiosk = show(window, Kiosk(EventStore(tmp_path / "g.sqlite3"), None, lang="en"), (800, 480))
    assert kiosk.current == "home"
    shot = window_shot(window, "pi-system-home-800x480")
    name, found = screen.verdict(screen.read_ppm(ppm(Image.open(shot))))
    assert name == "home", found


def test_a_text_console_and_a_blank_screen_are_not_home():
    console = Image.new("RGB", (800, 480), (0, 0, 0))
    draw = ImageDraw.Draw(console)
    grey = (170, 170, 170)
    for row in range(0, 464, 16):
        draw.text((0, row), "[  OK  ] Started getty@tty1.service - Getty on tty1.", fill=grey)
    draw.text((0, 464), "raspberrypi login: ", fill=grey)
    name, found = screen.verdict(screen.read_ppm(ppm(console)))
    assert name == "console", found
    # The kiosk's background alone (no buttons drawn): not the home screen.
    blank = Image.new("RGB", (800, 480), screen.SCREEN)
    assert screen.verdict(screen.read_ppm(ppm(blank)))[0] == "other"


def test_it_reads_qemus_ppm_header_and_refuses_others():
    # QEMU writes "P6\n<w> <h>\n255\n"; a comment line is allowed by the format.
    picture = screen.read_ppm(b"P6\n# a comment\n2 1\n255\n" + bytes([1, 2, 3, 4, 5, 6]))
    assert (picture.width, picture.height, picture.pixels) == (2, 1, bytes([1, 2, 3, 4, 5, 6]))
    with pytest.raises(ValueError, match="P6"):
        screen.read_ppm(b"P3\n1 1\n255\n0 0 0\n")
    with pytest.raises(ValueError, match="shorter"):
        screen.read_ppm(b"P6\n2 2\n255\n" + bytes(6))
