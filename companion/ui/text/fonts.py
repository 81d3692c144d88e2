"""What the kiosk draws text with. One font for every language we ship:
Kivy has no glyph fallback, and the DejaVu Sans in Kivy's own wheel covers
Latin, Greek, Cyrillic and Persian. Persian also needs shaping (HarfBuzz,
in Kivy's SDL2_ttf) and the system's FriBiDi for its runs' order
(:mod:`.shaping`; Pillow's raqm where SDL2_ttf cannot shape)."""

from __future__ import annotations

from pathlib import Path

from ...i18n import LANGUAGES, RIGHT_TO_LEFT
from . import wrapping

EXTENTS_KEPT = 4096  # words measured, per font and size, before the oldest are forgotten


def use_dejavu() -> None:
    """DejaVu Sans for every label, each word's size measured once, each
    line drawn in the kiosk's writing direction; and Kivy's needless costs
    spared (every kiosk calls this once Kivy is set up)."""
    import kivy
    from kivy.core.text import DEFAULT_FONT, LabelBase

    from ..system.kivy_costs import spare_kivy_costs
    from .direction import (  # imports Kivy: not before it is set up
        draw_in_writing_direction,
        note_laid_out_direction,
    )
    from .shaping import draw_in_runs

    font = str(Path(kivy.__file__).parent / "data" / "fonts" / "DejaVuSans.ttf")
    LabelBase.register(DEFAULT_FONT, fn_regular=font)
    _measure_once()
    wrapping.install()
    draw_in_runs()  # SDL2's labels
    draw_in_writing_direction()  # Pillow's, where SDL2_ttf cannot shape
    note_laid_out_direction()
    spare_kivy_costs()


def _measure_once() -> None:
    """Kivy lays a label's text out word by word, asking its provider each word's
    size (a shaping with HarfBuzz and a hinted load of every glyph) each
    time any label is laid out again, and a screen shows the same words
    ("coins", the players' names) over and over: keep the sizes. Kivy's
    layout asks for its measure through ``get_cached_extents``, which its
    providers leave uncached; ours answers from what it measured, for the
    direction the text is laid out in (its runs depend on it)."""
    from kivy.core.text import Label

    from .shaping import paragraph

    if getattr(Label, "_measured", None) is not None:
        return
    measured: dict[tuple[str, int, bool, str | None], dict[str, tuple[int, int]]] = {}
    Label._measured = measured

    def get_cached_extents(label):
        options = label.options
        bbox = bool(options["limit_render_to_text_bbox"])
        key = (options["font_name_r"], int(options["font_size"]), bbox, paragraph(label))
        known = measured.setdefault(key, {})
        measure = label.get_extents

        def extents(text: str) -> tuple[int, int]:
            size = known.get(text)
            if size is None:
                if len(known) >= EXTENTS_KEPT:
                    del known[next(iter(known))]
                size = known[text] = measure(text)
            return size

        return extents

    Label.get_cached_extents = get_cached_extents


def right_to_left_ready() -> bool:
    """Whether Kivy's text provider, as the kiosk set it up, shapes and
    orders right-to-left text: SDL2 whose SDL2_ttf shapes (HarfBuzz), with
    the system's FriBiDi for the runs (`apt install libfribidi0`), or
    Pillow with raqm and FriBiDi. Without them Persian would show as
    isolated letters in reverse order."""
    from kivy.core.text import Label

    if Label.__name__ == "LabelSDL2":
        from .runs import fribidi
        from .shaping import sdl2_shapes

        return getattr(Label, "_in_runs", False) and sdl2_shapes() and fribidi() is not None
    if Label.__name__ == "LabelPIL":
        from PIL import features

        return bool(features.check_feature("raqm")) and bool(features.check_feature("fribidi"))
    return False


def kiosk_languages() -> tuple[str, ...]:
    """The languages this kiosk can show: right-to-left ones only when they
    can be drawn right."""
    if right_to_left_ready():
        return LANGUAGES
    return tuple(lang for lang in LANGUAGES if lang not in RIGHT_TO_LEFT)
