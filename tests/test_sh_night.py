"""The Secret Hitler night in physical mode: the rulebook's script for the
table's size (5-6: the fascist and Hitler see each other; 7-10: the fascists
see each other and Hitler shows a thumb, eyes closed)."""

from __future__ import annotations

import pytest

from companion.games.secret_hitler.night import night_script

SMALL_KEYS = [
    "sh.night.all_close",
    "sh.night.pair_open",
    "sh.night.fascists_close",
    "sh.night.all_open",
]
LARGE_KEYS = [
    "sh.night.all_close",
    "sh.night.fascists_open",
    "sh.night.hitler_thumb",
    "sh.night.fascists_note",
    "sh.night.fascists_close_thumb",
    "sh.night.all_open",
]


@pytest.mark.parametrize("players", range(5, 11))
def test_the_script_follows_the_rulebook_for_the_tables_size(players):
    script = night_script(players)
    assert [step.key for step in script] == (SMALL_KEYS if players <= 6 else LARGE_KEYS)
    acting = [step.key for step in script if step.act]
    assert acting == (
        ["sh.night.pair_open"]
        if players <= 6
        else ["sh.night.fascists_open", "sh.night.fascists_note"]
    ), "the table is left time where it looks at each other, not where eyes close"
