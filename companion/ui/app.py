"""Start the kiosk: the window, the table's hardware and their presses, all
on one asyncio loop (Kivy's ``async_run``), in one TaskGroup so a failing
task is never silent."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from ..devices.press import Deliver, SeatFeedback
from ..games.base import RuleError
from ..sd_notify import notify, watchdog_interval
from ..table import Committed, EventStore, Table
from ..table.damage import StoreDamage

if TYPE_CHECKING:
    from ..fleet import StatusPublisher, TableReporter
    from ..fleet.health import TableHealth
    from .fleet_station import KioskStation

log = logging.getLogger(__name__)

WATCH_STEP = 0.25  # seconds between looks at the clock and the devices


class Device(SeatFeedback, Protocol):
    """An input device that can also show a seat something: header buttons,
    the serial pad. It delivers presses from the moment it is opened."""

    def close(self) -> None: ...


# Opens a device that delivers its presses through the callback given.
DeviceOpener = Callable[[Deliver], Device]


def prepare_kivy_environment() -> None:
    """Kivy reads these when first imported: keep its argv parsing out of
    our way, send its log through ours (``companion.logs``: no handlers of
    its own, no log files), read and write no ``~/.kivy/config.ini`` (whose
    ``[modules]`` could open Kivy's inspector over the kiosk; the kiosk sets
    what it needs in :func:`configure_kivy`), and draw text with Pillow.

    Pillow lays text out with raqm (HarfBuzz and FriBiDi), which shapes and
    orders Persian right to left, mixed with Latin names and digits, brackets
    mirrored; Kivy's SDL2 text does none of that (see docs/architecture.md).
    The same text path serves every language, so what the tests measure in
    English is what Persian gets."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ["KIVY_LOG_MODE"] = "PYTHON"
    os.environ["KIVY_NO_CONFIG"] = "1"
    os.environ.setdefault("KIVY_TEXT", "pil")


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


@dataclass(frozen=True)
class WebConfig:
    """Where the phone server listens, the address phones are sent to (the
    QR codes), the Wi-Fi its QR joins when the Pi runs its own network, and
    whether it acts as that network's captive portal."""

    host: str = "0.0.0.0"
    port: int = 8080
    public_url: str = "http://companion.local:8080"
    wifi: tuple[str, str | None] | None = None
    captive: bool = False  # redirect other hosts to public_url (own access point)

    def on_port(self, port: int) -> WebConfig:
        """Where the phones are when served on ``port`` (the one asked for
        was in use): the public address moves with it when it named the
        port asked for (else it is another machine's, a proxy's, and stays)."""
        if port == self.port:
            return self
        url = urlsplit(self.public_url)
        if (url.port or DEFAULT_PORTS.get(url.scheme)) != self.port:
            return replace(self, port=port)
        host = url.netloc.rsplit(":", 1)[0] if url.port else url.netloc
        return replace(self, port=port, public_url=url._replace(netloc=f"{host}:{port}").geturl())


DEFAULT_PORTS = {"http": 80, "https": 443}


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
    whole start-up), with the phone server when ``web`` says where. The
    header's ``pinmap`` shows in the settings; ``simulated_pins`` (gpiozero
    mock pins standing in for a header this machine lacks) become on-screen
    seat buttons. ``fullscreen`` fills the display at its own mode;
    ``touch`` names the touch source (:func:`configure_kivy`); ``dim_after``
    seconds without a touch dim the screen (0: never). Home tells the table
    what ``damage`` opening the store found. With ``fleet``, the table's
    public status goes to the café's broker."""
    configure_kivy(size, fullscreen=fullscreen, touch=touch)
    app = kiosk_app(store, table, lang=lang, dim_after=dim_after, damage=damage)
    header = None if pinmap is None else (pinmap, simulated_pins)
    return asyncio.run(_serve(app, list(devices), exit_after, web, header, fleet))


def kiosk_app(
    store: EventStore,
    table: Table | None,
    lang: str | None = None,
    dim_after: float = 0,
    damage: StoreDamage | None = None,
) -> Any:
    """The kiosk's Kivy App, locked down (:mod:`.lockdown`): built on
    ``table`` (None: at home, which tells of the store's ``damage``),
    dimming after ``dim_after`` idle seconds."""
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
            self.kiosk = Kiosk(store, table, lang=lang, damage=damage)
            self.kiosk.close_app = self.stop
            self.title = translate("app.title", self.kiosk.lang)
            return self.kiosk

        def on_start(self):
            lock_down(Window)
            self.stopping = tell_service_manager()
            if dim_after > 0:
                self.dimmer = _dim_when_idle(self.kiosk, dim_after)
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


