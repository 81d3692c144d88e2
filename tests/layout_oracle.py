"""The layout oracle's checks (issue 32): what a stranger holding the kiosk
needs of every screen, asked of the widget tree in a real window.

- ``unreachable``: an enabled button that is not wholly inside the window,
  or that a finger's touch at its centre, dispatched through the window as
  Kivy dispatches a real one, does not reach (a hidden, disabled or
  zero-height box over it swallows it);
- ``broken_words``: a shown label whose text Kivy shortened, cut, or broke
  inside a word, or whose text lies outside its box or the window;
- ``misread_lines``: in a right-to-left language, a line whose visual
  order as drawn (FriBiDi's, which the kiosk's text path cuts a line into
  runs with, for the paragraph direction the line was drawn in, or from
  the line's own first strong character where none was) differs from the
  order a right-to-left paragraph reads it in: "۰ ← ۱۵" drawn left to
  right;
- ``dropped_icons``: a named piece (a character, a power, an agenda) whose
  icon its widget does not show;
- ``commands_out_of_sight``: a command of the strip that lies (partly)
  outside the window, to be scrolled to;
- ``strip_positions``: where each of the command strip's buttons sits, for
  the steadiness check between successive commands.

Each returns a list of readable findings (empty when the screen is right),
so a failing test names every defect of a screen at once."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache

from kiosk_helpers import cut_labels, is_visible, spilled_labels, walk
from kivy.tests.common import UnitTestTouch
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget
from ui_helpers import fits_in_window

from companion.ui.widgets.icon import IconView

MIN_ICON = 8  # px: an icon smaller than this is not one a person sees


def _name(widget) -> str:
    text = getattr(widget, "text", "")
    return f"{type(widget).__name__}({text!r})" if text else type(widget).__name__


def _scroller(widget) -> ScrollView | None:
    """The scrolling view that holds the widget, if any."""
    box = widget.parent
    while isinstance(box, Widget):
        if isinstance(box, ScrollView):
            return box
        box = box.parent
    return None


def _inside(widget, box) -> bool:
    x, y = widget.to_window(widget.x, widget.y)
    bx, by = box.to_window(box.x, box.y)
    return (
        x >= bx - 1
        and y >= by - 1
        and x + widget.width <= bx + box.width + 1
        and y + widget.height <= by + box.height + 1
    )


def shown_buttons(root) -> list:
    """Every enabled button a person can see under ``root``."""
    return [
        w
        for w in walk(root)
        if isinstance(w, ButtonBehavior)
        and not w.disabled
        and w.opacity > 0
        and w.width > 0
        and is_visible(w)
    ]


def reaches(button, window) -> bool:
    """Whether a touch at the button's centre, dispatched through the window
    (every layer over it, every box it lies in) reaches the button. The
    button only notes the touch (its own handler never runs, so nothing is
    pressed)."""
    got: list = []

    def probe(widget, touch):
        if widget.collide_point(*touch.pos):
            got.append(touch)
            return True
        return None

    button.fbind("on_touch_down", probe)
    try:
        x, y = button.to_window(*button.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        # A scrolling list hands a still touch on to what lies under it when
        # the finger lifts (or once it knows the finger is not dragging).
        touch.touch_up()
    finally:
        button.funbind("on_touch_down", probe)
    return bool(got)


def unreachable(root, window) -> list[str]:
    """Enabled buttons out of the window or out of a finger's reach. A button
    in a scrolling list must lie in the list's box only when the list is in
    sight of it (the rest is scrolled to); the list itself lies in the window."""
    found = []
    for button in shown_buttons(root):
        scroller = _scroller(button)
        if scroller is not None and not _inside(button, scroller):
            if not fits_in_window(scroller, window):
                found.append(f"{_name(button)}: its list lies outside the window")
            continue
        if not fits_in_window(button, window):
            found.append(f"{_name(button)}: not wholly inside the window")
        elif not reaches(button, window):
            found.append(f"{_name(button)}: a tap at its centre does not reach it")
    return found


def _lines(label: Label) -> list[str]:
    """The label's text as Kivy laid it out, one string per drawn line."""
    label.texture_update()
    return ["".join(word.text for word in line.words) for line in label._label._cached_lines]


def _broken_inside_a_word(label: Label) -> bool:
    """A line of the label ends inside a word of its text (Kivy breaks a
    word only when it is wider than the line; a line otherwise ends at a
    space or the text's own line break)."""
    if label.markup:
        return False
    lines = [line for line in _lines(label) if line.strip()]
    text, at = label.text, 0
    for line in lines:
        start = text.find(line.strip(), at)
        if start < 0:
            return False  # shortened or otherwise rewritten: is_cut says so
        end = start + len(line.strip())
        if end < len(text) and line is not lines[-1]:
            if not text[end].isspace() and not text[end - 1].isspace():
                return True
        at = end
    return False


def broken_words(root, window) -> list[str]:
    """Shown texts cut, shortened, broken inside a word, spilling out of the
    boxes that hold them, or out of the window."""
    found = [f"cut: {w.text!r}" for w in cut_labels(root)]
    found += [f"spills out of its box: {w.text!r}" for w in spilled_labels(root)]
    for label in walk(root):
        if not isinstance(label, Label) or not label.text or label.opacity == 0:
            continue
        if not is_visible(label):
            continue
        if _broken_inside_a_word(label):
            found.append(f"broken inside a word: {_lines(label)}")
        scroller = _scroller(label)
        if (scroller is None or _inside(label, scroller)) and not fits_in_window(label, window):
            found.append(f"outside the window: {label.text!r}")
    return found


