"""A panel of lines to read, over the screen: the game's log, a past game's.
Any length scrolls; Close returns to the screen. One more command may sit
beside Close (``action_text``: a past game's Chart), dispatched as
``on_action``."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.modalview import ModalView

from ..text.direction import Row  # noqa: F401 - its kv rule uses one
from ..widgets.buttons import CommandButton  # noqa: F401 - its kv rule uses one

Builder.load_file(str(Path(__file__).with_name("text_panel.kv")))


class TextPanel(ModalView):
    lines = ListProperty([])
    title = StringProperty("")
    empty = StringProperty("")  # said when there are no lines
    close_text = StringProperty("")
    from_end = BooleanProperty(False)  # open at the last line (a log: newest last)
    action_text = StringProperty("")  # "": no command beside Close

    __events__ = ("on_action",)

    def on_action(self) -> None:
        """The command beside Close was tapped (its owner binds it)."""
