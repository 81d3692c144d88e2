"""The kiosk as the host's front end (companion/host/host.py ``Front``):
Kivy's loop on the host's, the kiosk following the host's session, and what
the console's actions put on its screen."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..fleet.actions import NO_PHONES
from ..fleet.protocol import ActionRefused
from ..host import WebConfig


class KioskScreen:
    """What the host shows on the kiosk: time, devices, the phones and
    header it serves, and the console's actions (the station's screen)."""

    def __init__(self, kiosk: Any) -> None:
        self.kiosk = kiosk
        self.phones_view: Callable[[], Any] | None = None  # the phones panel, once served

    def show_time(self) -> None:
        self.kiosk.show_time()

    def show_devices(self, statuses: list[dict[str, Any]]) -> None:
        self.kiosk.show_devices(statuses)

    def offer_phones(self, server: Any, web: WebConfig) -> None:
        """The phones button opens their panel (the console's re-pair too)."""
        from ..i18n import Messages
        from .phones import PhonesView

        kiosk = self.kiosk

        def phones_view() -> PhonesView:
            # The Wi-Fi code: the operator's settings first, else the command line's.
            return PhonesView(
                server,
                web.public_url,
                Messages(kiosk.lang, server.table.names),
                kiosk.settings.wifi or web.wifi,
            )

        self.phones_view = phones_view
        kiosk.open_phones = lambda: phones_view().open()

    def offer_header(self, pinmap: Any, simulated_pins: Any) -> None:
        kiosk = self.kiosk
        kiosk.pinmap = pinmap
        if simulated_pins is not None:
            from .widgets.seat_buttons import SeatButtons

            kiosk.open_buttons = lambda: SeatButtons(
                pinmap, simulated_pins, kiosk.table, kiosk.lang, session=kiosk.session
            ).open()

    # -- the station's screen (the console's actions) ---------------------------------
    def end_game(self) -> None:
        self.kiosk.end_game()  # as the settings' "End game"

    def show_repair(self, seat: int) -> Any:
        if self.phones_view is None:
            raise ActionRefused(NO_PHONES)
        view = self.phones_view()
        view.repair(seat)  # the new code, on screen for the seat to scan
        view.open()
        return view

    def show_message(self, text: str) -> Any:
        from .panels.staff_message import StaffMessage

        message = StaffMessage(text, self.kiosk.lang)
        message.open()
        return message


class KioskFront(KioskScreen):
    """The kiosk's App run in front of the host: its screen once built."""

    def __init__(self, app: Any) -> None:
        """``app``: the kiosk's Kivy App (app.py ``kiosk_app``)."""
        super().__init__(None)
        self.app = app
        self._built = asyncio.Event()
        app.bind(on_start=self._started)

    def _started(self, *_args: Any) -> None:
        self.kiosk = self.app.kiosk
        self._built.set()

    async def run(self) -> None:
        await self.app.async_run(async_lib="asyncio")

    async def ready(self) -> None:
        await self._built.wait()

    def stop(self) -> None:
        self.app.stop()
