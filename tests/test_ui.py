"""The first Coup table screen in a real Kivy window (rendered headless with
Mesa): it shows the public state, touch drives the table, refusals read as
messages, a restarted app shows the same table, and screenshots are written
for people to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import coup_with_countdown, physical_table

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from ui_helpers import (
    PORTRAIT,
    SHOTS,
    SIZES,
    fits_in_window,
    frames,  # noqa: E402
    screenshot,
    show,
    tap,
)


def button(screen, text: str):
    found = [b for b in screen.ids.commands.children if b.text == text]
    assert found, f"no button {text!r} among {[b.text for b in screen.ids.commands.children]}"
    return found[0]


def choose(screen, text: str) -> None:
    """Tap the command ``text``: at once, or behind the two-tap button ("…
    challenges", "Steal from … (Captain)") that leads to it."""
    frames(1)
    labels = [b.text for b in screen.ids.commands.children]
    if text not in labels:
        for grouped in [label for label in labels if "…" in label]:
            tap(button(screen, grouped))
            if text in [b.text for b in screen.ids.commands.children]:
                break
            tap(button(screen, "Cancel"))
    tap(button(screen, text))


@pytest.mark.parametrize("size", [*SIZES, PORTRAIT], ids=lambda s: f"{s[0]}x{s[1]}")
def test_touch_plays_a_turn_and_the_screen_follows(window, tmp_path, size):
    from companion.games.claims.screen import ClaimTableScreen

    table = physical_table(tmp_path / "g.sqlite3")
    screen = show(window, ClaimTableScreen(table), size)
    assert screen.status_text == "Natassa, choose an action."
    assert [p.coins_text for p in screen._panels] == ["2 coins"] * 3
    assert screen._panels[0].current and not screen._panels[1].current
    for b in screen.ids.commands.children:
        assert b.height >= 48, "touch targets are at least 48 px"
        assert fits_in_window(b, window), b.text
    screenshot(window, f"coup-action-{size[0]}x{size[1]}")

    tap(button(screen, "Tax (+3, Duke)"))
    assert screen.status_text == ("Natassa claims the Duke (Tax). Does anyone challenge?")
    screenshot(window, f"coup-challenge-{size[0]}x{size[1]}")
    choose(screen, "Stelios challenges")
    tap(button(screen, "Natassa shows the Duke"))
    assert screen.status_text == (
        "Natassa, shuffle the Duke into the court deck and draw a new card; "
        "Stelios turns a card face up."
    )
    tap(button(screen, "Stelios turns up the Captain"))
    assert [p.coins_text for p in screen._panels] == ["5 coins", "2 coins", "2 coins"]
    assert screen._panels[1].revealed_text == "Captain"
    assert screen._panels[1].current
    screenshot(window, f"coup-after-challenge-{size[0]}x{size[1]}")


def test_an_action_aimed_at_a_player_is_two_taps(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen

    table = physical_table(tmp_path / "g.sqlite3")
    screen = show(window, ClaimTableScreen(table), (800, 480))
    labels = [b.text for b in screen.ids.commands.children]
    assert "Steal from … (Captain)" in labels
    assert not [text for text in labels if text.startswith("Steal from Stelios")]
    tap(button(screen, "Steal from … (Captain)"))
    assert sorted(b.text for b in screen.ids.commands.children) == [
        "Cancel",
        "Steal from Giorgos (Captain)",
        "Steal from Stelios (Captain)",
    ]
    tap(button(screen, "Steal from Giorgos (Captain)"))
    assert screen.status_text.startswith("Natassa claims the Captain")
    assert table.public_view()["pending"]["target"] == 2
    frames(2)
    # Each seat's answer to the claim: one button per answer, then the seat.
    assert sorted(b.text for b in screen.ids.commands.children) == [
        "Nobody challenges",
        "… challenges",
        "… lets it stand",
    ]
    choose(screen, "Giorgos challenges")
    assert screen.status_text.startswith("Giorgos challenges")


def test_refusals_are_messages_and_undo_is_a_button(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen

    table = physical_table(tmp_path / "g.sqlite3")
    screen = show(window, ClaimTableScreen(table), (800, 480))
    assert not screen.send({"type": "income", "seat": 2})
    assert screen.message_text == "It is not Giorgos's turn."
    assert not screen.send({"type": "fly"})
    assert "not a command" in screen.message_text
    assert screen.ids.bar.ids.undo.disabled
    tap(button(screen, "Income (+1)"))
    assert screen.message_text == ""
    assert not screen.ids.bar.ids.undo.disabled
    tap(screen.ids.bar.ids.undo)
    assert screen.status_text == "Natassa, choose an action."
    assert screen._panels[0].coins_text == "2 coins"


def test_a_restarted_app_shows_the_same_table(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen

    path = tmp_path / "g.sqlite3"
    table = physical_table(path)
    screen = show(window, ClaimTableScreen(table), (1280, 720))
    tap(button(screen, "Foreign Aid (+2)"))
    choose(screen, "Giorgos blocks with the Duke")
    before = (
        screen.status_text,
        [p.coins_text for p in screen._panels],
        [b.text for b in screen.ids.commands.children],
    )
    table.store.close()

    resumed = Table.resume(EventStore(path))
    again = show(window, ClaimTableScreen(resumed), (1280, 720))
    after = (
        again.status_text,
        [p.coins_text for p in again._panels],
        [b.text for b in again.ids.commands.children],
    )
    assert after == before
    assert again.status_text == "Giorgos blocks with the Duke. Does anyone challenge?"


def test_the_end_of_a_game_reads_clearly(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen

    table = physical_table(tmp_path / "g.sqlite3")
    screen = show(window, ClaimTableScreen(table), (800, 480))
    for seat, card in ((1, "duke"), (1, "captain"), (2, "duke"), (2, "captain")):
        while table.public_view()["current"] != 0:
            screen.send({"type": "income", "seat": table.public_view()["current"]})
        assert screen.send({"type": "exchange", "seat": 0})
        screen.send({"type": "challenge", "seat": seat})
        screen.send({"type": "show", "seat": 0})
        screen.send({"type": "lose", "seat": seat, "card": card})
    frames(3)
    assert screen.status_text == "Natassa wins the game!"
    assert screen.ids.commands.children == []
    assert [p.influence_text for p in screen._panels][1:] == ["Out", "Out"]
    assert screen._panels[0].current, "the winner stands out"
    screenshot(window, "coup-over-800x480")
    tap(screen.ids.bar.ids.new_game)
    assert screen.table.game_id != table.game_id
    assert screen.status_text == "Natassa, choose an action."  # the winner starts
    assert [p.coins_text for p in screen._panels] == ["2 coins"] * 3
    assert [g.status for g in table.store.history()] == ["active", "finished"]


def test_a_keeper_game_never_offers_hand_dependent_choices_on_the_kiosk(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen

    setup = Setup(
        game="coup",
        seats=["Natassa", "Stelios", "Giorgos"],
        mode="keeper",
        options={"first": 0, "direction": "clockwise"},
    )
    deal = {"hands": [["captain", "contessa"], ["duke", "duke"], ["assassin", "duke"]]}
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=1, script=deal))
    screen = show(window, ClaimTableScreen(table), (800, 480))
    tap(button(screen, "Tax (+3, Duke)"))
    choose(screen, "Stelios challenges")
    # Natassa cannot show a Duke: a kiosk offering only "cannot show it" would
    # tell the table so. Her choice belongs on her phone.
    assert screen.status_text.startswith("Stelios challenges: Natassa, show the Duke")
    assert [b.text for b in screen.ids.commands.children] == []
    assert {c["type"] for c in table.legal_commands()} == {"concede"}


def g54_table(path):
    setup = Setup(
        game="g54",
        seats=["Parisa", "Reza", "Sara", "Kian"],
        mode="physical",
        options={"first": 0, "set": "starter"},
    )
    return Table.start(EventStore(path), setup, fate=Fate(seed=1))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_g54_shows_its_five_reference_cards_and_the_tokens(window, tmp_path, size):
    from companion.games.claims.screen import ClaimTableScreen

    screen = show(window, ClaimTableScreen(g54_table(tmp_path / "g.sqlite3")), size)
    assert screen.title_text == "Coup: Rebellion G54"
    assert "Treasury" not in screen.info_text, "G54's treasury has no limit"
    cards = list(reversed(screen.ids.reference.children))
    assert [c.name for c in cards] == [
        "Banker",
        "Director",
        "Guerrilla",
        "Peacekeeper",
        "Politician",
        "Income · Coup",
    ]
    assert cards[3].text.startswith("Take 1 coin and the Peacekeeping token")
    for card in cards:
        assert fits_in_window(card, window), card.name
    assert "Foreign Aid (+2)" not in [b.text for b in screen.ids.commands.children]
    screenshot(window, f"g54-action-{size[0]}x{size[1]}")

    tap(button(screen, "Peacekeeping (+1, Peacekeeper)"))
    for seat in (1, 2, 3):
        assert screen.send({"type": "pass", "seat": seat})
    assert screen._panels[0].tokens_text == "☮ Peacekeeping: Parisa"
    assert screen._panels[0].coins_text == "3 coins"
    frames(2)  # the new turn's buttons laid out
    tap(button(screen, "Bribery of … (Politician)"))  # two taps: the action, its target
    assert sorted(b.text for b in screen.ids.commands.children) == [
        "Bribery of Kian (Politician)",
        "Bribery of Sara (Politician)",
        "Cancel",
    ], "the token makes Parisa untargetable"
    tap(button(screen, "Cancel"))
    assert "Bribery of … (Politician)" in [b.text for b in screen.ids.commands.children]
    assert not screen.send({"type": "politician", "seat": 1, "target": 0})
    assert screen.message_text == (
        "Parisa holds the Peacekeeping token: only a Coup can reach them."
    )
    screenshot(window, f"g54-token-{size[0]}x{size[1]}")


def test_a_short_screen_shows_card_names_and_a_tap_opens_the_card(window, tmp_path):
    from companion.games.claims.screen import CardView, ClaimTableScreen

    screen = show(window, ClaimTableScreen(g54_table(tmp_path / "g.sqlite3")), (800, 480))
    assert screen.compact_reference
    guerrilla = [c for c in screen.ids.reference.children if c.name == "Guerrilla"][0]
    assert guerrilla.compact and guerrilla.height < 60
    tap(guerrilla)
    opened = [w for w in window.children if isinstance(w, CardView)]
    assert [v.text for v in opened] == ["Pay 4: the target loses a life. Blocked by the Guerrilla."]
    frames(8)  # the view's opening animation
    SHOTS.mkdir(parents=True, exist_ok=True)
    taken = Path(window.screenshot(str(SHOTS / "g54-card-800x480.png")))
    taken.replace(SHOTS / "g54-card-800x480.png")  # Kivy numbers its screenshots
    opened[0].dismiss(animation=False)
    frames(2)
    assert not [w for w in window.children if isinstance(w, CardView)]


def test_the_table_sees_when_the_button_pad_stops_answering(window, tmp_path):
    from companion.devices.pad import SerialPad
    from companion.devices.pad_sim import PadSimulator, PtyLink, wait_for
    from companion.games.claims.screen import ClaimTableScreen

    screen = show(window, ClaimTableScreen(physical_table(tmp_path / "g.sqlite3")), (800, 480))
    link = PtyLink(tmp_path)
    pad = SerialPad(lambda press: None, link.path, retry_interval=0.05, heartbeat_timeout=0.5)
    sim = PadSimulator(link, seats=3)
    pad.start()
    try:
        screen.show_devices([pad.status()])
        assert screen.devices_text == "", "a pad never seen is not missed"
        sim.start()
        assert wait_for(lambda: pad.status()["online"])
        screen.show_devices([pad.status()])
        assert screen.devices_text == ""
        sim.pause()  # the pad hangs: no heartbeats
        assert wait_for(lambda: not pad.status()["online"])
        screen.show_devices([pad.status()])
        assert screen.devices_text == "Button pad not answering"
        frames(2)
        assert fits_in_window(screen.ids.bar.ids.devices, window)
        screenshot(window, "coup-pad-offline-800x480")
        sim.resume()
        assert wait_for(lambda: pad.status()["online"])
        screen.show_devices([pad.status()])
        assert screen.devices_text == ""
    finally:
        sim.stop()
        pad.stop()
        link.unplug()


def test_a_claim_under_a_countdown_shows_the_seconds_left(window, tmp_path):
    from a27_helpers import FakeClock

    from companion.games.claims.screen import ClaimTableScreen

    clock = FakeClock()
    table = coup_with_countdown(tmp_path / "g.sqlite3", clock)
    screen = show(window, ClaimTableScreen(table), (800, 480))
    assert screen.countdown_text == ""
    tap(button(screen, "Tax (+3, Duke)"))
    assert screen.countdown_text == "Unchallenged, the claim stands in 10 seconds."
    clock.advance(8.5)
    screen.tick()
    assert screen.countdown_text == "Unchallenged, the claim stands in 2 seconds."
    frames(2)
    screenshot(window, "coup-countdown-800x480")
    clock.advance(1.5)
    screen.tick()  # time is up: the claim stands
    assert screen.countdown_text == ""
    assert screen.status_text == "Stelios, choose an action."
    assert screen._panels[0].coins_text == "5 coins"


def test_the_phones_panel_shows_a_code_on_demand_and_hides_it_once_claimed(window, tmp_path):
    from companion.i18n import Messages
    from companion.ui.phones import PhonesView
    from companion.web.server import TableServer

    table = physical_table(tmp_path / "g.sqlite3")
    server = TableServer(table)
    view = PhonesView(
        server,
        "http://companion.local:8080",
        Messages("en", table.names),
        wifi=("Table 4", "bluff-well"),
    )
    window.size = (800, 480)
    view.open(animation=False)
    frames(4)
    assert view.code_text == "Scan to join the table's Wi-Fi “Table 4”, then scan your seat's code."
    assert view.code_texture is not None
    view.show_seat(1)
    frames(2)
    assert view.code_text == "Stelios: scan this code with your phone."
    token = server.links.token(table.game_id, 1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    view.children[0].export_to_png(str(SHOTS / "phones-code-800x480.png"))
    tapped = server.links.join(token, None)  # Stelios's phone taps "Take this seat"
    view._follow_claims(0)
    assert view.code_texture is not None and view.shown_seat == 1, "not final yet"
    server.links.arrive(tapped.cookie, table.game_id)  # its first request: the claim is final
    view._follow_claims(0)
    assert view.code_texture is None and view.shown_seat is None
    assert view.code_text == "Stelios's phone has joined. The code is hidden again."
    labels = [w.text for row in view.ids.seats.children for w in getattr(row, "children", [])]
    assert "Stelios\non a phone" in labels and "Re-pair" in labels
    view.repair(1)
    assert server.links.token(table.game_id, 1) != token
    assert view.shown_seat == 1
    view.dismiss(animation=False)
    frames(2)


def test_the_ballot_shows_who_voted_then_turns_every_vote_at_once(window):
    import time

    from companion.ui.widgets.ballot_view import BallotView

    ballot = BallotView()
    show(window, ballot, (800, 480))
    ballot.show_open(
        "Election: Ben as Chancellor", [("Anna", True), ("Ben", False)], "voted", "waiting"
    )
    frames(2)
    assert [c.text for c in ballot.chips] == ["Anna\nvoted", "Ben\nwaiting"]
    assert "Ja" not in " ".join(c.text for c in ballot.chips)
    ballot.reveal(
        "Election: Ben as Chancellor",
        [("Anna", "Ja!", (0.2, 0.5, 0.3, 1)), ("Ben", "Nein", (0.6, 0.2, 0.2, 1))],
        "The government is elected.",
        "voted",
    )
    frames(1)
    assert ballot.revealing and ballot.result_text == ""
    assert [c.text for c in ballot.chips] == ["Anna\nvoted", "Ben\nvoted"]
    halfway = time.monotonic() + 0.5
    while time.monotonic() < halfway:
        frames(1)
    turns = {c.turn for c in ballot.chips}
    assert len(turns) == 1, "every vote turns together"
    assert 0.5 <= turns.pop() < 1.0
    assert [c.text for c in ballot.chips] == ["Anna\nJa!", "Ben\nNein"]
    done = time.monotonic() + 1.0
    while ballot.revealing and time.monotonic() < done:
        frames(1)
    assert not ballot.revealing
    assert ballot.result_text == "The government is elected."
    assert all(c.turn == 1.0 for c in ballot.chips)
    screenshot(window, "ballot-revealed-800x480")


def test_a_ballot_s_chips_keep_one_size_from_its_opening_to_its_reveal(window):
    """The chips are fitted to every text they may show (voted, waiting,
    each vote in words), so they neither grow nor shrink as the votes come
    in or turn: none is drawn again for a new size at the reveal, though a
    vote's word is the longest word they show."""
    from companion.ui.widgets.ballot_view import BallotView

    ballot = show(window, BallotView(), (800, 480))
    names = ["Anna", "Ben", "Chloé", "Dmitri", "Elena", "Fotini", "Giorgos"]
    words = ("ψήφισε", "αναμονή", ["Ναι", "Αρνησικυρία", "Αποχή"])

    def sizes():
        frames(2)
        return ballot.chips[0].font_size, ballot.chips_height, ballot.ids.chips.cols

    ballot.show_open("Ψηφοφορία", [(n, False) for n in names], *words)
    opened = sizes()
    ballot.show_open("Ψηφοφορία", [(n, i < 6) for i, n in enumerate(names)], *words)
    assert sizes() == opened
    ballot.reveal(
        "Ψηφοφορία",
        [(n, "Αρνησικυρία" if i == 0 else "Ναι", (0.2, 0.5, 0.3, 1)) for i, n in enumerate(names)],
        "Απορρίφθηκε.",
        words[0],
        animate=False,
        waiting_text=words[1],
        choices=words[2],
    )
    assert sizes() == opened
    assert ballot.chips[0].text == "Anna\nΑρνησικυρία"


def test_the_log_reads_the_whole_game_in_words_with_undone_lines_marked(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen

    screen = show(window, ClaimTableScreen(physical_table(tmp_path / "g.sqlite3")), (800, 480))
    tap(button(screen, "Income (+1)"))
    tap(screen.ids.bar.ids.undo)
    tap(button(screen, "Foreign Aid (+2)"))
    tap(screen.ids.bar.ids.log)
    frames(3)
    [panel] = [w for w in window.children if w.__class__.__name__ == "TextPanel"]
    assert panel.lines[-3:] == [
        "Natassa takes Income. (undone)",
        "The last entry was undone.",
        "Natassa takes Foreign Aid.",
    ]
    panel.children[0].export_to_png(str(SHOTS / "coup-log-800x480.png"))
    panel.dismiss(animation=False)
    frames(2)


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, options", [("coup", {"first": 0}), ("g54", {"first": 0, "set": "starter"})]
)
def test_a_whole_game_is_played_by_taps_until_the_screen_shows_the_winner(
    window, tmp_path, game, options
):
    """Physical mode, four players, every entry a tap on a button the screen
    shows (a seeded choice among them, as a table would make), to the end."""
    import random

    from companion.games.claims.screen import ClaimTableScreen

    setup = Setup(game=game, seats=["Natassa", "Stelios", "Giorgos", "Eleni"], options=options)
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=4))
    screen = show(window, ClaimTableScreen(table), (1280, 720))
    pick = random.Random(7)
    taps = 0
    while not screen.game_over:
        buttons = sorted(screen.ids.commands.children, key=lambda b: b.text)
        assert buttons, screen.status_text
        tap(pick.choice(buttons))
        assert screen.message_text == "", screen.message_text
        taps += 1
        assert taps < 600, "the game ends"
    winner = table.public_view()["winner"]
    assert screen.status_text == f"{table.names[winner]} wins the game!"
    assert not screen.ids.bar.ids.new_game.disabled
    screenshot(window, f"{game}-won-by-taps-1280x720")