def _dim_when_idle(kiosk: Any, after: float) -> Any:
    """Dim after ``after`` idle seconds; a touch or the table's news wakes.
    The dimmer, or None when there is no backlight."""
    from .system.dimmer import dim_when_idle

    dimmer = dim_when_idle(after)
    if dimmer is None:
        return None

    def wake(_committed: Committed) -> None:
        dimmer.activity()

    def follow(_kiosk: Any, table: Table | None) -> None:
        if table is not None:
            table.subscribe(wake)

    kiosk.bind(table=follow)
    follow(kiosk, kiosk.table)
    return dimmer


async def _serve(
    app: Any,
    openers: list[DeviceOpener],
    exit_after: float | None,
    web: WebConfig | None = None,
    header: tuple[Any, Any] | None = None,
    fleet: StatusPublisher | None = None,
) -> int:
    from ..devices.controls import Controls
    from ..devices.press import loop_delivery

    loop = asyncio.get_running_loop()
    phones = None
    reporter = health = None
    if fleet is not None:
        from ..fleet import TableReporter
        from ..fleet.health import TableHealth

        health = TableHealth().watch()
        reporter = TableReporter(fleet, fleet.topics.table, health=health.fields, screen=True)
        fleet.start()
        reporter.follow(None)  # idle until the kiosk has a table
    devices: list[Device] = []
    # systemctl stop (SIGTERM), or Ctrl+C in a desktop's terminal: close the
    # window and the devices as Close would. (Left to SDL, either would be a
    # close request, which the locked-down kiosk refuses.)
    for stop in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(stop, app.stop)
    try:
        async with asyncio.TaskGroup() as group:
            ui = group.create_task(app.async_run(async_lib="asyncio"))
            if exit_after is not None:
                group.create_task(_stop_after(app, ui, exit_after))
            # The kiosk exists once the app has built it, and has a table once
            # a game is resumed or started at home; devices and phones follow
            # its games from then on. Until then phones get a waiting page.
            waiting = None
            if web is not None:
                waiting, web = await _start_waiting(web)
            while app.kiosk is None and not ui.done():
                await asyncio.sleep(0.05)
            station = None  # the console's actions: taken at home too (a message)
            if app.kiosk is not None and reporter is not None and fleet is not None:
                if fleet.action_key is not None:
                    station = _take_actions(app.kiosk, fleet, reporter)
            while (app.kiosk is None or app.kiosk.table is None) and not ui.done():
                await asyncio.sleep(0.05)
            if waiting is not None:
                await waiting.cleanup()  # the table's server takes the port
            if ui.done():
                return 0
            kiosk = app.kiosk
            # Refusals go to the seat's own channels (its LED, its phone),
            # never to the shared screen; the log names no vote.
            phones = None

            def refused(seat: int | None, error: RuleError) -> None:
                log.info("seat %s: a press was refused (%s)", seat, error.key)
                if phones is not None and seat is not None:
                    phones[0].tell_seat(seat, error)

            controls = Controls(kiosk.table, loop=loop, on_refusal=refused)
            kiosk.bind(table=lambda _kiosk, new: controls.attach(new))
            phones_off = None  # the port asked for, when no port could be opened
            if web is not None:
                started = await _start_phones(kiosk.table, web)
                if started is None:
                    phones_off = web.port
                else:
                    phones = started[:2]
                    phones_view = _offer_phones(kiosk, phones[0], started[2])
                    if station is not None:
                        station.phones_view = phones_view
            if reporter is not None:
                _report_to_fleet(kiosk, reporter, None if phones is None else phones[0])
            devices.extend(open_devices(openers, loop_delivery(loop, controls.handle), controls))
            if health is not None and header is not None:
                health.gpio = header[1] is None and _header_open(devices)
            if header is not None:
                kiosk.pinmap = header[0]
                if header[1] is not None:
                    _offer_seat_buttons(kiosk, *header)
            group.create_task(_watch(kiosk, devices, ui, reporter, health, phones_off))
    finally:
        for device in devices:
            device.close()
        if phones is not None:
            await phones[1].cleanup()
        if fleet is not None:
            await asyncio.to_thread(fleet.close)
        if health is not None:
            health.close()
    return 0


def _report_to_fleet(kiosk: Any, reporter: TableReporter, phones: Any) -> None:
    """The fleet follows the kiosk's games, with the phones connected."""
    if phones is not None:
        reporter.phones = phones.connected_seats
    kiosk.bind(table=lambda _kiosk, new: reporter.follow(new))
    reporter.follow(kiosk.table)


def _take_actions(kiosk: Any, fleet: StatusPublisher, reporter: TableReporter) -> KioskStation:
    """The console's actions, applied on this loop (the kiosk's), from now
    on: the station they act on (its phones panel is set once phones are served)."""
    from ..fleet.actions import ActionDesk
    from .fleet_station import KioskStation

    assert fleet.action_key is not None
    station = KioskStation(kiosk, None)
    desk = ActionDesk(
        fleet.action_key,
        fleet.topics.table,
        kiosk.store,
        station,
        send=fleet.reply,
        follow=reporter.follow,
    )
    fleet.listen(desk.receive, asyncio.get_running_loop())
    return station


