"""Every Persian text that starts with a placeholder, a digit or a sign is
laid out right to left: Kivy's text (Pillow's raqm with FriBiDi) takes a
line's direction from its first strong letter, so a text whose first
letters are figures, signs or a Latin name (set apart in an isolate) must
start with a right-to-left mark, or "۰ ← ۱۵" (now 0, at best 15) reads
"now 15, at best 0"."""

from __future__ import annotations

import re

from bidi_helpers import drawn_order, paragraph_direction

from companion.i18n import _SEAT_ARGS, _TERM_ARGS, Messages, catalog  # which are names, terms

FIELD = re.compile(r"\{(\w+)\}")
NAME = "Sara"  # a Latin name: set apart, it gives the line no direction


def starts_weak(text: str) -> bool:
    """Starts with a placeholder, a digit or a sign (no letter)."""
    return bool(text) and not (text[0].isalpha() and not text[0].isdigit())


def weak_starts() -> list[tuple[str, str]]:
    """(key, text) of every Persian text (each plural form) that starts weak."""
    found = []
    for key, value in catalog("fa").items():
        for form in value.values() if isinstance(value, dict) else [value]:
            if starts_weak(form):
                found.append((key, form))
    return found


def filled(key: str, form: str) -> str:
    """``form`` as the kiosk shows it at its most neutral: a Latin name for
    each seat, a game's term in Persian for each term, a number for the rest."""
    t = Messages("fa", [NAME])
    terms = {
        prefix: next(k for k in catalog("fa") if k.startswith(prefix))
        for prefix in _TERM_ARGS.values()
    }
    args = {}
    for name in FIELD.findall(form):
        if name in _SEAT_ARGS:
            args[name] = 0
        elif name in _TERM_ARGS:
            args[name] = terms[_TERM_ARGS[name]].removeprefix(_TERM_ARGS[name])
        else:
            args[name] = 12
    plural = catalog("fa")[key]
    if isinstance(plural, dict):  # the form this one is, by its count
        args["count"] = 1 if form == plural.get("one") else 12
    return t(key, **args)


def test_the_persian_texts_that_start_weak_are_found():
    keys = {key for key, _ in weak_starts()}
    # Among them the agenda track's value, a clock, a name first.
    assert {"a27.ui.track_value", "a27.ui.clock", "cmd.challenge"} <= keys
    assert len(keys) > 50


def test_every_persian_text_that_starts_weak_reads_right_to_left():
    """Each line of each (Kivy lays every line out on its own)."""
    wrong = []
    for key, form in weak_starts():
        text = filled(key, form)
        for line in text.split("\n"):
            if paragraph_direction(line) != "rtl":
                wrong.append((key, line, drawn_order(line)))
    assert not wrong, wrong


def test_the_agenda_track_s_value_reads_now_then_at_best_right_to_left():
    t = Messages("fa")
    value = t("a27.ui.track_value", value=0, best=15)
    # Drawn: at best (۱۵) on the left, the arrow pointing to it from now (۰) on the right.
    assert drawn_order(value).strip("\u200f") == "۱۵ ← ۰"


def _ink(widget, path):
    """The widget's pixels (greyscale), cropped to its ink."""
    from PIL import Image

    widget.export_to_png(str(path))
    image = Image.open(path).convert("L").point(lambda v: 255 if v > 60 else 0)
    return image.crop(image.getbbox())


def test_the_persian_agenda_track_reads_right_to_left_on_the_kiosk(window, tmp_path):
    """On Article 27's screen in Persian: each row's value drawn as "۱۵ ← ۰"
    (now, on the right, pointing to at best), and each legend item its disk
    on the right of its words, the items from right to left."""
    from a27_kiosk_helpers import a27_screen, kiosk_table
    from kiosk_helpers import window_shot
    from PIL import ImageChops, ImageStat
    from ui_helpers import frames, show

    from companion.games.article27.palette import DISK_DOWN_SIGN, DISK_LEFT_SIGN, DISK_UP_SIGN

    table = kiosk_table(tmp_path / "g.sqlite3", players=4)
    screen = show(window, a27_screen(table, tmp_path / "sounds", lang="fa"), (1280, 720))
    frames(3)
    window_shot(window, "a27-track-fa-1280x720")
    row = next(r for r in screen.ids.track.children if r.in_play)
    value = row.ids.value
    assert "۱۵" in value.text and "۰" in value.text
    # The same figures, drawn left to right as they are meant to be seen.
    from kivy.uix.label import Label

    seen = Label(text="\u202d۱۵ ← ۰\u202c", font_size=value.font_size, size_hint=(None, None))
    seen.texture_update()
    seen.size = seen.texture_size
    screen.add_widget(seen)  # drawn in the same window, then taken away
    frames(2)
    drawn, meant = _ink(value, tmp_path / "value.png"), _ink(seen, tmp_path / "meant.png")
    screen.remove_widget(seen)
    assert drawn.size == meant.size, (drawn.size, meant.size)
    assert ImageStat.Stat(ImageChops.difference(drawn, meant)).mean[0] < 20
    items = sorted(screen.ids.legend.children, key=lambda item: -item.x)  # right to left
    assert [item.sign for item in items] == [DISK_UP_SIGN, DISK_DOWN_SIGN, DISK_LEFT_SIGN]
    for item in items:
        assert item.ids.sign.x > item.ids.words.right - 1, item.words
