"""What Coup's status line asks of the table: a challenge prompt for an
action aimed at a player names that player, and in physical mode a claim
proved against a challenger tells its claimant to shuffle the card shown
back into the court deck and draw a new one (rules CH4), on the kiosk at
both sizes and in Persian too."""

from __future__ import annotations

import pytest
from helpers import new_table, physical_table

from companion.games.claims.words import status_line
from companion.i18n import Messages
from companion.table import EventStore

NAMES = ["Natassa", "Stelios", "Giorgos"]
SIZES = [(800, 480), (720, 1280)]


def _status(table, lang: str = "en") -> str:
    return status_line(table.public_view(), Messages(lang, table.names))


def test_steal_and_assassinate_prompts_name_their_target(tmp_path):
    table = physical_table(tmp_path / "g.sqlite3")
    table.execute({"type": "steal", "seat": 0, "target": 2})
    assert _status(table) == (
        "Natassa claims the Captain (Steal, targeting Giorgos). Does anyone challenge?"
    )
    for lang in ("el", "ru", "fa"):
        assert "Giorgos" in _status(table, lang)
    table.execute({"type": "undo"})
    for seat in (0, 1, 2):
        table.execute({"type": "income", "seat": seat})
    table.execute({"type": "assassinate", "seat": 0, "target": 1})
    assert _status(table) == (
        "Natassa claims the Assassin (Assassinate, targeting Stelios). Does anyone challenge?"
    )
    table.execute({"type": "undo"})
    table.execute({"type": "tax", "seat": 0})
    assert _status(table) == "Natassa claims the Duke (Tax). Does anyone challenge?"


def test_a_proved_claim_sends_its_card_back_to_be_shuffled_and_redrawn(tmp_path):
    table = physical_table(tmp_path / "g.sqlite3")
    table.execute({"type": "tax", "seat": 0})
    table.execute({"type": "challenge", "seat": 1})
    table.execute({"type": "show", "seat": 0, "redraw": True})
    assert table.public_view()["phase"] == "lose"
    assert _status(table) == (
        "Natassa, shuffle the Duke into the court deck and draw a new card; "
        "Stelios turns a card face up."
    )
    for lang in ("el", "ru", "fa"):
        said = _status(table, lang)
        assert "Natassa" in said and "Stelios" in said, said


def test_a_conceded_claim_or_the_apps_own_deck_asks_no_redraw(tmp_path):
    table = physical_table(tmp_path / "g.sqlite3")
    table.execute({"type": "tax", "seat": 0})
    table.execute({"type": "challenge", "seat": 1})
    table.execute({"type": "concede", "seat": 0})
    assert _status(table) == "Natassa loses an influence: which card is turned face up?"
    # Keeper mode: the app takes the card back and deals a new one itself.
    keeper = new_table(
        EventStore(tmp_path / "k.sqlite3"),
        NAMES,
        mode="keeper",
        deal={
            "hands": [["assassin", "duke"], ["captain", "contessa"], ["ambassador", "duke"]],
            "draws": ["captain"],
        },
    )
    keeper.execute({"type": "tax", "seat": 0})
    keeper.execute({"type": "challenge", "seat": 1})
    keeper.execute({"type": "show", "seat": 0})
    assert keeper.public_view()["phase"] == "lose"
    assert _status(keeper) == "Stelios loses an influence: which card is turned face up?"


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_kiosk_shows_both_prompts_whole(window, tmp_path, lang, size):
    pytest.importorskip("kivy.base")
    from kiosk_helpers import cut_labels, shown_labels, spilled_labels
    from ui_helpers import fits_in_window, frames, screenshot, show

    from companion.games.claims.screen import ClaimTableScreen

    table = physical_table(tmp_path / "g.sqlite3")
    screen = show(window, ClaimTableScreen(table, lang=lang), size)
    t = Messages(lang, table.names)
    try:
        for commands, name in (
            ([{"type": "steal", "seat": 0, "target": 2}], "steal"),
            (
                [
                    {"type": "undo"},
                    {"type": "tax", "seat": 0},
                    {"type": "challenge", "seat": 1},
                    {"type": "show", "seat": 0, "redraw": True},
                ],
                "proved",
            ),
        ):
            for command in commands:
                assert screen.send(command), screen.message_text
            frames(3)  # laid out anew
            expected = _status(table, lang)
            assert screen.status_text == expected
            label = next(w for w in shown_labels(screen) if w.text == expected)
            assert fits_in_window(label, window)
            assert label not in cut_labels(screen) and label not in spilled_labels(screen)
            assert t.names[2 if name == "steal" else 1] in label.text
            screenshot(window, f"coup-prompt-{name}-{lang}-{size[0]}x{size[1]}")
    finally:
        screen.detach()
