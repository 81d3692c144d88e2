"""Typing on a touchscreen with no keyboard: a text field of the kiosk's own
and the on-screen keyboard it opens.

A café's Pi has no keyboard, and Kivy's ``TextInput`` waits for one (on
Linux it asks for the system keyboard, which a console kiosk does not have);
nor does it edit right-to-left text. ``TextField`` shows its text through
the same text path as every label, so Persian is shaped and ordered as it
is typed. A tap on it docks ``TouchKeyboard`` along the bottom of the
window, in the kiosk's language (the language key steps through English,
Greek, Russian and Persian); if the keyboard would cover the field, the
screen or panel holding the field slides up until the field sits just
above it, and slides back when the keyboard closes (**Done**, a tap
elsewhere, or the field's screen going away). Keys type at the end of the
text; ⌫ takes back the last character (held, it keeps going). Where the
screen or panel has another field after this one (top to bottom, then in
reading order: the next player's name on home), **Next** moves to it,
scrolling it into view.

A physical keyboard, where one is plugged in, types into the field too
(its text, Backspace, Enter); every other key stays swallowed by
:mod:`.lockdown`."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import ScreenManager
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from ...i18n import Messages
from ..text.direction import writing
from ..text.keyboard_layouts import ACCENT, DIGITS, LETTERS, SIGNS, ZWNJ, accented, languages_after

Builder.load_file(str(Path(__file__).with_name("touch_keyboard.kv")))

GAP = dp(8)  # between the lifted field and the keyboard's top
MAX_UNIT = dp(96)  # a key's width at most (a wide screen, the PIN's digits)
HOLD, REPEAT = 0.5, 0.08  # seconds: ⌫ held starts repeating, then repeats


def direction_of(text: str) -> str | None:
    """ "rtl" or "ltr" by the text's first strong character, None if none."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return None


class TextField(ButtonBehavior, Widget):
    """A line of text typed with :class:`TouchKeyboard`.

    ``kind``: "name" (letters; a capital to start each word; one space at a
    time), "text" (letters and signs, as typed) or "pin" (digits, shown as
    dots). ``limit`` caps the characters; ``max_bytes``, if set, the UTF-8
    bytes (a Wi-Fi network's name holds 32). ``on_submit`` fires when the
    keyboard lets go of the field (Done, a tap elsewhere, another field)."""

    __events__ = ("on_submit",)
    value = StringProperty("")
    hint = StringProperty("")
    kind = OptionProperty("name", options=("name", "text", "pin"))
    limit = NumericProperty(24)
    max_bytes = NumericProperty(0)
    focused = BooleanProperty(False)
    shown = StringProperty("")  # what the field's label draws
    align = OptionProperty("left", options=("left", "right"))

    font_size = NumericProperty(sp(18))
    base_font_size = NumericProperty(sp(18))

    def on_kv_post(self, _base: Any) -> None:
        self.bind(value=self._show, hint=self._show, size=self._show)
        writing.bind(rtl=self._show)
        self._show()

    def _show(self, *_args: Any) -> None:
        text = "●" * len(self.value) if self.kind == "pin" else self.value
        self.shown = text or self.hint
        way = direction_of(self.value) or ("rtl" if writing.rtl else "ltr")
        self.align = "right" if way == "rtl" else "left"
        self._fit()

    def _fit(self) -> None:
        """Smaller type for a text too long for the box (never below 12 sp)."""
        label = self.ids.label
        self.font_size = self.base_font_size
        label.texture_update()
        room = self.width - dp(24)
        while label.texture_size[0] > room and self.font_size > sp(12):
            self.font_size = max(sp(12), self.font_size * 0.9)
            label.texture_update()

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            touch.ud["text_field"] = self  # the keyboard stays open for it
        return super().on_touch_down(touch)

    def on_release(self) -> None:
        keyboard().attach(self)

    def on_submit(self) -> None:
        """The keyboard let go: the text is what the person typed (a
        listener keeps it; home binds ``value`` instead, as it is typed)."""

    def fits(self, text: str) -> bool:
        return len(text) <= self.limit and (
            not self.max_bytes or len(text.encode("utf-8")) <= self.max_bytes
        )

    def put(self, char: str) -> bool:
        """Type ``char`` at the end, as this kind of field takes it. False if
        it did not go in (full, or not a character this field holds)."""
        text = self.value
        if self.kind == "pin" and not (char.isascii() and char.isdigit()):
            return False
        if self.kind == "name" and char == " " and (not text or text.endswith(" ")):
            return False
        if char == ZWNJ and (not text or text.endswith((" ", ZWNJ))):
            return False
        if not char.isprintable() and char != ZWNJ:
            return False
        if not self.fits(text + char):
            return False
        self.value = text + char
        return True

    def back(self) -> bool:
        if not self.value:
            return False
        self.value = self.value[:-1]
        return True


