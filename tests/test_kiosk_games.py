"""A whole game on the kiosk as a table would play it: the table's entries
tapped on the screen, three seats voting on the header's buttons (gpiozero's
mock pins, pressed through the on-screen seat buttons) and two on their
phones (the real phone server on 127.0.0.1, over HTTP), every ballot seen
turning on the screen, to the winner and its chart."""

from __future__ import annotations

import asyncio

import pytest

from companion.table import EventStore

pytest.importorskip("kivy.base")
from kiosk_helpers import button_with, selectable_panels, wait_for_reveal  # noqa: E402
from ui_helpers import frames, screenshot, show, tap  # noqa: E402
from web_helpers import join, served, state  # noqa: E402

pytestmark = pytest.mark.slow  # a whole game, seen turn by turn

BUTTON_SEATS, PHONE_SEATS = (0, 1, 2), (3, 4)


def test_a_whole_secret_hitler_game_with_buttons_phones_and_taps(window, tmp_path):
    from gpiozero.pins.mock import MockFactory

    from companion.devices.controls import Controls
    from companion.devices.gpio import GpioTable
    from companion.devices.pinmap import load_pinmap
    from companion.games.base import Fate, Setup
    from companion.table import Table
    from companion.ui.kiosk import Kiosk
    from companion.ui.widgets.seat_buttons import PinButton, SeatButtons

    store = EventStore(tmp_path / "g.sqlite3")
    setup = Setup(
        game="secret_hitler",
        seats=["Anna", "Ben", "Chloe", "Dimitris", "Eleni"],
        options={"first": 0},
    )
    table = Table.start(store, setup, fate=Fate(seed=5))
    loop = asyncio.new_event_loop()
    factory, pinmap = MockFactory(), load_pinmap()
    refusals: list[str] = []
    controls = Controls(table, loop=loop, on_refusal=lambda seat, e: refusals.append(e.key))
    header = GpioTable(pinmap, controls.handle, factory=factory)
    kiosk = show(window, Kiosk(store, table), (800, 480))
    screen = kiosk.table_screen
    panel = SeatButtons(pinmap, factory, table, "en")
    phones = served(table)
    server, open_phone = loop.run_until_complete(phones.__aenter__())
    try:
        seat_phones = {}
        for seat in PHONE_SEATS:
            phone = loop.run_until_complete(open_phone())
            token = server.links.token(table.game_id, seat)
            assert loop.run_until_complete(join(phone, token)).status == 303
            seat_phones[seat] = (phone, loop.run_until_complete(state(phone))["csrf"])

        def phone_vote(seat: int, choice: str) -> None:
            phone, csrf = seat_phones[seat]
            response = loop.run_until_complete(
                phone.post(
                    "/api/command",
                    json={"type": "vote", "choice": choice},
                    headers={"X-Companion-CSRF": csrf, "Origin": str(phone.make_url(""))},
                )
            )
            assert response.status == 200, loop.run_until_complete(response.text())

        def play_round(policy: str) -> None:
            tap(button_with(screen, "Nominate a Chancellor"))
            tap(selectable_panels(screen)[0])
            alive = set(table.public_view()["ballot"]["eligible"])
            panel.open(animation=False)
            frames(2)
            rows = [
                [w for w in row.children[::-1] if isinstance(w, PinButton)]
                for row in panel.ids.rows.children[::-1]
            ]
            for seat in BUTTON_SEATS:
                if seat in alive:
                    tap(rows[seat][0])  # Ja!
            panel.dismiss(animation=False)
            frames(2)
            ballot = screen.ids.ballot
            voted = [chip.text.endswith("voted") for chip in ballot.chips]
            assert sum(voted) == len(alive & set(BUTTON_SEATS)), "who has voted, not what"
            for seat in PHONE_SEATS:
                if seat in alive:
                    phone_vote(seat, "ja")
            wait_for_reveal(ballot)
            assert ballot.result_text == "The government is elected."
            if "Hitler zone" in screen.status_text:
                tap(
                    [b for b in screen.ids.commands.children if b.text.endswith("is not Hitler")][0]
                )
            tap(button_with(screen, f"{policy.capitalize()} policy"))
            phase = table.public_view()["phase"]
            if phase == "peek":
                tap(screen.ids.commands.children[0])
            elif phase == "execute":
                tap(button_with(screen, "Execute a player"))
                tap(selectable_panels(screen)[-1])
                tap(
                    [b for b in screen.ids.commands.children if b.text.endswith("is not Hitler")][0]
                )
            assert screen.message_text == "", screen.message_text

        for policy in (
            "fascist",
            "fascist",
            "fascist",
            "liberal",
            "fascist",
            "liberal",
            "liberal",
            "liberal",
            "liberal",
        ):
            play_round(policy)
        assert refusals == []
        assert screen.game_over
        assert screen.status_text == "The Liberals win: five Liberal policies are enacted."
        sources = {
            c["source"].split(":")[-1] if c["source"].count(":") == 2 else c["source"]
            for c in store.commands(table.game_id)
            if c["command"]["type"] == "vote"
        }
        assert sources == {"gpio", "seat:3", "seat:4"}
        tap(screen.ids.bar.ids.chart)
        frames(3)
        [chart] = [w for w in window.children if w.__class__.__name__ == "ChartPanel"]
        assert [values[-1] for _label, values in chart.chart.series] == [5, 4]
        chart.dismiss(animation=False)
        screenshot(window, "sh-kiosk-game-won-800x480")
    finally:
        loop.run_until_complete(phones.__aexit__(None, None, None))
        header.close()
        loop.close()
