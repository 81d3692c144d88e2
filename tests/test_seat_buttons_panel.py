"""The simulated seat buttons (the kiosk's "Buttons" panel, for a machine
with no GPIO header): every seat the pin map wires is there and the others
are named with where they vote; each button says what a press does now, or
is disabled and says "Not now"; a press shows on its seat's row (that the
seat voted, never what); the gavel only in a game that declares one."""

from __future__ import annotations

import asyncio

import pytest

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

pytest.importorskip("kivy.base")
from kiosk_helpers import cut_labels, is_visible, spilled_labels, texture_fits, walk  # noqa: E402
from ui_helpers import fits_in_window, frames, screenshot, tap  # noqa: E402

NAMES = ["Anna", "Ben", "Chloe", "Dimitris", "Eleni", "Fotis", "Gina", "Hans", "Ilse", "Jon"]
SIZES = [(800, 480), (720, 1280)]

# Ten seats of two buttons each: a table that gives every seat buttons.
PAIRS = [(17, 18), (27, 22), (23, 24), (10, 9), (25, 11), (8, 7), (5, 6), (13, 19), (16, 26)]
TEN_SEATS = "\n".join(
    f"[seats.{seat + 1}]\nbuttons = [{a}, {b}]" for seat, (a, b) in enumerate([*PAIRS, (20, 21)])
)


def _table(tmp_path, game: str, players: int, mode: str = "physical") -> Table:
    setup = Setup(game=game, seats=NAMES[:players], mode=mode, options={"first": 0})
    return Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=5))


def _panel(window, table, lang="en", pinmap=None, factory=None, size=(800, 480)):
    from gpiozero.pins.mock import MockFactory

    from companion.devices.pinmap import load_pinmap
    from companion.ui.text.direction import writing
    from companion.ui.widgets.seat_buttons import SeatButtons

    writing.use(lang)  # as the kiosk's language sets it
    window.size = size
    panel = SeatButtons(pinmap or load_pinmap(), factory or MockFactory(), table, lang)
    panel.open(animation=False)
    frames(3)
    return panel


def _rows(panel):
    from companion.ui.widgets.seat_buttons import PinButton

    return [
        [w for w in row.children[::-1] if isinstance(w, PinButton)]
        for row in panel.ids.rows.children[::-1]
    ]


def _close(panel):
    from companion.ui.text.direction import writing

    panel.dismiss(animation=False)
    writing.use("en")
    frames(2)


def _whole(panel, window):
    """Everything the panel shows lies in the window, uncut, and every
    enabled button is tappable at its centre."""
    from kivy.uix.button import Button

    assert not cut_labels(panel), [label.text for label in cut_labels(panel)]
    assert not spilled_labels(panel), [label.text for label in spilled_labels(panel)]
    for widget in walk(panel):
        if isinstance(widget, Button) and is_visible(widget):
            assert fits_in_window(widget, window), widget.text
            assert widget.height >= 48, widget.text
            assert texture_fits(widget), widget.text


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_seats_the_pin_map_does_not_wire_are_named(window, tmp_path, lang, size):
    """The default map wires six seats (the header has no pins for more):
    at a table of ten the other four are named, with where they vote."""
    from companion.i18n import Messages

    table = _table(tmp_path, "secret_hitler", 10)
    panel = _panel(window, table, lang, size=size)
    try:
        assert len(_rows(panel)) == 6
        t = Messages(lang, table.names)
        assert panel.unwired_text == t("sim.unwired", players=t.join(NAMES[6:]))
        note = panel.ids.unwired
        assert note.height > 0 and fits_in_window(note, window)
        assert all(name in note.text for name in NAMES[6:])
        _whole(panel, window)
        screenshot(window, f"seat-buttons-10-seats-{lang}-{size[0]}x{size[1]}")
    finally:
        _close(panel)


