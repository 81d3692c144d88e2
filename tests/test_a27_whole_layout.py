"""Article 27's screen keeps its texts whole on one line where they are
read as a line: each agenda track row (an agenda's name beside its disks
and its value) at 800×480 in every language, the clock shown or hidden;
the board's titles whole."""

from __future__ import annotations

import pytest
from a27_kiosk_helpers import a27_screen, at_stage
from kiosk_helpers import cut_labels, window_shot
from ui_helpers import fits_in_window, frames, show

from companion.i18n import LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_track_row_is_one_line_at_800x480(window, tmp_path, lang):
    for stage in ("negotiation", "voting"):  # the clock shown, then hidden
        table = at_stage(tmp_path / f"{stage}.sqlite3", stage)
        screen = show(window, a27_screen(table, tmp_path / "sounds", lang=lang), (800, 480))
        screen.tick()
        frames(3)
        window_shot(window, f"a27-track-{stage}-{lang}-800x480")
        for row in screen.ids.track.children:
            assert not row.stacked, (lang, stage, row.agenda, row.width)
            assert fits_in_window(row, window), (lang, stage, row.agenda)
        board = [screen.ids.floor_title, screen.ids.table_title]
        assert not [w.text for w in cut_labels(screen) if w in board], (lang, stage)
        screen.detach()
        table.store.close()


def test_the_hidden_clock_takes_no_room_after_the_screen_turned(window, tmp_path):
    """Turned to portrait and back (the operator's rotation), with the clock
    hidden: the layout stretched the clock's box across the portrait screen,
    and back in landscape it kept that width, pushing the board and the track
    out of the window."""
    table = at_stage(tmp_path / "voting.sqlite3", "voting")
    screen = a27_screen(table, tmp_path / "sounds", lang="el")
    for size in [(800, 480), (720, 1280), (800, 480)]:
        show(window, screen, size)
        frames(3)
    assert not screen.clock_shown
    assert screen.ids.clock.width == 0
    assert fits_in_window(screen.ids.side, window)
    assert fits_in_window(screen.ids.centre, window)
    screen.detach()
    table.store.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_track_column_stays_put_as_disks_turn_and_agendas_go(window, tmp_path, lang):
    """A face-down disk is a pixel wider than an open slot, and a put-away
    agenda shows only its turned disks: the track asks for the same width
    whatever its disks, so neither column moves (and redraws its texts)."""
    from companion.games.article27.palette import DISK_DOWN_SIGN, DISK_LEFT_SIGN
    from companion.games.article27.rules import TRACK_SLOTS

    table = at_stage(tmp_path / "voting.sqlite3", "voting")
    screen = show(window, a27_screen(table, tmp_path / "sounds", lang=lang), (800, 480))
    frames(3)
    side, centre = screen.ids.side.width, screen.ids.centre.width
    row = screen.ids.track.children[0]
    for disks in (DISK_DOWN_SIGN * 2 + DISK_LEFT_SIGN * (TRACK_SLOTS - 2), DISK_DOWN_SIGN * 2, ""):
        row.disks = disks
        frames(3)
        assert (screen.ids.side.width, screen.ids.centre.width) == (side, centre), disks
    screen.detach()
    table.store.close()
