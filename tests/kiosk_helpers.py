"""Helpers for kiosk screen tests: what a screen shows (its labels and their
boxes), the checks every layout must pass, and taps by what a person reads."""

from __future__ import annotations

import math
import time

from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from ui_helpers import SHOTS, fits_in_window, frames, tap

MIN_TOUCH = 48


def walk(widget):
    yield widget
    for child in widget.children:
        yield from walk(child)


def shown_labels(widget) -> list[Label]:
    """Every label with text that a person can see (not a button's)."""
    return [
        w
        for w in walk(widget)
        if isinstance(w, Label)
        and not isinstance(w, Button)
        and w.text
        and w.opacity > 0
        and is_visible(w)
    ]


def shown_texts(widget) -> list[str]:
    return [w.text for w in shown_labels(widget)] + [
        b.text for b in walk(widget) if isinstance(b, Button) and b.opacity > 0
    ]


def is_visible(widget) -> bool:
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


def is_cut(label: Label) -> bool:
    """Kivy shows less than the label's text: it shortened it to one line
    with "..." (``shorten``; the core label says so in ``is_shortened``), a
    word wider than the box (Kivy breaks it, or it spills out), or a box of
    fixed height (``text_size`` with a height) left its last lines
    out (the text laid out at the box's width alone needs more height)."""
    label.texture_update()
    if label.is_shortened:
        return True
    width, height = label.text_size
    if width is not None and not label.markup and not label.shorten:
        room = width - label.padding[0] - label.padding[2]
        if any(label._label.get_extents(word)[0] > room + 1 for word in label.text.split()):
            return True  # a word broken across lines (or spilling out)
    if height is None or label.shorten or not label.texture_size[1]:
        return False
    core = label._label
    full = type(core)(**{**core.options, "text": core.text, "text_size": (width, None)})
    full.resolve_font_name()
    return full.render()[1] > height + 1


def cut_labels(widget) -> list[Label]:
    """The shown labels (and buttons) whose text Kivy cut (see is_cut)."""
    return [
        w
        for w in walk(widget)
        if isinstance(w, Label) and w.text and w.opacity > 0 and is_visible(w) and is_cut(w)
    ]


def spilled_labels(widget) -> list[Label]:
    """The shown labels (and buttons) that lie outside one of the boxes that
    hold them (a seat's panel, a row): a box too small for what it holds
    lets its parts spill over its neighbours. What a scrolling view holds
    may lie outside its parents' boxes (it scrolls), not outside its own."""
    from kivy.uix.scrollview import ScrollView

    def outside(label: Label) -> bool:
        x, y = label.to_window(label.x, label.y)
        box = label.parent
        while isinstance(box, Widget) and box is not widget.parent:
            if isinstance(box, ScrollView):
                return False
            bx, by = box.to_window(box.x, box.y)
            if x < bx - 1 or y < by - 1 or x + label.width > bx + box.width + 1:
                return True
            if y + label.height > by + box.height + 1:
                return True
            box = box.parent
        return False

    return [
        w
        for w in walk(widget)
        if isinstance(w, Label) and w.text and w.opacity > 0 and is_visible(w) and outside(w)
    ]


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
    for lower, upper in zip(parts, parts[1:]):  # Kivy lists children bottom-up
        assert lower.top <= upper.y + 1, (type(lower).__name__, type(upper).__name__)


