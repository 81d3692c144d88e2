"""The host: everything around the table's session, on one asyncio loop, in
one TaskGroup so a failing task is never silent — the seats' devices
(Controls), the phones (TableServer), the café's fleet (TableReporter, the
table's health, the console's actions) and one tick that lets time act.

``companion serve`` runs the host alone; ``companion run`` runs it with the
kiosk in front (a :class:`Front`: companion/ui/front.py), which follows the
same session. Nothing here imports Kivy."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..devices.controls import Controls
from ..devices.press import Deliver, SeatFeedback, loop_delivery
from ..games.base import RuleError
from ..table import Session, Update
from ..web.listen import PortUnavailable
from .phones import Phones, WebConfig, serve_phones, serve_waiting
from .station import Screen, Station

if TYPE_CHECKING:
    from ..fleet import StatusPublisher, TableReporter
    from ..fleet.health import TableHealth

log = logging.getLogger(__name__)

TICK = 0.25  # seconds between looks at the clock and the devices


class Device(SeatFeedback, Protocol):
    """An input device that can also show a seat something: header buttons,
    the serial pad. It delivers presses from the moment it is opened."""

    def close(self) -> None: ...


# Opens a device that delivers its presses through the callback given.
DeviceOpener = Callable[[Deliver], Device]


class Front(Screen, Protocol):
    """A screen in front of the host (the kiosk): it runs its own loop on
    the host's, follows the session itself, and is the station's screen."""

    async def run(self) -> None:
        """Run until the screen is closed."""
        ...

    async def ready(self) -> None:
        """Return once the screen is built (it follows the session then)."""
        ...

    def stop(self) -> None: ...

    def show_time(self) -> None: ...

    def show_devices(self, statuses: list[dict[str, Any]]) -> None: ...

    def offer_phones(self, server: Any, web: WebConfig) -> None:
        """The phones served (their panel; a seat's new code for the console)."""
        ...

    def offer_header(self, pinmap: Any, simulated_pins: Any) -> None:
        """The header's pin map (the settings show it) and, for pins this
        machine lacks, their stand-ins (on-screen seat buttons)."""
        ...


class Host:
    def __init__(
        self,
        session: Session,
        web: WebConfig | None = None,
        fleet: StatusPublisher | None = None,
        openers: Sequence[DeviceOpener] = (),
        header: tuple[Any, Any] | None = None,
    ) -> None:
        """``web``: where the phones are served (None: no phones); ``fleet``:
        the café's broker, to report to and take actions from; ``openers``:
        the seats' devices; ``header``: the GPIO pin map and its simulated
        pins (None: real ones), when the header is used."""
        self.session = session
        self.web = web
        self.fleet = fleet
        self.openers = list(openers)
        self.header = header
        self.phones: Phones | None = None
        self.phones_off: int | None = None  # the port asked for, when none opened
        self.devices: list[Device] = []
        self.station: Station | None = None
        self.reporter: TableReporter | None = None
        self.health: TableHealth | None = None
        self._stopped = asyncio.Event()
        self._front: Front | None = None

    async def open_phones(self) -> Phones:
        """Serve the phones (PortUnavailable when no port could be opened)."""
        assert self.web is not None
        self.phones = await serve_phones(self.session, self.web)
        if self.station is not None:
            self.station.phones = self.phones.server
        return self.phones

    async def run(self, front: Front | None = None, exit_after: float | None = None) -> int:
        """Run until the front end closes (or, with none, for ever), or for
        ``exit_after`` seconds."""
        loop = asyncio.get_running_loop()
        self._front = front
        try:
            async with asyncio.TaskGroup() as group:
                ui = None if front is None else group.create_task(front.run())
                if front is not None and ui is not None:
                    ui.add_done_callback(lambda _task: self._stopped.set())
                    # systemctl stop (SIGTERM), or Ctrl+C in a desktop's
                    # terminal: close the window as Close would (left to SDL,
                    # either is a close request the locked-down kiosk refuses).
                    for stop in (signal.SIGTERM, signal.SIGINT):
                        loop.add_signal_handler(stop, front.stop)
                    await self._until(front.ready())
                if exit_after is not None:
                    group.create_task(self._stop_after(exit_after, front))
                self._report_to_fleet(front)
                await self._first_game()
                if self._stopped.is_set():
                    return 0
                if self.web is not None and self.phones is None:
                    await self._try_phones()
                self._open_devices(loop)
                if front is not None:
                    if self.phones is not None:
                        front.offer_phones(self.phones.server, self.phones.web)
                    if self.header is not None:
                        front.offer_header(*self.header)
                group.create_task(self._tick(front))
        finally:
            await self._close()
        return 0

    def stop(self) -> None:
        """Stop the host, and close its front end (the window) if it has one."""
        if self._front is not None:
            self._front.stop()
        self._stopped.set()

    # -- starting ----------------------------------------------------------------------
    def _report_to_fleet(self, front: Front | None) -> None:
        """The fleet follows the session's games (idle until the first), with
        the phones connected; the console's actions are taken from now on."""
        fleet = self.fleet
        if fleet is None:
            return
        from ..fleet import TableReporter
        from ..fleet.health import TableHealth

        self.health = TableHealth().watch()
        self.reporter = TableReporter(
            fleet,
            fleet.topics.table,
            phones=self._connected_seats,
            health=self.health.fields,
            screen=front is not None,
        )
        if fleet.action_key is not None:
            self._take_actions(fleet, self.reporter, front)
        fleet.start()
        self.reporter.attach(self.session)

    def _connected_seats(self) -> list[int]:
        return [] if self.phones is None else self.phones.server.connected_seats()

    def _take_actions(
        self, fleet: StatusPublisher, reporter: TableReporter, screen: Screen | None
    ) -> None:
        """The console's actions, applied on this loop, on the station."""
        from ..fleet.actions import ActionDesk

        assert fleet.action_key is not None
        self.station = Station(self.session, screen)
        if self.phones is not None:
            self.station.phones = self.phones.server
        desk = ActionDesk(
            fleet.action_key,
            fleet.topics.table,
            self.session.store,
            self.station,
            send=fleet.reply,
            report=reporter.report,
        )
        fleet.listen(desk.receive, asyncio.get_running_loop())

    async def _first_game(self) -> None:
        """Until the session has a game (one resumed or started at home),
        phones get the waiting page."""
        if self.session.table is not None:
            return
        first: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def seen(_update: Update) -> None:
            if not first.done():
                first.set_result(None)

        waiting = None
        self.session.subscribe(seen)  # before any wait: a game started meanwhile is seen
        try:
            if self.web is not None:
                try:
                    waiting, self.web = await serve_waiting(self.web)
                except PortUnavailable:
                    pass  # said once the table's server cannot open one either
            if self.session.table is None:
                await self._until(first)
        finally:
            self.session.unsubscribe(seen)
            if waiting is not None:
                await waiting.cleanup()  # the table's server takes the port

    async def _try_phones(self) -> None:
        """The phones, or, when no port opens, a table that plays on
        without them (said in the log, and on the screen as a device off)."""
        assert self.web is not None
        try:
            await self.open_phones()
        except PortUnavailable as exc:
            log.warning("phones off: %s", exc)
            self.phones_off = self.web.port

    def _open_devices(self, loop: asyncio.AbstractEventLoop) -> None:
        """The seats' devices, delivering their presses to the Controls on
        this loop. One that cannot be opened (a pin in use, no permission) is
        logged and left out: the table plays on without it."""
        controls = Controls(self.session, loop=loop, on_refusal=self._refused)
        self.devices = open_devices(self.openers, loop_delivery(loop, controls.handle), controls)
        if self.health is not None and self.header is not None:
            self.health.gpio = self.header[1] is None and _header_open(self.devices)

    def _refused(self, seat: int | None, error: RuleError) -> None:
        """A refused press: to the seat's own channels (its LED, its phone),
        never to the shared screen; the log names no vote."""
        log.info("seat %s: a press was refused (%s)", seat, error.key)
        if self.phones is not None and seat is not None:
            self.phones.server.tell_seat(seat, error)

    # -- running -----------------------------------------------------------------------
    async def _tick(self, front: Front | None) -> None:
        """Let time act at the table (a claim's countdown running out) and
        keep the screen's view of time and devices, and the fleet's of time
        and the pad's link, current. The phones' port, when none opened, is
        a device that is off (the screen says so)."""
        off = (
            []
            if self.phones_off is None
            else [{"device": "phones", "online": False, "port": self.phones_off}]
        )
        while not self._stopped.is_set():
            self.session.tick()
            statuses = [d.status() for d in self.devices if hasattr(d, "status")] + off
            if front is not None:
                front.show_time()
                front.show_devices(statuses)
            if self.health is not None:
                self.health.see_devices(statuses)
            if self.reporter is not None:
                self.reporter.tick()
            await asyncio.sleep(TICK)

    async def _until(self, awaitable: Any) -> None:
        """Wait for ``awaitable``, or until the host stops."""
        stopped = asyncio.ensure_future(self._stopped.wait())
        waiting = asyncio.ensure_future(awaitable)
        await asyncio.wait({stopped, waiting}, return_when=asyncio.FIRST_COMPLETED)
        for task in (stopped, waiting):
            task.cancel()

    async def _stop_after(self, seconds: float, front: Front | None) -> None:
        """A smoke test of the whole start-up: stop after ``seconds``."""
        await self._until(asyncio.sleep(seconds))
        if front is not None and not self._stopped.is_set():
            front.stop()
        self._stopped.set()

    async def _close(self) -> None:
        for device in self.devices:
            device.close()
        if self.phones is not None:
            await self.phones.runner.cleanup()
        if self.fleet is not None:
            await asyncio.to_thread(self.fleet.close)
        if self.health is not None:
            self.health.close()


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
