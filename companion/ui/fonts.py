"""One font for every language we ship: Kivy has no glyph fallback, and the
DejaVu Sans in Kivy's own wheel covers Latin, Greek, Cyrillic and Persian."""
from __future__ import annotations

from pathlib import Path


def use_dejavu() -> None:
    import kivy
    from kivy.core.text import DEFAULT_FONT, LabelBase

    font = str(Path(kivy.__file__).parent / "data" / "fonts" / "DejaVuSans.ttf")
    LabelBase.register(DEFAULT_FONT, fn_regular=font)
