"""The command strip: the row (or rows) of buttons under a game's table
screen, one per thing the table may be told from the screen, and the words
that ask for a target before its choices. Every game's screen fills its own
(``CommandStrip.show``) with what its words offer now; the strip lays them
out in the kiosk's writing direction, keeps the buttons that stay in their
places (only the words that changed are drawn again) and sends a tap to
what the item asked for."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kivy.lang import Builder
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from .buttons import CommandButton, refill

Builder.load_file(str(Path(__file__).with_name("command_strip.kv")))

Tap = Callable[[], object]
# The properties of a button of the screen's own (Cancel, Done, Erase): no
# seat's command, so drawn apart from them.
SCREEN_OWN: Mapping[str, object] = MappingProxyType({"seat_command": False})


@dataclass(frozen=True)
class StripItem:
    """One thing on the strip: a ``kind`` widget showing ``text``, and what a
    tap on it does (``on_tap``; None for words that only ask, a prompt).
    ``properties`` are the kind's own (``seat_command``, ``chosen``,
    ``disabled``, a tint)."""

    text: str
    on_tap: Tap | None = None
    kind: type[Widget] = CommandButton
    properties: Mapping[str, object] = field(default_factory=dict)


class CommandStrip(StackLayout):
    """The strip of a game's table screen (its kv rule: filled in the
    kiosk's writing direction, as tall as its rows)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._taps: list[Tap | None] = []

    def show(self, items: Sequence[StripItem]) -> None:
        """Show ``items``, in order, in place of what the strip showed."""
        self._taps = [item.on_tap for item in items]
        wanted = [{"text": item.text, **item.properties} for item in items]
        refill(self, [item.kind for item in items], wanted, self._made)

    def _made(self, widget: Widget) -> None:
        if isinstance(widget, ButtonBehavior):
            widget.bind(on_release=self._tapped)

    def _tapped(self, widget: Widget) -> None:
        """A tap does what the item now in the button's place asks; a button
        taken off the strip while a finger was on it does nothing."""
        shown = list(reversed(self.children))
        if widget in shown:
            tap = self._taps[shown.index(widget)]
            if tap is not None:
                tap()