def test_a_map_that_wires_every_seat_shows_every_seat(window, tmp_path):
    from companion.devices.pinmap import parse_pinmap

    table = _table(tmp_path, "secret_hitler", 10)
    panel = _panel(window, table, pinmap=parse_pinmap(TEN_SEATS))
    try:
        assert [len(row) for row in _rows(panel)] == [2] * 10
        assert panel.unwired_text == "" and panel.ids.unwired.height == 0
    finally:
        _close(panel)


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_press_shows_on_its_seats_row_and_never_the_vote(window, tmp_path, lang, size):
    """The panel covers the ballot's row: the seat's row itself says it has
    voted, whatever it chose, as the ballot does."""
    from gpiozero.pins.mock import MockFactory
    from sh_helpers import nominate

    from companion.devices.controls import Controls
    from companion.devices.gpio import GpioTable
    from companion.devices.pinmap import load_pinmap
    from companion.i18n import Messages

    table = _table(tmp_path, "secret_hitler", 5)
    t = Messages(lang, table.names)
    loop = asyncio.new_event_loop()
    factory, pinmap = MockFactory(), load_pinmap()
    refusals: list[str] = []
    controls = Controls(table, loop=loop, on_refusal=lambda seat, e: refusals.append(e.key))
    header = GpioTable(pinmap, controls.handle, factory=factory)
    panel = _panel(window, table, lang, pinmap=pinmap, factory=factory, size=size)
    try:
        nominate(table, 2)
        frames(2)
        names = list(panel._names.values())
        assert [name.status for name in names] == [""] * 5
        rows = _rows(panel)
        tap(rows[0][0])  # Ja!
        tap(rows[1][1])  # Nein
        frames(2)
        assert refusals == []
        voted = t("ui.ballot.voted")
        assert [name.status for name in names] == [voted, voted, "", "", ""]
        shown = [label.text for name in names[:2] for label in walk(name) if hasattr(label, "text")]
        assert not any(t("choice.ja") in s or t("choice.nein") in s for s in shown)
        _whole(panel, window)
        screenshot(window, f"seat-buttons-voted-{lang}-{size[0]}x{size[1]}")
    finally:
        _close(panel)
        header.close()
        loop.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_coup_buttons_say_what_a_press_does_now(window, tmp_path, lang):
    """Outside a challenge window a Coup seat's buttons do nothing: disabled,
    "Not now"; while a claim waits, every seat but the claimant's says
    "Challenge", and the press shows on its row."""
    from gpiozero.pins.mock import MockFactory

    from companion.devices.controls import Controls
    from companion.devices.gpio import GpioTable
    from companion.devices.pinmap import load_pinmap
    from companion.i18n import Messages

    table = _table(tmp_path, "coup", 3)
    t = Messages(lang, table.names)
    loop = asyncio.new_event_loop()
    factory, pinmap = MockFactory(), load_pinmap()
    controls = Controls(table, loop=loop, tie_window=0)
    header = GpioTable(pinmap, controls.handle, factory=factory)
    panel = _panel(window, table, lang, pinmap=pinmap, factory=factory)
    try:
        rows = _rows(panel)
        for row in rows:
            assert [(b.text, b.disabled) for b in row] == [(t("sim.idle"), True)] * 3
        assert panel.gavel is None, "Coup has no gavel"
        _whole(panel, window)
        table.execute({"type": "tax", "seat": 0})
        frames(2)
        assert [(b.text, b.disabled) for b in rows[0]] == [(t("sim.idle"), True)] * 3
        for row in rows[1:]:
            assert [(b.text, b.disabled) for b in row] == [(t("sim.challenge"), False)] * 3
        _whole(panel, window)
        screenshot(window, f"seat-buttons-coup-challenge-{lang}")
        tap(rows[2][0])
        loop.run_until_complete(asyncio.sleep(0.01))  # the race's tie window
        frames(2)
        assert table.public_view()["phase"] == "prove"
        assert [name.status for name in panel._names.values()] == ["", "", t("sim.taken")]
        assert all(b.disabled for row in rows for b in row)
    finally:
        _close(panel)
        header.close()
        loop.close()


@pytest.mark.parametrize(
    "game, players, has_gavel",
    [("article27", 3, True), ("secret_hitler", 5, False), ("coup", 3, False)],
)
def test_the_gavel_only_in_a_game_that_declares_one(window, tmp_path, game, players, has_gavel):
    table = _table(tmp_path, game, players)
    assert table.spec.traits.gavel is has_gavel
    panel = _panel(window, table)
    try:
        assert (panel.gavel is not None) is has_gavel
        _whole(panel, window)
        assert has_gavel == any(getattr(w, "text", None) == "Gavel" for w in walk(panel.ids.header))
    finally:
        _close(panel)


def test_the_panel_closes_when_the_session_moves_to_another_game(window, tmp_path):
    """The panel is its game's: when the console starts the next game while
    it is open, it closes rather than label the old game's ballot while its
    presses go to the new one."""
    from gpiozero.pins.mock import MockFactory

    from companion.devices.pinmap import load_pinmap
    from companion.table import Session
    from companion.ui.widgets.seat_buttons import SeatButtons

    table = _table(tmp_path, "secret_hitler", 5)
    session = Session.around(table)
    panel = SeatButtons(load_pinmap(), MockFactory(), table, "en", session=session)
    panel.open(animation=False)
    frames(3)
    assert panel.parent is not None
    session.next_game()
    for _ in range(60):  # it closes as a panel does, animated
        if panel.parent is None:
            break
        frames(1)
    assert panel.parent is None, "the old game's panel is still open"
