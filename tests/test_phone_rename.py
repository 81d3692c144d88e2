"""A player who joins by phone types their own name there; the kiosk shows
it at once, and the operator can still change it from the phones panel
with the on-screen keyboard. Over the real phone server on 127.0.0.1 (an
aiohttp client in the kiosk's own loop, and Debian's chromium for the
page), with the kiosk in a real headless window."""

from __future__ import annotations

import asyncio
from unittest.mock import ANY

import pytest

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from browser import NO_PLAYWRIGHT, serve_in_thread, shot, take_seat  # noqa: E402
from kiosk_helpers import shown_texts, type_by_taps, window_shot  # noqa: E402
from ui_helpers import frames, show, tap  # noqa: E402
from web_helpers import join, served, state  # noqa: E402


def coup_table(path):
    setup = Setup(game="coup", seats=["Player 1", "Player 2", "Player 3"], options={"first": 0})
    return Table.start(EventStore(path), setup, fate=Fate(seed=3))


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_name_typed_on_the_phone_shows_on_the_kiosk_and_the_operator_can_change_it(
    window, tmp_path, size
):
    from companion.i18n import Messages
    from companion.ui.kiosk import Kiosk
    from companion.ui.phones import PhonesView

    table = coup_table(tmp_path / "g.sqlite3")
    kiosk = show(window, Kiosk(table.store, table), size)
    screen = kiosk.table_screen
    loop = asyncio.new_event_loop()
    served_phones = served(table)
    server, open_phone = loop.run_until_complete(served_phones.__aenter__())
    try:
        phone = loop.run_until_complete(open_phone())
        assert (
            loop.run_until_complete(join(phone, server.links.token(table.game_id, 1))).status == 303
        )
        csrf = loop.run_until_complete(state(phone))["csrf"]

        def phone_renames(name: str):
            response = loop.run_until_complete(
                phone.post(
                    "/api/command",
                    json={"type": "rename", "name": name},
                    headers={"X-Companion-CSRF": csrf, "Origin": str(phone.make_url(""))},
                )
            )
            return response.status, loop.run_until_complete(response.json())

        assert phone_renames("Наташа") == (200, {"ok": True, "events": 1, "pad": ANY})
        frames(2)
        assert "Наташа" in " ".join(shown_texts(screen)), "the kiosk shows it at once"
        status, refused = phone_renames("player 1")
        assert status == 400 and refused["message"] == "Two players are called “player 1”."

        # The operator changes it: the phones panel, ✎, the keyboard.
        panel = PhonesView(server, "http://companion.local:8080", Messages("en", table.names))
        panel.open(animation=False)
        frames(3)
        labels = [w.text for row in panel.ids.seats.children for w in getattr(row, "children", [])]
        assert "Наташа\non a phone" in labels
        pens = [
            w
            for row in reversed(panel.ids.seats.children)
            for w in getattr(row, "children", [])
            if getattr(w, "text", "") == "✎"
        ]
        tap(pens[1])
        assert panel.renaming == 1 and panel.ids.name.value == "Наташа"
        type_by_taps(panel.ids.name, "Natasha", done=False)
        window_shot(window, f"phones-rename-{size[0]}x{size[1]}")
        from companion.ui.widgets.touch_keyboard import keyboard

        tap(keyboard().key("done"))
        assert table.names == ["Player 1", "Natasha", "Player 3"]
        assert panel.code_text == "Natasha: the name is kept."
        assert loop.run_until_complete(state(phone))["names"][1] == "Natasha"
        panel.dismiss(animation=False)
        frames(2)
        assert "Natasha" in " ".join(shown_texts(screen))
        assert table.log_lines()[-1] == (
            "log.rename",
            {"was": "Наташа", "name": "Natasha", "undone": False},
        )
    finally:
        loop.run_until_complete(served_phones.__aexit__(None, None, None))
        loop.close()


def test_the_seat_page_renames_its_player_in_a_real_browser(tmp_path, phones):
    pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
    from playwright.sync_api import expect

    from companion.web.server import TableServer

    table = coup_table(tmp_path / "g.sqlite3")
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 2))
        page = phones()
        take_seat(page, f"{base}/join/{token}")
        expect(page.locator("#name")).to_have_text("Player 3")
        page.locator("#rename-title").click()
        field = page.locator("#rename-name")
        expect(field).to_have_value("Player 3")
        field.fill("ناتاشا")
        shot(page, "seat-rename")
        page.locator("#rename-save").click()
        expect(page.locator("#name")).to_have_text("ناتاشا")
        assert base.on_loop(lambda: list(table.names)) == ["Player 1", "Player 2", "ناتاشا"]
        page.locator("#rename-title").click()
        field.fill("PLAYER 1")
        page.locator("#rename-save").click()
        expect(page.locator("#rename-message")).to_have_text("Two players are called “PLAYER 1”.")
        expect(page.locator("#name")).to_have_text("ناتاشا")
