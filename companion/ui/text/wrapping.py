"""Wrapped labels measured in a few strides instead of word by word.

Kivy wraps a label's text by measuring ever longer prefixes of each line:
one word more, then its space, then the next word. Every new text measured
is a shaping with HarfBuzz and a hinted load of each of its glyphs, so a
sentence of 16 words wrapped at the kiosk's width cost 33 measures and
26 M instructions with Pillow, half of a busy frame (docs/benchmarks.md,
pi_budget). With SDL2_ttf (ui/text/shaping.py) a measure is far cheaper,
but a Persian one is still a FriBiDi layout and a shaping per run: laying
out 60 long catalog texts costs 10% less in strides in Persian, and the
same in English (docs/benchmarks.md, "The text path").

A text's width only grows as text is added to its end (its box takes
in every glyph and the pen's advance), so one measure of a longer text
decides every prefix of it that fits, and one of a shorter text every
extension of it that does not. When Kivy asks about a prefix that no
measure decides, :class:`Strides` guesses from its width where the line
breaks, gallops from the guess and then halves the distance between what
fits and what does not, at the places Kivy may break (before and after
each space); Kivy's other questions are answered from those few measures.
What Kivy is told of a prefix that fits is only that it fits, so the lines
it makes are measured afterwards and drawn with their exact widths. It
breaks the lines where it would have (tests/test_wrapping.py compares every
catalog text, wrapped both ways)."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any

Measure = Callable[[str], tuple[int, int]]


class Strides:
    """Kivy's questions about one label's lines, answered for a width."""

    def __init__(self, text: str, room: int, measure: Measure) -> None:
        self.lines = text.split("\n")
        self.room = room
        self.measure = measure
        self.fitting: dict[str, tuple[int, int]] = {}  # measured, and fits
        self.too_wide: dict[str, tuple[int, int]] = {}  # measured, and does not

    def extents(self, text: str) -> tuple[int, int]:
        decided = self._decided(text)
        if decided is None:
            rest = self._rest(text)
            if rest is None:
                return self._measured(text)
            self._search(text, rest)
            decided = self._decided(text)
        return decided if decided is not None else self._measured(text)

    def _decided(self, text: str) -> tuple[int, int] | None:
        """What a measure already says of ``text``: the size of ``text`` or
        of a longer text that fits, or of a shorter one that does not."""
        for longer, size in self.fitting.items():
            if longer.startswith(text):
                return size
        for shorter, size in self.too_wide.items():
            if text.startswith(shorter):
                return size
        return None

    def _rest(self, text: str) -> str | None:
        """The label's text from where ``text`` begins to its line's end."""
        for line in self.lines:
            at = line.find(text)
            if at != -1:
                return line[at:]
        return None

    def _search(self, text: str, rest: str) -> None:
        """Find where the line beginning with ``text`` breaks in ``rest``:
        from ``text``'s own width, guess how many letters the room holds,
        gallop from the guess at the places Kivy may break (before and
        after each space) until one fits and the next does not, then halve
        the distance between them. A few measures of about a line's length,
        where Kivy measured every word's prefix of it."""
        width = self._measured(text)[0]
        if width > self.room or len(rest) == len(text):
            return
        ends = [len(text)]
        ends += [end for end in range(len(text) + 1, len(rest)) if " " in rest[end - 1 : end + 1]]
        ends.append(len(rest))
        guess = self.room * len(text) / max(width, 1)
        probe = max(1, bisect.bisect_right(ends, guess) - 1)
        # ends[low] fits (ends[0] is text); ends[high] does not (len(ends): none known)
        up = self._fits(rest[: ends[probe]])
        low, high = (probe, len(ends)) if up else (0, probe)
        step = 1
        while high - low > 1:  # gallop until the break lies between low and high
            probe = min(low + step, len(ends) - 1) if up else max(high - step, low + 1)
            if self._fits(rest[: ends[probe]]):
                low = probe
                if not up:
                    break
            else:
                high = probe
                if up:
                    break
            step *= 2
        while high - low > 1:  # then halve it
            probe = (low + high) // 2
            if self._fits(rest[: ends[probe]]):
                low = probe
            else:
                high = probe

    def _fits(self, text: str) -> bool:
        return self._measured(text)[0] <= self.room

    def _measured(self, text: str) -> tuple[int, int]:
        size = self.measure(text)
        (self.fitting if size[0] <= self.room else self.too_wide)[text] = size
        return size


def _strides_for(label: Any) -> Strides | None:
    """Strides for a label Kivy is about to wrap, or None where its layout
    is one this does not follow: stripped, justified or shortened lines,
    and lines cut off by a height or a count (Kivy's width of the text
    counts the lines it cut off, which are not there to be measured)."""
    options = label.options
    width, height = label._text_size
    if width is None or height is not None or options.get("max_lines"):
        return None
    if options["strip"] or options["shorten"] or options["halign"].endswith("y"):  # justify
        return None
    text = label.text
    padding = options["padding"]
    room = max(0, int(width - padding[0] - padding[2]))
    return Strides(text, room, label._exact_extents())


def install() -> None:
    """Wrap Kivy's plain labels with :class:`Strides` (markup labels have
    a layout of their own and keep it)."""
    from kivy.core.text import Label

    if getattr(Label, "_strided", False):
        return
    render = Label.render
    cached_extents = Label.get_cached_extents

    def get_cached_extents(label: Any) -> Measure:
        strides = getattr(label, "_strides", None)
        return strides.extents if strides is not None else cached_extents(label)

    def strided_render(label: Any, real: bool = False) -> Any:
        if real:
            return render(label, real)
        label._strides = _strides_for(label)
        try:
            size = render(label, real)
        finally:
            strides, label._strides = label._strides, None
        if strides is not None:
            _measure_lines(label, strides.measure)
        return size

    Label._exact_extents = cached_extents
    Label.get_cached_extents = get_cached_extents
    Label.render = strided_render
    Label._strided = True


def _measure_lines(label: Any, measure: Measure) -> None:
    """Give each line Kivy made the exact width of its text."""
    lines = label._cached_lines
    widest = max((line.w for line in lines), default=0)
    for line in lines:
        for word in line.words:
            exact = measure(word.text)[0]
            line.w += exact - word.lw
            word.lw = exact
    width, height = label._internal_size
    label._internal_size = (width + max((line.w for line in lines), default=0) - widest, height)