def _header_open(devices: list[Device]) -> bool:
    """Whether the GPIO header's seat buttons opened (on real pins)."""
    from ..devices.gpio import GpioTable

    return any(isinstance(device, GpioTable) for device in devices)


def open_devices(openers: Sequence[DeviceOpener], deliver: Any, controls: Any) -> list[Device]:
    """Open each device and let it show the table's state. One that cannot
    be opened (a pin in use, no permission) is logged and left out: the table
    plays on without it."""
    devices = []
    for opener in openers:
        try:
            device = opener(deliver)
        except Exception:  # noqa: BLE001 - any failure of the device's library
            log.exception("a device could not be opened; the table plays without it")
            continue
        devices.append(device)
        controls.add_output(device)
    return devices


async def _start_waiting(web: WebConfig) -> tuple[Any, WebConfig]:
    """The waiting page on the phones' port (or the next free one), before
    the first game: its runner (None: no port could be opened) and where it
    is served."""
    from ..web.gate import ConnectionLimits, GateRunner
    from ..web.waiting import waiting_app

    # The table's caps on connections (gate.py); no phone holds a seat yet.
    runner = GateRunner(waiting_app(), ConnectionLimits.for_this_process())
    await runner.setup()
    served = await _open_port(runner, web)
    return (None if served is None else runner), served or web


async def _start_phones(table: Table, web: WebConfig) -> tuple[Any, Any, WebConfig] | None:
    """The phone server on the kiosk's loop, on the phones' port or the next
    free one: (server, its runner, where it is served); None when no port
    could be opened (the table plays on without phones)."""

    from ..web.server import TableServer

    server = TableServer(table, captive_home=web.public_url if web.captive else None)
    runner = server.runner()
    await runner.setup()
    served = await _open_port(runner, web)
    if served is None:
        return None
    if served.captive:
        server.captive_home = served.public_url
    return server, runner, served


async def _open_port(runner: Any, web: WebConfig) -> WebConfig | None:
    """Serve ``runner`` where ``web`` says, or on the next free port: where
    it is served. None (logged in one line, the runner cleaned up) when no
    port could be opened."""
    from ..web.listen import PortUnavailable, start_site

    try:
        port = await start_site(runner, web.host, web.port)
    except PortUnavailable as exc:
        await runner.cleanup()
        log.warning("phones off: %s", exc)
        return None
    return web.on_port(port)


def _offer_phones(kiosk: Any, server: Any, web: WebConfig) -> Callable[[], Any]:
    """The phones button: its panel, and the server following new games.
    Returns what makes the panel (the console's re-pair opens it too)."""
    from ..i18n import Messages
    from .phones import PhonesView

    kiosk.bind(table=lambda _kiosk, new: server.set_table(new))

    def phones_view() -> PhonesView:
        # The Wi-Fi code: the operator's settings first, else the command line's.
        return PhonesView(
            server,
            web.public_url,
            Messages(kiosk.lang, server.table.names),
            kiosk.settings.wifi or web.wifi,
        )

    kiosk.open_phones = lambda: phones_view().open()
    return phones_view


def _offer_seat_buttons(kiosk: Any, pinmap: Any, factory: Any) -> None:
    from .widgets.seat_buttons import SeatButtons

    kiosk.open_buttons = lambda: SeatButtons(pinmap, factory, kiosk.table, kiosk.lang).open()


async def _watch(
    kiosk: Any,
    devices: list[Device],
    ui: asyncio.Task,
    reporter: TableReporter | None = None,
    health: TableHealth | None = None,
    phones_off: int | None = None,
) -> None:
    """Let time act at the table (a claim's countdown running out) and keep
    the screen's view of time and devices, and the fleet's of time and the
    pad's link, current. ``phones_off``: the phones' port, when no port
    could be opened (the screen says the phones are off, as it says a
    device is missing)."""
    off = [] if phones_off is None else [{"device": "phones", "online": False, "port": phones_off}]
    while not ui.done():
        kiosk.tick()
        statuses = [device.status() for device in devices if hasattr(device, "status")] + off
        kiosk.show_devices(statuses)
        if health is not None:
            health.see_devices(statuses)
        if reporter is not None:
            reporter.tick()
        await asyncio.sleep(WATCH_STEP)


async def _stop_after(app: Any, ui: asyncio.Task, seconds: float) -> None:
    await asyncio.wait({ui}, timeout=seconds)
    if not ui.done():
        app.stop()
