"""Past games, from home: one button per finished or abandoned game (when,
what, who, how it ended). A tap opens that game's log, rebuilt from the
store, with the table screen's Chart where the game draws one (a finished
game whose words chart it). A game whose rows cannot be read says so and
opens nothing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kivy.lang import Builder
from kivy.properties import ListProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView

from ...games import spec_for
from ...i18n import Messages
from ...table import EventStore, Table
from ...table.seats import seat_names
from ...table.store import DAMAGED, DamagedGame, GameRecord
from ...table.table import stored_setup
from ..text.direction import Row  # noqa: F401 - the kv rule uses one
from ..widgets.buttons import CommandButton  # noqa: F401 - the kv rule uses one
from .chart_view import ChartPanel
from .text_panel import TextPanel

Builder.load_string("""
#:import dp kivy.metrics.dp
#:import sp kivy.metrics.sp
#:import palette companion.ui.widgets.palette
#:import writing companion.ui.text.direction.writing

<PastGame>:
    size_hint_y: None
    height: max(dp(56), self.texture_size[1] + dp(16))
    text_size: self.width - dp(24), None
    halign: writing.start
    valign: "middle"
    font_size: sp(16)
    background_normal: ""
    background_disabled_normal: ""
    background_color: palette.BUTTON
    disabled_color: 0.7, 0.7, 0.68, 1

<HistoryPanel>:
    size_hint: 0.9, 0.9
    background_color: 0, 0, 0, 0.75
    BoxLayout:
        orientation: "vertical"
        padding: dp(16)
        spacing: dp(8)
        canvas.before:
            Color:
                rgba: 0.12, 0.14, 0.16, 1
            RoundedRectangle:
                pos: self.pos
                size: self.size
                radius: [dp(10)]
        Label:
            text: root.title
            bold: True
            font_size: sp(22)
            size_hint_y: None
            height: dp(36)
        Label:
            text: root.empty if not root.lines else ""
            font_size: sp(16)
            size_hint_y: None
            height: self.texture_size[1] if self.text else 0
        ScrollView:
            id: scroll
            BoxLayout:
                id: games
                orientation: "vertical"
                spacing: dp(6)
                size_hint_y: None
                height: self.minimum_height
        Row:
            size_hint_y: None
            height: dp(52)
            CommandButton:
                id: close
                text: root.close_text
                on_release: root.dismiss()
            Widget:
""")


class PastGame(Button):
    """One past game's line; a tap opens its log."""


class HistoryPanel(ModalView):
    title = StringProperty("")
    empty = StringProperty("")  # said when no game has ended yet
    close_text = StringProperty("")
    lines = ListProperty([])  # each past game's line, newest first

    def __init__(self, store: EventStore, t: Messages, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.store, self.t = store, t
        self.title, self.empty = t("home.history"), t("home.no_history")
        self.close_text = t("ui.phones.close")
        records = [r for r in store.history() if r.status != "active"]
        self.lines = [history_line(r, t) for r in records]
        games = self.ids.games
        for record, line in zip(records, self.lines):
            button = PastGame(text=line, disabled=not _readable(record))
            button.bind(on_release=lambda _b, r=record: self.open_game(r))
            games.add_widget(button)

    def open_game(self, record: GameRecord) -> TextPanel | None:
        """The game's whole log, newest last, with its chart where it has one
        (None: its rows do not rebuild it)."""
        try:
            table = Table.from_record(self.store, record)
        except DamagedGame:
            return None
        t = Messages(self.t.lang, table.names)
        chart = table.spec.words.chart(table.public_history(), table.names, t)
        when = t.date_time(datetime.fromtimestamp(record.created_at))
        panel = TextPanel(
            lines=[t.log_line(key, args) for key, args in table.log_lines()],
            title=t("home.past_game", game=record.game, when=when),
            empty="",
            close_text=t("ui.phones.close"),
            from_end=True,
            action_text=t("ui.chart") if chart is not None else "",
        )
        panel.bind(
            on_action=lambda _p: ChartPanel(chart=chart, close_text=t("ui.phones.close")).open(
                animation=False
            )
        )
        panel.open(animation=False)
        return panel


def history_line(record: GameRecord, t: Messages) -> str:
    """A finished or abandoned game in one line: when, what, who, how it
    ended. A game whose rows cannot be read says so, with what can be."""
    when = t.date_time(datetime.fromtimestamp(record.created_at))
    try:
        names = seat_names(stored_setup(record))
    except DamagedGame:
        return t("home.history_unreadable", when=when, number=record.id)
    return t(
        "home.history_line",
        when=when,
        game=record.game,
        players=t.join(names),
        outcome=_outcome(record, names, t),
    )


def _readable(record: GameRecord) -> bool:
    """Whether the game may be rebuilt to show: not set aside as damaged,
    its set-up read. (Events that do not rebuild it open nothing either.)"""
    if record.status == DAMAGED:
        return False
    try:
        stored_setup(record)
    except DamagedGame:
        return False
    return True


def _outcome(record: GameRecord, names: list[str], t: Messages) -> str:
    result = record.result or {}
    if record.status == DAMAGED:
        return t("home.outcome.damaged")
    if record.status == "abandoned" or not result:
        return t("home.outcome.abandoned")
    return spec_for(record.game).words.outcome(result, names, t)
