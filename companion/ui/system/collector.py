"""The kiosk's long-lived objects kept out of the garbage collector's way.

A kiosk showing a 10-seat table holds some 150 K objects that CPython's
collector tracks (Kivy's classes and kv rules, the screens' widgets, their
properties and bindings), nearly all of them alive as long as their
screen. A full collection walks every one: 47 M instructions, some 16 ms
on a Pi 4, a whole frame lost at whatever moment CPython runs one (once a
quarter more objects than the last one left have outlived the younger
collections, as a busy table's steps make them). ``gc.freeze()`` moves
every object alive into a generation that no collection walks.

A frozen object is never collected, though: a screen thrown away after the
freeze (the last game's table, a language's screen no longer kept) would
stay in memory for good, with every cycle that was garbage when frozen.
So each freeze first thaws what the last one froze and collects, so that
whatever died since goes, then freezes what is left: one full collection
for each screen built, run a few frames after it is built
(``SETTLE_FRAMES``: the screen is shown first, the collection comes
between two quiet frames) and one for all the screens built in that
while; a screen built out of sight, in a stall taken anyway, is frozen
right as it is built. A screen kept and put back in sight again costs
none; screens let go without one built (the table screen's own "New
game" drops the other languages') ask for one too. What was frozen only
passing through (a panel open at the time) is collected at the next
freeze; ``ui/kiosk.py`` stops Kivy's animations on a screen it lets go
(Kivy holds what it animates), or it would be frozen again. Call
:func:`freeze_when_settled` once a screen that stays is built and shown,
:func:`freeze_what_lives` once one is built out of sight (``ui/kiosk.py``
does, for home and each table screen: ``Kiosk.prepare_language`` for
those built ahead)."""

from __future__ import annotations

import gc

SETTLE_FRAMES = 3  # frames after the last screen built, before the freeze


class _Freezer:
    """The freeze to come: how many frames it waits still (0: none due)."""

    def __init__(self) -> None:
        self.frames_left = 0

    def request(self) -> None:
        from kivy.clock import Clock

        if self.frames_left == 0:
            Clock.schedule_interval(self._frame, 0)  # once a frame
        self.frames_left = SETTLE_FRAMES

    def _frame(self, _dt: float) -> bool:
        self.frames_left -= 1
        if self.frames_left > 0:
            return True
        freeze_what_lives()
        return False  # unscheduled


_freezer = _Freezer()


def freeze_when_settled() -> None:
    """Freeze what lives ``SETTLE_FRAMES`` frames from now (a later call
    before then puts it off again: one freeze for screens built together)."""
    _freezer.request()


def freeze_what_lives() -> None:
    """Thaw, collect everything, and freeze every object still alive."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
