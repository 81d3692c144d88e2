"""The Article 27 table screen in a real Kivy window (rendered headless with
Mesa), on real tables stored in SQLite files: every stage at every size,
the negotiation timer to expiry, the on-screen gavel and the hardware one,
the synthesised sounds, the ballot, a whole game played by taps, and a
restarted app. Screenshots go to screenshots/a27-<stage>-<W>x<H>.png."""
from __future__ import annotations

import asyncio
import wave
from array import array

import pytest

from a27_helpers import DI, HU, NU, PK, SM, FakeClock
from a27_kiosk_helpers import (a27_screen, buttons_in, floor_names, kiosk_table, strip,
                               strip_button, table_names, tap_strip, tile, until_revealed)
from test_ui import fits_in_window, frames, screenshot, show, tap, window  # noqa: F401

from companion.table import EventStore, Table, seat_source

SIZES = [(800, 480), (1280, 720), (720, 1280)]


def size_id(size):
    return f"{size[0]}x{size[1]}"


# -- every stage at every size ---------------------------------------------------------------
def physical_stages(table, clock):
    """A 4-player physical game through each of its stages: yields each
    stage's name once the table is in it."""
    yield "unused"
    table.execute({"type": "unused", "agendas": ["power", "wealth"]})
    for issue, agenda in ((PK, "peace"), (SM, "prestige")):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    yield "reveal"
    for issue, agenda in ((DI, "innovation"), (HU, "justice"), (NU, "peace")):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    yield "ready"
    table.execute({"type": "gavel"})
    for issue in (PK, NU):
        table.execute({"type": "move", "issue": issue, "to": "floor"})
    clock.advance(100)
    yield "negotiation"
    clock.advance(180)
    yield "warning"
    table.execute({"type": "pause"})
    yield "paused"
    table.execute({"type": "resume"})
    clock.advance(20)
    table.tick()
    table.execute({"type": "vote", "seat": 0, "choice": "yes"}, source=seat_source(0))
    yield "voting"
    for seat, choice in ((1, "yes"), (2, "abstain"), (3, "yes")):
        table.execute({"type": "vote", "seat": seat, "choice": choice}, source=seat_source(seat))
    yield "scored"
    for round_ in (2, 3, 4):
        table.execute({"type": "next_round"})
        for _issue in range(5):
            table.execute(dict(table.legal_commands()[0]))      # the first disk allowed
        table.execute({"type": "gavel"})
        clock.advance(300)
        table.tick()
        if round_ == 2:
            yield "place_one"
        table.execute({"type": "move", "issue": SM, "to": "floor"})
        for seat in range(4):
            table.execute({"type": "vote", "seat": seat, "choice": "veto" if seat == 1 else "yes"},
                          source=seat_source(seat))
    yield "final"
    for seat, (influence, agenda) in enumerate(((14, "peace"), (9, "justice"), (12, "prestige"),
                                                (20, "innovation"))):
        table.execute({"type": "final_tally", "seat": seat, "influence": influence,
                       "agenda": agenda})
    yield "over"


