"""Run by test_kivy_costs.py in a process of its own:

    python tests/kivy_costs_child.py kivy|spared DIRECTORY

in a real headless window with the kiosk's fonts, either with Kivy 2.3.1's
own ``ObservableReferenceList.__setslice__`` and ``BoxLayout.do_layout``
(``kivy``) or with the kiosk's (``spared``: companion/ui/system/
kivy_costs.py). Prints one JSON object: what widgets' ``pos`` and ``size``
(and a ``ReferenceListProperty`` of three parts) read, after every kind of
write, with every event each write fired (``properties``); boxes laid out
in every way a BoxLayout offers, each child's place and size and the
events of the layout (``boxes``); and every widget's place and size on
each game's table screens in English and Persian at two window sizes
(``screens``)."""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.update(
    KIVY_NO_ARGS="1",
    KIVY_NO_CONSOLELOG="1",
    KIVY_NO_FILELOG="1",
    KIVY_LOG_MODE="PYTHON",
    KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"),
    XDG_CACHE_HOME=tempfile.mkdtemp(prefix="companion-cache-"),
)
HERE = Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from companion.ui.app import prepare_kivy_environment  # noqa: E402

prepare_kivy_environment()

PHASES_SEEN = 3  # the first phases of each game's playout
VIEWS = (((800, 480), "en"), ((720, 1280), "fa"))


def number(value):
    return round(value, 6) if isinstance(value, float) else value


def plain(value):
    """A property's value as JSON can hold it (its type named, for lists)."""
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [plain(part) for part in value]]
    return number(value)


class Log:
    """Every event of the watched properties, in the order they fired."""

    def __init__(self) -> None:
        self.events: list = []

    def watch(self, widget, name: str, *properties: str) -> None:
        for prop in properties:
            widget.fbind(prop, self._heard, name, prop)

    def _heard(self, name: str, prop: str, _widget, value) -> None:
        self.events.append([name, prop, plain(value)])

    def take(self) -> list:
        events, self.events = self.events, []
        return events


WIDGET_PROPERTIES = (
    "pos",
    "size",
    "x",
    "y",
    "width",
    "height",
    "center",
    "right",
    "top",
    "size_hint",
    "size_hint_x",
    "size_hint_y",
)


def properties() -> list:
    """Reads and writes of ``pos``, ``size``, ``size_hint`` and a
    three-part ``ReferenceListProperty``, each step's reads and events."""
    from kivy.event import EventDispatcher
    from kivy.properties import NumericProperty, ReferenceListProperty
    from kivy.uix.widget import Widget

    class Point(EventDispatcher):
        a = NumericProperty(0)
        b = NumericProperty(0)
        c = NumericProperty(0)
        abc = ReferenceListProperty(a, b, c)

    log = Log()
    widget, point = Widget(), Point()
    log.watch(widget, "widget", *WIDGET_PROPERTIES)
    log.watch(point, "point", "a", "b", "c", "abc")
    held = widget.pos  # the list a read returns, kept across later writes

    def state() -> dict:
        return {
            "pos": plain(widget.pos),
            "size": plain(widget.size),
            "size_hint": plain(widget.size_hint),
            "abc": plain(point.abc),
            "slices": plain([widget.pos[:], widget.pos[0:1], widget.size[1:], point.abc[::2]]),
            "items": plain([widget.pos[0], widget.size[-1], point.abc[1]]),
            "held": plain(held),
            "held_is_pos": held is widget.pos,
            "equal": [widget.pos == [widget.x, widget.y], tuple(widget.size) == widget.size],
            "last_op": plain(widget.pos.last_op),
        }

    def pos_slice(value):
        widget.pos[0:2] = value

    def pos_tail(value):
        widget.pos[1:] = value

    def size_all(value):
        widget.size[:] = value

    def abc_middle(value):
        point.abc[1:2] = value

    def abc_item(value):
        point.abc[2] = value

    steps = [
        ("pos", lambda: setattr(widget, "pos", (10, 20))),
        ("same pos", lambda: setattr(widget, "pos", [10, 20])),
        ("x", lambda: setattr(widget, "x", 5)),
        ("y float", lambda: setattr(widget, "y", 2.5)),
        ("size", lambda: setattr(widget, "size", [30, 40])),
        ("width", lambda: setattr(widget, "width", 31)),
        ("pos item", lambda: widget.pos.__setitem__(0, 7)),
        ("pos slice", lambda: pos_slice([8, 9])),
        ("pos tail", lambda: pos_tail([11])),
        ("size all", lambda: size_all((50, 60))),
        ("center", lambda: setattr(widget, "center", (100, 100))),
        ("right", lambda: setattr(widget, "right", 300)),
        ("size_hint", lambda: setattr(widget, "size_hint", (None, 0.5))),
        ("size_hint_x", lambda: setattr(widget, "size_hint_x", 0.25)),
        ("abc", lambda: setattr(point, "abc", (1, 2, 3))),
        ("b", lambda: setattr(point, "b", 20)),
        ("abc middle", lambda: abc_middle([4])),
        ("abc item", lambda: abc_item(9)),
        ("pos too short", lambda: setattr(widget, "pos", (1,))),
        ("pos not a list", lambda: setattr(widget, "pos", 5)),
        ("abc too long", lambda: setattr(point, "abc", (1, 2, 3, 4))),
    ]
    seen = [["start", state(), log.take(), None]]
    for name, step in steps:
        try:
            step()
            error = None
        except Exception as e:  # what Kivy refuses, refused alike
            error = [type(e).__name__, str(e)]
        seen.append([name, state(), log.take(), error])
    return seen


