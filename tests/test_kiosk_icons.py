"""The pieces' icons on the kiosk, where its screens show the pieces: the
coin beside each seat's coins and the characters it turned up (Coup, G54),
G54's reference cards, Secret Hitler's tiles and powers in their slots,
Article 27's issues, revealed agendas and agenda track. Each screen at
1280×720, in a state of a random playout that shows them."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("kivy.base")
from kiosk_helpers import walk  # noqa: E402
from phase_playouts import CONFIGS, new_table, play  # noqa: E402
from ui_helpers import show  # noqa: E402

SIZE = (1280, 720)

# A moment of each game worth looking at: its pieces on the board.
WANTED = {
    "coup": lambda v: any(p["revealed"] for p in v["players"]),
    "g54": lambda v: any(p["revealed"] for p in v["players"]),
    "secret_hitler": lambda v: v["liberal"] >= 1 and v["fascist"] >= 1,
    "article27": lambda v: (
        v["phase"] not in ("final", "over") and any(i["agenda"] for i in v["issues"])
    ),
}


def a_table_showing(tmp_path, game: str):
    for seed in range(20):
        players, options = CONFIGS[game][seed % len(CONFIGS[game])]
        table, clock = new_table(
            tmp_path / f"{seed}.sqlite3", game, "keeper", players, options, seed
        )
        for step in play(table, clock, random.Random(seed)):
            if WANTED[game](step.public_view()):
                return step
    raise AssertionError(f"no {game} playout shows its pieces")


def drawn(widget) -> list[str]:
    """The pieces whose icons ``widget`` draws, in its own order."""
    from companion.ui.widgets.icon import IconView

    return [
        w.piece
        for w in reversed(list(walk(widget)))
        if isinstance(w, IconView) and w.shown() is not None and w.width > 0 and w.height > 0
    ]


def screen_of(window, table):
    from companion.ui.screens.table_screen import screen_class

    return show(window, screen_class(table.setup.game)(table), SIZE)


@pytest.mark.parametrize("game", ["coup", "g54"])
def test_a_claim_game_draws_the_coins_and_the_characters_turned_up(window, tmp_path, game):
    table = a_table_showing(tmp_path, game)
    screen, view = screen_of(window, table), table.public_view()
    for panel, player in zip(screen._panels, view["players"]):
        pieces = drawn(panel)
        assert pieces[0] == "coin", (player["name"], pieces)
        assert pieces[1:] == player["revealed"], player["name"]
    if game == "g54":
        cards = list(reversed(screen.ids.reference.children))
        assert [drawn(card) for card in cards] == [[role] for role in view["roles"]] + [["coin"]]


def test_secret_hitler_draws_the_tiles_laid_and_the_powers_to_come(window, tmp_path):
    from companion.games.secret_hitler.rules import VETO_FROM

    table = a_table_showing(tmp_path, "secret_hitler")
    screen, view = screen_of(window, table), table.public_view()
    liberal = [drawn(s) for s in reversed(screen.ids.liberal_track.ids.slots.children)]
    assert liberal[: view["liberal"]] == [["liberal"]] * view["liberal"]
    assert not any(liberal[view["liberal"] :]), "an empty slot, the win, the piles: no icon"
    fascist = [drawn(s) for s in reversed(screen.ids.fascist_track.ids.slots.children)]
    powers = [[p] if p else [] for p in view["powers"]] + [[]]
    powers[VETO_FROM - 1] = ["veto"]
    laid = view["fascist"]
    assert fascist == [["fascist"]] * laid + powers[laid:]


def test_article27_draws_each_issue_its_revealed_agenda_and_the_track(window, tmp_path):
    table = a_table_showing(tmp_path, "article27")
    screen, view = screen_of(window, table), table.public_view()
    for issue in view["issues"]:
        tile = screen._tiles[issue["issue"]]
        if tile.parent is not None:
            assert drawn(tile) == [issue["issue"]] + ([issue["agenda"]] if issue["agenda"] else [])
    assert [drawn(row) for row in screen._rows] == [[row["agenda"]] for row in view["track"]]