def lay_out(most: int = 12) -> None:
    """Let the layout happen (the clock's triggers, kv rules, textures made)
    without drawing it, frame after frame until no widget in the window
    has moved or changed size for two frames (at most ``most`` frames): what a check
    of the widget tree needs, at a fraction of a drawn frame's cost on a
    software GL."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.lang import Builder

    def boxes() -> list[tuple[float, ...]]:
        return [(*w.pos, *w.size) for child in EventLoop.window.children for w in walk(child)]

    before, still = None, 0
    for _ in range(most):
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()
        now = boxes()
        # Still for two frames: a text made again in one frame may size its
        # box only in the next.
        still = still + 1 if now == before else 0
        if still == 2:
            return
        before = now


def settle(screen, draw: bool = True) -> None:
    """The screen as it stands between steps: time shown, laid out, a
    ballot's reveal run to its end at once (its chips face up, its result
    shown: as a person sees it a second later). ``draw``: frames drawn too
    (for a picture), not only laid out."""
    screen.show_time()
    for ballot in [w for w in walk(screen) if hasattr(w, "revealing")]:
        if ballot.revealing:
            animation = ballot._animation
            for chip in ballot.chips:
                animation.stop(chip)  # its end, as if the time had run out
                chip.turn = 1.0
            assert not ballot.revealing
    if draw:
        frames(2)
    else:
        lay_out()


def button_with(screen, text: str):
    found = [b for b in screen.ids.commands.children if b.text == text]
    assert found, f"no button {text!r} among {[b.text for b in screen.ids.commands.children]}"
    return found[0]


def panel_of(screen, name: str):
    return next(p for p in screen._panels if p.name == name)


def selectable_panels(screen) -> list:
    return [p for p in screen._panels if p.selectable]


def open_panels(window) -> list:
    """The PIN pad and the operator's settings, where open over the screen."""
    return [w for w in window.children if w.__class__.__name__ in ("PinPad", "OperatorSettings")]


def key(pad, text):
    """The PIN pad's key that reads ``text``."""
    return next(k for k in pad.ids.digits.children if k.text == text)


def wait_for_reveal(ballot, seconds: float = 3.0) -> None:
    """Let the ballot's reveal animation run to its end."""
    deadline = time.monotonic() + seconds
    while ballot.revealing and time.monotonic() < deadline:
        frames(1)
    assert not ballot.revealing


def keyboard_shown():
    """The on-screen keyboard, once a field has opened it."""
    from companion.ui.widgets.touch_keyboard import keyboard

    board = keyboard()
    assert board.is_open and board.parent is not None, "the keyboard is docked"
    return board


def type_by_taps(
    field, text: str, clear: bool = True, done: bool = True, focus: bool = True
) -> None:
    """Type ``text`` into ``field`` as a person would: tap the field, then
    the keys (⌫ first, to clear it; the language key, the signs page and
    shift as each character needs; the accent key before an accented letter),
    then **Done** (unless ``done`` is False: the keyboard stays open). With
    ``focus`` False the field is not tapped: the keyboard already types into
    it (**Next** brought it there)."""
    import unicodedata

    from companion.ui.text.keyboard_layouts import ACCENT, DIGITS, LETTERS, SIGNS
    from companion.ui.widgets.touch_keyboard import keyboard

    if focus:
        open_board = keyboard()
        if open_board.is_open and field.to_window(field.x, field.y)[1] < open_board.top:
            tap(open_board.key("done"))  # the field is under the keyboard: close it first
        drag_into_view(field)
        tap(field)
    board = keyboard_shown()
    assert board.target == field, "the keyboard types into another field"
    if clear:
        while field.value:
            tap(board.key("back"))

    def page_of(char: str) -> tuple[str, str | None]:
        if board.page == "digits":
            return "digits", None
        for lang, layout in LETTERS.items():
            if char.lower() in "".join(layout.rows) + layout.extra:
                return "letters", lang
        assert any(char in row for row in SIGNS), f"no key types {char!r}"
        return "signs", None

    for char in text:
        if char == " ":
            tap(board.key("space"))
            continue
        on_a_key = any(char.lower() in "".join(lay.rows) + lay.extra for lay in LETTERS.values())
        # A letter with a key of its own (Persian's ئ) is typed whole, else
        # its base letter after the accent key.
        base, *marks = char if on_a_key else unicodedata.normalize("NFD", char)
        page, lang = page_of(base)
        if page == "digits":
            assert base in "".join(DIGITS)
        elif board.page != page:
            tap(board.key("page"))
        if lang is not None:
            for _ in range(len(LETTERS)):
                if board.lang == lang:
                    break
                tap(board.key("language"))
            assert board.lang == lang, f"no layout for {char!r}"
            if LETTERS[lang].cased and board.shift != base.isupper():
                tap(board.key("shift"))
            if marks:
                offered = [mark for _, mark in LETTERS[lang].accents]
                assert len(marks) == 1 and marks[0] in offered, f"no way to type {char!r}"
                for _ in range(len(offered) + 1):
                    if board.accent == offered.index(marks[0]) + 1:
                        break
                    tap(board.key(ACCENT))
        tap(board.key(base.lower() if lang is not None else base))
    if done:
        tap(board.key("done"))
        assert not board.is_open


