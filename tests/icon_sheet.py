"""A contact sheet of a game's icons, drawn by the kiosk's ``IconView`` in
a real Kivy window: each piece at 96 and 48 px on the kiosk's background
and at 48 px on a light one, its English name under it
(docs/images/icons-<game>.png are these sheets)."""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from ui_helpers import frames

from companion.games.spec import GameSpec
from companion.i18n import catalog
from companion.ui.widgets.icon import IconView
from companion.ui.widgets.palette import SCREEN, TEXT

CELL = (230, 140)
COLUMNS = 5
LIGHT = (0.93, 0.93, 0.9, 1)
# Where the catalog names a piece, by the kind of piece.
NAME_KEYS = ("character.{}", "policy.{}", "issue.{}", "agenda.{}", "sh.ui.power.{}")


def english_name(piece: str) -> str:
    texts = catalog("en")
    for pattern in NAME_KEYS:
        if pattern.format(piece) in texts:
            return texts[pattern.format(piece)]
    return piece.replace("_", " ").capitalize()


class _Backed(Widget):
    """A square of colour with the icon on it."""

    def __init__(self, colour, view: IconView, side: int, **kwargs) -> None:
        super().__init__(size_hint=(None, None), size=(side + 8, side + 8), **kwargs)
        with self.canvas.before:
            Color(*colour)
            self._back = Rectangle(pos=self.pos, size=self.size)
        view.size_hint = (None, None)
        view.size = (side, side)
        self.add_widget(view)
        self.bind(pos=self._place)

    def _place(self, *_args) -> None:
        self._back.pos = self.pos
        self.children[0].pos = (self.x + 4, self.y + 4)


def _cell(spec: GameSpec, piece: str) -> BoxLayout:
    cell = BoxLayout(orientation="vertical", padding=6, spacing=4)
    row = BoxLayout(spacing=8, size_hint_y=None, height=104)
    for colour, side in ((SCREEN, 96), (SCREEN, 48), (LIGHT, 48)):
        holder = BoxLayout(size_hint_x=None, width=side + 8)
        holder.add_widget(Widget())
        holder.add_widget(_Backed(colour, IconView(piece=piece, spec=spec), side))
        row.add_widget(holder)
    cell.add_widget(row)
    cell.add_widget(Label(text=english_name(piece), color=TEXT, font_size=17))
    return cell


def write_sheet(window, spec: GameSpec, path: Path) -> Path:
    pieces = list(spec.icons)
    rows = -(-len(pieces) // COLUMNS)
    size = (CELL[0] * COLUMNS, CELL[1] * rows)
    grid = GridLayout(cols=COLUMNS, size_hint=(None, None), size=size)
    with grid.canvas.before:
        Color(*SCREEN)
        Rectangle(pos=(0, 0), size=size)
    for piece in pieces:
        grid.add_widget(_cell(spec, piece))
    window.size = size
    for child in list(window.children):
        window.remove_widget(child)
    window.add_widget(grid)
    frames(4)
    path.parent.mkdir(parents=True, exist_ok=True)
    grid.export_to_png(str(path))
    return path
