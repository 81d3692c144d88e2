"""The kiosk's buttons: a command's button, and a choice that is lit when
chosen. Every screen and panel uses them, so they sit apart from all of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from .hiding import Hideable

Builder.load_file(str(Path(__file__).with_name("buttons.kv")))


class CommandButton(Button):
    command = ObjectProperty(None, allownone=True)
    seat_command = BooleanProperty(True)


class HidingCommandButton(Hideable, CommandButton):
    """A command's button hidden in place while it has nothing to do."""


class ChoiceButton(CommandButton):
    """One of several choices (a game, a target, a toggle): lit when chosen."""

    chosen = BooleanProperty(False)
    action = ObjectProperty(None, allownone=True)  # what a tap does


def fill_choices(box, choices: Iterable[tuple[str, bool, Callable[[], object]]]) -> None:
    """Put one ChoiceButton per (text, chosen, action) into ``box``, in order.
    The buttons already there are given the new choices (a refresh then
    redraws only the words that changed, and builds no widget)."""
    wanted = [
        {"text": text, "chosen": chosen, "action": action} for text, chosen, action in choices
    ]
    refill(box, ChoiceButton, wanted, lambda button: button.bind(on_release=lambda b: b.action()))


def refill(
    box: Widget,
    kind: type[Widget],
    wanted: Sequence[dict[str, object]],
    made: Callable[[Widget], object],
) -> None:
    """Give ``box`` one ``kind`` widget per set of properties in ``wanted``,
    in order. The widgets already there take the new properties (only the
    words that changed are drawn again); ``made`` is called on each widget
    built (to bind what a tap does, reading the widget's own properties)."""
    shown = list(reversed(box.children))
    if any(not isinstance(child, kind) for child in shown):  # something else: start afresh
        box.clear_widgets()
        shown = []
    for widget in shown[len(wanted) :]:
        box.remove_widget(widget)
    for index, properties in enumerate(wanted):
        if index < len(shown):
            for name, value in properties.items():
                setattr(shown[index], name, value)
        else:
            widget = kind(**properties)
            made(widget)
            box.add_widget(widget)
