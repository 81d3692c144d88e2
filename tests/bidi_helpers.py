"""How FriBiDi (the library Kivy's text, through Pillow's raqm, lays
Persian out with) orders a line: the direction it gives a paragraph (its
first strong letter, isolates passed over, as raqm asks it) and the line's
characters in the order they are drawn, left to right."""

from __future__ import annotations

import ctypes
import ctypes.util

_LIB = ctypes.CDLL(ctypes.util.find_library("fribidi") or "libfribidi.so.0")
PAR_ON, PAR_LTR, PAR_RTL = 0x40, 0x110, 0x111  # FriBiDi's paragraph types
_Chars = ctypes.c_uint32


def _chars(text: str):
    return (_Chars * len(text))(*map(ord, text))


def _laid_out(text: str) -> tuple[str, int]:
    """(``text`` as drawn left to right, its paragraph's type)."""
    base = ctypes.c_uint32(PAR_ON)  # found from the text, as raqm asks
    visual = (_Chars * (len(text) + 1))()
    _LIB.fribidi_log2vis(_chars(text), len(text), ctypes.byref(base), visual, None, None, None)
    return "".join(chr(c) for c in visual[: len(text)]), base.value


def paragraph_direction(text: str) -> str:
    """ "rtl", "ltr", or "neutral" (no strong letter outside an isolate:
    raqm then lays it out left to right)."""
    return {PAR_RTL: "rtl", PAR_LTR: "ltr"}.get(_laid_out(text)[1], "neutral")


def drawn_order(text: str) -> str:
    """``text``'s characters as drawn, left to right."""
    return _laid_out(text)[0]
