"""Measures of text the layouts ask for again and again, kept: one set per
writing direction. A line's runs, and so its width, depend on the direction
of the paragraph it is laid out in (:func:`.shaping.paragraph`): in a
right-to-left paragraph a Latin line's closing colon or bracket is a run of
its own, and "now:" measures a pixel or two wider. A measure made while the
kiosk wrote Persian must not answer for an English screen: when it did, a
screen laid out after another language had measured the same words came out
a pixel off one laid out alone, which a kept screen compared with a fresh
one showed."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar

from kivy.core.text import Label

from .direction import writing

MEASURES_KEPT = 2048  # a screen's measures of its texts, kept per direction

Measure = TypeVar("Measure", bound=Callable[..., Any])


def kept_measure(measure: Measure) -> Measure:
    """``measure`` (of a text laid out in the kiosk's writing direction)
    answered from what it measured before in the same direction."""
    kept = lru_cache(maxsize=MEASURES_KEPT)(lambda _rtl, *args: measure(*args))

    @wraps(measure)
    def measured(*args: Any) -> Any:
        return kept(writing.rtl, *args)

    return measured  # type: ignore[return-value]


@kept_measure
def line_width(text: str, font_size: float, font_name: str, bold: bool = False) -> float:
    """The width of ``text`` set on one line, unshortened."""
    extents = Label(font_size=font_size, font_name=font_name, bold=bold).get_cached_extents()
    return float(extents(text)[0])


@kept_measure
def words_fit_size(
    text: str, width: float, largest: float, smallest: float, bold: bool, font_name: str
) -> float:
    """The largest type from ``largest`` down to ``smallest`` (a point at a
    time) at which each word of ``text`` fits ``width``: the text then
    wraps between its words, never inside one ("Телеведущий" in a narrow
    card). ``smallest`` where even that is too wide."""
    size = largest
    while size > smallest:
        extents = Label(font_size=size, bold=bold, font_name=font_name).get_cached_extents()
        if max((extents(word)[0] for word in text.split()), default=0) <= width:
            return size
        size -= 1
    return smallest
