"""Coup's and G54's screen at every size (issue 32): G54's reference cards
whole, each with its icon, as tall as their fullest (the Greek "Income ·
Coup" card keeps its forced-Coup rule) in type that reads (sp(14) and up);
every seat's coin and name whole with the coin beside them, a long name
never shortened; and a portrait screen used to its foot: the cards take its
height and the commands sit at the bottom, their longest labels inside
their buttons."""

from __future__ import annotations

import pytest

from companion.games.base import Fate, Setup
from companion.i18n import LANGUAGES
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from kiosk_helpers import (  # noqa: E402
    cut_labels,
    shown_labels,
    spilled_labels,
    texture_fits,
    walk,
    window_shot,
)
from kivy.metrics import dp, sp  # noqa: E402
from ui_helpers import PORTRAIT, fits_in_window, frames, show  # noqa: E402

SIZES = [(800, 480), PORTRAIT, (1280, 720)]
LONG_ROLES = ["banker", "judge", "lawyer", "customs_officer", "foreign_consular"]
NAMES = ["Konstantinos", "Alexandra Papadopoulou", "Maximilian", "Светлана", "Δημήτρης", "مریم"]


def start(tmp_path, game: str, players: int, **options) -> Table:
    setup = Setup(
        game=game, seats=NAMES[:players], mode="physical", options={"first": 0, **options}
    )
    return Table.start(EventStore(tmp_path / f"{game}-{players}.sqlite3"), setup, fate=Fate(seed=3))


def icon_shown(widget, piece: str | None = None) -> bool:
    """The widget draws an icon (``piece``'s, if named) of a size to see."""
    from companion.ui.widgets.icon import IconView

    return any(
        isinstance(w, IconView)
        and w.shown() is not None
        and piece in (None, w.piece)
        and w.width > 0
        and w.height > 0
        for w in walk(widget)
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_g54_cards_and_seats_whole_with_their_icons(window, tmp_path, size):
    from companion.games.claims.screen import ReferenceCard
    from companion.ui.screens.table_screen import screen_class

    table = start(tmp_path, "g54", 6, set=LONG_ROLES, direction="clockwise")
    table.execute({"type": "banker", "seat": 0})  # a claim: three answers on the strip
    failures = []
    for lang in LANGUAGES:
        screen = show(window, screen_class("g54")(table, lang=lang), size)
        frames(2)
        if lang in ("el", "fa"):
            window_shot(window, f"g54-cards-{lang}-{size[0]}x{size[1]}")
        cards = [w for w in walk(screen) if isinstance(w, ReferenceCard)]
        assert len(cards) == 6, "five characters and Income · Coup"
        assert screen.ids.reference.height > 0, "the strip leaves the reference cards room"
        for card in cards:
            where = f"{lang}: card {card.name!r}"
            if found := [w.text for w in cut_labels(card)]:
                failures.append(f"{where}: cut {found}")
            if found := [w.text for w in spilled_labels(card)]:
                failures.append(f"{where}: out of the card {found}")
            if getattr(card, "needed_height", 0) > card.height + 1:
                failures.append(f"{where}: needs {card.needed_height}, has {card.height}")
            if not fits_in_window(card, window):
                failures.append(f"{where}: outside the window")
            if not icon_shown(card):
                failures.append(f"{where}: no icon")
            if found := [w.text for w in shown_labels(card) if w.font_size < sp(14) - 0.5]:
                failures.append(f"{where}: below sp(14): {found}")
        for panel in screen._panels:
            where = f"{lang}: seat {panel.name!r}"
            if found := [w.text for w in cut_labels(panel)]:
                failures.append(f"{where}: cut {found}")
            if not icon_shown(panel, panel.coin):
                failures.append(f"{where}: no coin")
            if not texture_fits(panel.ids.coins):
                failures.append(f"{where}: coins out of their box")
        screen.detach()
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_coup_in_portrait_uses_the_screen_to_its_foot(window, tmp_path, players):
    from companion.ui.screens.table_screen import screen_class

    table = start(tmp_path, "coup", players)
    table.execute({"type": "tax", "seat": 0})  # a claim: every other seat may answer
    screen = show(window, screen_class("coup")(table, lang="en"), PORTRAIT)
    frames(2)
    window_shot(window, f"coup-portrait-{players}")
    buttons = list(screen.ids.commands.children)
    assert buttons, "the answers to the claim"
    for button in buttons:
        assert fits_in_window(button, window), button.text
        assert texture_fits(button), f"{button.text!r} spills out of its button"
    lowest = min(b.to_window(b.x, b.y)[1] for b in buttons)
    assert lowest <= dp(24), f"the commands end {lowest} px above the screen's foot"
    grid = screen.ids.players
    assert grid.height >= window.height * 0.5, f"the cards take {grid.height} px of 1280"
    assert not [w.text for w in spilled_labels(screen)]
    assert not [w.text for w in cut_labels(screen)]