class KeyButton(Button):
    """One key: a character it types (``char``; the accent key's is
    ``keyboard_layouts.ACCENT``), or a named one ("shift", "back", "space",
    "done", "page", "language") that does ``action``. ``lit`` shows a key
    that is on (shift, or an accent waiting for its letter); ``units`` is
    its width in the row's key widths."""

    action = ObjectProperty(None)
    char = StringProperty("")
    name = StringProperty("")
    lit = BooleanProperty(False)
    units = NumericProperty(1)
    repeats = BooleanProperty(False)  # ⌫: held, it goes on
    _hold: Any = None

    def on_press(self) -> None:
        if self.repeats:
            self._hold = Clock.schedule_once(self._start_repeat, HOLD)

    def _start_repeat(self, _dt: float) -> None:
        self._hold = Clock.schedule_interval(lambda _dt: self.action(), REPEAT)

    def on_release(self) -> None:
        if self._hold is not None:
            self._hold.cancel()
            self._hold = None
        self.action()


class TouchKeyboard(BoxLayout):
    """The keyboard docked along the bottom of the window. One serves the
    whole kiosk (:func:`keyboard`)."""

    target = ObjectProperty(None, allownone=True)
    lang = StringProperty("en")
    page = OptionProperty("letters", options=("letters", "signs", "digits"))
    shift = BooleanProperty(False)
    accent = NumericProperty(0)  # 0, or which accent waits for its letter (from 1)
    key_height = NumericProperty(dp(52))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kiosk_lang = "en"
        self.offered: tuple[str, ...] = tuple(LETTERS)
        self._lifted: tuple[Widget, float] | None = None
        self._watched: list[tuple[Any, str, Callable[..., Any]]] = []
        self._keys_bound = False  # the window's key events, while open
        self.bind(shift=self._relabel, accent=self._relabel)

    # -- open, close --------------------------------------------------------
    def use_language(self, lang: str, offered: tuple[str, ...]) -> None:
        """The kiosk's language, where each opening starts, and the layouts
        the language key offers (Persian only where it can be drawn)."""
        self.kiosk_lang, self.offered = lang, offered

    @property
    def is_open(self) -> bool:
        return self.target is not None

    def attach(self, field: TextField) -> None:
        """Type into ``field``: dock (or stay docked) and keep it in sight."""
        if self.target is not None and self.target == field:  # (``ids`` hold proxies)
            return
        self._detach_field()
        self.target = field
        field.focused = True
        self.page = "digits" if field.kind == "pin" else "letters"
        if self.page == "letters":
            self.lang = languages_after(self.kiosk_lang, self.offered)[0]
        self._build()
        self._auto_shift()
        if self.parent is None:
            Window.add_widget(self)
        self._bind_keys(True)
        self._lift(field)
        self._watch(field)

    def next_field(self) -> TextField | None:
        """The field after the one typed into, on the same screen or panel
        (top to bottom, then in reading order), or None if it is the last."""
        field = self.target
        layer = None if field is None else _layer_of(field)
        if layer is None:
            return None
        fields = sorted(
            (w for w in layer.walk(restrict=True) if isinstance(w, TextField) and _shown(w)),
            key=lambda w: _reading_place(w),
        )
        after = [w for w in fields if _reading_place(w) > _reading_place(field)]
        return after[0] if after else None

    def _to_next_field(self) -> None:
        """**Next**: type into the following field, brought into view."""
        following = self.next_field()
        if following is None:
            return
        self._detach_field()  # the layer back in place, the field let go
        self.target = None
        view = following.parent
        while view is not None and not isinstance(view, ScrollView):
            view = view.parent
        if view is not None:
            view.scroll_to(following, padding=dp(8), animate=False)
            view.update_from_scroll()  # moved now, not at the next frame
        self.attach(following)

    def close(self, *_args: Any) -> None:
        if self.target is None:
            return
        self._detach_field()
        self.target = None
        self._bind_keys(False)
        if self.parent is not None:
            self.parent.remove_widget(self)

    def _bind_keys(self, bound: bool) -> None:
        if bound != self._keys_bound:
            (Window.bind if bound else Window.unbind)(
                on_resize=self._on_resize,
                on_textinput=self._on_textinput,
                on_key_down=self._on_key_down,
            )
            self._keys_bound = bound

    def _detach_field(self) -> None:
        for widget, name, callback in self._watched:
            widget.unbind(**{name: callback})
        self._watched = []
        self._drop()
        field = self.target
        self.accent, self.shift = 0, False
        if field is not None:
            field.focused = False
            field.dispatch("on_submit")

    def _watch(self, field: TextField) -> None:
        """Close when the field's screen or panel goes away."""
        widget: Any = field
        while widget is not None and widget is not Window:
            if isinstance(widget, ScreenManager):
                self._watched.append((widget, "current", self.close))
            parent = widget.parent
            if parent is Window or parent is None:
                self._watched.append((widget, "parent", self.close))
            widget = parent
        for widget, name, callback in self._watched:
            widget.bind(**{name: callback})

    # -- keeping the field in sight -----------------------------------------
    def _place(self) -> None:
        """Keys sized for this window, the keyboard along its bottom."""
        rows = len(self.ids.rows.children)
        self.key_height = max(dp(48), min(dp(72), Window.height * 0.11))
        self._relabel()
        self.size = (Window.width, rows * self.key_height + (rows + 1) * dp(6))
        self.pos = (0, 0)

    def _lift(self, field: TextField) -> None:
        """Slide the field's layer (the screen, or the panel it is on) up
        until the field clears the keyboard."""
        layer = _layer_of(field)
        bottom = field.to_window(field.x, field.y)[1]
        needed = self.top + GAP - bottom
        if layer is not None and needed > 0:
            if isinstance(layer, ModalView):
                # A panel keeps itself at the window's centre (Kivy's
                # ModalView re-centres whenever it moves): not while lifted.
                layer.funbind("center", layer._align_center)
            layer.y += needed
            self._lifted = (layer, needed)

    def _drop(self) -> None:
        if self._lifted is not None:
            layer, by = self._lifted
            self._lifted = None
            layer.y -= by
            if isinstance(layer, ModalView):
                layer.fbind("center", layer._align_center)

    def _on_resize(self, *_args: Any) -> None:
        self.close()  # a turned screen: its layout is another one

    # -- touches ------------------------------------------------------------
    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            super().on_touch_down(touch)
            return True  # nothing under the keyboard is touched through it
        return False

    def on_touch_up(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) or touch.grab_current is not None:
            return super().on_touch_up(touch)
        # A tap elsewhere: it does what it does, then the keyboard closes,
        # unless it was on a field, which keeps it (for itself).
        Clock.schedule_once(lambda _dt: None if touch.ud.get("text_field") else self.close())
        return False

    # -- the keys -----------------------------------------------------------
    def _build(self, *_args: Any) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        for keys in self._rows():
            line = BoxLayout(size_hint=(None, None), spacing=dp(4))
            for key in keys:
                line.add_widget(key)
            holder = AnchorLayout(anchor_x="center")
            holder.add_widget(line)
            rows.add_widget(holder)
        self._place()

    def _rows(self) -> list[list[KeyButton]]:
        t = Messages(self.kiosk_lang)
        done = [self._key(t("keyboard.done"), self.close, units=2, name="done")]
        if self.next_field() is not None:  # Next, before Done; the space bar makes room
            done.insert(0, self._key(t("keyboard.next"), self._to_next_field, units=2, name="next"))
        back = self._key("⌫", self._back, units=1.5, name="back", repeats=True)
        if self.page == "digits":
            rows = [[self._char(c) for c in row] for row in DIGITS[:3]]
            return rows + [[back, self._char(DIGITS[3]), *done]]
        space = self._key(
            t("keyboard.space"),
            lambda: self._type(" "),
            units=4.5 if len(done) == 1 else 3,
            name="space",
        )
        if self.page == "signs":
            rows = [[self._char(c) for c in row] for row in SIGNS]
            rows[2].append(back)
            letters = self._key(
                t("keyboard.letters"), lambda: self._to("letters"), units=2, name="page"
            )
            return rows + [[letters, space, *done]]
        layout = LETTERS[self.lang]
        rows = [[self._char(c) for c in row] for row in layout.rows]
        if layout.cased:
            rows[2].insert(0, self._key("⇧", self._toggle_shift, units=1.5, name="shift"))
        rows[2].append(back)
        signs = self._key(t("keyboard.signs"), lambda: self._to("signs"), units=1.5, name="page")
        bottom = [signs]
        if len(languages_after(self.lang, self.offered)) > 1:
            bottom.append(
                self._key(
                    t(f"keyboard.layout.{self.lang}"),
                    self._next_language,
                    units=1.5,
                    name="language",
                )
            )
        extra = [self._char(c) for c in layout.extra]
        return rows + [bottom + extra + [space, *done]]

    def _key(
        self,
        label: str,
        action: Callable[[], Any],
        units: float = 1,
        name: str = "",
        repeats: bool = False,
    ) -> KeyButton:
        return KeyButton(text=label, action=action, units=units, name=name, repeats=repeats)

    def _char(self, char: str) -> KeyButton:
        if char == ZWNJ:  # Persian's half-space: its key says so in Persian
            return KeyButton(
                text=Messages(self.lang)("keyboard.half_space"),
                char=char,
                units=1.5,
                action=lambda: self._type(char),
            )
        return KeyButton(text=char, char=char, action=lambda: self._type(char))

    def _relabel(self, *_args: Any) -> None:
        """Capitals while shifted; the shift and accent keys lit while on;
        the sizes of every key from the window's width."""
        lines = [holder.children[0] for holder in self.ids.rows.children]
        widest = max(sum(key.units for key in line.children) for line in lines)
        unit = min((Window.width - dp(16)) / widest, MAX_UNIT)
        for line in lines:
            width = 0.0
            for key in line.children:
                key.size = (unit * key.units - dp(4), self.key_height)
                width += unit * key.units
                char = key.char
                if char.isalpha():
                    key.text = char.upper() if self.shift else char
                if key.name == "shift":
                    key.lit = self.shift
                if char == ACCENT:
                    accents = LETTERS[self.lang].accents
                    key.text = accents[max(self.accent - 1, 0)][0]
                    key.lit = bool(self.accent)
            line.size = (width, self.key_height)

    def key(self, name_or_char: str) -> KeyButton:
        """The key shown with this character or named so ("shift", "back",
        "space", "next", "done", "page", "language"): for tests and the doctor."""
        for holder in self.ids.rows.children:
            for key in holder.children[0].children:
                if name_or_char in (key.name, key.char, key.text):
                    return key
        raise KeyError(name_or_char)

    # -- typing -------------------------------------------------------------
    def _type(self, char: str) -> None:
        field = self.target
        if field is None:
            return
        if char == ACCENT:  # the next accent, or none after the last
            self.accent = (self.accent + 1) % (len(LETTERS[self.lang].accents) + 1)
            return
        if self.shift:
            char = char.upper()
        if self.accent:
            mark = LETTERS[self.lang].accents[self.accent - 1][1]
            self.accent = 0
            char = accented(char, mark) or char
        if field.put(char):
            self.shift = False
            self._auto_shift()

    def _back(self) -> None:
        if self.target is not None:
            self.target.back()
            self._auto_shift()

    def _auto_shift(self) -> None:
        """A name's words start with a capital, as a phone's keyboard does."""
        field = self.target
        if field is not None and field.kind == "name" and LETTERS[self.lang].cased:
            self.shift = not field.value or field.value.endswith(" ")

    def _toggle_shift(self) -> None:
        self.shift = not self.shift

    def _next_language(self) -> None:
        self.accent = 0
        self.lang = languages_after(self.lang, self.offered)[1]
        self._build()
        self._auto_shift()

    def _to(self, page: str) -> None:
        self.page = page
        self._build()

    # -- a physical keyboard ------------------------------------------------
    def _on_textinput(self, _window: Any, text: str) -> bool:
        for char in text:
            if self.target is not None:
                self.target.put(char)
        return True

    def _on_key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        if key == 8:  # Backspace
            self._back()
            return True
        if key in (13, 271):  # Enter, keypad Enter
            self.close()
            return True
        return False  # every other key: lockdown swallows it


def _shown(widget: Widget) -> bool:
    """Neither the widget nor what holds it is disabled, hidden or flat."""
    while isinstance(widget, Widget):
        if widget.disabled or widget.opacity == 0 or widget.height <= 0:
            return False
        widget = widget.parent
    return True


def _reading_place(field: Widget) -> tuple[float, float]:
    """Where a reader comes to ``field``: top to bottom, then along the line
    (from the right in a right-to-left language)."""
    x, y = field.to_window(field.x, field.top)
    return (-round(y), -x if writing.rtl else x)


def _layer_of(widget: Widget) -> Widget | None:
    """The window's child that holds ``widget``: the kiosk, or a panel."""
    while widget.parent is not None and widget.parent is not Window:
        widget = widget.parent
    return widget if widget.parent is Window else None


_KEYBOARD: TouchKeyboard | None = None


def keyboard() -> TouchKeyboard:
    """The kiosk's one keyboard."""
    global _KEYBOARD
    if _KEYBOARD is None:
        _KEYBOARD = TouchKeyboard()
    return _KEYBOARD
