"""A panel of lines to read, over the screen: the game's log, past games.
Any length scrolls; Close returns to the screen."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.modalview import ModalView

from .buttons import CommandButton  # noqa: F401 - its kv rule uses one

Builder.load_file(str(Path(__file__).with_name("text_panel.kv")))


class TextPanel(ModalView):
    lines = ListProperty([])
    title = StringProperty("")
    empty = StringProperty("")  # said when there are no lines
    close_text = StringProperty("")
    from_end = BooleanProperty(False)  # open at the last line (a log: newest last)
