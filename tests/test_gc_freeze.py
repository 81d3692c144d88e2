"""The kiosk's long-lived objects out of the collector's way
(companion/ui/system/collector.py): once a kiosk's screen is built and
shown, what lives is frozen, so a full collection walks few objects; and a
screen thrown away after a freeze is still collected."""

from __future__ import annotations

import gc
import weakref

import pytest

pytest.importorskip("kivy.base")
from sh_kiosk_helpers import start  # noqa: E402
from ui_helpers import frames, show  # noqa: E402

from companion.ui.system.collector import SETTLE_FRAMES  # noqa: E402


@pytest.fixture
def thawed():
    """The test process as it was: nothing frozen, before and after."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def kiosk_at(window, tmp_path, table):
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import KioskSettings

    settings = KioskSettings(tmp_path / "kiosk.ini")
    return show(window, Kiosk(table.store, table, settings=settings), (800, 480))


def walked() -> list:
    """What a full collection walks: every object tracked, but the frozen."""
    return gc.get_objects()


def test_a_started_kiosk_leaves_full_collections_little_to_walk(window, tmp_path, thawed):
    kiosk = kiosk_at(window, tmp_path, start(tmp_path, 10))
    frames(SETTLE_FRAMES)
    frozen = gc.get_freeze_count()
    assert all(obj is not kiosk.table_screen for obj in walked())  # the screen is frozen
    collections = []

    def heard(phase, info):
        if phase == "stop":
            collections.append(info["generation"])

    gc.callbacks.append(heard)
    try:
        left = len(walked())
        gc.collect()
    finally:
        gc.callbacks.remove(heard)
    assert collections == [2]
    assert left * 10 < frozen, (left, frozen)


def test_a_screen_thrown_away_after_a_freeze_is_collected(window, tmp_path, thawed):
    (tmp_path / "first").mkdir()
    kiosk = kiosk_at(window, tmp_path, start(tmp_path / "first", 10))
    frames(SETTLE_FRAMES)
    first = weakref.ref(kiosk.table_screen)
    assert gc.get_freeze_count() > 0 and all(obj is not first() for obj in walked())
    (tmp_path / "next").mkdir()
    kiosk.show_table(start(tmp_path / "next", 5))  # the next game's screen
    frames(SETTLE_FRAMES)
    gc.collect()
    assert first() is None
