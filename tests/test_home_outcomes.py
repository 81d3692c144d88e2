"""How each past game ended, on home's list of past games, is said by the
game's own words (``Words.outcome``): home names no game and reads no
game's result fields, so a game it has never heard of (the tests' Show of
Hands, whose result names several winners) is listed as the others are.
Screenshots: screenshots/home-outcomes-<lang>-<size>.png."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("kivy.base")
from helpers import EXAMPLES  # noqa: E402
from kiosk_helpers import assert_readable_layout  # noqa: E402
from show_of_hands import SPEC as HANDS  # noqa: E402
from ui_helpers import SHOTS, frames, show  # noqa: E402

from companion.games import register, spec_for, specs, unregister  # noqa: E402
from companion.games.base import Fate, Setup  # noqa: E402
from companion.i18n import Messages  # noqa: E402
from companion.table import EventStore, Table, seat_source  # noqa: E402
from companion.table.replay import replay  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def hands():
    register(HANDS)
    yield HANDS
    unregister(HANDS.name)


def past_games(path: Path) -> EventStore:
    """A store with a finished game of each game: the four examples, then a
    round of Show of Hands that Ann and Bob win together."""
    store = EventStore(path)
    for game in ("article27", "secret_hitler", "coup", "g54"):
        replay((EXAMPLES / f"{game}.jsonl").read_text(encoding="utf-8").splitlines(), store=store)
    setup = Setup(game="show_of_hands", seats=["Ann", "Bob", "Cat"], options={"rounds": 1})
    table = Table.start(store, setup, fate=Fate(seed=1))
    table.execute({"type": "ask"})
    for seat, choice in enumerate(("yes", "yes", "no")):
        table.execute({"type": "vote", "seat": seat, "choice": choice}, source=seat_source(seat))
    assert table.is_over
    return store


def test_each_game_says_how_it_ended_on_the_list_of_past_games(hands, tmp_path):
    from companion.ui.panels.history import history_line

    store = past_games(tmp_path / "g.sqlite3")
    ended = [history_line(record, Messages("en")).split(" · ", 1)[1] for record in store.history()]
    assert ended == [
        "Show of Hands · Ann, Bob, Cat · won by Ann, Bob",
        "Coup: Rebellion G54 · Parisa, Reza, Sara · won by Parisa",
        "Coup · Natassa, Stelios, Giorgos · won by Natassa",
        "Secret Hitler · Anna, Boris, Vera, Dmitri, Elena · the Fascists won",
        "Article 27 · Eleni, Kostas, Maria, Nikos · won by Eleni",
    ]
    persian = [history_line(record, Messages("fa")) for record in store.history()]
    assert persian[3].endswith("فاشیست‌ها بردند")
    assert all("." not in line.rsplit(" · ", 1)[1] for line in persian), "no raw key"
    store.close()


def test_a_team_or_a_shared_first_place_is_said_as_such():
    t = Messages("en")
    names = ["Eleni", "Kostas", "Maria"]
    secret_hitler, article27 = spec_for("secret_hitler").words, spec_for("article27").words
    assert secret_hitler.outcome({"winner": "liberal"}, names, t) == "the Liberals won"
    tie = {
        "ranking": [
            {"seat": 2, "rank": 1, "total": 20},
            {"seat": 0, "rank": 1, "total": 20},
            {"seat": 1, "rank": 3, "total": 9},
        ]
    }
    assert article27.outcome(tie, names, t) == "won by Maria, Eleni"
    assert spec_for("coup").words.outcome({"winner": 1}, names, t) == "won by Kostas"


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_list_of_past_games_reads_whole(hands, window, tmp_path, lang, size):
    from companion.ui.kiosk import Kiosk

    store = past_games(tmp_path / "g.sqlite3")
    kiosk = show(window, Kiosk(store, None, lang=lang), size)
    kiosk.go_home()
    frames(2)
    history = kiosk.home.open_history()
    frames(3)
    assert len(history.lines) == 5
    panel = history.children[0]
    assert_readable_layout(panel, window, [])
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel.export_to_png(str(SHOTS / f"home-outcomes-{lang}-{size[0]}x{size[1]}.png"))
    history.dismiss(animation=False)
    store.close()


def ui_module(name: str) -> str:
    """A kiosk module's text, wherever under companion/ui it lives."""
    [path] = (ROOT / "companion" / "ui").rglob(name)
    return path.read_text(encoding="utf-8")


def test_home_and_the_seat_buttons_name_no_game():
    """With the behaviour above: home's list and the simulated seat buttons
    read what the games declare, never a game's name or its own fields."""
    for module in ("home.py", "history.py", "seat_buttons.py"):
        text = ui_module(module)
        for word in [*(spec.name for spec in specs()), "ranking", "liberal", "fascist", "team."]:
            assert word not in text, (module, word)
        assert '"challenge"' not in text and '"phase"' not in text, module
