"""The seam a fifth game plugs into, proved by a game that exists only
here: Show of Hands (tests/show_of_hands/) declares its spec, words and
texts from its own files, and is played end to end through every layer that
never heard of it: the table and its SQLite file, the home screen and the
kiosk's plain screen in a real Kivy window, seat buttons on gpiozero's mock
pins, and a seat's phone page in a real browser."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("kivy.base")
from show_of_hands import SPEC  # noqa: E402
from ui_helpers import frames, screenshot, show, tap  # noqa: E402

from companion.games import names, register, spec_for, unregister  # noqa: E402
from companion.games.base import Fate, Setup  # noqa: E402
from companion.i18n import Messages  # noqa: E402
from companion.table import EventStore, Table, seat_source  # noqa: E402


@pytest.fixture
def hands():
    """Show of Hands is a game for as long as the test runs."""
    register(SPEC)
    yield SPEC
    unregister(SPEC.name)


def start(store, seats=("Ann", "Bob", "Cat"), mode="physical", **options) -> Table:
    setup = Setup(
        game="show_of_hands", seats=list(seats), mode=mode, options={"first": 0, **options}
    )
    return Table.start(store, setup, fate=Fate(seed=3, script={"hunches": [2, 5, 1]}))


def answer(table: Table, *votes: str) -> None:
    table.execute({"type": "ask"})
    for seat, vote in enumerate(votes):
        table.execute({"type": "vote", "seat": seat, "choice": vote}, source=seat_source(seat))


def test_it_is_a_game_only_while_registered(hands, store):
    assert "show_of_hands" in names()
    assert spec_for("show_of_hands").engine.max_players == 6
    assert Messages("el")("game.show_of_hands") == "Σήκωμα χεριών"
    unregister("show_of_hands")
    assert "show_of_hands" not in names()
    assert Messages("en")("game.show_of_hands") == "game.show_of_hands"
    with pytest.raises(Exception) as refused:
        start(store)
    assert getattr(refused.value, "key", None) == "setup.unknown_game"
    register(SPEC)


def test_a_whole_game_through_the_table_survives_a_restart(hands, tmp_path):
    store = EventStore(tmp_path / "g.sqlite3")
    table = start(store, mode="keeper", rounds=2)
    assert table.private_view(1) == {"hunch": 5, "hunch_played": False, "name": "Bob"}
    assert table.shared_commands() == [{"type": "ask"}], "a hunch is played on a phone only"
    assert table.phone_commands(1) == [{"type": "play_hunch", "seat": 1}]
    with pytest.raises(Exception) as refused:
        table.execute({"type": "play_hunch", "seat": 1}, source="kiosk")
    assert refused.value.key == "command.private_choice"
    table.execute({"type": "play_hunch", "seat": 1}, source=seat_source(1))
    answer(table, "yes", "yes", "no")
    view = table.public_view()
    assert view["last"] == ["yes", "yes", "no"] and view["round"] == 2
    assert [p["score"] for p in view["players"]] == [1, 1, 0]
    resumed = Table.resume(EventStore(tmp_path / "g.sqlite3"))
    assert resumed.public_view()["players"] == view["players"]
    answer(resumed, "no", "yes", "no")
    assert resumed.is_over
    final = resumed.public_view()
    assert final["winners"] == [1], "Bob's hunch of 5 wins it"
    t = Messages("en", resumed.names)
    assert spec_for("show_of_hands").words.status_line(final, t) == "Won by Bob."
    lines = [t.log_line(k, a) for k, a in resumed.log_lines()]
    assert "Bob played a hunch." in lines and "The hands: 2 Yes, 1 No." in lines
    assert not any("5" in line for line in lines), "the hunch itself is never in the log"


def test_the_home_screen_offers_it_and_the_kiosk_plays_it_with_mock_gpio_buttons(
    hands, window, tmp_path
):
    from gpiozero.pins.mock import MockFactory

    from companion.devices.controls import Controls
    from companion.devices.gpio import GpioTable
    from companion.devices.pinmap import load_pinmap
    from companion.ui.kiosk import Kiosk
    from companion.ui.screens.plain_screen import PlainTableScreen
    from companion.ui.widgets.buttons import ChoiceButton

    store = EventStore(tmp_path / "g.sqlite3")
    kiosk = show(window, Kiosk(store, None, lang="en"), (1280, 720))
    home = kiosk.home
    games = [b for b in home.ids.games.children if isinstance(b, ChoiceButton)]
    tap(next(b for b in games if b.text == "Show of Hands"))
    assert [b.text for b in home.ids.variants.children] == ["Rounds: 3"]
    tap(home.ids.start)
    screen = kiosk.table_screen
    assert isinstance(screen, PlainTableScreen)
    table = screen.table
    assert screen.title_text == "Show of Hands"
    assert screen.status_text == "Round 1 of 3: ask the question aloud, then tap Ask."

    loop = asyncio.new_event_loop()
    factory, pinmap = MockFactory(), load_pinmap()
    refusals: list[str] = []
    controls = Controls(table, loop=loop, on_refusal=lambda seat, e: refusals.append(e.key))
    header = GpioTable(pinmap, controls.handle, factory=factory)
    try:

        def press(seat: int, button: int) -> None:
            pin = factory.pin(pinmap.seats[seat].buttons[button])
            pin.drive_low()
            pin.drive_high()
            frames(2)

        press(0, 0)
        assert refusals == ["device.nothing_to_press"], "no ballot open: a press is refused"
        for round_votes in ([0, 1, 0], [1, 1, 1], [0, 1, 0]):
            tap(next(b for b in screen.ids.commands.children if b.text == "Ask the question"))
            for seat, button in enumerate(round_votes[:-1]):
                press(seat, button)
            chips = screen.ids.ballot.chips
            assert [chip.back_text.split("\n")[1] for chip in chips] == [
                "voted",
                "voted",
                "waiting",
            ], "who has voted, never what"
            assert all(chip.turn == 0.0 for chip in chips)
            if round_votes == [1, 1, 1]:
                screenshot(window, "show-of-hands-ballot-open")
            press(2, round_votes[-1])
            assert [chip.face_text.split("\n")[1] for chip in screen.ids.ballot.chips] == [
                ("Yes", "No")[b] for b in round_votes
            ]
        assert table.is_over
        assert screen.status_text == "Won by Player 1, Player 3."
        assert screen.players_text == (
            "Player 1: 3 points   Player 2: 1 point   Player 3: 3 points"
        )
        panel = screen.open_chart()
        frames(3)
        assert [label for label, _ in panel.chart.series] == table.names
        assert [values[-1] for _, values in panel.chart.series] == [3, 1, 3]
        panel.dismiss(animation=False)
        frames(2)
        screenshot(window, "show-of-hands-over")
        assert [e["by"] for _, e in table.log if e["type"] == "vote"] == [
            seat_source(s, "gpio") for _ in range(3) for s in range(3)
        ]
    finally:
        header.close()
        loop.close()


def test_a_seat_s_phone_page_shows_only_its_hunch_and_plays_it(hands, store, phones):
    from browser import serve_in_thread, shot, take_seat
    from playwright.sync_api import expect

    from companion.web.server import TableServer

    table = start(store, mode="keeper")
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        token = base.on_loop(lambda: server.links.token(table.game_id, 1))
        bob = phones()
        take_seat(bob, f"{base}/join/{token}")
        expect(bob.locator("#status")).to_have_text(
            "Round 1 of 3: ask the question aloud, then tap Ask."
        )
        box = bob.locator("#secrets").bounding_box()
        bob.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        bob.mouse.down()  # held: the secrets show
        expect(bob.locator("#secret-lines")).to_have_text("Your hunch: 5 points.")
        bob.mouse.up()
        expect(bob.locator("#secret-lines")).to_be_hidden()
        expect(bob.locator("#actions button")).to_have_text(["Play my hunch"])
        bob.locator("#actions button").click()
        expect(bob.locator("#message")).to_have_text("Sent.")
        base.on_loop(lambda: table.execute({"type": "ask"}))
        expect(bob.locator("#actions button")).to_have_text(["Yes", "No"])
        bob.locator("#actions button").nth(0).click()
        expect(bob.locator("#message")).to_have_text("Sent.")
        shot(bob, "show-of-hands-seat")
        others = [table.private_view(seat) for seat in (0, 2)]
        assert all("5" not in str(view.get("hunch")) for view in others)
    assert table.private_view(1)["hunch_played"]
    assert [e for _, e in table.log if e["type"] == "vote"][0]["by"] == seat_source(1)
