"""Kivy's needless costs spared (companion/ui/system/kivy_costs.py): a
``ReferenceListProperty`` (``pos``, ``size``...) no longer raises and
catches an ``AttributeError`` at every read and write, and a BoxLayout
reads its children's sizes as numbers; every value, event and layout
stays Kivy's own, compared with Kivy's methods in a process of their own
(tests/kivy_costs_child.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("kivy")
CHILD = Path(__file__).with_name("kivy_costs_child.py")


def child(kind: str, directory: Path) -> dict:
    directory.mkdir()
    done = subprocess.run(
        [sys.executable, str(CHILD), kind, str(directory)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_values_events_and_layouts_are_kivys_own(tmp_path):
    kivy, spared = child("kivy", tmp_path / "kivy"), child("spared", tmp_path / "spared")
    assert (kivy["spared"], spared["spared"]) == (False, True)
    # What each side saw is something: writes fired events, screens have widgets.
    assert sum(len(events) for _, _, events, _ in kivy["properties"]) > 50
    assert len(kivy["boxes"]) == 3 and all(events for *_, events in kivy["boxes"])
    assert len(kivy["screens"]) == 24
    for name, state, events, error in kivy["properties"]:
        assert [name, state, events, error] in spared["properties"], name
    assert spared["properties"] == kivy["properties"]
    for box, spared_box in zip(kivy["boxes"], spared["boxes"]):
        assert spared_box == box, box[:2]
    for screen, spared_screen in zip(kivy["screens"], spared["screens"]):
        assert spared_screen == screen, screen[:4]


def test_what_kivy_tries_first_now_works(window):
    """Kivy calls ``__setslice__`` first, then, on its AttributeError,
    ``__setitem__``: the first now sets the list as the second did."""
    from kivy.uix.widget import Widget

    widget = Widget(pos=(1, 2))
    held = widget.pos  # the list itself (a read sets it from x and y again)
    held.__setslice__(0, 2, [3, 4], update_properties=False)
    assert (list(held), widget.x, widget.y) == ([3, 4], 1, 2)  # the list only
    held.__setslice__(0, 2, [5, 6])
    assert (list(held), widget.x, widget.y) == ([5, 6], 5, 6)


class Fallbacks:
    """Kivy's fallback after its ``__setslice__`` failed (``__setitem__``
    with ``update_properties=False``), counted, anywhere; every
    ``__setslice__``; and the items written in the lists of ``watched``
    widgets (those of a widget another test left alive are not this one's)."""

    def __init__(self, watched: tuple = ()) -> None:
        from kivy.properties import ObservableReferenceList

        self.cls = ObservableReferenceList
        self.setitem, self.setslice = self.cls.__setitem__, self.cls.__setslice__
        self.taken, self.item_writes, self.slices = 0, 0, 0
        self.watched = {id(widget) for widget in watched}

    def __enter__(self) -> Fallbacks:
        setitem, setslice = self.setitem, self.setslice

        def counted_setitem(lst, key, value, update_properties=True):
            if update_properties:
                self.item_writes += id(lst.obj()) in self.watched
            else:
                self.taken += 1
            return setitem(lst, key, value, update_properties)

        def counted_setslice(lst, *args, **kwargs):
            self.slices += 1
            return setslice(lst, *args, **kwargs)

        self.cls.__setitem__, self.cls.__setslice__ = counted_setitem, counted_setslice
        return self

    def __exit__(self, *_exc) -> None:
        self.cls.__setitem__, self.cls.__setslice__ = self.setitem, self.setslice


def test_reads_writes_and_layouts_never_fall_back(window):
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget
    from ui_helpers import frames

    box = BoxLayout(padding=4, spacing=2)
    parts = [Widget(), Widget(size_hint_x=None, width=30)]
    for part in parts:
        box.add_widget(part)
    window.add_widget(box)
    try:
        with Fallbacks(watched=(box, *parts)) as fallbacks:
            for part in parts:
                part.pos, part.size, part.size_hint  # noqa: B018 (reads)
                part.x += 1
                part.pos = (5, 6)
                part.pos[0] = 7  # an item written: Kivy's __setitem__, as ever
            box.width += 10
            frames(2)
        assert fallbacks.item_writes == len(parts)
        assert fallbacks.slices > 10
        assert fallbacks.taken == 0
    finally:
        window.remove_widget(box)


def test_a_settled_box_lays_out_without_reading_its_childrens_lists(window):
    """Kivy's BoxLayout read each child's ``size``, ``size_hint``,
    ``size_hint_min`` and ``size_hint_max`` at every layout (each a new
    list); a box whose children stand where it puts them reads none."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget
    from ui_helpers import frames

    box = BoxLayout(orientation="vertical", padding=4, spacing=2)
    for hint in (1, 2, None):
        box.add_widget(Widget(size_hint_y=hint, height=20))
    window.add_widget(box)
    try:
        frames(2)
        placed = [(*child.pos, *child.size) for child in box.children]
        with Fallbacks() as fallbacks:
            box.do_layout()
        assert [(*child.pos, *child.size) for child in box.children] == placed
        assert fallbacks.slices == 0
    finally:
        window.remove_widget(box)


def test_a_kv_rule_formats_trace_lines_only_for_a_log_that_takes_them(window):
    """Kivy's ``call_fn`` wrote two trace lines (the widget's ``repr``
    among them) for every rule it evaluated, whatever the log took; the
    rule's value is the same either way, and a log set to TRACE still
    gets both lines."""
    import logging

    from kivy.lang import Builder
    from kivy.logger import LOG_LEVELS, Logger
    from kivy.uix.widget import Widget

    class Traced(Widget):
        shown = 0

        def __repr__(self) -> str:
            Traced.shown += 1
            return "<Traced>"

    Builder.load_string("<Traced>:\n    height: self.width + 1\n")
    lines: list[str] = []

    class Heard(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    heard, level = Heard(level=1), Logger.level
    Logger.addHandler(heard)
    try:
        widget = Traced(width=10)
        Traced.shown = 0  # (Kivy's rule set-up has its own trace lines)
        widget.width = 20
        assert (widget.height, Traced.shown) == (21, 0)
        assert not [line for line in lines if "call_fn" in line]
        Logger.setLevel(LOG_LEVELS["trace"])
        widget.width = 30
        assert widget.height == 31
        first, then = [line for line in lines if "call_fn" in line]
        assert first.startswith("Lang: call_fn <Traced>, key=height, value=<code object")
        assert first.endswith(", 'self.width + 1'")
        assert then == "Lang: call_fn => value=31"
        assert Traced.shown == 1
    finally:
        Logger.setLevel(level)
        Logger.removeHandler(heard)


def test_a_scroll_bar_greys_at_once_half_a_second_after_its_list_moved(window):
    """Kivy faded a moved list's bar to ``bar_inactive_color`` in an
    animation of half a second, starting half a second after the move: 30
    frames' work for every list after every new line. The bar now shows
    ``bar_color`` when the list moves and takes the inactive colour at once
    when Kivy would start the fade, no animation running."""
    from kivy.animation import Animation
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.scrollview import ScrollView
    from ui_helpers import frames, wait_for

    scroll = ScrollView(size_hint=(None, None), size=(200, 100), bar_width=4)
    content = BoxLayout(orientation="vertical", size_hint_y=None, height=400)
    scroll.add_widget(content)
    window.add_widget(scroll)
    seen: list[list[float]] = []
    scroll.bind(_bar_color=lambda _scroll, color: seen.append(list(color)))
    try:
        frames(2)
        scroll.scroll_y = 0.5  # the list moves
        frames(1)
        assert list(scroll._bar_color) == list(scroll.bar_color)
        assert wait_for(lambda: list(scroll._bar_color) == list(scroll.bar_inactive_color), 2)
        assert all(scroll.uid not in animation._widgets for animation in Animation._instances)
        assert seen[-2:] == [list(scroll.bar_color), list(scroll.bar_inactive_color)]
        scroll.scroll_y = 0.2  # moved again: the bar shows again
        frames(1)
        assert list(scroll._bar_color) == list(scroll.bar_color)
    finally:
        window.remove_widget(scroll)


VERSION_CHILD = """
import json, logging, sys
import kivy
kivy.__version__ = sys.argv[1]  # the Kivy this process says it is
heard = []
class Heard(logging.Handler):
    def emit(self, record):
        heard.append(record.getMessage())
