"""The kiosk as a person sees it, read from its pixels: each text on screen
(a label's or a button's) with the box its rendered text fills, its contrast
measured in a screenshot of the whole window (or in that screenshot as
someone with a colour-vision deficiency sees it), and the colour a widget's
background shows there."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from colour_helpers import MIN_CONTRAST, MIN_CONTRAST_LARGE, Reading, is_large, text_contrast
from kiosk_helpers import is_visible, walk
from kivy.uix.button import Button
from kivy.uix.label import Label


def shown_texts(screen) -> list[Label]:
    """Every label and every enabled button with text a person can see
    (WCAG asks nothing of a disabled control's text)."""
    return [
        w
        for w in walk(screen)
        if isinstance(w, Label)
        and w.text.strip()
        and not (isinstance(w, Button) and w.disabled)
        and is_visible(w)
    ]


def text_box(label: Label, window) -> tuple[int, int, int, int] | None:
    """The window pixels (left, top, right, bottom; top row 0) where the
    label's texture is drawn: centred on the label, as Kivy's Label rule
    draws it, cut to the label, to any scrolled list it is in and to the
    window. None when nothing is left (a text scrolled out of sight)."""
    label.texture_update()
    width, height = label.texture_size
    cx, cy = label.to_window(label.center_x, label.center_y)
    x0, y0 = label.to_window(label.x, label.y)
    left = max(int(cx - width / 2), int(x0), 0)
    right = min(int(cx + width / 2), int(x0 + label.width), int(window.width))
    bottom = max(int(cy - height / 2), int(y0), 0)
    top = min(int(cy + height / 2), int(y0 + label.height), int(window.height))
    for view in _scroll_views_around(label):  # a scrolled list shows only its window
        vx, vy = view.to_window(view.x, view.y)
        left, right = max(left, int(vx)), min(right, int(vx + view.width))
        bottom, top = max(bottom, int(vy)), min(top, int(vy + view.height))
    if right - left < 2 or top - bottom < 2:
        return None
    rows = int(window.height)
    return left, rows - top, right, rows - bottom


def _scroll_views_around(widget) -> list:
    from kivy.uix.scrollview import ScrollView

    found = []
    while widget.parent is not None and widget.parent is not widget:
        widget = widget.parent
        if isinstance(widget, ScrollView):
            found.append(widget)
    return found


@dataclass
class TextBox:
    """A shown text, where it is drawn and the contrast it needs."""

    text: str
    box: tuple[int, int, int, int]
    needed: float

    def read(self, pixels: np.ndarray) -> Reading:
        left, top, right, bottom = self.box
        ratio, colour, background = text_contrast(pixels[top:bottom, left:right])
        return Reading(self.text, ratio, self.needed, colour, background)


def text_boxes(screen, window) -> list[TextBox]:
    """Each shown text of ``screen`` on ``window`` with its box, as laid out now."""
    found = []
    for label in shown_texts(screen):
        box = text_box(label, window)
        if box is not None:
            large = is_large(float(label.font_size), bool(label.bold))
            found.append(TextBox(label.text, box, MIN_CONTRAST_LARGE if large else MIN_CONTRAST))
    return found


def shown_colour(widget, window, pixels: np.ndarray) -> tuple:
    """The colour most of a widget's box shows in ``pixels``: its background."""
    x, y = widget.to_window(widget.x, widget.y)
    rows = int(window.height)
    crop = pixels[rows - int(y + widget.height) : rows - int(y), int(x) : int(x + widget.width), :3]
    return Counter(map(tuple, crop.reshape(-1, 3).tolist())).most_common(1)[0][0]
