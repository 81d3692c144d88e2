"""A line of text cut into directional runs, in the order they are drawn.

HarfBuzz (in SDL2_ttf) shapes a run of one direction and one script; it
does not apply the Unicode bidirectional algorithm. FriBiDi does: it gives
each character of a line its embedding level (even: left to right, odd:
right to left) in a paragraph of a given direction, or of the direction of
its first strong letter (isolates passed over). Runs of one level are then
reordered by rule L2 (from the highest level down to the lowest odd one,
every sequence of runs at that level or above is reversed), which is what
raqm, Pillow's layout, does with the same levels: a Persian line with
Persian digits and a Latin name comes out in the same order either way.
Each run keeps its text in logical order; HarfBuzz lays a right-to-left
run out from the right and mirrors its brackets."""

from __future__ import annotations

import ctypes
import ctypes.util
import re
from functools import lru_cache
from typing import NamedTuple

# Characters that make a line bidirectional: Hebrew, Arabic and the other
# right-to-left blocks, their presentation forms, and the explicit marks,
# embeddings, overrides and isolates that can turn a line around.
_RIGHT_TO_LEFT = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u200f\u061c\u202a-\u202e\u2066-\u2069"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
# The controls themselves draw nothing; HarfBuzz is not given them.
_CONTROLS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")

# The ISO 15924 codes HarfBuzz is told for a run, by its letters' blocks.
_SCRIPTS = ("Arab", "Hebr", "Cyrl", "Grek", "Latn")
_SCRIPT_OF = re.compile(
    "([\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff])"
    "|([\u0590-\u05ff\ufb1d-\ufb4f])"
    "|([\u0400-\u052f\u1c80-\u1c8f\u2de0-\u2dff\ua640-\ua69f])"
    "|([\u0370-\u03ff\u1f00-\u1fff])"
    "|([A-Za-z\u00c0-\u024f\u1e00-\u1eff])"
)

_PAR = {"ltr": 0x110, "rtl": 0x111, None: 0x40}  # FriBiDi's FRIBIDI_PAR_LTR, _RTL, _ON
RUNS_KEPT = 4096  # lines cut into runs, remembered (a screen shows the same lines again)


class Run(NamedTuple):
    text: str  # in logical order
    rtl: bool
    script: str  # ISO 15924, as HarfBuzz is told it


def script_of(text: str, rtl: bool) -> str:
    """The script of ``text``'s first letter (Arabic, Hebrew, Cyrillic,
    Greek or Latin); for a run of digits and signs alone, Arabic in a
    right-to-left run, else Latin."""
    found = _SCRIPT_OF.search(text)
    if found is not None and found.lastindex is not None:
        return _SCRIPTS[found.lastindex - 1]
    return "Arab" if rtl else "Latn"


def bidirectional(text: str) -> bool:
    """Whether ``text`` holds anything that may draw right to left."""
    return _RIGHT_TO_LEFT.search(text) is not None


@lru_cache(maxsize=RUNS_KEPT)
def visual_runs(line: str, paragraph: str | None) -> tuple[Run, ...]:
    """``line`` as runs in the order they are drawn, left to right, laid
    out as a paragraph of ``paragraph`` ("ltr", "rtl"), or of its first
    strong letter's direction (``None``)."""
    if paragraph != "rtl" and not bidirectional(line):
        return (Run(line, False, script_of(line, False)),)
    levels = _levels(line, paragraph)
    runs: list[tuple[int, int, int]] = []  # (level, start, end)
    start = 0
    while start < len(levels):
        level = levels[start]
        end = start + len(levels[start:]) - len(levels[start:].lstrip(bytes([level])))
        runs.append((level, start, end))
        start = end
    ordered = _reordered(runs)
    result = []
    for level, start, end in ordered:
        text = _CONTROLS.sub("", line[start:end])
        if text:
            rtl = bool(level % 2)
            result.append(Run(text, rtl, script_of(text, rtl)))
    return tuple(result)


def _reordered(runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Rule L2 of the bidirectional algorithm over whole runs."""
    if not runs:
        return runs
    highest = max(level for level, _, _ in runs)
    lowest_odd = min((level for level, _, _ in runs if level % 2), default=highest + 1)
    runs = list(runs)
    for level in range(highest, lowest_odd - 1, -1):
        at = 0
        while at < len(runs):
            if runs[at][0] >= level:
                end = at
                while end < len(runs) and runs[end][0] >= level:
                    end += 1
                runs[at:end] = runs[at:end][::-1]
                at = end
            else:
                at += 1
    return runs


class _FriBiDi:
    """The system's FriBiDi (libfribidi0), through ctypes. Its buffers are
    made once and grown when a longer line comes: a ctypes array type of a
    new length is a new Python class, which costs more than the layout."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL(ctypes.util.find_library("fribidi") or "libfribidi.so.0")
        self.lib.fribidi_get_par_embedding_levels_ex.restype = ctypes.c_int8
        self.room = 0
        self._grow(256)

    def _grow(self, size: int) -> None:
        self.room = size
        self.chars = (ctypes.c_uint32 * size)()
        self.types = (ctypes.c_uint32 * size)()
        self.brackets = (ctypes.c_uint32 * size)()
        self.levels_out = (ctypes.c_int8 * size)()

    def levels(self, text: str, paragraph: str | None) -> bytes:
        size = len(text)
        if size > self.room:
            self._grow(max(size, 2 * self.room))
        encoded = text.encode("utf-32-le")
        ctypes.memmove(self.chars, encoded, len(encoded))
        base = ctypes.c_uint32(_PAR[paragraph])
        self.lib.fribidi_get_bidi_types(self.chars, size, self.types)
        self.lib.fribidi_get_bracket_types(self.chars, size, self.types, self.brackets)
        if not self.lib.fribidi_get_par_embedding_levels_ex(
            self.types, self.brackets, size, ctypes.byref(base), self.levels_out
        ):
            raise RuntimeError("FriBiDi could not lay out a line")
        return ctypes.string_at(self.levels_out, size)


@lru_cache(maxsize=1)
def fribidi() -> _FriBiDi | None:
    """FriBiDi, or None where the system has none."""
    try:
        return _FriBiDi()
    except OSError:
        return None


def _levels(text: str, paragraph: str | None) -> bytes:
    """Each character's embedding level (FriBiDi's are 0 to 125)."""
    library = fribidi()
    if library is None:  # drawn as one run of the paragraph's direction
        return bytes([1 if paragraph == "rtl" else 0]) * len(text)
    return library.levels(text, paragraph)
