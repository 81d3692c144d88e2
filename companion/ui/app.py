"""Start the kiosk: Kivy's set-up and the kiosk's App, in front of the host
(companion/host/), which wires the table's session to its devices, phones
and fleet on the same asyncio loop (Kivy's ``async_run``)."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..sd_notify import notify, watchdog_interval
from ..table import EventStore, Session, Table, Update
from ..table.damage import StoreDamage

if TYPE_CHECKING:
    from ..fleet import StatusPublisher
    from ..host import DeviceOpener, WebConfig


def prepare_kivy_environment() -> None:
    """Kivy reads these when first imported: keep its argv parsing out of
    our way, send its log through ours (``companion.logs``: no handlers of
    its own, no log files), read and write no ``~/.kivy/config.ini`` (whose
    ``[modules]`` could open Kivy's inspector over the kiosk; the kiosk sets
    what it needs in :func:`configure_kivy`), and draw text with SDL2_ttf.

    SDL2_ttf shapes with HarfBuzz; :mod:`.text.shaping` cuts each line into
    directional runs with FriBiDi first, so Persian is joined and ordered
    right to left, mixed with Latin names and digits, brackets mirrored.
    Where Kivy's SDL2_ttf cannot shape, Pillow (raqm) draws instead. The
    same text path serves every language, so what the tests measure in
    English is what Persian gets."""
    from .text.shaping import prefer_sdl2

    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ["KIVY_LOG_MODE"] = "PYTHON"
    os.environ["KIVY_NO_CONFIG"] = "1"
    os.environ.setdefault("KIVY_TEXT", prefer_sdl2())


# Kivy imports each Linux input provider it has and logs an ERROR with a
# traceback for each whose library is missing (libmtdev.so.1 on most
# desktops). Only the provider that reads the touchscreen (--touch) matters;
# the others' failures become debug lines (``--log-level debug`` shows them).
_PROVIDER_FAILURES = {
    "probesysfs": "Input: ProbeSysfs is not supported",
    "mtdev": "Input: MTDev is not supported",
    "hidinput": "Input: HIDInput is not supported",
    "linuxwacom": "Input: LinuxWacom is not supported",
}


class _UnusedInputProviders(logging.Filter):
    def __init__(self, touch: str) -> None:
        super().__init__()
        needed = {touch, "probesysfs"} if touch != "sdl" else set()
        self.quiet = tuple(text for name, text in _PROVIDER_FAILURES.items() if name not in needed)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and str(record.msg).startswith(self.quiet):
            reason = record.exc_info[1] if record.exc_info else None
            record.msg = f"{record.msg} ({reason}); not needed with this touch source"
            record.args, record.exc_info, record.exc_text = None, None, None
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


TOUCH_SOURCES = ("sdl", "mtdev", "hidinput")


def configure_kivy(size: tuple[int, int], fullscreen: bool = False, touch: str = "sdl") -> None:
    """The kiosk's window and its one touch source, set before Kivy creates
    the window. ``touch``: "sdl" (SDL reads the touchscreen and Kivy sees
    one finger as the mouse), or "mtdev" / "hidinput" (Kivy reads the
    touchscreen itself with that provider, and SDL's copy is turned off)."""
    prepare_kivy_environment()
    kivy_log = logging.getLogger("kivy")
    kivy_log.addFilter(_UnusedInputProviders(touch))
    from kivy.config import Config

    # Kivy set its own level when imported; ours (companion.logs) applies.
    kivy_log.setLevel(logging.getLogger().getEffectiveLevel())
    # No key closes the kiosk (Kivy's default: Esc does); see lockdown.py.
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    if fullscreen:  # the display's own mode (a kiosk on KMS/DRM)
        Config.set("graphics", "fullscreen", "auto")
    # No multisampling: the screen is flat shapes and pre-drawn text, and
    # MSAA more than doubled every frame's cost on a software GL (Mesa's
    # llvmpipe: 38 ms a frame for the Secret Hitler table, 16 ms without).
    Config.set("graphics", "multisamples", "0")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    # One touch source only: SDL already delivers touches (as the mouse), and
    # a second provider (Kivy's default probesysfs entry) doubles every touch.
    if Config.has_option("input", "%(name)s"):
        Config.remove_option("input", "%(name)s")
    if touch != "sdl":
        # SDL would still turn each touch into a mouse event: a double.
        os.environ["SDL_TOUCH_MOUSE_EVENTS"] = "0"
        Config.set("input", "touch_%(name)s", f"probesysfs,provider={touch}")


def tell_service_manager() -> Callable[[], None]:
    """Under systemd (``Type=notify``): READY=1 once the first frame is
    drawn, then WATCHDOG=1 from Kivy's Clock, which runs on the UI loop, so
    pings stop when that loop freezes and the watchdog restarts the kiosk.
    Returns what says STOPPING=1 and ends the pings."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    pings: list[Any] = []

    def ready(*_args: Any) -> None:
        Window.unbind(on_flip=ready)
        notify("READY=1")
        interval = watchdog_interval()
        if interval is not None:
            pings.append(Clock.schedule_interval(lambda _dt: notify("WATCHDOG=1"), interval))

    def stopping() -> None:
        Window.unbind(on_flip=ready)
        for ping in pings:
            ping.cancel()
        notify("STOPPING=1")

    Window.bind(on_flip=ready)
    return stopping


def run_kiosk(
    store: EventStore,
    table: Table | None,
    lang: str | None = None,
    size: tuple[int, int] = (1280, 720),
    devices: Sequence[DeviceOpener] = (),
    exit_after: float | None = None,
    web: WebConfig | None = None,
    pinmap: Any = None,
    simulated_pins: Any = None,
    fullscreen: bool = False,
    touch: str = "sdl",
    dim_after: float = 0,
    damage: StoreDamage | None = None,
    fleet: StatusPublisher | None = None,
) -> int:
    """Open the kiosk window on ``table`` (None: on the home screen) and run
    until it is closed (or for ``exit_after`` seconds: a smoke test of the
    whole start-up), in front of the host (its devices, the phones where
    ``web`` says, the ``fleet``). The header's ``pinmap`` shows in the
    settings; ``simulated_pins`` (gpiozero mock pins standing in for a header
    this machine lacks) become on-screen seat buttons. ``fullscreen`` fills
    the display at its own mode; ``touch`` names the touch source
    (:func:`configure_kivy`); ``dim_after`` seconds without a touch dim the
    screen (0: never). Home tells the table what ``damage`` opening the
    store found."""
    from ..host import Host

    configure_kivy(size, fullscreen=fullscreen, touch=touch)
    session = Session(store, table)
    app = kiosk_app(session, lang=lang, dim_after=dim_after, damage=damage)
    header = None if pinmap is None else (pinmap, simulated_pins)
    host = Host(session, web, fleet=fleet, openers=devices, header=header)
    return asyncio.run(_front_of(host, app, exit_after))


async def _front_of(host: Any, app: Any, exit_after: float | None) -> int:
    from .front import KioskFront

    return await host.run(KioskFront(app), exit_after)


def kiosk_app(
    session: Session,
    lang: str | None = None,
    dim_after: float = 0,
    damage: StoreDamage | None = None,
) -> Any:
    """The kiosk's Kivy App, locked down (:mod:`.lockdown`), following the
    host's ``session`` (with no game yet: at home, which tells of the
    store's ``damage``), dimming after ``dim_after`` idle seconds."""
    from kivy.app import App
    from kivy.core.window import Window

    from ..i18n import translate
    from .kiosk import Kiosk
    from .system.lockdown import lock_down
    from .text.fonts import use_dejavu

    class KioskApp(App):
        kiosk: Any = None
        dimmer: Any = None
        stopping: Callable[[], None] = staticmethod(lambda: None)

        def build(self):
            use_dejavu()
            self.kiosk = Kiosk(
                session.store,
                session.table,
                lang=lang,
                damage=damage,
                session=session,
                build_ahead=True,
            )
            self.kiosk.close_app = self.stop
            self.title = translate("app.title", self.kiosk.lang)
            return self.kiosk

        def on_start(self):
            lock_down(Window)
            self.stopping = tell_service_manager()
            if dim_after > 0:
                self.dimmer = _dim_when_idle(session, dim_after)
            else:  # a previous run with dimming may have died dim
                from .system.dimmer import undo_a_dim_left_over

                undo_a_dim_left_over()

        def open_settings(self, *_args: Any) -> bool:
            """Kivy's own settings panel never opens (F1 would open it, with
            no PIN): the kiosk's settings are its own, behind the PIN. True:
            handled, so Kivy does not try to close a panel either."""
            return True

        def on_stop(self):  # Kivy may call it twice (its bug #2397): harmless
            if self.dimmer is not None:
                self.dimmer.activity()  # never leave the screen dim behind
            self.stopping()

    return KioskApp()


def _dim_when_idle(session: Session, after: float) -> Any:
    """Dim after ``after`` idle seconds; a touch or the table's news wakes.
    The dimmer, or None when there is no backlight."""
    from .system.dimmer import dim_when_idle

    dimmer = dim_when_idle(after)
    if dimmer is not None:

        def wake(_update: Update) -> None:
            dimmer.activity()

        session.subscribe(wake)
    return dimmer
