"""Secret Hitler at ten seats on the 800×480 screen: during the powers
(a seat term-limited, investigated, executed...) every seat's details show
whole, the command strip stays whole in sight (the ballot's chips, open or
closed, fold away when the seats need their room), and each power on the fascist
track keeps its icon beside its word."""

from __future__ import annotations

import random

import pytest
from kiosk_helpers import cut_labels, spilled_labels, window_shot
from phase_playouts import new_table, play
from sh_kiosk_helpers import to_phase
from ui_helpers import frames, show

from companion.i18n import LANGUAGES

SIZE = (800, 480)
POWERS = {"investigate", "special_election", "peek", "execute", "execution_reveal"}


def seats_whole(screen) -> list[str]:
    return [w.text for panel in screen._panels for w in cut_labels(panel)]


def strip_in_sight(screen) -> bool:
    return screen.ids.commands.height <= screen.ids.command_view.height + 1


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_ten_seats_show_their_details_whole_through_the_powers(window, tmp_path, lang):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    seen, failures, screen = set(), [], None
    window.size = SIZE
    for seed in range(3):
        table, clock = new_table(
            tmp_path / f"{seed}.sqlite3", "secret_hitler", "physical", 10, {}, seed
        )
        for step in play(table, clock, random.Random(seed)):
            phase = step.public_view()["phase"]
            if phase not in POWERS:
                continue
            if screen is None:
                screen = show(window, SecretHitlerTableScreen(step, lang=lang), SIZE)
            else:
                screen.follow(step)
            frames(3)
            seen.add(phase)
            if found := seats_whole(screen):
                failures.append((seed, phase, found))
                window_shot(window, f"sh-10-{phase}-{lang}-failed")
            if not strip_in_sight(screen):
                failures.append((seed, phase, "the command strip scrolls"))
        table.store.close()
    assert seen >= {"investigate", "special_election", "execute"}, seen
    assert not failures, failures


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_investigated_seat_s_details_show_whole_with_the_last_votes(window, tmp_path, lang):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = to_phase(tmp_path, "special_election")  # ten seats, Ben investigated by Anna
    screen = show(window, SecretHitlerTableScreen(table, lang=lang), SIZE)
    frames(3)
    window_shot(window, f"sh-10-special-election-{lang}-800x480")
    assert not seats_whole(screen), seats_whole(screen)
    assert strip_in_sight(screen)
    assert screen.ids.ballot.result_text, "the last election's result is still said"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_power_on_the_track_keeps_its_icon_at_800x480(window, tmp_path, lang):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = to_phase(tmp_path, "investigate")
    screen = show(window, SecretHitlerTableScreen(table, lang=lang), SIZE)
    frames(3)
    slots = list(reversed(screen.ids.fascist_track.ids.slots.children))
    powers = [slot for slot in slots if slot.piece and slot.text and not slot.filled]
    assert powers, "the track shows its powers"
    for slot in powers:
        assert slot.shows_icon, (lang, slot.text, slot.size)
        assert not cut_labels(slot), (lang, slot.text)


def test_an_open_ballot_s_chips_fold_rather_than_push_the_commands_off(window, tmp_path):
    """Ten long names at 800×480 take two rows of chips: the commands stay
    in sight, the status line still counting the votes."""
    from sh_helpers import nominate

    from companion.games.base import Fate, Setup
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen
    from companion.table import EventStore, Table, seat_source

    names = ["Konstantinos", "Maximilian", "Светлана", "Alexandra Papadopoulou", "Δημήτρης"]
    names += ["Anna", "Ben", "Chloe", "Eleni", "Farid"]
    setup = Setup(game="secret_hitler", seats=names, mode="physical", options={"first": 0})
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=3))
    screen = show(window, SecretHitlerTableScreen(table, lang="en"), SIZE)
    nominate(table)
    table.execute({"type": "vote", "seat": 1, "choice": "ja"}, source=seat_source(1))
    frames(3)
    window_shot(window, "sh-10-long-names-vote-800x480")
    assert strip_in_sight(screen)
    assert not seats_whole(screen), seats_whole(screen)
    assert "1" in screen.status_text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_open_ballot_s_chips_fold_rather_than_cut_a_seat(window, tmp_path, lang):
    """Seven seats at 800×480, the candidate's long name on two lines and
    its badge under it: an open ballot's chips that fit beside the commands
    but leave the seats' rows short of what they need fold away (the status
    line still counts the votes), so no seat's text is cut."""
    from sh_helpers import nominate

    from companion.games.base import Fate, Setup
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen
    from companion.table import EventStore, Table

    names = ["Alexandra Papadopoulou", "Δημήτρης", "مریم", "Светлана"]
    names += ["Konstantinos", "Maximilian", "زهرا"]
    setup = Setup(game="secret_hitler", seats=names, mode="physical", options={"first": 0})
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=3))
    screen = show(window, SecretHitlerTableScreen(table, lang=lang), SIZE)
    nominate(table)
    frames(3)
    window_shot(window, f"sh-7-open-ballot-{lang}-800x480")
    assert not seats_whole(screen), seats_whole(screen)
    spilled = [w.text for panel in screen._panels for w in spilled_labels(panel)]
    assert not spilled, spilled
    assert strip_in_sight(screen)
    ballot = screen.ids.ballot
    assert ballot.chips and not ballot.put_away, "the open ballot's title stays"


def test_the_seats_keep_their_rows_while_the_votes_turn(window, tmp_path):
    """Ten seats in Russian at 800×480, the last vote closing the ballot: the
    commands are cut until the chips may fold (never while the votes turn),
    whatever the seats give up, so the seats keep the rows they need rather
    than shrink for nothing as the table watches; once the votes have
    turned, the chips fold and the commands are whole."""
    from sh_helpers import nominate
    from sh_kiosk_helpers import start
    from ui_helpers import wait_for

    from companion.games.secret_hitler.screen import SecretHitlerTableScreen
    from companion.table import seat_source

    table = start(tmp_path, 10)
    screen = show(window, SecretHitlerTableScreen(table, lang="ru"), SIZE)
    nominate(table)
    for seat in range(10):
        table.execute({"type": "vote", "seat": seat, "choice": "ja"}, source=seat_source(seat))
    frames(2)
    ballot = screen.ids.ballot
    assert ballot.revealing and not strip_in_sight(screen)
    short = [(p.name, p.height, p.need) for p in screen._panels if p.height + 0.5 < p.need]
    assert not short, short
    assert wait_for(lambda: not ballot.revealing, 5)
    frames(3)
    assert ballot.folded and strip_in_sight(screen)
    assert not seats_whole(screen), seats_whole(screen)
