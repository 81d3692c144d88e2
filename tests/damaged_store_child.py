"""Run by test_store_damage.py in a process of its own:

    python tests/damaged_store_child.py SCREENSHOT RUN-ARGUMENT ...

``companion run RUN-ARGUMENT ...``: the real command line, store and kiosk,
in a real headless window. Once the kiosk is up it writes one JSON line:
the screen it shows, home's notice and the game its resume button offers;
then it saves the screen as SCREENSHOT (a PNG) and closes the window, and
the process exits with the command line's exit status."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from companion.ui.app import prepare_kivy_environment  # noqa: E402

prepare_kivy_environment()  # before Kivy is first imported

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402

from companion import cli  # noqa: E402

SETTLE = 1.0  # seconds for the first screen to lay itself out


def main(screenshot: str, arguments: list[str]) -> int:
    def report(_dt: float) -> None:
        app = App.get_running_app()
        kiosk = app.kiosk
        home = kiosk.home if kiosk.current == "home" else None
        print(
            json.dumps(
                {
                    "screen": kiosk.current,
                    "notice": None if home is None else home.notice_text,
                    "resume": None if home is None else home.resume_text,
                },
                ensure_ascii=False,
            ),
            flush=True,
        )
        kiosk.get_screen(kiosk.current).children[0].export_to_png(screenshot)
        app.stop()

    # The first tick comes once the window is up and the kiosk built.
    Clock.schedule_once(lambda _dt: Clock.schedule_once(report, SETTLE), 0)
    return cli.main(["run", *arguments])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