def boxes() -> list:
    """Boxes of every kind (each orientation, padding, spacing, size hints
    and their bounds, fixed sizes, position hints, boxes in boxes sized to
    their minimum, a Row written right to left), laid out by frames: each
    widget's place and size and the layout's events."""
    from kivy.base import EventLoop
    from kivy.lang import Builder
    from ui_helpers import frames

    from companion.ui.text.direction import writing

    root = Builder.load_string(
        """
BoxLayout:
    orientation: "vertical"
    padding: 7, 3, 11, 5
    spacing: 4
    BoxLayout:
        spacing: 6
        padding: 2
        Widget:
        Widget:
            size_hint_x: 2
        Widget:
            size_hint: None, None
            size: 40, 30
        Widget:
            size_hint_x: None
            width: 55
            pos_hint: {"top": 0.9}
        Widget:
            size_hint_y: 0.5
            pos_hint: {"center_y": 0.5}
        Widget:
            size_hint_min_x: 120
            pos_hint: {"y": 0.1}
        Widget:
            size_hint_max_x: 30
    BoxLayout:
        orientation: "vertical"
        size_hint_y: None
        height: self.minimum_height
        padding: 10
        spacing: 3
        Widget:
            size_hint_y: None
            height: 25
        Widget:
            size_hint: 0.5, None
            height: 15
            pos_hint: {"right": 1}
        Widget:
            size_hint_y: None
            height: 35
            size_hint_x: None
            width: 80
            pos_hint: {"center_x": 0.5}
        BoxLayout:
            size_hint_y: None
            height: 20
            size_hint_x: None
            width: self.minimum_width
            spacing: 2
            Widget:
                size_hint_x: None
                width: 17
            Widget:
                size_hint_x: None
                width: 23
    BoxLayout:
        orientation: "vertical"
        size_hint_min_y: 90
        size_hint_max_y: 150
        Widget:
            size_hint_min_y: 60
        Widget:
            size_hint_max_y: 20
        Widget:
            size_hint_y: 3
    Row:
        spacing: 5
        padding: 4, 0
        Label:
            text: "one"
            size_hint_x: None
            width: self.texture_size[0]
        Label:
            text: "two words"
        Widget:
            size_hint_x: 0.3
    BoxLayout:
        size_hint_y: None
        height: 0
        Widget:
        Widget:
    BoxLayout:
        size_hint_y: None
        height: 20
        padding: 8, 6
"""
    )
    window = EventLoop.window
    log = Log()
    widgets = list(root.walk(restrict=True))
    for i, widget in enumerate(widgets):
        log.watch(widget, str(i), "pos", "size")
        if hasattr(widget, "minimum_size"):
            log.watch(widget, str(i), "minimum_size")
    seen = []
    for size, rtl in (((800, 480), False), ((720, 1280), True), ((300, 200), True)):
        window.size = size
        writing.rtl = rtl
        for child in list(window.children):
            window.remove_widget(child)
        window.add_widget(root)
        frames(4)
        geometry = [[type(w).__name__, *map(number, (*w.pos, *w.size))] for w in widgets]
        minimums = [plain(w.minimum_size) for w in widgets if hasattr(w, "minimum_size")]
        seen.append([list(size), rtl, geometry, minimums, log.take()])
    writing.rtl = False
    window.remove_widget(root)
    return seen


def screens(directory: Path) -> list:
    """Each game's table screens at the first phases of a seeded playout,
    in English at 800×480 and in Persian at 720×1280: every widget's
    class, place and size."""
    from kiosk_helpers import settle
    from kivy.base import EventLoop
    from phase_playouts import CONFIGS, PHASES, new_table, play

    from companion.ui.screens.table_screen import screen_class
    from companion.ui.text.direction import writing

    window = EventLoop.window
    seen = []
    for game in sorted(PHASES):
        players, options = CONFIGS[game][0]
        table, clock = new_table(directory / f"{game}.sqlite3", game, "keeper", players, options, 1)
        phases: list[str] = []
        for step in play(table, clock, random.Random(1)):
            phase = step.public_view()["phase"]
            if phase in phases:
                continue
            phases.append(phase)
            for size, lang in VIEWS:
                window.size = size
                writing.use(lang)
                screen = screen_class(game)(table, lang=lang)
                for child in list(window.children):
                    window.remove_widget(child)
                window.add_widget(screen)
                settle(screen, draw=False)
                geometry = [
                    [type(w).__name__, *map(number, (*w.pos, *w.size))]
                    for w in screen.walk(restrict=True)
                ]
                seen.append([game, phase, lang, list(size), geometry])
                screen.detach()
                window.remove_widget(screen)
            if len(phases) == PHASES_SEEN:
                break
        table.store.close()
    writing.use("en")
    return seen


def main(kind: str, directory: Path) -> dict:
    from kivy.base import EventLoop
    from kivy.properties import ObservableReferenceList
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.text.fonts import use_dejavu

    kivy_own = ObservableReferenceList.__dict__["__setslice__"], BoxLayout.__dict__["do_layout"]
    EventLoop.ensure_window()
    use_dejavu()  # the kiosk's fonts, and its spared costs
    if kind == "kivy":  # Kivy's own methods back
        ObservableReferenceList.__setslice__, BoxLayout.do_layout = kivy_own
    spared = ObservableReferenceList.__dict__["__setslice__"] is not kivy_own[0]
    return {
        "spared": spared,
        "properties": properties(),
        "boxes": boxes(),
        "screens": screens(directory),
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], Path(sys.argv[2]))))
