"""Start the kiosk window."""
from __future__ import annotations

import os

from ..table import Table


def prepare_kivy_environment() -> None:
    """Kivy reads these when first imported: keep its argv parsing and its
    handlers on the root logger out of our way."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")


def run_kiosk(table: Table, lang: str = "en", size: tuple[int, int] = (1280, 720)) -> int:
    prepare_kivy_environment()
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    # One touch source only: SDL already delivers touch events, and a second
    # provider (Kivy's default probesysfs/mtdev entry) doubles every touch.
    if Config.has_option("input", "%(name)s"):
        Config.remove_option("input", "%(name)s")

    from kivy.app import App

    from ..i18n import translate
    from .coup_screen import CoupTableScreen
    from .fonts import use_dejavu

    class KioskApp(App):
        def build(self):
            use_dejavu()
            self.title = translate("app.title", lang)
            return CoupTableScreen(table, lang=lang)

    KioskApp().run()
    return 0
