"""The kiosk's text path: Kivy's SDL2 text (SDL2_ttf, which shapes with
HarfBuzz), each line cut into directional runs first (:mod:`.runs`).

Why not Pillow any more: Pillow (raqm) builds a new HarfBuzz font for every
text it measures or draws, about 180 K instructions each, which was 40–73%
of a busy frame (docs/benchmarks.md, "The text path"). SDL2_ttf keeps one
font per size and shapes with it. It does no bidirectional layout, so each
line is laid out here as a paragraph of the kiosk's writing direction, or
of the label's ``base_direction`` ("ltr"/"rtl") where it names one (as
Pillow's lines were, :mod:`.direction`), its runs drawn one after the
other, each shaped in its own direction and script.

Kivy 2.3's SDL2 provider tells SDL2_ttf a label's ``font_direction`` and
``font_script_name`` when it draws, but not when it measures (the measure
uses whatever the font was last drawn with), so runs are measured here with
fonts of our own from the same SDL2_ttf, told the run's direction and
script each time.

SDL2_ttf shapes only when it was built with HarfBuzz (the Kivy wheels'
is); without it :func:`prefer_sdl2` leaves Kivy on Pillow, whose raqm lays
out right-to-left text itself (that is the only place Pillow still draws
the kiosk's text)."""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

from .runs import Run, visual_runs

FONTS_KEPT = 64  # open fonts (one per file and size), as Kivy's own cache keeps
SIZES_KEPT = 8192  # runs measured (drawing a line measures its runs again)
_DIRECTIONS = {False: 0, True: 1}  # SDL2_ttf's TTF_DIRECTION_LTR, _RTL
_HB_DIRECTION_LTR = 4


def _loaded_library() -> str | None:
    """The SDL2_ttf this process already loaded (Kivy's), if any."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return None
    for line in maps.splitlines():
        path = line.rsplit(" ", 1)[-1]
        if "libSDL2_ttf" in Path(path).name:
            return path
    return None


def _wheel_library() -> str | None:
    """The SDL2_ttf in Kivy's wheel (``Kivy.libs``), or the system's. The
    wheel's libraries find each other through Kivy's own modules' search
    path, so its SDL2 and libpng are loaded first, as Kivy loads them."""
    spec = importlib.util.find_spec("kivy")
    if spec is not None and spec.origin is not None:
        libs = Path(spec.origin).parent.parent / "Kivy.libs"
        found = sorted(libs.glob("libSDL2_ttf*.so*"))
        if found:
            for needed in sorted(libs.glob("libpng*.so*")) + sorted(libs.glob("libSDL2-*.so*")):
                ctypes.CDLL(str(needed), mode=ctypes.RTLD_GLOBAL)
            return str(found[0])
    return ctypes.util.find_library("SDL2_ttf")


class SDLTTF:
    """The few SDL2_ttf calls a run's measure needs."""

    def __init__(self, path: str) -> None:
        lib = self.lib = ctypes.CDLL(path)
        lib.TTF_OpenFont.restype = ctypes.c_void_p
        lib.TTF_OpenFont.argtypes = [ctypes.c_char_p, ctypes.c_int]
        lib.TTF_CloseFont.argtypes = [ctypes.c_void_p]
        lib.TTF_FontHeight.argtypes = [ctypes.c_void_p]
        lib.TTF_SetFontDirection.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.TTF_SetFontScriptName.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.TTF_SizeUTF8.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_int),
        ]
        self.fonts: OrderedDict[tuple[str, int], int] = OrderedDict()
        self.sizes: dict[tuple[int, Run], tuple[int, int]] = {}
        self._w, self._h = ctypes.c_int(), ctypes.c_int()

    def shapes(self) -> bool:
        """Whether this SDL2_ttf shapes with HarfBuzz (2.20 or later, built
        with it: its TTF_SetDirection refuses otherwise)."""
        setter = getattr(self.lib, "TTF_SetDirection", None)
        if setter is None or not hasattr(self.lib, "TTF_SetFontScriptName"):
            return False
        if not self.lib.TTF_WasInit():
            self.lib.TTF_Init()
        return setter(_HB_DIRECTION_LTR) == 0  # the default direction, set again

    def font(self, name: str, size: int) -> int:
        key = (name, size)
        font = self.fonts.get(key)
        if font is None:
            if not self.lib.TTF_WasInit():
                self.lib.TTF_Init()
            font = self.lib.TTF_OpenFont(name.encode(), size)
            if not font:
                raise ValueError(f"SDL2_ttf cannot open {name}")
            self.fonts[key] = font
            while len(self.fonts) > FONTS_KEPT:
                closed = self.fonts.popitem(last=False)[1]
                self.sizes = {key: size for key, size in self.sizes.items() if key[0] != closed}
                self.lib.TTF_CloseFont(closed)
        return font

    def height(self, font: int) -> int:
        return self.lib.TTF_FontHeight(font)

    def size(self, font: int, run: Run) -> tuple[int, int]:
        """``run``'s width and height, shaped in its direction and script."""
        key = (font, run)
        size = self.sizes.get(key)
        if size is None:
            self.lib.TTF_SetFontDirection(font, _DIRECTIONS[run.rtl])
            self.lib.TTF_SetFontScriptName(font, run.script.encode())
            self.lib.TTF_SizeUTF8(
                font, run.text.encode(), ctypes.byref(self._w), ctypes.byref(self._h)
            )
            if len(self.sizes) >= SIZES_KEPT:
                del self.sizes[next(iter(self.sizes))]
            size = self.sizes[key] = (self._w.value, self._h.value)
        return size


