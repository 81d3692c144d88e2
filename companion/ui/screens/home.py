"""The home screen: pick a game, its players (names, seat order, how each
votes), the secrecy mode, the language and the variants, then start; resume
the unfinished game; look back at finished ones. The choices are plain data
(``table.new_game.NewGame``); the engine judges them when the game starts."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ...games import spec_for
from ...games.base import RuleError, Setup
from ...i18n import Messages
from ...table import OPERATOR, EventStore, Table
from ...table.damage import StoreDamage
from ...table.new_game import MODES, NewGame, game_order, player_limits
from ...table.seats import seat_names
from ...table.store import DamagedGame, GameRecord, StoreError
from ...table.table import stored_setup
from ..panels.history import HistoryPanel
from ..text.direction import Row, writing
from ..text.fonts import kiosk_languages
from ..widgets.buttons import fill_choices
from ..widgets.touch_keyboard import TextField  # noqa: F401 - the kv rules use it

Builder.load_file(str(Path(__file__).with_name("home.kv")))


class SeatRow(Row):
    seat = NumericProperty(0)
    number_text = StringProperty("")
    input_text = StringProperty("")
    hint_text = StringProperty("")


class HomeScreen(BoxLayout):
    title_text = StringProperty("")
    resume_text = StringProperty("")  # empty: no unfinished game
    players_text = StringProperty("")
    message_text = StringProperty("")
    notice_text = StringProperty("")  # what was found damaged in the store
    labels = ListProperty([])  # section titles, in kv order

    def __init__(
        self,
        store: EventStore,
        lang: str,
        on_table: Callable[[Table], None],
        on_resume: Callable[[], None],
        on_settings: Callable[[], Any],
        on_language: Callable[[str], None],
        with_pin: Callable[[Callable[[], Any], str], Any],
        damage: StoreDamage | None = None,
        **kwargs: Any,
    ) -> None:
        writing.use(lang)  # before the kv rules lay the screen out
        super().__init__(**kwargs)
        self.store = store
        self.damage = damage or StoreDamage()  # told until a game starts
        self.on_table = on_table
        self.on_resume = on_resume
        self.on_settings = on_settings
        self.on_language = on_language
        self.with_pin = with_pin
        latest = _latest_setup(store.history())
        self.choice = NewGame(lang=lang) if latest is None else NewGame.like(latest)
        self.choice.lang = lang
        self.refresh()

    @property
    def t(self) -> Messages:
        return Messages(self.choice.lang)

    # -- input --------------------------------------------------------------
    def choose_game(self, game: str) -> None:
        self.choice.choose_game(game)
        self.refresh()

    def choose_mode(self, mode: str) -> None:
        self.choice.mode = mode
        self.refresh()

    def toggle_guide(self) -> None:
        """A first game, or not: the kiosk explains each new kind of step."""
        self.choice.guide = not self.choice.guide
        self.refresh()

    def choose_language(self, lang: str) -> None:
        """The kiosk's language (settings keep it), and its players' default."""
        self.choice.lang = lang
        self.on_language(lang)
        self.refresh()

    def add_player(self, step: int) -> None:
        self.choice.set_players(len(self.choice.names) + step)
        self.refresh()

    def next_input(self, seat: int) -> None:
        self.choice.next_input(seat)
        self.refresh()

    def move_up(self, seat: int) -> None:
        self.choice.move_up(seat)
        self.refresh()

    def next_value(self, option: str) -> None:
        self.choice.next_value(option)
        self.refresh()

    def start(self) -> None:
        """Start the chosen game. An unfinished game would be ended by it
        (kept as abandoned), which is the operator's to decide: the PIN first."""
        if self.store.active_game() is not None:
            self.with_pin(self._start, self.t("home.pin_unfinished"))
        else:
            self._start()

    def _start(self) -> Table | None:
        try:
            table = Table.start(
                self.store,
                self.choice.setup(lambda number: self.t("home.default_name", number=number)),
                source=OPERATOR,
            )
        except RuleError as exc:
            self.message_text = self.t.error(exc)
            return None
        except StoreError:
            self.message_text = self.t("error.unexpected")
            return None
        self.message_text = ""
        self.damage = StoreDamage()
        self.on_table(table)
        return table

    def resume(self) -> None:
        self.on_resume()

    def open_history(self) -> HistoryPanel:
        """Past games; a tap opens one's log and chart."""
        view = HistoryPanel(self.store, self.t)
        view.open()
        return view

    # -- output -------------------------------------------------------------
    def refresh(self) -> None:
        t, choice = self.t, self.choice
        self.title_text = t("app.title")
        self.resume_text = _resume_text(self.store.active_game(), t)
        self.notice_text = "\n".join(self.damage.describe(t))
        low, high = player_limits(choice.game)
        self.players_text = t("home.players", count=len(choice.names), low=low, high=high)
        self.labels = [
            t("home.game"),
            t("home.mode"),
            t("home.variants"),
            t("home.start"),
            t("home.history"),
            t("settings.title"),
            t("home.language"),
        ]
        fill_choices(
            self.ids.games,
            [
                (t(f"game.{g}"), g == choice.game, partial(self.choose_game, g))
                for g in game_order()
            ],
        )
        fill_choices(
            self.ids.modes,
            [(t(f"ui.mode.{m}"), m == choice.mode, partial(self.choose_mode, m)) for m in MODES]
            + [
                (
                    t("home.guide", value=t("home.value.on" if choice.guide else "home.value.off")),
                    choice.guide,
                    self.toggle_guide,
                )
            ],
        )
        fill_choices(
            self.ids.languages,
            [
                (t(f"language.{code}"), code == choice.lang, partial(self.choose_language, code))
                for code in kiosk_languages()
            ],
        )
        words = spec_for(choice.game).words
        fill_choices(
            self.ids.variants,
            [
                (
                    t(f"home.variant.{option}", value=words.variant_value(option, value, t)),
                    False,
                    partial(self.next_value, option),
                )
                for option, value in choice.variants()
            ],
        )
        self._show_seats()

    def _show_seats(self) -> None:
        box = self.ids.seats
        box.clear_widgets()
        for seat, (name, source) in enumerate(zip(self.choice.names, self.choice.inputs)):
            row = SeatRow(
                seat=seat,
                number_text=self.t.number(seat + 1),
                input_text=self.t(f"home.input.{source}"),
                hint_text=self.t("home.default_name", number=seat + 1),
            )
            row.ids.name.value = name
            row.ids.name.bind(value=lambda _field, text, s=seat: self._name(s, text))
            row.ids.source.bind(on_release=lambda _b, s=seat: self.next_input(s))
            row.ids.up.bind(on_release=lambda _b, s=seat: self.move_up(s))
            box.add_widget(row)

    def _name(self, seat: int, text: str) -> None:
        self.choice.names[seat] = text


def _latest_setup(history: list[GameRecord]) -> Setup | None:
    """The set-up of the latest game that reads as one: the next game's
    choices start from it."""
    for record in history:
        try:
            return stored_setup(record)
        except DamagedGame:
            continue
    return None


def _resume_text(active: GameRecord | None, t: Messages) -> str:
    """The resume button's words ("": no unfinished game to resume)."""
    if active is None:
        return ""
    try:
        setup = stored_setup(active)
    except DamagedGame:  # Resume finds the damage and sets the game aside
        return t("home.resume_number", number=active.id)
    return t("home.resume", game=active.game, players=t.join(seat_names(setup)))
