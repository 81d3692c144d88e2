"""The kiosk's panels in every language at the original 7-inch display's
800×480: the PIN pad, the operator's settings, the log, the chart, the
phones' join panel and the simulated seat buttons. Each is checked like the
table screens (nothing outside the window, no text spilling out of its
box, touch targets whole) and saved as
screenshots/<panel>-<lang>-800x480.png."""

from __future__ import annotations

import pytest

from companion.i18n import LANGUAGES, Messages
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from helpers import finished, physical_table  # noqa: E402
from kiosk_helpers import assert_readable_layout, key, open_panels, walk  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from ui_helpers import SHOTS, frames, show, tap  # noqa: E402

SIZE = (800, 480)


def check_panel(panel, window, name: str) -> None:
    """A ModalView's content read like a screen, then saved."""
    frames(3)
    content = panel.children[0]
    buttons = [
        w
        for w in walk(content)
        if isinstance(w, Button) and w.opacity > 0 and w.width > 0 and not w.disabled
    ]
    scrolled = next((w for w in walk(content) if isinstance(w, ScrollView)), None)
    if scrolled is not None:  # what lies below the fold is reached by scrolling
        buttons = [b for b in buttons if b not in list(walk(scrolled))]
    # A panel in columns side by side is read column by column.
    parts = content.children if getattr(content, "orientation", "") == "horizontal" else [content]
    for part in parts:
        assert_readable_layout(
            part, window, [b for b in buttons if b in list(walk(part))], scrolled=scrolled
        )
    SHOTS.mkdir(parents=True, exist_ok=True)
    content.export_to_png(str(SHOTS / f"{name}-800x480.png"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pin_pad_and_the_settings_read_in_every_language(window, tmp_path, lang):
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import DEFAULT_PIN, KioskSettings

    table = physical_table(tmp_path / "g.sqlite3")
    kiosk = show(
        window,
        Kiosk(table.store, table, lang=lang, settings=KioskSettings(tmp_path / "kiosk.ini")),
        SIZE,
    )
    kiosk.go_home()
    frames(2)
    tap(kiosk.home.ids.settings)
    [pad] = open_panels(window)
    check_panel(pad, window, f"settings-pin-{lang}")
    for digit in DEFAULT_PIN:
        tap(key(pad, Messages(lang).number(digit)))
    tap(pad.ids.ok)
    [settings] = open_panels(window)
    check_panel(settings, window, f"settings-{lang}")
    assert settings.pin_warning == Messages(lang)("settings.default_pin")
    settings.dismiss(animation=False)
    frames(2)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["secret_hitler", "article27"])
def test_the_log_and_the_chart_read_in_every_language(window, tmp_path, lang, game):
    from companion.ui.screens.table_screen import screen_class

    table = finished(game, tmp_path)
    screen = show(window, screen_class(game)(table, lang=lang), SIZE)
    log = screen.open_log()
    check_panel(log, window, f"log-{game}-{lang}")
    assert len(log.lines) == len(table.log_lines())
    log.dismiss(animation=False)
    chart = screen.open_chart()
    check_panel(chart, window, f"chart-{game}-{lang}")
    assert chart.title == Messages(lang)(
        "chart.policies" if game == "secret_hitler" else "chart.agenda_points"
    )
    chart.dismiss(animation=False)
    frames(2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phones_panel_reads_in_every_language(window, tmp_path, lang):
    from companion.ui.phones import PhonesView
    from companion.web.server import TableServer

    table = physical_table(tmp_path / "g.sqlite3")
    t = Messages(lang, table.names)
    view = PhonesView(
        TableServer(table), "http://companion.local:8080", t, wifi=("Table 4", "bluff-well")
    )
    window.size = SIZE
    view.open(animation=False)
    view.show_seat(1)
    check_panel(view, window, f"phones-{lang}")
    assert view.code_text == t("ui.phones.scan", player=1)
    view.dismiss(animation=False)
    frames(2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_seat_buttons_read_in_every_language(window, tmp_path, lang):
    from gpiozero.pins.mock import MockFactory

    from companion.devices.pinmap import load_pinmap
    from companion.games.base import Fate, Setup
    from companion.ui.widgets.seat_buttons import SeatButtons

    setup = Setup(
        game="secret_hitler",
        seats=["Anna", "Ben", "Chloe", "Dimitris", "Eleni"],
        options={"first": 0},
    )
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=5))
    window.size = SIZE
    panel = SeatButtons(load_pinmap(), MockFactory(), table, lang)
    panel.open(animation=False)
    check_panel(panel, window, f"seat-buttons-{lang}")
    panel.dismiss(animation=False)
    frames(2)
