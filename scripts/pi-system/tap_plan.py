"""Where the kiosk's buttons are at 800x480, for the touch check of
scripts/pi-system-check: the real kiosk (companion.ui.kiosk.Kiosk, in a
headless Kivy window on this machine) is walked through what the check then
does by touch in the booted guest: Secret Hitler chosen on the home screen,
the game started, a Chancellor nominated, seat 1's Ja! entered; later, back
home, a keeper game of Article 27 started over it with the operator's PIN
(0000 until it is changed) and each seat's join code shown once on the
phones' panel (which makes the seat's link). The kiosk is built as
``companion run`` builds it on a Pi: with the phones' panel offered and no
simulated buttons (the guest has real pins). Each target is printed as ``NAME X Y`` (pixels
from the screen's top left, as the guest's touchscreen reports them):

    game start nominate seat0 ... seat4 enter_ja votes_done
    home article27 keeper start_again pin0 pin_ok phones code0 ... code4
    phones_close

Runs with the checkout's own environment (.venv, scripts/venv.sh), not the
host's python3: it needs Kivy and the app. The guest draws the same widgets
with the same fonts at the same size, so the centres are the same there."""

from __future__ import annotations

import os
import sys
import tempfile

SIZE = (800, 480)


def main() -> int:
    os.environ.update(
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"),
        XDG_CACHE_HOME=tempfile.mkdtemp(prefix="companion-cache-"),
    )
    from companion.ui.app import prepare_kivy_environment

    prepare_kivy_environment()
    from kivy.base import EventLoop
    from kivy.input.motionevent import MotionEvent
    from kivy.uix.behaviors import ButtonBehavior

    from companion.host import WebConfig
    from companion.table import EventStore, Session
    from companion.ui.front import KioskScreen
    from companion.ui.kiosk import Kiosk
    from companion.ui.text.fonts import use_dejavu
    from companion.web.server import TableServer

    EventLoop.ensure_window()
    use_dejavu()
    window = EventLoop.window
    window.size = SIZE
    store = EventStore(os.path.join(tempfile.mkdtemp(), "g.sqlite3"))
    session = Session(store)
    kiosk = Kiosk(store, None, lang="en", session=session)
    server = TableServer(session)
    KioskScreen(kiosk).offer_phones(server, WebConfig(public_url="http://raspberrypi.local/"))
    window.add_widget(kiosk)

    def frames(count: int = 6) -> None:
        for _ in range(count):
            EventLoop.idle()

    def targets(kind: str, axis: int = 0) -> list[tuple[float, float, object]]:
        """The enabled buttons on screen whose text (or class) is ``kind``,
        left to right (``axis`` 1: top to bottom), as (x, y from the top, widget)."""
        found = []
        shown = [w for layer in window.children for w in layer.walk(restrict=True)]
        for widget in shown:  # the kiosk's screen, and a popup over it (the PIN pad)
            if not isinstance(widget, ButtonBehavior) or widget.disabled:
                continue
            if (getattr(widget, "text", "") or type(widget).__name__) != kind:
                continue
            x, y = widget.to_window(*widget.center)
            if 0 <= x <= window.width and 0 <= y <= window.height:
                found.append((x, window.height - y, widget))
        if not found:
            raise SystemExit(f"tap_plan: no {kind!r} button on the kiosk's screen")
        return sorted(found, key=lambda target: target[axis])

    class Finger(MotionEvent):
        """A finger at a window position (as kivy.tests' UnitTestTouch, which
        needs pytest: this runs in the app's own environment)."""

        def __init__(self, x: float, y: float) -> None:
            place = {"x": x / (window.width - 1.0), "y": y / (window.height - 1.0)}
            super().__init__("tap_plan", 1, place, is_touch=True, type_id="touch")
            self.profile = ["pos"]

        def depack(self, args: dict) -> None:
            self.sx, self.sy = args["x"], args["y"]
            super().depack(args)

    def tap(target: tuple[float, float, object], name: str | None = None) -> None:
        """A finger's tap at the target's centre; its place printed as NAME."""
        x, y, widget = target
        if name:
            print(f"{name} {round(x)} {round(y)}")
        finger = Finger(*widget.to_window(*widget.center))
        EventLoop.post_dispatch_input("begin", finger)
        frames(1)
        EventLoop.post_dispatch_input("end", finger)
        frames()

    frames()
    tap(targets("Secret Hitler")[0], "game")
    tap(targets("Start the game")[0], "start")
    panels = targets("SeatPanel")
    for seat, (x, y, _) in enumerate(panels):
        print(f"seat{seat} {round(x)} {round(y)}")
    candidate = kiosk.table.public_view()["candidate"]
    tap(targets("Nominate a Chancellor")[0], "nominate")
    tap(targets("SeatPanel")[(candidate + 1) % len(panels)])
    tap(targets("Enter Ja! votes")[0], "enter_ja")
    tap(targets("SeatPanel")[0])
    tap(targets("Done")[0], "votes_done")
    voted = kiosk.table.public_view()["ballot"]["voted"]
    if voted != [0]:
        raise SystemExit(f"tap_plan: the walk did not enter seat 1's vote (voted: {voted})")
    tap(targets("Home")[0], "home")
    tap(targets("Article 27")[0], "article27")
    tap(targets("App keeps the cards")[0], "keeper")
    tap(targets("Start the game")[0], "start_again")
    zero = targets("0")[0]
    print(f"pin0 {round(zero[0])} {round(zero[1])}")
    for _ in range(4):
        tap(zero)
    tap(targets("OK")[0], "pin_ok")
    setup = kiosk.table.setup
    if (setup.game, setup.mode) != ("article27", "keeper"):
        raise SystemExit(f"tap_plan: the walk did not start a keeper Article 27 ({setup.game})")
    tap(targets("Phones")[0], "phones")
    codes = targets("Show code", axis=1)
    for seat, code in enumerate(codes):
        tap(code, f"code{seat}")
    tap(targets("Close")[0], "phones_close")
    game = kiosk.table.game_id
    made = [seat for seat in range(setup.players) if store.seat_link(game, seat) is not None]
    if made != list(range(setup.players)):
        raise SystemExit(f"tap_plan: the phones' panel made links for seats {made} only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
