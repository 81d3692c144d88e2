"""The kiosk's buttons: a command's button, and a choice that is lit when
chosen. Every screen and panel uses them, so they sit apart from all of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from weakref import WeakKeyDictionary

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from .hiding import Hideable

Builder.load_file(str(Path(__file__).with_name("buttons.kv")))


class CommandButton(Button):
    """A command's button; ``seat_command`` False draws it grey, apart from
    the players' moves (Cancel, Done, Erase)."""

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


# The names of the properties each widget ``refill`` built was given.
_GIVEN: WeakKeyDictionary[Widget, frozenset[str]] = WeakKeyDictionary()


def refill(
    box: Widget,
    kind: type[Widget] | Sequence[type[Widget]],
    wanted: Sequence[Mapping[str, object]],
    made: Callable[[Widget], object],
) -> None:
    """Give ``box`` one widget per set of properties in ``wanted``, in order:
    a ``kind`` widget, or (``kind`` a list, one per set) the kind given for
    that set. The widgets already there take the new properties (only the
    words that changed are drawn again) as far as each is of the kind wanted
    in its place and was given the same properties; from the first that is
    not, the widgets are built anew (none keeps a property it is no longer
    given). ``made`` is called on each widget built (to bind what a tap
    does, reading the widget's own properties)."""
    kinds = [kind] * len(wanted) if isinstance(kind, type) else list(kind)
    shown = list(reversed(box.children))
    kept = 0
    for widget, wanted_kind, properties in zip(shown, kinds, wanted):
        if type(widget) is not wanted_kind or _GIVEN.get(widget) != frozenset(properties):
            break
        kept += 1
    for widget in shown[kept:]:
        box.remove_widget(widget)
    for widget, properties in zip(shown, wanted[:kept]):
        for name, value in properties.items():
            setattr(widget, name, value)
    for wanted_kind, properties in zip(kinds[kept:], wanted[kept:]):
        widget = wanted_kind(**properties)
        _GIVEN[widget] = frozenset(properties)
        made(widget)
        box.add_widget(widget)