def keeper_stages(table, clock):
    """A 3-player keeper game with Lie, Cheat and Steal through the stages
    only keeper mode has, to its end."""
    table.execute({"type": "gavel"})
    table.execute({"type": "move", "issue": HU, "to": "floor"})
    offer = table.execute({"type": "offer", "seat": 1, "to": 0, "amount": 2, "kind": "yes"})
    table.execute({"type": "accept", "seat": 0, "bribe": offer[0]["bribe"]})
    other = table.execute({"type": "offer", "seat": 2, "to": 1, "amount": 1, "kind": "other",
                           "text": "Ben backs Chloe next round"})
    table.execute({"type": "accept", "seat": 1, "bribe": other[0]["bribe"]})
    clock.advance(40)
    yield "keeper-negotiation"
    table.execute({"type": "gavel"})
    for seat in range(3):
        table.execute({"type": "vote", "seat": seat, "choice": "yes"}, source=seat_source(seat))
    yield "keeper-settle"
    for seat in (1, 2):
        table.execute({"type": "confirm_other", "bribe": other[0]["bribe"], "seat": seat,
                       "kept": True})
    yield "keeper-announce"
    table.execute({"type": "announce", "seat": 0, "score": 4})
    yield "keeper-challenge"
    while not table.is_over:
        phase = table.public_view()["phase"]
        if phase == "voting":
            for seat in range(3):
                table.execute({"type": "vote", "seat": seat, "choice": "abstain"},
                              source=seat_source(seat))
        elif phase == "challenge":
            table.execute({"type": "proceed"})
        elif phase == "announce":
            table.execute({"type": "announce", "seat": table.public_view()["announcer"],
                           "score": 0})
        elif phase == "negotiation":
            table.execute({"type": "move", "issue": PK, "to": "floor"})
            table.execute({"type": "gavel"})
        else:
            table.execute({"type": "next_round"} if phase == "scored" else {"type": "gavel"})
    yield "keeper-over"


def one_line_fits(label) -> bool:
    """Whether a label's text fits its width on one line, unshortened."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold)
    core.refresh()
    return core.texture.size[0] <= label.width + 1


def check_layout(screen, window, name):
    """Nothing sticks out of the window, every live button is a finger's
    size, and the words that matter fit."""
    frames(2)
    for button in buttons_in(screen):
        assert button.height >= 48 and button.width >= 48, (name, button.text)
        assert fits_in_window(button, window), (name, button.text)
    ids = screen.ids
    labels = [ids.status, ids.sg, ids.bar.ids.info, ids.message]
    assert one_line_fits(ids.bar.ids.info), (name, ids.bar.ids.info.text)
    if screen.clock_shown:
        labels += [ids.countdown, ids.timer_caption]
        assert ids.countdown.texture_size[1] <= ids.countdown.height + 1, name
        assert ids.countdown.texture_size[0] <= ids.countdown.width + 1, name
    if screen.board_shown:
        labels += [*ids.floor.children, *ids.table.children]
    labels += list(ids.track.children)
    for label in labels:
        assert fits_in_window(label, window), (name, getattr(label, "text", label))
    for tile in (*ids.floor.children, *ids.table.children):
        name_label, agenda_label = tile.children[1], tile.children[0]
        assert agenda_label.right <= tile.right + 1, (name, tile.name)
        assert one_line_fits(name_label), (name, tile.name)
        if tile.command is not None:
            assert tile.height >= 48, (name, tile.name)
    for row in ids.track.children:
        assert sum(c.width for c in row.children) + 12 <= row.width + 1, (name, row.agenda)
    status = ids.status
    assert status.texture_size[1] <= status.height + 1, name


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_every_stage_renders_at_every_size(window, tmp_path, size):
    clock = FakeClock()
    table = kiosk_table(tmp_path / "g.sqlite3", players=4, clock=clock)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), size)
    seen = []
    for stage in physical_stages(table, clock):
        screen.tick()
        until_revealed(screen.ids.ballot)
        screenshot(window, f"a27-{stage}-{size_id(size)}")
        check_layout(screen, window, stage)
        seen.append(table.public_view()["phase"])
    assert seen == ["unused", "reveal", "ready", "negotiation", "negotiation", "negotiation",
                    "voting", "scored", "place_one", "final", "over"]

    clock = FakeClock()
    keeper = kiosk_table(tmp_path / "k.sqlite3", players=3, mode="keeper", clock=clock,
                         lie_cheat_steal=True)
    screen = show(window, a27_screen(keeper, tmp_path / "sounds"), size)
    for stage in keeper_stages(keeper, clock):
        screen.tick()
        until_revealed(screen.ids.ballot)
        screenshot(window, f"a27-{stage}-{size_id(size)}")
        check_layout(screen, window, stage)
