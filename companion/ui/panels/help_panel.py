"""The rules at hand on the kiosk, over the table screen: what is happening
now and what each player may do, then the game's quick reference (the "?"
on the bar); and the first-game guide, which shows the "now" of each new
kind of step once and waits for a tap. Both are worded by the game from the
public view alone (``Words.explain`` and ``Words.quick_reference``), and
follow the table while open. Neither holds anything up: the table's
timer runs on and its ballot takes votes beneath them, and the guide takes
only the taps on itself (the screen beneath it works on). While the game's
clock runs (Article 27's negotiation) the guide is compact: a strip under
the bar (in Article 27 over the status line, which its words restate), its
words scrolling beside **Got it**, so the clock, the board and the commands
stay in view."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.utils import escape_markup

from ..text.direction import Row  # noqa: F401 - its kv rule uses one
from ..widgets.buttons import CommandButton  # noqa: F401 - its kv rule uses one

Builder.load_file(str(Path(__file__).with_name("help_panel.kv")))


class HelpPanel(ModalView):
    title = StringProperty("")
    now = ListProperty([])  # what is happening now, a sentence each
    reference_title = StringProperty("")
    reference = ListProperty([])  # (heading, text) sections
    close_text = StringProperty("")
    docked = BooleanProperty(False)  # the guide: low on the screen, the clock in sight
    compact = BooleanProperty(False)  # the guide while the game's clock runs: a strip on top
    acknowledged = BooleanProperty(False)  # closed by its own button ("Got it")

    def on_touch_down(self, touch) -> bool:
        """The guide takes only the taps on itself: the screen beneath it
        works on (a tap there neither closes it nor is lost)."""
        if self.docked and not self.collide_point(*touch.pos):
            return False
        return super().on_touch_down(touch)

    def on_touch_move(self, touch) -> bool:
        if self.docked and not self.collide_point(*touch.pos):
            return False
        return super().on_touch_move(touch)

    def on_touch_up(self, touch) -> bool:
        if self.docked and not self.collide_point(*touch.pos):
            return False
        return super().on_touch_up(touch)

    def text(self, compact: bool = False) -> str:
        """Everything the panel says, in Kivy's markup (names escaped); its
        sentences run on where the panel is a compact strip."""
        lines = [escape_markup(line) for line in self.now]
        if compact:
            return " ".join(lines)
        if self.reference:
            lines.append(f"\n[b]{escape_markup(self.reference_title)}[/b]")
            lines += [
                f"[b]{escape_markup(heading)}[/b]\n{escape_markup(text)}"
                for heading, text in self.reference
            ]
        return "\n\n".join(lines)
