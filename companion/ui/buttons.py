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


def fill_choices(box, choices: Iterable[tuple[str, bool, Callable[[], object]]]) -> None:
    """Put one ChoiceButton per (text, chosen, action) into ``box``, in order."""
    box.clear_widgets()
    for text, chosen, action in choices:
        button = ChoiceButton(text=text, chosen=chosen)
        button.bind(on_release=lambda _b, act=action: act())
        box.add_widget(button)
