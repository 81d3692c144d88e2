"""Colour and contrast on the kiosk as rendered, in a real Kivy window
(headless with Mesa): home and one screen of each game (tests/colour_scenes.py)
at 1280×720, each text's contrast measured from the screenshot's pixels
(WCAG AA: 4.5:1, 3:1 for large text); every widget whose background shows a
colour that carries meaning also carries words; and the same screens as seen
with deuteranopia, protanopia and tritanopia, written as a contact sheet
(screenshots/colour-vision.png) whose texts stay readable and whose
meaningful colours stay apart."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy.base")
import numpy as np  # noqa: E402
from colour_helpers import (  # noqa: E402
    DEFICIENCIES,
    MIN_DELTA_E,
    contrast,
    delta_e,
    read_png,
    simulate_image,
    text_contrast,
    write_png,
    write_sheet,
)
from colour_scenes import SCENES  # noqa: E402
from kiosk_helpers import wait_for_reveal, walk, window_shot  # noqa: E402
from kiosk_pixels import shown_colour, shown_texts, text_boxes  # noqa: E402
from ui_helpers import SHOTS, frames, show  # noqa: E402

from companion.games.palette import Palette  # noqa: E402
from companion.table import EventStore  # noqa: E402
from companion.ui.widgets.palette import PALETTE as KIOSK  # noqa: E402

SIZE = (1280, 720)
SCREENS = ["home", *SCENES]


class Rendered:
    """A screen on the window, its screenshot and what was read from it
    while it was shown."""

    def __init__(self, window, name: str, folder) -> None:
        if name == "home":
            from companion.ui.kiosk import Kiosk

            self.palette: Palette | None = None
            screen = show(window, Kiosk(EventStore(folder / "home.sqlite3"), None, lang="en"), SIZE)
        else:
            table = SCENES[name](folder)
            self.palette = table.spec.palette
            screen = show(window, table.spec.screen()(table, lang="en"), SIZE)
            if "ballot" in screen.ids:
                wait_for_reveal(screen.ids.ballot)
            assert not screen.send({"type": "vote", "seat": 0, "choice": "yes"})
            assert screen.message_text, "a refusal in the alert's colour"
        frames(4)
        self.screen = screen
        self.pixels = read_png(window_shot(window, f"colour-{name}-1280x720"))
        self.texts = text_boxes(screen, window)
        self.readings = [box.read(self.pixels) for box in self.texts]
        self.coloured = self._meaningful_backgrounds(window)

    def _meaningful_backgrounds(self, window) -> list[tuple[str, object, tuple[int, int]]]:
        """Widgets whose box shows, for the most part, a colour of the kiosk's
        or the game's palette: (colour name, widget, the pixel (column, row)
        at its centre). A track's slots (and the tiles drawn in them) are
        left out: each row's name and count say its party and how far it
        is filled ("Fascist: 2 of 6"), its slots only draw it."""
        named = {
            tuple(round(c * 255) for c in colour[:3]): name
            for palette in (KIOSK, self.palette)
            if palette is not None
            for name, colour in palette.colours.items()
        }
        found = []
        for widget in walk(self.screen):
            slots = [w for w in (widget, *_ancestors(widget)) if type(w).__name__ == "PolicySlot"]
            if slots or widget.width < 24 or widget.height < 24:
                continue
            shown = shown_colour(widget, window, self.pixels)
            for rgb, name in named.items():
                if max(abs(a - b) for a, b in zip(shown, rgb)) <= 2:
                    x, y = widget.to_window(*widget.center)
                    found.append((name, widget, (int(x), int(window.height - y))))
        # A part of a coloured widget (a seat panel's empty line) is that widget's.
        outer = {(name, id(widget)) for name, widget, _ in found}
        return [
            (name, widget, centre)
            for name, widget, centre in found
            if not any((name, id(up)) in outer for up in _ancestors(widget))
        ]


def _ancestors(widget):
    while widget.parent is not None and widget.parent is not widget:
        widget = widget.parent
        yield widget


def vision_row(pixels: np.ndarray, seen: dict[str, np.ndarray]) -> np.ndarray:
    """A contact sheet's row: the screen as rendered, then as each
    deficiency sees it."""
    return np.hstack([pixels, *seen.values()])


@pytest.fixture(scope="module")
def rendered(window, tmp_path_factory) -> dict[str, Rendered]:
    folder = tmp_path_factory.mktemp("colour")
    return {name: Rendered(window, name, folder) for name in SCREENS}


def test_the_contrast_read_from_pixels_is_the_contrast_drawn():
    """The measure can fail: a dim grey text on a grey ground reads as such."""
    crop = np.full((20, 60, 3), 0x88, dtype=np.uint8)
    crop[8:12, 5:55] = 0x77
    ratio, colour, background = text_contrast(crop)
    assert background == (0x88, 0x88, 0x88) and colour == (0x77, 0x77, 0x77)
    assert ratio == pytest.approx(contrast((0x77 / 255,) * 3, (0x88 / 255,) * 3)) and ratio < 1.3
    crop[8:12, 5:55] = 0xFF
    crop[0, 0] = 0  # a stray pixel is not the text
    assert text_contrast(crop)[1] == (0xFF, 0xFF, 0xFF)


@pytest.mark.parametrize("name", SCREENS)
def test_every_text_on_screen_meets_wcag_aa_as_rendered(rendered, name):
    shown = rendered[name]
    assert len(shown.readings) >= 8, [r.text for r in shown.readings]
    low = [str(r) for r in shown.readings if r.ratio < r.needed]
    assert low == []


@pytest.mark.parametrize("name", list(SCENES))
def test_a_meaningful_colour_always_comes_with_words(rendered, name):
    """Each widget that shows a seat's state, a vote or a party in its colour
    shows text as well (its own or its children's; a piece's icon, the
    words it stands beside)."""
    from companion.ui.widgets.icon import IconView

    shown = rendered[name]
    wordless = [
        (colour, type(widget).__name__)
        for colour, widget, _ in shown.coloured
        if not any(
            label.text.strip()
            for label in shown_texts(widget.parent if isinstance(widget, IconView) else widget)
        )
    ]
    assert wordless == []


# What each coloured widget of a scene says in words, by its colour.
COLOUR_WORDS = {
    ("article27", "yes"): "Yes",
    ("article27", "veto"): "Veto",
    ("article27", "abstain"): "Abstain",
    ("secret_hitler", "ja"): "Ja!",
    ("secret_hitler", "nein"): "Nein",
    ("secret_hitler", "seat_active"): "President|Chancellor",
    ("coup", "seat_active"): "Their turn",
    ("coup", "seat_waiting"): "To answer",
    ("g54", "seat_active"): "Their turn",
    ("g54", "seat_waiting"): "To answer",
}


def test_each_meaningful_colour_says_its_meaning_in_words(rendered):
    import re

    seen = set()
    for (name, colour), words in COLOUR_WORDS.items():
        for shown_as, widget, _ in rendered[name].coloured:
            if shown_as == colour:
                texts = [label.text for label in shown_texts(widget)]
                assert any(re.search(rf"\b({words})(\W|$)", t) for t in texts), (colour, texts)
                seen.add((name, colour))
    assert seen == set(COLOUR_WORDS)


def test_the_countdown_s_last_30_seconds_are_drawn_in_the_warning_colour(rendered):
    """... and said beneath them."""
    warning = rendered["article27_warning"]
    assert "Last 30 seconds!" in [r.text for r in warning.readings]
    [countdown] = [r for r in warning.readings if r.text == warning.screen.countdown_text]
    expected = warning.palette.colours["countdown_warning"]
    assert max(abs(a - round(b * 255)) for a, b in zip(countdown.colour, expected)) <= 2


def _track_signs(screen) -> dict[str, set[str]]:
    """The signs the agenda track draws in each colour (Kivy markup)."""
    import re

    signs: dict[str, set[str]] = {}
    for row in screen.ids.track.children:
        for colour, text in re.findall(r"\[color=(\w+)\]([^\[]*)\[/color\]", row.disks):
            signs.setdefault(colour, set()).update(text)
    return signs


def test_the_agenda_track_tells_passed_from_failed_by_shape_too(rendered):
    signs = _track_signs(rendered["article27"].screen)
    assert len(signs) == 2, signs  # a passed and a failed agenda are on the track
    up, down = signs.values()
    assert up and down and up.isdisjoint(down)


@pytest.mark.parametrize("name", list(SCENES))
def test_under_each_deficiency_texts_stay_readable_and_meanings_apart(rendered, name):
    """The screenshot as seen with each deficiency, beside the original on one
    row of the contact sheet: every text still meets WCAG AA there (a
    deficiency changes hues, and may darken red), and the colours that mean
    different things, as rendered, stay MIN_DELTA_E apart."""
    shown = rendered[name]
    seen = {d: simulate_image(shown.pixels, d) for d in DEFICIENCIES}
    write_png(vision_row(shown.pixels, seen), SHOTS / f"colour-vision-{name}.png")
    centres = {colour: centre for colour, _, centre in reversed(shown.coloured)}
    for deficiency, pixels in seen.items():
        low = [str(r) for r in (box.read(pixels) for box in shown.texts) if r.ratio < r.needed]
        assert low == [], (deficiency, low)
        sampled = {c: pixels[row, column] / 255 for c, (column, row) in centres.items()}
        pairs = [*KIOSK.pairs, *(shown.palette.pairs if shown.palette else ())]
        for a, b in pairs:
            if a in sampled and b in sampled:
                distance = delta_e(sampled[a], sampled[b])
                assert distance >= MIN_DELTA_E, (deficiency, a, b, round(distance, 1))


def test_the_contact_sheet_shows_each_game_under_each_deficiency(rendered):
    """One row per scene: as rendered, then with deuteranopia, protanopia and
    tritanopia; at a third of the size, so that it is small enough to commit
    (docs/images/colour-vision.png)."""
    # Made here from the screens this worker rendered, not read back from
    # the rows' files: another worker may run (or not yet have run) those.
    sheet = np.vstack(
        [
            vision_row(shown.pixels, {d: simulate_image(shown.pixels, d) for d in DEFICIENCIES})
            for shown in (rendered[name] for name in SCENES)
        ]
    )
    path = write_sheet(sheet, SHOTS / "colour-vision.png", scale=1 / 3)
    assert read_png(path).shape[:2] == (round(sheet.shape[0] / 3), round(sheet.shape[1] / 3))
    assert sheet.shape[:2] == (len(SCENES) * SIZE[1], (1 + len(DEFICIENCIES)) * SIZE[0])
