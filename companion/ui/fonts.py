"""What the kiosk draws text with. One font for every language we ship:
Kivy has no glyph fallback, and the DejaVu Sans in Kivy's own wheel covers
Latin, Greek, Cyrillic and Persian. Persian also needs Pillow's raqm layout
(see app.prepare_kivy_environment), which loads the system's FriBiDi."""

from __future__ import annotations

from pathlib import Path

from ..i18n import LANGUAGES, RIGHT_TO_LEFT


def use_dejavu() -> None:
    import kivy
    from kivy.core.text import DEFAULT_FONT, LabelBase

    font = str(Path(kivy.__file__).parent / "data" / "fonts" / "DejaVuSans.ttf")
    LabelBase.register(DEFAULT_FONT, fn_regular=font)


def right_to_left_ready() -> bool:
    """Kivy draws its text with Pillow, and Pillow can shape and order
    right-to-left text (raqm with FriBiDi: `apt install libfribidi0`).
    Without them Persian would show as isolated letters in reverse order."""
    from kivy.core.text import Label
    from PIL import features

    return (
        Label.__name__ == "LabelPIL"
        and bool(features.check_feature("raqm"))
        and bool(features.check_feature("fribidi"))
    )


def kiosk_languages() -> tuple[str, ...]:
    """The languages this kiosk can show: right-to-left ones only when they
    can be drawn right."""
    if right_to_left_ready():
        return LANGUAGES
    return tuple(lang for lang in LANGUAGES if lang not in RIGHT_TO_LEFT)
