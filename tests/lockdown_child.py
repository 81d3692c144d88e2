"""Run by test_lockdown.py in a process of its own:

    python tests/lockdown_child.py kiosk|plain [KEY ...]

the kiosk's real Kivy App (``kiosk``) or a plain Kivy App with Kivy's own
defaults (``plain``: what a kiosk is without its lock-down), in a real
headless window. Once it runs, each key or key combination named (all of
``KEYS`` by default, then a close request) is sent through the window the
way SDL sends a key press (``on_key_down``, then ``on_keyboard`` unless a
handler took it), and "close-request" the way SDL sends a window manager's
(Alt+F4 or the close button on a desktop). After each, it writes one JSON
line: the key, whether the app is still up, whether a settings panel of
Kivy's is open. Then it stops the app and exits."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile

os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from companion.ui.app import configure_kivy, prepare_kivy_environment  # noqa: E402

# (what a person pressed, the key code Kivy gives it, its modifiers)
KEYS = (
    [("Esc", 27, [])]
    + [(f"F{n}", 281 + n, []) for n in range(1, 13)]
    + [
        ("Alt+F4", 285, ["alt"]),
        ("Ctrl+Q", 113, ["ctrl"]),
        ("Ctrl+W", 119, ["ctrl"]),
        ("Ctrl+Alt+F1", 282, ["ctrl", "alt"]),
        ("Ctrl+Alt+Backspace", 8, ["ctrl", "alt"]),
    ]
)


CLOSE = "close-request"


def main(kind: str, names: list[str]) -> None:
    if kind == "kiosk":
        configure_kivy((800, 480))
    else:
        prepare_kivy_environment()
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.label import Label
    from kivy.uix.settings import Settings

    from companion.table import EventStore, Session
    from companion.ui.app import kiosk_app

    if kind == "kiosk":
        app = kiosk_app(Session(EventStore(os.path.join(tempfile.mkdtemp(), "g.sqlite3"))))
    else:

        class Plain(App):
            def build(self):
                return Label(text="plain")

        app = Plain()

    def report(name: str) -> None:
        settings_open = app._app_settings is not None and app._app_settings.parent is not None
        settings_open = settings_open or any(isinstance(w, Settings) for w in Window.children)
        print(
            json.dumps(
                {
                    "key": name,
                    "up": EventLoop.status == "started" and App.get_running_app() is app,
                    "settings": settings_open,
                }
            ),
            flush=True,
        )

    codes = {name: (key, modifiers) for name, key, modifiers in KEYS}

    def press_all(_dt: float) -> None:
        for name in names or [*codes, CLOSE]:
            if EventLoop.status != "started":
                break
            if name == CLOSE:  # as SDL's "quit" event is handled
                if not Window.dispatch("on_request_close"):
                    app.stop()
            else:
                key, modifiers = codes[name]
                if not Window.dispatch("on_key_down", key, 0, None, modifiers):
                    Window.dispatch("on_keyboard", key, 0, None, modifiers)
            report(name)
        if EventLoop.status == "started":
            app.stop()

    Clock.schedule_once(press_all, 0.5)
    asyncio.run(app.async_run(async_lib="asyncio"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
