"""The console's actions on the kiosk, in a real headless Kivy window: a
message shows with the staff's heading until tapped away, a re-pair puts
the seat's new code on the screen (and never in the reply), and ending the
game and starting the next one move the kiosk as its own buttons would.
The actions are signed and read as they come off the broker
(tests/test_fleet_actions.py runs them through a real Mosquitto)."""

from __future__ import annotations

import json

import pytest

from companion.fleet import protocol as p
from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from kiosk_helpers import shown_texts  # noqa: E402
from ui_helpers import frames, show, tap  # noqa: E402

KEY = b"a-cafe-action-key-0123456789abcdef"


@pytest.fixture
def kiosk_desk(window, tmp_path):
    from companion.fleet.actions import ActionDesk
    from companion.host import WebConfig
    from companion.host.station import Station
    from companion.ui.front import KioskScreen
    from companion.ui.kiosk import Kiosk
    from companion.web.server import TableServer

    setup = Setup(game="coup", seats=["Anna", "Ben", "Chloé"], options={"first": 0})
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=3))
    kiosk = show(window, Kiosk(table.store, table), (1280, 720))
    server = TableServer(kiosk.session)
    screen = KioskScreen(kiosk)
    screen.offer_phones(server, WebConfig(public_url="http://companion.local:8080"))
    station = Station(kiosk.session, screen)
    station.phones = server
    replies: list[dict] = []
    desk = ActionDesk(KEY, "t1", table.store, station, send=replies.append)

    def act(action: str, game_id, **args) -> dict:
        desk.receive(json.dumps(p.make_action(KEY, "t1", action, game_id, args)).encode())
        frames(3)
        return replies[-1]

    yield kiosk, station, server, act
    if station.shown is not None:
        station.shown.dismiss(animation=False)
    table.store.close()


def test_a_message_shows_until_tapped_away(window, kiosk_desk):
    from companion.ui.panels.staff_message import StaffMessage

    kiosk, station, _server, act = kiosk_desk
    reply = act(p.MESSAGE, None, text="Your pizza is ready — table 7")
    assert reply["ok"], reply
    message = station.shown
    assert isinstance(message, StaffMessage) and message in window.children
    assert {"From the staff", "Your pizza is ready — table 7", "Tap to close"} <= set(
        shown_texts(message)
    )
    tap(message)
    frames(10)
    assert message not in window.children


def test_a_message_in_persian_has_its_heading_in_persian(window, kiosk_desk):
    kiosk, station, _server, act = kiosk_desk
    kiosk.lang = "fa"
    assert act(p.MESSAGE, None, text="سلام")["ok"]
    assert {"از طرف کارکنان", "سلام"} <= set(shown_texts(station.shown))


def test_repair_shows_the_seats_new_code_and_the_reply_holds_no_token(window, kiosk_desk):
    kiosk, station, server, act = kiosk_desk
    table = kiosk.table
    old = server.links.token(table.game_id, 2)
    reply = act(p.REPAIR_SEAT, table.game_id, seat=2)
    assert reply["ok"], reply
    new = server.links.token(table.game_id, 2)
    assert new != old and new not in json.dumps(reply)
    view = station.shown
    assert view in window.children and view.shown_seat == 2 and view.code_texture is not None
    assert "Chloé: scan this code with your phone." in shown_texts(view)


def test_end_game_then_next_game_move_the_kiosk(window, kiosk_desk):
    kiosk, _station, _server, act = kiosk_desk
    first = kiosk.table
    assert act(p.NEXT_GAME, first.game_id)["key"] == "fleet.refused.not_over"
    assert act(p.END_GAME, first.game_id)["ok"]
    assert first.ended and kiosk.current == "home"
    assert act(p.END_GAME, first.game_id)["key"] == "fleet.refused.other_game"
    reply = act(p.NEXT_GAME, None)
    assert reply["ok"] and reply["result"]["game_id"] == kiosk.table.game_id != first.game_id
    assert kiosk.current == "table" and kiosk.table_screen.table is kiosk.table
