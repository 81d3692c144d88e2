"""Every sound the kiosk makes is also said in words on the table screen's
bar for a few seconds, in the kiosk's language: a player who cannot hear
it, a noisy café or a muted kiosk still learns that the gavel struck, that
30 seconds are left, that time is up."""

from __future__ import annotations

import time

import pytest
from a27_helpers import DI, HU, NU, PK, SM, FakeClock
from a27_kiosk_helpers import kiosk_table

from companion.i18n import Messages

CAPTION = 1.5  # seconds a caption stays, in this test

pytest.importorskip("kivy.base")
from ui_helpers import frames, screenshot, show, tap  # noqa: E402


@pytest.mark.parametrize("lang", ["en", "ru", "fa"])
def test_each_sound_is_captioned_on_the_bar_even_when_muted(window, tmp_path, monkeypatch, lang):
    from companion.games.article27.screen import Article27TableScreen
    from companion.ui.screens import table_screen
    from companion.ui.system.sounds import Sounds

    # Long enough that a slow frame on a loaded machine does not end the
    # caption before the test looks at it; short enough to wait for.
    monkeypatch.setattr(table_screen, "CAPTION_SECONDS", CAPTION)
    clock = FakeClock()
    table = kiosk_table(tmp_path / "g.sqlite3", clock=clock, timer_seconds=60)
    for issue, agenda in zip(
        (PK, SM, DI, HU, NU), ("peace", "wealth", "power", "justice", "prestige")
    ):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    muted = Sounds(tmp_path / "sounds", volume=0.0)
    screen = show(window, Article27TableScreen(table, lang=lang, sounds=muted), (800, 480))
    t = Messages(lang, table.names)
    info = screen.ids.bar.ids.info
    game_line = info.text
    assert game_line == screen.info_text

    tap(screen.ids.gavel)
    frames(1)
    assert info.text == t("sound.gavel")
    screenshot(window, f"a27-caption-gavel-{lang}-800x480")
    time.sleep(CAPTION + 0.1)
    frames(2)
    assert info.text == game_line, "the caption gives the bar back"

    clock.advance(30)
    screen.tick()
    frames(1)
    assert info.text == t("sound.warning", count=30)
    clock.advance(31)
    screen.tick()
    frames(1)
    assert info.text == t("sound.expiry")
    assert muted.played == [], "a muted kiosk plays nothing, and says it all"