def drag_into_view(widget, steps: int = 8) -> None:
    """Drag the scrolled list that holds ``widget`` (a finger on the list,
    moved up or down) until the whole widget is in sight."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    view = widget.parent
    while view is not None and view is not Window and not isinstance(view, ScrollView):
        view = view.parent
    if not isinstance(view, ScrollView):
        return
    # A finger moves at its own pace, not a loaded machine's: frames that take
    # longer than the list's scroll timeout must not turn the drag into a tap.
    timeout, view.scroll_timeout = view.scroll_timeout, 10_000
    try:
        _drag(widget, view, steps)
    finally:
        view.scroll_timeout = timeout


def _drag(widget, view, steps: int) -> None:
    from kivy.tests.common import UnitTestTouch

    for _ in range(20):
        bottom = widget.to_window(widget.x, widget.y)[1]
        top = bottom + widget.height
        view_bottom = view.to_window(view.x, view.y)[1]
        view_top = view_bottom + view.height
        if bottom >= view_bottom - 1 and top <= view_top + 1:
            return
        # Content below the view comes up when the finger moves up.
        shift = (view_bottom - bottom + 8) if bottom < view_bottom else -(top - view_top + 8)
        # A finger's drag goes well past the list's scroll distance (Kivy took
        # ones of 28 and 40 px for taps on what lay under them), and stays on
        # the list (it starts and ends inside it, about its middle).
        least = view.scroll_distance * 3
        shift = shift if abs(shift) >= least else math.copysign(least, shift)
        shift = max(-view.height * 0.8, min(view.height * 0.8, shift))
        x, y = view.to_window(view.center_x, view.center_y)
        touch = UnitTestTouch(x, y - shift / 2)
        touch.touch_down()
        for step in range(1, steps + 1):
            touch.touch_move(x, y - shift / 2 + shift * step / steps)
            frames(1)
        touch.touch_up()
        _settle(view)
    raise AssertionError("the widget cannot be dragged into view")


def _settle(view, seconds: float = 2.0) -> None:
    """Let a list glide to rest after a drag (a finger lifts, and waits for
    the list to stop before it taps: a tap on a moving list only stops it)."""
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        frames(1)
        if view.scroll_y == last:
            return
        last = view.scroll_y
        time.sleep(0.01)


def window_shot(window, name: str):
    """The whole window (the screen, an open panel, the keyboard over them)
    drawn into an offscreen framebuffer and saved as a PNG: what a person
    sees. (A window screenshot after a resize reads the old framebuffer.)"""
    from kivy.graphics import ClearBuffers, ClearColor, Fbo

    SHOTS.mkdir(parents=True, exist_ok=True)
    frames(2)
    fbo = Fbo(size=(int(window.width), int(window.height)), with_stencilbuffer=True)
    with fbo:
        ClearColor(0, 0, 0, 1)
        ClearBuffers()
    layers = list(reversed(window.children))  # bottom first, as the window draws
    for layer in layers:
        window.canvas.remove(layer.canvas)
        fbo.add(layer.canvas)
    try:
        fbo.draw()
        path = SHOTS / f"{name}.png"
        fbo.texture.save(str(path), flipped=True)
    finally:
        for layer in layers:
            fbo.remove(layer.canvas)
            window.canvas.add(layer.canvas)
    assert path.stat().st_size > 5000
    return path


def touch_reaches(button, window) -> bool:
    """A finger put down at the button's centre, through the window, presses
    that button (nothing over it, disabled or hidden, takes the touch); the
    finger then slides off and lifts, so nothing is released."""
    from kivy.tests.common import UnitTestTouch

    x, y = button.to_window(*button.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    pressed = button.state == "down"
    touch.touch_move(-1000, -1000)
    touch.touch_up()
    return pressed


def figures_broken(label) -> list[str]:
    """The parts of a line that Kivy must break (those wider than the
    label's wrapping width): a figure joined with no-break spaces counts as
    one part, so "Treasury:\\u00a047" split over two lines is found."""
    label.texture_update()
    width = label.text_size[0]
    if width is None:
        return []
    room = width - label.padding[0] - label.padding[2]
    parts = [part for part in label.text.replace("\n", " ").split(" ") if part]
    return [part for part in parts if label._label.get_extents(part)[0] > room + 1]
