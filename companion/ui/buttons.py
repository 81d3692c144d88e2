"""The kiosk's buttons: a command's button, and a choice that is lit when
chosen. Every screen and panel uses them, so they sit apart from all of them."""
from __future__ import annotations

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
