"""Where Kivy 2.3.1 spends a Pi's instructions for nothing, and what the
kiosk runs there instead (:func:`spare_kivy_costs`, called by
``ui/text/fonts.py: use_dejavu``, which every kiosk calls once Kivy is set
up: the app, the benchmarks, the tests' window). Values and events stay
Kivy's own: tests/test_kivy_costs.py compares both with Kivy's in a
process of its own.

1. Every read of a ``ReferenceListProperty`` (a widget's ``pos``,
   ``size``, ``size_hint``...), every write and every change of one of its
   parts (``x``) has ``kivy/properties.pyx`` (``ReferenceListProperty.get``,
   ``.set`` and ``.trigger_change``) call ``ObservableReferenceList.
   __setslice__`` first: a Python 2 method, whose ``list.__setslice__``
   does not exist in Python 3. The ``AttributeError`` (its message
   formatted, a traceback entry added by Cython) is caught and the list is
   set with ``__setitem__`` instead: a read of ``pos`` is 16 K
   instructions, 7.6 K without it (docs/benchmarks.md has the report for
   Kivy). Here
   ``__setslice__`` is the same method as Python 3 spells it, so the first
   try succeeds and sets the same list to the same values.
2. ``BoxLayout.do_layout`` reads each child's ``size``, ``size_hint``,
   ``size_hint_min`` and ``size_hint_max``, each a ``ReferenceListProperty``
   that builds its list anew: here they are read as the numbers they are
   made of, and the layout itself (``_iterate_layout``) and the writes
   (``child.pos = x, y``: one ``pos`` event) are Kivy's. It is a copy of
   Kivy 2.3.1's method (``COPIED_FROM``), put in that Kivy only: another
   (pyproject allows any from 2.3.0) keeps its own, and the log says so.
3. Every kv rule Kivy evaluates (``kivy/lang/builder.py: call_fn``: each
   time a property a rule reads changes) formats two trace lines first,
   with the ``repr`` of the widget, of the rule's compiled code and of the
   value, and hands them to a logger that, below TRACE, drops them: some
   5 K instructions a rule, 240 rules in a Secret Hitler reveal's frame.
   Here the lines are formatted, and logged, only when the log takes
   TRACE lines; the rule is evaluated and set as Kivy does. Also a copy
   of Kivy 2.3.1's, put in that Kivy only.
4. A ``ScrollView`` whose content moved shows its bar in ``bar_color``
   and, half a second later, fades it to ``bar_inactive_color`` in an
   animation of another half second: some 30 frames of work for each of a
   table screen's lists after every commit that adds a line, and, on a
   machine as slow as callgrind makes it, a step's frame that counted it or
   not by the clock (one busy step's frame read 10 or 12 M). Here the bar
   takes its inactive colour at once, half a second after the move, as
   Kivy 2.3.1's ``ScrollView._bind_inactive_bar_color`` does but for the
   fade (in that Kivy only)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

COPIED_FROM = "2.3.1"  # the Kivy whose BoxLayout.do_layout and call_fn are copied here


def spare_kivy_costs() -> None:
    """Put the methods in Kivy's classes (again: harmless): the slice in
    any Kivy; the layout, the kv rules' call and the scroll bar in the Kivy
    they were copied from only (before any kv rule is bound: a rule bound
    earlier keeps Kivy's)."""
    import kivy
    from kivy.lang import builder
    from kivy.properties import ObservableReferenceList
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.scrollview import ScrollView

    ObservableReferenceList.__setslice__ = _Spared.__setslice__
    if kivy.__version__ == COPIED_FROM:
        BoxLayout.do_layout = _Spared.do_layout
        builder.call_fn = _kv_call()
        ScrollView._bind_inactive_bar_color = _Spared._bind_inactive_bar_color
    else:
        log.info(
            "Kivy %s: its own BoxLayout.do_layout, kv rules' call_fn and"
            " ScrollView bar (the kiosk's are copies of %s's)",
            kivy.__version__,
            COPIED_FROM,
        )


class _Spared:
    """The methods, under the names Kivy's classes have them by: Kivy binds
    a callback such as ``do_layout`` weakly, by its function's name
    (``kivy.weakmethod.WeakMethod``)."""

    def __setslice__(
        self: Any, start: int, stop: int, value: list[Any], update_properties: bool = True
    ) -> None:
        """``ObservableReferenceList.__setslice__`` without ``list.__setslice__``
        (Kivy calls it with ``update_properties=False`` only)."""
        where = slice(start, stop)
        list.__setitem__(self, where, value)
        if update_properties:
            self.prop.setitem(self.obj(), where, value)

    def _bind_inactive_bar_color(self: Any, *_args: Any) -> None:
        """Kivy 2.3.1's ``ScrollView._bind_inactive_bar_color``, the bar
        set to its inactive colour at once rather than in an animation."""
        self.funbind("bar_color", self._change_bar_color)
        self.fbind("bar_inactive_color", self._change_bar_color)
        self._bar_color = self.bar_inactive_color

    def do_layout(self: Any, *_args: Any) -> None:
        """Kivy 2.3.1's ``BoxLayout.do_layout``, its children's sizes read
        as scalars. Kivy's passes each child's live list, which a change of
        a later sibling's size made by an earlier one's move would update
        while it lays out; such a change lays the box out again in both."""
        children = self.children
        if not children:
            left, top, right, bottom = self.padding
            self.minimum_size = left + right, top + bottom
            return
        sizes = [
            (
                (c.width, c.height),
                (c.size_hint_x, c.size_hint_y),
                c.pos_hint,
                (c.size_hint_min_x, c.size_hint_min_y),
                (c.size_hint_max_x, c.size_hint_max_y),
            )
            for c in children
        ]
        for i, x, y, w, h in self._iterate_layout(sizes):
            child = children[i]
            child.pos = x, y
            wide, tall = child.size_hint_x, child.size_hint_y
            if wide is None:
                if tall is not None:
                    child.height = h
            elif tall is None:
                child.width = w
            else:
                child.size = w, h


def _kv_call() -> Callable[[Any, Any, Any], None]:
    """Kivy 2.3.1's ``kivy.lang.builder.call_fn``, its trace lines formatted
    only when the log takes them."""
    from kivy.lang.builder import trace
    from kivy.logger import LOG_LEVELS, Logger

    level = LOG_LEVELS["trace"]

    def call_fn(args: Any, _instance: Any, _value: Any) -> None:
        element, key, value, rule, idmap = args
        tracing = Logger.isEnabledFor(level)
        if tracing:
            trace(f"Lang: call_fn {element}, key={key}, value={value!r}, {rule.value!r}")
        rule.count += 1
        e_value = eval(value, idmap)
        if tracing:
            trace(f"Lang: call_fn => value={e_value!r}")
        setattr(element, key, e_value)

    return call_fn
