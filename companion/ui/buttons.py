"""The kiosk's buttons: a command's button, and a choice that is lit when
chosen. Every screen and panel uses them, so they sit apart from all of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.button import Button

Builder.load_file(str(Path(__file__).with_name("buttons.kv")))


class CommandButton(Button):
    command = ObjectProperty(None, allownone=True)
    seat_command = BooleanProperty(True)


class ChoiceButton(CommandButton):
    """One of several choices (a game, a target, a toggle): lit when chosen."""

    chosen = BooleanProperty(False)
    action = ObjectProperty(None, allownone=True)  # what a tap does


def fill_choices(box, choices: Iterable[tuple[str, bool, Callable[[], object]]]) -> None:
    """Put one ChoiceButton per (text, chosen, action) into ``box``, in order.
    The buttons already there are given the new choices (a refresh then
    redraws only the words that changed, and builds no widget)."""
    wanted = list(choices)
    shown = [child for child in reversed(box.children) if isinstance(child, ChoiceButton)]
    if len(shown) != len(box.children):  # something else in the box: start afresh
        box.clear_widgets()
        shown = []
    for button in shown[len(wanted) :]:
        box.remove_widget(button)
    for index, (text, chosen, action) in enumerate(wanted):
        if index < len(shown):
            button = shown[index]
            button.text, button.chosen, button.action = text, chosen, action
        else:
            button = ChoiceButton(text=text, chosen=chosen, action=action)
            button.bind(on_release=lambda b: b.action())
            box.add_widget(button)
