"""Every pair of colours that carries meaning stays apart in normal vision and
under simulated deuteranopia, protanopia and tritanopia: the kiosk's shared
palette, each game's (declared through its spec), the phone pages' two
schemes and the console's. The minimum, MIN_DELTA_E in CAM02-UCS, and why it
is that: see colour_helpers.py and docs/accessibility.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from colour_helpers import MIN_DELTA_E, css_palette, delta_e, hex_rgb, worst_delta_e

from companion.games import specs
from companion.games.palette import Palette
from companion.ui.widgets.palette import PALETTE as KIOSK

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
PHONE_CSS = PACKAGE / "web" / "pages" / "static" / "app.css"
CONSOLE_CSS = PACKAGE / "console" / "console.css"
# The stylesheets' colours that mean something side by side: a message that
# went through and one refused; the player whose turn it is among the others;
# the live link and the lost one; a board's two sides (Secret Hitler's tracks).
PHONE_PAIRS = (("ok", "error"), ("accent", "text"), ("error", "muted"), ("cool", "warm"))
CONSOLE_PAIRS = (("alert", "text"), ("alert", "border"))


def _phone_palette(scheme: str) -> Palette:
    css = PHONE_CSS.read_text(encoding="utf-8")
    if scheme == "light":
        css = css[css.index("prefers-color-scheme: light") :]
    colours = {name: (*hex_rgb(value), 1.0) for name, value in css_palette(css).items()}
    return Palette(name=f"phone pages ({scheme})", colours=colours, pairs=PHONE_PAIRS)


def _console_palette() -> Palette:
    css = CONSOLE_CSS.read_text(encoding="utf-8")
    colours = {name: (*hex_rgb(value), 1.0) for name, value in css_palette(css).items()}
    return Palette(name="console", colours=colours, pairs=CONSOLE_PAIRS)


def palettes() -> list[Palette]:
    games = [spec.palette for spec in specs() if spec.palette is not None]
    return [KIOSK, *games, _phone_palette("dark"), _phone_palette("light"), _console_palette()]


def test_the_games_with_colours_of_their_own_declare_them():
    declared = {p.name for p in palettes()}
    assert {"kiosk", "secret_hitler", "article27"} <= declared
    assert all(p.pairs for p in palettes())


@pytest.mark.parametrize("palette", palettes(), ids=lambda p: p.name)
def test_colours_that_mean_different_things_stay_apart_for_every_eye(palette):
    too_close = []
    for a, b in palette.pairs:
        distance, seen_by = worst_delta_e(palette.colours[a], palette.colours[b])
        if distance < MIN_DELTA_E:
            too_close.append(f"{a}/{b}: ΔE {distance:.1f} in {seen_by}")
    assert too_close == [], f"{palette.name}: under ΔE {MIN_DELTA_E}"


def test_the_measure_tells_a_red_green_pair_apart_only_for_normal_vision():
    """The check can fail: the classic green and red of a Yes/Veto pair are far
    apart for most eyes and all but one for a deuteranope."""
    green, red = (0.22, 0.5, 0.3), (0.66, 0.22, 0.2)
    assert delta_e(green, red) > 40
    assert delta_e(green, red, "deuteranopia") < 10
    assert worst_delta_e(green, red)[1] == "deuteranopia"
