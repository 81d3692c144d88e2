"""Kiosk screens in each language the kiosk speaks besides English, at the
original 7-inch display's 800×480: nothing outside the window, no text
spilling out of its box, no raw key, the touch targets whole. Screenshots:
screenshots/<screen>-<phase>-<lang>-800x480.png: Secret Hitler's phases, home,
Article 27's stages and the first steps of Coup and G54."""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES
from companion.table import EventStore

pytest.importorskip("kivy.base")
from a27_kiosk_helpers import (  # noqa: E402  # noqa: E402
    KEEPER_STAGES,
    PHYSICAL_STAGES,
    a27_screen,
    at_stage,
    buttons_in,
    check_layout,
    until_revealed,
)
from helpers import finished  # noqa: E402
from kiosk_helpers import assert_readable_layout, wait_for_reveal  # noqa: E402
from sh_kiosk_helpers import PHASES, check_screen, to_phase  # noqa: E402
from ui_helpers import SHOTS, frames, screenshot, show  # noqa: E402

SIZE = (800, 480)
LANGS = [lang for lang in LANGUAGES if lang != "en"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("phase", PHASES)
def test_secret_hitler_reads_in_every_language(window, tmp_path, lang, phase):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    screen = show(window, SecretHitlerTableScreen(to_phase(tmp_path, phase), lang=lang), SIZE)
    wait_for_reveal(screen.ids.ballot)
    screenshot(window, f"sh-{phase}-{lang}-800x480")
    check_screen(screen, window)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["article27", "secret_hitler", "coup", "g54"])
def test_home_reads_in_every_language(window, tmp_path, lang, game):
    from companion.ui.kiosk import Kiosk

    kiosk = show(window, Kiosk(EventStore(tmp_path / "h.sqlite3"), None, lang=lang), SIZE)
    home = kiosk.home
    home.choose_game(game)  # each game has its own variants
    frames(2)
    screenshot(window, f"home-{game}-{lang}-800x480")
    assert_readable_layout(
        home,
        window,
        [home.ids.start, home.ids.history, home.ids.settings],
        scrolled=home.ids.scroll,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_home_with_a_game_to_resume_and_past_games_reads_in_every_language(window, tmp_path, lang):
    from companion.games.base import Setup
    from companion.table import Table
    from companion.ui.kiosk import Kiosk

    store = finished("secret_hitler", tmp_path).store  # a finished game …
    Table.start(
        store, Setup(game="coup", seats=["Natassa", "Stelios", "Giorgos"], options={"first": 0})
    )  # … and one in progress
    kiosk = show(window, Kiosk(store, None, lang=lang), SIZE)
    kiosk.go_home()
    frames(2)
    home = kiosk.home
    assert home.resume_text
    screenshot(window, f"home-resume-{lang}-800x480")
    assert_readable_layout(
        home,
        window,
        [home.ids.start, home.ids.history, home.ids.settings],
        scrolled=home.ids.scroll,
    )
    history = home.open_history()
    frames(3)
    assert len(history.lines) == 1
    assert_readable_layout(history.children[0], window, [])
    history.children[0].export_to_png(str(SHOTS / f"home-history-{lang}-800x480.png"))
    history.dismiss(animation=False)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stage", PHYSICAL_STAGES + KEEPER_STAGES)
def test_article27_reads_in_every_language(window, tmp_path, lang, stage):
    table = at_stage(tmp_path / "g.sqlite3", stage)
    screen = show(window, a27_screen(table, tmp_path / "sounds", lang=lang), SIZE)
    until_revealed(screen.ids.ballot)
    screenshot(window, f"a27-{stage}-{lang}-800x480")
    check_layout(screen, window, stage)
    assert_readable_layout(screen, window, list(buttons_in(screen)), scrolled=screen.ids.side)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game, players", [("coup", 6), ("g54", 6), ("g54", 2)])
def test_the_coup_family_reads_in_every_language(window, tmp_path, lang, game, players):
    from companion.games.base import Fate, Setup
    from companion.games.claims.screen import ClaimTableScreen
    from companion.table import Table

    options = (
        {"first": 0, "direction": "clockwise"} if game == "coup" else {"first": 0, "set": "starter"}
    )
    seats = ["Natassa", "Stelios", "Giorgos", "Eleni", "Nikos", "Maria"][:players]
    table = Table.start(
        EventStore(tmp_path / "g.sqlite3"),
        Setup(game=game, seats=seats, options=options),
        fate=Fate(seed=1),
    )
    screen = show(window, ClaimTableScreen(table, lang=lang), SIZE)
    for step in range(4):  # an action, the answers to it, and on
        frames(2)
        screenshot(window, f"{game}-{players}p-step{step}-{lang}-800x480")
        assert_readable_layout(screen, window, list(screen.ids.commands.children))
        screen.send(next(c for c in table.shared_commands() if c["type"] != "income"))
