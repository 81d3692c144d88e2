"""The ballot's chips on the kiosk: all of one size and one size of text,
no name broken inside a word (a name of several words wraps between them,
the chips take another row before their text goes below sp(14)), and on a
tall screen larger chips in the room it has."""

from __future__ import annotations

import random

import pytest
from a27_helpers import FakeClock
from kiosk_helpers import is_cut, window_shot
from kivy.metrics import sp
from phase_playouts import play
from sh_helpers import nominate
from ui_helpers import PORTRAIT, frames, show

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table, seat_source

NAMES = [
    "Konstantinos",
    "Maximilian",
    "Светлана",
    "Alexandra Papadopoulou",
    "Δημήτρης",
    "Anna",
    "Ben",
    "Chloe",
    "Eleni",
    "Farid",
]
SIZES = [(800, 480), (1280, 720), PORTRAIT]


def size_id(size):
    return f"{size[0]}x{size[1]}"


def check_chips(ballot, name: str) -> None:
    chips = ballot.chips
    assert chips, name
    assert len({(round(c.width), round(c.height)) for c in chips}) == 1, (
        name,
        [(c.text, c.size) for c in chips],
    )
    assert len({c.font_size for c in chips}) == 1, (name, [c.font_size for c in chips])
    assert chips[0].font_size >= sp(14) - 0.5, name
    for chip in chips:
        assert not is_cut(chip), (name, chip.text, chip.size)  # no word broken
        chip.texture_update()
        assert chip.texture_size[1] <= chip.height + 1, (name, chip.text)  # every line inside


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_secret_hitler_s_ten_chips_hold_whole_names_at_one_size(window, tmp_path, size):
    from companion.ui.screens.table_screen import screen_class

    seats = [name if " " not in name else "Giorgos" for name in NAMES]  # the ten
    setup = Setup(game="secret_hitler", seats=seats, mode="physical", options={"first": 0})
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=3))
    screen = show(window, screen_class("secret_hitler")(table, lang="en"), size)
    nominate(table)
    for seat in (1, 4, 8):
        table.execute({"type": "vote", "seat": seat, "choice": "ja"}, source=seat_source(seat))
    frames(3)
    window_shot(window, f"sh-ballot-10-{size_id(size)}")
    assert not screen.ids.ballot.folded, "room for the chips and the commands"
    assert screen.ids.commands.height <= screen.ids.command_view.height + 1, "the strip in sight"
    check_chips(screen.ids.ballot, size_id(size))
    if size == PORTRAIT:  # the room a tall screen has: larger chips and text
        assert screen.ids.ballot.chips[0].font_size > sp(17)


@pytest.mark.parametrize("lang", ["el", "ru"])
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_article27_s_six_chips_hold_whole_names_at_one_size(window, tmp_path, size, lang):
    from companion.games.article27.screen import Article27TableScreen

    clock = FakeClock()
    setup = Setup(
        game="article27",
        seats=["Δημήτρης", *NAMES[:4], "Eleni"],
        mode="physical",
        options={"first": 0},
    )
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=5), clock=clock)
    screen = show(window, Article27TableScreen(table, lang=lang), size)
    for step in play(table, clock, random.Random(1)):
        ballot = step.public_view()["ballot"]
        if ballot and ballot["voted"]:
            break
    screen.tick()
    frames(3)
    window_shot(window, f"a27-ballot-6-{lang}-{size_id(size)}")
    check_chips(screen.ids.ballot, f"{lang} {size_id(size)}")
    if size == PORTRAIT:
        assert screen.ids.ballot.chips[0].font_size > sp(17)
