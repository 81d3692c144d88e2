"""The measures of text the layouts keep are kept per writing direction: a
Latin line measures differently in a right-to-left paragraph (its closing
colon is a run of its own), and a measure made while the kiosk wrote
Persian once answered for an English screen, which then laid out a pixel
off one laid out alone. In a real Kivy window (headless with Mesa)."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy.base")


@pytest.fixture
def writing(window):
    from companion.ui.text.direction import writing

    yield writing
    writing.use("en")


def measured_alone(text: str, size: int) -> float:
    """The width of ``text`` measured now, nothing kept."""
    from kivy.core.text import Label

    return float(Label(font_size=size).get_extents(text)[0])


def test_a_measure_made_right_to_left_does_not_answer_left_to_right(writing):
    from companion.ui.text.measures import line_width

    text, size = "empty:", 18
    writing.use("fa")
    right_to_left = line_width(text, size, "Roboto")
    assert right_to_left == measured_alone(text, size)
    writing.use("en")
    left_to_right = line_width(text, size, "Roboto")
    assert left_to_right == measured_alone(text, size)
    assert left_to_right != right_to_left  # else this test proves nothing


def test_the_type_that_fits_is_chosen_in_the_direction_laid_out(writing):
    """A width that fits the words left to right but not right to left:
    each direction gets its own answer, whichever asked first."""
    from companion.ui.text.measures import words_fit_size

    text = "now:"
    writing.use("en")
    fits_ltr = measured_alone(text, 20)
    writing.use("fa")
    fits_rtl = measured_alone(text, 20)
    assert fits_rtl > fits_ltr
    assert words_fit_size(text, fits_ltr, 20, 12, False, "Roboto") < 20
    writing.use("en")
    assert words_fit_size(text, fits_ltr, 20, 12, False, "Roboto") == 20