@lru_cache(maxsize=1)
def _fribidi():
    path = ctypes.util.find_library("fribidi") or "libfribidi.so.0"
    lib = ctypes.CDLL(path)
    lib.fribidi_log2vis.restype = ctypes.c_int
    return lib


# FriBiDi's paragraph directions: from the first strong character, left to
# right, right to left.
_AUTO, _LTR, _RTL = 0x40, 0x110, 0x111


@lru_cache(maxsize=8192)
def visual_order(text: str, base: int) -> str:
    """``text`` in the order FriBiDi draws it, left to right, for a paragraph
    of direction ``base``."""
    lib = _fribidi()
    size = len(text)
    logical = (ctypes.c_uint32 * size)(*map(ord, text))
    drawn = (ctypes.c_uint32 * size)()
    direction = ctypes.c_uint32(base)
    assert lib.fribidi_log2vis(logical, size, ctypes.byref(direction), drawn, None, None, None)
    return "".join(map(chr, drawn))


# Marks and isolates: they order the text around them and draw nothing.
_CONTROLS = dict.fromkeys(
    map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)


def drawn_lines(label: Label) -> list[tuple[str, str | None]]:
    """Each line of the label as the kiosk's text path draws it: its text
    and the paragraph direction its runs are cut for (None: from the
    line's first strong character; ui/text/shaping.py). Read by drawing
    the label again with the provider's line drawing listened to."""
    from kivy.core.text import Label as CoreLabel

    from companion.ui.text.shaping import paragraph

    drawn: list[tuple[str, str | None]] = []
    render_text = CoreLabel._render_text

    def listened(core, text, x, y):
        drawn.append((text, paragraph(core)))
        return render_text(core, text, x, y)

    label.texture_update()
    CoreLabel._render_text = listened
    try:
        label._label._render_real()
    finally:
        CoreLabel._render_text = render_text
    return drawn


def reads_right_to_left(line: str, paragraph: str | None) -> bool:
    """The line, drawn as a paragraph of direction ``paragraph``, is in the
    order a right-to-left paragraph reads it. A line of one word (a name,
    "Ja!", a row of disks) reads as itself."""
    if len(line.translate(_CONTROLS).split()) < 2:
        return True
    base = {"rtl": _RTL, "ltr": _LTR}.get(paragraph or "", _AUTO)
    drawn = visual_order(line, base).translate(_CONTROLS)
    return drawn == visual_order(line, _RTL).translate(_CONTROLS)


def misread_lines(root) -> list[str]:
    """Laid-out lines of a right-to-left screen drawn in the wrong order,
    but for those of labels that copy the physical game (``base_direction:
    "ltr"``: a row of disks as on the board)."""
    found = []
    for label in walk(root):
        if not isinstance(label, Label) or not label.text or label.opacity == 0:
            continue
        if label.base_direction == "ltr" or not is_visible(label):
            continue
        found += [
            f"drawn left to right: {line!r}"
            for line, paragraph in drawn_lines(label)
            if not reads_right_to_left(line, paragraph)
        ]
    return found


def dropped_icons(root) -> list[str]:
    """Widgets naming a piece that has an icon (``piece`` and ``spec``), shown,
    without that icon drawn in sight among them."""
    found = []
    for widget in walk(root):
        piece, spec = getattr(widget, "piece", None), getattr(widget, "spec", None)
        if not isinstance(piece, str) or not piece or spec is None or isinstance(widget, IconView):
            continue
        if piece not in spec.icons or not is_visible(widget) or widget.opacity == 0:
            continue
        drawn = [
            icon
            for icon in walk(widget)
            if isinstance(icon, IconView)
            and icon.shown() is spec.icons[piece]
            and min(icon.size) >= MIN_ICON
            and icon.opacity > 0
            and is_visible(icon)
        ]
        if not drawn:
            words = [w.text for w in walk(widget) if isinstance(w, Label) and w.text]
            found.append(f"{piece}'s icon is not shown beside {words[:2]}")
    return found


def commands_out_of_sight(strip, window) -> list[str]:
    """The command strip's enabled buttons not wholly in the window: a
    player reaches for a command where the strip is, never by scrolling
    it first."""
    return [
        f"command out of sight: {button.text!r}"
        for button in shown_buttons(strip)
        if not fits_in_window(button, window)
    ]


def strip_positions(strip) -> dict[str, tuple[int, int, int, int]]:
    """Each shown command button of the strip, by its words: its box in the
    window (rounded to whole pixels)."""
    places = {}
    for button in shown_buttons(strip):
        x, y = button.to_window(button.x, button.y)
        places[button.text] = (round(x), round(y), round(button.width), round(button.height))
    return places


def check(root, window, rtl: bool) -> list[str]:
    """Every check on what ``root`` (a screen, or a panel open over it) shows
    now; ``rtl``: the kiosk writes right to left."""
    found = unreachable(root, window) + broken_words(root, window) + dropped_icons(root)
    if rtl:
        found += misread_lines(root)
    return found
