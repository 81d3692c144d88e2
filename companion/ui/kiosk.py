"""The kiosk's screens: home, and the table screen of the game being played.
Whatever starts a game (home, or the table's own "new game") makes it the
kiosk's ``table``, which the devices and the phone server follow."""
from __future__ import annotations

from typing import Any, Callable

from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from ..table import EventStore, Table
from .home import HomeScreen
from .table_screen import TableScreen, screen_class

HOME, TABLE = "home", "table"


class Kiosk(ScreenManager):
    table = ObjectProperty(None, allownone=True)        # the game on the table screen
    open_phones = ObjectProperty(None, allownone=True)  # the phones panel, when served

    def __init__(self, store: EventStore, table: Table | None, lang: str = "en",
                 **kwargs: Any) -> None:
        super().__init__(transition=NoTransition(), **kwargs)
        self.store = store
        self.lang = lang
        self.table_screen: TableScreen | None = None
        self.home = HomeScreen(store, lang, on_table=self.show_table, on_resume=self.resume)
        self._page(HOME, self.home)
        self._page(TABLE, None)
        if table is not None:
            self.show_table(table)

    def _page(self, name: str, content: Any) -> None:
        page = Screen(name=name)
        if content is not None:
            page.add_widget(content)
        self.add_widget(page)

    def show_table(self, table: Table) -> None:
        """Put ``table`` on the table screen, in the kiosk's language."""
        self.lang = self.home.choice.lang
        screen = screen_class(table.setup.game)(table, lang=self.lang)
        screen.go_home = self.go_home
        screen.open_phones = self.open_phones
        screen.bind(table=lambda _screen, new: setattr(self, "table", new))
        page = self.get_screen(TABLE)
        page.clear_widgets()
        page.add_widget(screen)
        self.table_screen = screen
        self.table = table
        self.current = TABLE

    def on_open_phones(self, _kiosk: Any, opener: Callable[[], Any] | None) -> None:
        if self.table_screen is not None:
            self.table_screen.open_phones = opener

    def go_home(self) -> None:
        self.home.refresh()
        self.current = HOME

    def resume(self) -> None:
        """Back to the unfinished game: the one on the table screen if that is
        it (one Table per game, never two), else rebuilt from the store."""
        active = self.store.active_game()
        if active is None:
            self.home.refresh()
            return
        if self.table is not None and self.table.game_id == active.id:
            self.current = TABLE
            return
        self.show_table(Table.resume(self.store))

    def tick(self) -> None:
        if self.table_screen is not None:
            self.table_screen.tick()

    def show_devices(self, statuses: list[dict[str, Any]]) -> None:
        if self.table_screen is not None:
            self.table_screen.show_devices(statuses)
