"""Home's PIN pad and past games, by touch in a real Kivy window, at the Pi's
two screens and in English and Persian: the pad says why it asks for the
PIN and has a Cancel a finger finds (a touch beside it closes nothing); a
past game opens its log, and its chart where the game draws one."""

from __future__ import annotations

import pytest
from helpers import finished

from companion.games.base import Setup
from companion.i18n import Messages
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from kiosk_helpers import assert_readable_layout, window_shot  # noqa: E402
from ui_helpers import PORTRAIT, frames, show, tap, wait_for  # noqa: E402

SIZES = [(800, 480), PORTRAIT]
CASES = [(size, lang) for size in SIZES for lang in ("en", "fa")]
IDS = [f"{size[0]}x{size[1]}-{lang}" for size, lang in CASES]


def panels(window, name: str) -> list:
    return [w for w in window.children if type(w).__name__ == name]


def touch_at(x: float, y: float) -> None:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    frames(1)
    touch.touch_up()
    frames(2)


PIN_CASES = CASES + [((800, 480), "el"), ((800, 480), "ru")]  # the longest reasons


@pytest.mark.parametrize(
    "size, lang", PIN_CASES, ids=[f"{size[0]}x{size[1]}-{lang}" for size, lang in PIN_CASES]
)
def test_the_pin_pad_says_why_it_asks_and_cancel_leaves_the_game_be(window, tmp_path, size, lang):
    from companion.ui.kiosk import Kiosk

    store = EventStore(tmp_path / "g.sqlite3")
    unfinished = Table.start(store, Setup(game="coup", seats=["Ann", "مریم"]))
    kiosk = show(window, Kiosk(store, None, lang=lang), size)
    t = Messages(lang)
    tap(kiosk.home.ids.start)  # a new game would end the unfinished one
    [pad] = panels(window, "PinPad")
    assert pad.ids.reason.text == t("home.pin_unfinished")
    assert pad.ids.cancel.text == t("ui.cancel")
    keys = [*pad.ids.digits.children, pad.ids.cancel]
    assert_readable_layout(pad.children[0], window, keys)
    assert pad.ids.reason.texture_size[1] <= pad.ids.reason.height, "the reason is whole"
    window_shot(window, f"pin-unfinished-{lang}-{size[0]}x{size[1]}")

    touch_at(4, 4)  # beside the pad: a hand on the table's screen
    assert panels(window, "PinPad") == [pad], "a touch beside the pad closes nothing"
    tap(pad.ids.digits.children[-1])  # "1": a wrong PIN, and the pad says so too
    tap(pad.ids.ok)
    assert pad.message == t("settings.wrong_pin")
    assert_readable_layout(pad.children[0], window, keys)
    tap(pad.ids.cancel)
    frames(2)
    assert panels(window, "PinPad") == []
    assert kiosk.current == "home" and kiosk.table is None
    assert store.active_game().id == unfinished.game_id, "nothing ended"
    store.close()


@pytest.mark.parametrize("size, lang", CASES, ids=IDS)
def test_a_past_game_opens_its_log_and_its_chart(window, tmp_path, size, lang):
    from companion.ui.kiosk import Kiosk

    done = finished("secret_hitler", tmp_path)  # the rulebook's example, to its end
    store = done.store
    left = Table.start(store, Setup(game="coup", seats=["Ann", "مریم"], options={"first": 0}))
    left.execute({"type": "income", "seat": 0})
    left.end()  # the operator ended it: abandoned
    kiosk = show(window, Kiosk(store, None, lang=lang), size)
    t = Messages(lang, done.names)
    tap(kiosk.home.ids.history)
    [history] = panels(window, "HistoryPanel")
    games = list(reversed(history.ids.games.children))  # newest first
    assert [g.text for g in games] == history.lines and len(games) == 2
    assert_readable_layout(history.children[0], window, games, scrolled=history.ids.scroll)
    window_shot(window, f"history-{lang}-{size[0]}x{size[1]}")

    tap(games[1])  # the finished Secret Hitler game
    [log] = panels(window, "TextPanel")
    assert log.lines == [t.log_line(key, args) for key, args in done.log_lines()]
    assert log.title.startswith(t("game.secret_hitler"))
    chart_button = log.ids.action
    assert chart_button.text == t("ui.chart") and not chart_button.disabled
    assert_readable_layout(
        log.children[0], window, [chart_button, log.ids.close], scrolled=log.ids.scroll
    )
    window_shot(window, f"history-log-{lang}-{size[0]}x{size[1]}")
    tap(chart_button)
    [chart] = panels(window, "ChartPanel")
    assert chart.title == done.spec.words.chart(done.public_history(), done.names, t).title
    assert chart.ids.plot.canvas.after.length() > 0, "its lines are drawn"
    window_shot(window, f"history-chart-{lang}-{size[0]}x{size[1]}")
    tap(chart.ids.close)
    assert wait_for(lambda: not panels(window, "ChartPanel"))
    assert panels(window, "TextPanel") == [log], "back to the game's log"
    tap(log.ids.close)
    assert wait_for(lambda: not panels(window, "TextPanel"))
    assert panels(window, "HistoryPanel") == [history]

    tap(games[0])  # the abandoned Coup game: its log, no chart
    [log] = panels(window, "TextPanel")
    assert log.lines[-1] == Messages(lang, left.names).log_line(*left.log_lines()[-1])
    assert log.ids.action.disabled and log.ids.action.opacity == 0
    tap(log.ids.close)
    assert wait_for(lambda: not panels(window, "TextPanel"))
    tap(history.ids.close)
    assert wait_for(lambda: not panels(window, "HistoryPanel"))
    store.close()
