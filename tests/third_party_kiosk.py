"""The kiosk in another environment, for tests/test_third_party_games.py:
run (``python -P``) by the Python of a venv that has the app's wheel and a
game's wheel installed, never this checkout. It opens the real home screen
in a Kivy window, taps the game, renders the screen to a PNG, starts the
game, renders its table, taps the game's first shared command, and prints
one JSON line: the games on the home screen, the table's status lines, and
where ``companion`` and the game were imported from. The game stays
unfinished in the store, for ``companion serve`` to resume.

Usage: python -P third_party_kiosk.py DB SHOTS NAME LANG WIDTHxHEIGHT"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.update(
    KIVY_NO_ARGS="1",
    KIVY_NO_CONSOLELOG="1",
    KIVY_NO_FILELOG="1",
    KIVY_LOG_MODE="PYTHON",
    KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"),
)
from companion.ui.app import prepare_kivy_environment  # noqa: E402

prepare_kivy_environment()

from kivy.base import EventLoop  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402


def frames(n: int) -> None:
    for _ in range(n):
        EventLoop.idle()


def tap(widget) -> None:
    """A finger's tap at the widget's centre (as tests/ui_helpers.py taps)."""
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    frames(1)
    touch.touch_up()
    frames(30)  # a button in a scrolling list is released 0.2 s later


def shot(window, path: Path) -> str:
    frames(3)
    window.children[0].export_to_png(str(path))
    return str(path)


def main(db: str, shots: str, game: str, lang: str, size: str) -> dict[str, object]:
    import companion
    from companion.games import spec_for
    from companion.i18n import Messages
    from companion.table import EventStore
    from companion.ui.kiosk import Kiosk
    from companion.ui.text.fonts import use_dejavu
    from companion.ui.widgets.buttons import ChoiceButton, CommandButton

    EventLoop.ensure_window()
    use_dejavu()
    window = EventLoop.window
    window.size = tuple(int(n) for n in size.split("x"))
    kiosk = Kiosk(EventStore(Path(db)), None, lang=lang)
    window.add_widget(kiosk)
    frames(6)
    home = kiosk.home
    buttons = [b for b in home.ids.games.children if isinstance(b, ChoiceButton)]
    title = Messages(lang)(f"game.{game}")
    tap(next(b for b in buttons if b.text == title))
    out = Path(shots)
    out.mkdir(parents=True, exist_ok=True)
    home_png = shot(window, out / f"third-party-home-{lang}-{size}.png")
    variants = [b.text for b in home.ids.variants.children]
    tap(home.ids.start)
    screen = kiosk.table_screen
    started = screen.status_text
    table_png = shot(window, out / f"third-party-table-{lang}-{size}.png")
    commands = [b for b in screen.ids.commands.children if isinstance(b, CommandButton)]
    tap(commands[-1])  # the first in reading order (children are kept last first)
    return {
        "games": [b.text for b in reversed(buttons)],
        "title": title,
        "variants": variants,
        "screen_title": screen.title_text,
        "started": started,
        "after_command": screen.status_text,
        "shots": [home_png, table_png],
        "companion": companion.__file__,
        "game": sys.modules[spec_for(game).engine.__class__.__module__].__file__,
    }


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:6])), flush=True)
