"""Helpers for the Article 27 table screen's tests: a real table on a real
SQLite file with a hand-moved clock, the screen with its sounds in a
temporary directory, and ways to find and tap what the screen shows."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from a27_helpers import FakeClock
from test_ui import frames, tap

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

NAMES = ["Anna", "Ben", "Chloe", "Dimitris", "Eleni", "Farid"]


def kiosk_table(path: Path, players: int = 3, mode: str = "physical",
                clock: FakeClock | None = None, **options: Any) -> Table:
    """A table on the SQLite file ``path``; Anna is the first SG."""
    setup = Setup(game="article27", seats=NAMES[:players], mode=mode,
                  options={"first": 0, **options})
    return Table.start(EventStore(path), setup, fate=Fate(seed=5), clock=clock or FakeClock())


def a27_screen(table: Table, sound_dir: Path, volume: float = 1.0, lang: str = "en"):
    from companion.games.article27.screen import Article27TableScreen
    from companion.ui.sounds import Sounds

    return Article27TableScreen(table, lang=lang, sounds=Sounds(sound_dir, volume=volume))


def strip(screen) -> list[str]:
    """The texts of the command strip, in reading order."""
    return [w.text for w in reversed(screen.ids.commands.children)]


def strip_button(screen, text: str):
    from kivy.uix.button import Button

    found = [w for w in screen.ids.commands.children
             if isinstance(w, Button) and w.text == text]
    assert found, f"no button {text!r} in the strip: {strip(screen)}"
    return found[0]


def tap_strip(screen, *texts: str) -> None:
    for text in texts:
        tap(strip_button(screen, text))


def tile(screen, issue: str):
    """The issue's tile, by the name the screen shows."""
    found = [w for w in (*screen.ids.floor.children, *screen.ids.table.children)
             if w.name == issue]
    assert found, f"no tile {issue!r} on the board"
    return found[0]


def floor_names(screen) -> list[str]:
    return [w.name for w in reversed(screen.ids.floor.children)]


def table_names(screen) -> list[str]:
    return [w.name for w in reversed(screen.ids.table.children)]


def until_revealed(ballot, seconds: float = 5.0) -> None:
    """Let the ballot's reveal animation run to its end."""
    deadline = time.monotonic() + seconds
    while ballot.revealing and time.monotonic() < deadline:
        frames(1)
    assert not ballot.revealing, "the reveal ends"


def buttons_in(widget):
    """Every enabled, visible button under ``widget``."""
    from kivy.uix.button import Button

    for child in widget.walk(restrict=True):
        if isinstance(child, Button) and not child.disabled and child.opacity > 0:
            yield child
