"""Helpers for kiosk screen tests: what a screen shows (its labels and their
boxes), the checks every layout must pass, and taps by what a person reads."""
from __future__ import annotations

import time

from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from test_ui import fits_in_window, frames

MIN_TOUCH = 48


def walk(widget):
    yield widget
    for child in widget.children:
        yield from walk(child)


def shown_labels(widget) -> list[Label]:
    """Every label with text that a person can see (not a button's)."""
    return [w for w in walk(widget) if isinstance(w, Label) and not isinstance(w, Button)
            and w.text and w.opacity > 0 and _visible(w)]


def shown_texts(widget) -> list[str]:
    return [w.text for w in shown_labels(widget)] + [
        b.text for b in walk(widget) if isinstance(b, Button) and b.opacity > 0]


def _visible(widget) -> bool:
    """Neither the widget nor any parent is hidden (no opacity or height)."""
    while isinstance(widget, Widget):
        if widget.opacity == 0 or widget.height <= 0:
            return False
        widget = widget.parent
    return True


def texture_fits(label: Label) -> bool:
    """The rendered text lies inside the label's box (nothing spills out)."""
    label.texture_update()
    width, height = label.texture_size
    return width <= label.width + 1 and height <= label.height + 1


def assert_readable_layout(screen, window, buttons, scrolled=None) -> None:
    """Touch targets of at least 48 px inside the window; every shown label
    inside the window with its text inside its box; no overlap between the
    screen's stacked parts. Labels inside ``scrolled`` (a ScrollView) may lie
    below the fold: there only their text must fit their box."""
    frames(2)
    for button in buttons:
        if button.opacity == 0:
            continue
        assert button.height >= MIN_TOUCH and button.width >= MIN_TOUCH, button.text
        assert fits_in_window(button, window), button.text
        assert texture_fits(button), button.text
    for label in shown_labels(screen):
        if scrolled is None or label not in list(walk(scrolled)):
            assert fits_in_window(label, window), label.text
        assert texture_fits(label), (label.text, label.size, label.texture_size)
    parts = [c for c in screen.children if c.height > 0]
    for lower, upper in zip(parts, parts[1:]):       # Kivy lists children bottom-up
        assert lower.top <= upper.y + 1, (type(lower).__name__, type(upper).__name__)


def button_with(screen, text: str):
    found = [b for b in screen.ids.commands.children if b.text == text]
    assert found, f"no button {text!r} among {[b.text for b in screen.ids.commands.children]}"
    return found[0]


def panel_of(screen, name: str):
    return next(p for p in screen._panels if p.name == name)


def selectable_panels(screen) -> list:
    return [p for p in screen._panels if p.selectable]


def wait_for_reveal(ballot, seconds: float = 3.0) -> None:
    """Let the ballot's reveal animation run to its end."""
    deadline = time.monotonic() + seconds
    while ballot.revealing and time.monotonic() < deadline:
        frames(1)
    assert not ballot.revealing