@lru_cache(maxsize=1)
def sdl_ttf() -> SDLTTF | None:
    """Kivy's SDL2_ttf, or None where there is none to load."""
    try:
        path = _loaded_library() or _wheel_library()
        return None if path is None else SDLTTF(path)
    except OSError:
        return None


def sdl2_shapes() -> bool:
    """Whether Kivy's SDL2_ttf shapes text (HarfBuzz)."""
    library = sdl_ttf()
    return library is not None and library.shapes()


def prefer_sdl2() -> str:
    """The text provider for KIVY_TEXT, chosen before Kivy is imported:
    SDL2 where its SDL2_ttf shapes, else Pillow."""
    return "sdl2" if sdl2_shapes() else "pil"


def paragraph(label: Any) -> str | None:
    """The direction ``label``'s lines are laid out in: its own
    ``base_direction`` where it names one, else the kiosk's writing
    direction (right to left in Persian; else each line's first strong
    letter's)."""
    from .direction import writing

    chosen = label.options.get("base_direction")
    if chosen in ("ltr", "rtl"):
        return chosen
    return "rtl" if writing.rtl else None


def draw_in_runs() -> None:
    """Measure and draw each line of Kivy's SDL2 labels run by run."""
    from kivy.core.text import Label

    if Label.__name__ != "LabelSDL2" or getattr(Label, "_in_runs", False):
        return
    library = sdl_ttf()
    assert library is not None, "Kivy's SDL2 text runs with an SDL2_ttf"

    def get_extents(label: Any, text: str) -> tuple[int, int]:
        options = label.options
        font = library.font(options["font_name_r"], int(options["font_size"]))
        width = sum(library.size(font, run)[0] for run in visual_runs(text, paragraph(label)))
        # The font's height, whatever the text (as Pillow's ascent + descent):
        # a line's height does not move with the marks over its letters.
        return width, library.height(font)

    def render_text(label: Any, text: str, x: int, y: int) -> None:
        options = label.options
        chosen = options["font_direction"], options["font_script_name"]
        font = library.font(options["font_name_r"], int(options["font_size"]))
        surface = label._surface
        try:
            for run in visual_runs(text, paragraph(label)):
                options["font_direction"] = "rtl" if run.rtl else "ltr"
                options["font_script_name"] = run.script
                surface.render(label, run.text, x, y)
                x += library.size(font, run)[0]
        finally:
            options["font_direction"], options["font_script_name"] = chosen

    Label.get_extents = get_extents
    Label._render_text = render_text
    Label._in_runs = True