logging.getLogger("companion").addHandler(Heard())
logging.getLogger("companion").setLevel(logging.INFO)
from kivy.properties import ObservableReferenceList
from kivy.uix.boxlayout import BoxLayout
from kivy.lang import builder
from companion.ui.system.kivy_costs import spare_kivy_costs
from kivy.uix.scrollview import ScrollView
kivys, kivys_call = BoxLayout.do_layout, builder.call_fn
kivys_bar = ScrollView._bind_inactive_bar_color
spare_kivy_costs()
print(json.dumps({
    "layout_spared": BoxLayout.do_layout is not kivys,
    "call_spared": builder.call_fn is not kivys_call,
    "bar_spared": ScrollView._bind_inactive_bar_color is not kivys_bar,
    "setslice": "__setslice__" in ObservableReferenceList.__dict__,
    "heard": heard,
}))
"""


@pytest.mark.parametrize("version", ["2.3.1", "2.3.0", "2.4.0"])
def test_the_layout_copied_from_kivy_2_3_1_is_put_in_that_kivy_only(tmp_path, version):
    """``BoxLayout.do_layout``, the kv rules' ``call_fn`` and the scroll
    bar's greying are copies of Kivy 2.3.1's: another Kivy keeps its own,
    and the log says so once."""
    done = subprocess.run(
        [sys.executable, "-c", VERSION_CHILD, version],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).parent.parent,
        env={**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["setslice"]  # Python 3's spelling of Kivy's own method: any Kivy
    if version == "2.3.1":
        assert seen["layout_spared"] and seen["call_spared"] and seen["bar_spared"]
        assert seen["heard"] == []
    else:
        assert not (seen["layout_spared"] or seen["call_spared"] or seen["bar_spared"])
        assert len(seen["heard"]) == 1 and version in seen["heard"][0]
