"""Home's banner that offers to resume the unfinished game: its words (the
game and every player's name) wrap inside it in every language at 800×480
and 720×1280, and a tap at its centre resumes the game."""

from __future__ import annotations

import pytest

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table
from companion.ui.system.kiosk_settings import KioskSettings

pytest.importorskip("kivy.base")
from kiosk_helpers import cut_labels, texture_fits, window_shot  # noqa: E402
from ui_helpers import PORTRAIT, fits_in_window, frames, show, tap  # noqa: E402

NAMES = [
    "Κωνσταντίνος",
    "Αλεξάνδρα",
    "Παναγιώτης",
    "Μαξιμιλιανός",
    "Светлана",
    "Χαράλαμπος",
    "Ευαγγελία",
    "Δημήτρης",
    "Θεοδώρα",
    "Σταυρούλα",
]


@pytest.mark.parametrize("lang", ["en", "el", "ru", "fa"])
@pytest.mark.parametrize("size", [(800, 480), PORTRAIT], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_resume_banner_is_whole_and_resumes(window, tmp_path, lang, size):
    from companion.ui.kiosk import Kiosk

    store = EventStore(tmp_path / "g.sqlite3")
    setup = Setup(game="secret_hitler", seats=NAMES, options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=5))
    kiosk = show(
        window,
        Kiosk(store, None, lang=lang, settings=KioskSettings(tmp_path / "kiosk.ini")),
        size,
    )
    frames(2)
    banner = kiosk.home.ids.resume
    assert all(name in banner.text for name in NAMES)
    assert fits_in_window(banner, window), (banner.pos, banner.size)
    assert texture_fits(banner), (banner.texture_size, banner.size)
    assert banner not in cut_labels(kiosk.home), "no word broken or shortened"
    assert banner.height >= 48
    window_shot(window, f"home-resume-banner-{lang}-{size[0]}x{size[1]}")
    tap(banner)
    assert kiosk.current == "table" and kiosk.table.game_id == table.game_id
