"""Wrapped labels measured in strides (ui/text/wrapping.py) break where Kivy's
own word-by-word measuring breaks them and are drawn the same, pixel for
pixel: every text of every catalog, at widths from a phone-narrow column
to the kiosk's, aligned left, centred and right, with padding."""

from __future__ import annotations

import contextlib

import pytest

from companion.i18n import LANGUAGES, catalog

pytestmark = pytest.mark.usefixtures("window")

WIDTHS = (90, 160, 240, 420)
SIZES = (14, 17, 21, 26)
ALIGNS = ("left", "center", "right")


def texts(lang: str) -> list[str]:
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(catalog(lang))
    return sorted(found)


@contextlib.contextmanager
def word_by_word():
    """Kivy's own wrapping, every prefix measured."""
    from kivy.core.text import Label

    strided = Label.get_cached_extents
    Label.get_cached_extents = Label._exact_extents
    try:
        yield
    finally:
        Label.get_cached_extents = strided


def laid_out(text: str, **options):
    """The label's lines (each word's text and width), its sizes and its
    texture's pixels."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, **options)
    label.refresh()
    lines = [
        (line.w, [(word.text, word.lw) for word in line.words]) for line in label._cached_lines
    ]
    if label.texture is label.texture_1px:
        return lines, label._internal_size, None
    label._render_real()
    return lines, label._internal_size, (label.texture.size, label.texture.pixels)


def measures(text: str, **options) -> int:
    """How many texts laying the label out measured."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, **options)
    calls = []
    measure = label.get_extents
    label.get_extents = lambda part: calls.append(part) or measure(part)
    from kivy.core.text import Label

    Label._measured.clear()
    label.refresh()
    return len(calls)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_text_wraps_where_kivy_wraps_it(lang):
    different = []
    wrapped = 0
    for number, text in enumerate(texts(lang)):
        options = {
            "font_size": SIZES[number % len(SIZES)],
            "text_size": (WIDTHS[number % len(WIDTHS)], None),
            "halign": ALIGNS[number % len(ALIGNS)],
            "padding": (number % 5, 2, 7 - number % 4, 1),
        }
        strided = laid_out(text, **options)
        with word_by_word():
            kivys = laid_out(text, **options)
        if strided != kivys:
            different.append((text, options, strided[:2], kivys[:2]))
        wrapped += len(strided[0]) > 1
    assert not different, different[:3]
    assert wrapped > len(texts(lang)) / 4  # the widths do make lines wrap


@pytest.mark.parametrize(
    "options",
    [
        {"text_size": (200, 60), "valign": "middle"},
        {"text_size": (200, 60), "valign": "bottom"},
        {"text_size": (200, None), "line_height": 0.8, "max_lines": 2},
        {"text_size": (200, None), "strip": True},
        {"text_size": (200, 40), "shorten": True},
        {"text_size": (60, None)},  # a word wider than the line: Kivy splits it
    ],
)
def test_other_layouts_are_as_kivy_makes_them(options):
    text = (
        "Player 5 challenges: Player 1, show the Captain or lose the challenge.\n"
        "Second  line,  two  spaces"
    )
    strided = laid_out(text, font_size=19, **options)
    with word_by_word():
        assert laid_out(text, font_size=19, **options) == strided


def test_a_long_sentence_is_measured_in_a_few_strides():
    text = (
        "Player 1 draws three tiles and passes two to Player 8: enter the policy Player 8 enacts."
    )
    options = {"font_size": 18, "text_size": (330, None)}
    strided = measures(text, **options)
    with word_by_word():
        kivys = measures(text, **options)
    assert kivys >= 30 and strided <= kivys / 2, (strided, kivys)
