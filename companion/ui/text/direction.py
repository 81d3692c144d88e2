"""Which way the kiosk writes. Persian reads right to left, so its screens
are mirrored where direction matters: a label's text starts at the right
(``halign: writing.start``), the parts of a ``Row`` run right to left and a
grid or stack of choices fills from the top right (``orientation:
writing.grid``). What copies the physical game stays as printed: the
boards' tracks and the charts' rounds run as on the table.

The kiosk shows one language at a time, so one ``writing`` serves every kv
rule; its properties are bound, so a change of language re-lays the screen.

Each line of a label is drawn as a paragraph of the kiosk's direction
(:func:`.shaping.paragraph`, which the SDL2 text path cuts each line into
runs for; :func:`draw_in_writing_direction` where Pillow draws instead): a
line laid out from its own first strong character would put a Persian line
that starts with a digit ("۰ ← ۱۵"), a symbol, or the rest of a Latin name
wrapped from the line above left to right, its parts in the wrong order.
A label that copies the physical game (a row of disks as on the board) says
so with ``base_direction: "ltr"``."""

from __future__ import annotations

from functools import partial

from kivy.event import EventDispatcher
from kivy.factory import Factory
from kivy.properties import AliasProperty, BooleanProperty
from kivy.uix.boxlayout import BoxLayout

from ...i18n import direction


class Writing(EventDispatcher):
    rtl = BooleanProperty(False)

    def _start(self) -> str:
        return "right" if self.rtl else "left"

    def _end(self) -> str:
        return "left" if self.rtl else "right"

    def _grid(self) -> str:
        return "rl-tb" if self.rtl else "lr-tb"

    def _grid_up(self) -> str:
        return "rl-bt" if self.rtl else "lr-bt"

    start = AliasProperty(_start, bind=["rtl"], cache=True)
    end = AliasProperty(_end, bind=["rtl"], cache=True)
    grid = AliasProperty(_grid, bind=["rtl"], cache=True)
    grid_up = AliasProperty(_grid_up, bind=["rtl"], cache=True)  # filled from the bottom row

    def use(self, lang: str) -> None:
        self.rtl = direction(lang) == "rtl"


writing = Writing()


class Row(BoxLayout):
    """A horizontal box whose parts run right to left when the kiosk writes
    right to left (Kivy 2.3's BoxLayout only runs left to right)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        writing.bind(rtl=self._rewrite)  # a bound method: held weakly

    def _rewrite(self, *_args) -> None:
        self._trigger_layout()

    def do_layout(self, *args) -> None:
        super().do_layout(*args)
        if writing.rtl and self.orientation == "horizontal":
            for child in self.children:
                child.x = self.x + self.right - child.right


Factory.register("Row", cls=Row)


def draw_in_writing_direction() -> None:
    """Draw every line of Kivy's Pillow labels (the fallback where Kivy's
    SDL2_ttf cannot shape: :mod:`.shaping`) as a paragraph of the kiosk's
    writing direction, or of the label's own ``base_direction`` ("ltr" or
    "rtl") where it names one."""
    from kivy.core.text import Label

    if Label.__name__ != "LabelPIL" or getattr(Label, "_directed", False):
        return
    begin = Label._render_begin

    def render_begin(label) -> None:
        begin(label)
        chosen = label.options.get("base_direction")
        paragraph = chosen if chosen in ("ltr", "rtl") else ("rtl" if writing.rtl else None)
        if paragraph == "rtl" or chosen == "ltr":
            draw = label._pil_draw
            draw.text = partial(draw.text, direction=paragraph)

    Label._render_begin = render_begin
    Label._directed = True


def note_laid_out_direction() -> None:
    """Mark every label Kivy lays out with the kiosk's writing direction at
    that moment (``laid_out_rtl`` on Kivy's core label; its texture is
    filled from that layout when next drawn on screen): a table screen kept
    out of sight may lay a text out meanwhile (a caption's end, a reveal
    running on) in the direction of the screen in sight, and must lay it
    out again in its own when back (``Kiosk._keep_drawn``)."""
    from kivy.core.text import Label

    if getattr(Label, "_noting_direction", False):
        return
    refresh = Label.refresh

    def refresh_noted(label) -> None:
        label.laid_out_rtl = writing.rtl
        refresh(label)

    Label.refresh = refresh_noted
    Label._noting_direction = True
