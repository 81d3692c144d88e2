"""The pieces' icons: every piece of every game has one, drawn inside its box
from colours its palette names; the phone pages get it as SVG that assistive
technology skips; the kiosk draws it in a real Kivy window, inside the
widget's box, again when the box changes; and a game's icons differ from
each other in shape, not only in colour."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from companion.games import spec_for
from companion.games.article27.rules import AGENDAS, ISSUES
from companion.games.coup.rules import COUP
from companion.games.g54.roles import ROLES
from companion.games.icons import COIN, SIZE, Icon, circle
from companion.games.secret_hitler.rules import POLICIES, POWERS
from companion.web.icons import game_icons, svg

# What each game's pieces are, read from its rules. Secret Hitler's veto is a
# power its rules unlock (VETO_FROM) without naming it by a constant.
PIECES = {
    "coup": {*COUP.characters, "coin"},
    "g54": {*(role.name for role in ROLES), "coin"},
    "secret_hitler": {*POLICIES, *POWERS, "veto"},
    "article27": {*ISSUES, *AGENDAS},
}
GAMES = sorted(PIECES)
SVG = "{http://www.w3.org/2000/svg}"
MIN_SHAPE_CHANGE = 0.04


def _all_icons() -> list[tuple[str, str, Icon]]:
    return [(game, piece, icon) for game in GAMES for piece, icon in spec_for(game).icons.items()]


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_of_the_game_has_an_icon_and_nothing_else_does(game):
    assert set(spec_for(game).icons) == PIECES[game]


@pytest.mark.parametrize(("game", "piece", "icon"), _all_icons())
def test_the_shapes_stay_inside_the_box(game, piece, icon):
    left, top, right, bottom = icon.extent()
    assert 0 <= left and 0 <= top and right <= SIZE and bottom <= SIZE, (game, piece)


def test_an_icon_paints_only_with_colours_its_palette_names():
    with pytest.raises(ValueError, match="chartreuse"):
        Icon((circle(50, 50, 10, "chartreuse"),))


@pytest.mark.parametrize("game", GAMES)
def test_the_pages_get_each_icon_as_svg_that_assistive_technology_skips(game):
    spec = spec_for(game)
    shipped = game_icons(spec)
    assert json.loads(json.dumps(shipped)) == shipped
    assert set(shipped) == set(spec.icons)
    for piece, text in shipped.items():
        root = ET.fromstring(text)
        assert root.tag == f"{SVG}svg", piece
        assert root.get("viewBox") == "0 0 100 100"
        assert root.get("aria-hidden") == "true" and root.get("focusable") == "false"
        assert root.get("role") is None
        assert len(root) == len(spec.icons[piece].shapes), piece


def test_an_svg_paints_with_the_palettes_colours():
    root = ET.fromstring(svg(COIN))
    gold = "#" + "".join(f"{round(c * 255):02x}" for c in COIN.colour("gold")[:3])
    assert root[0].get("fill") == gold
    assert [element.tag[len(SVG) :] for element in root] == [
        "ellipse",
        "ellipse",
        "polygon",
        "polyline",
    ]


# -- on the kiosk --------------------------------------------------------------------


def _drawn(window, view, box=(160, 120)):
    """The alpha of each pixel of a box holding ``view`` (top row first)."""
    from kivy.uix.widget import Widget
    from ui_helpers import frames

    holder = Widget(size_hint=(None, None), size=box)
    holder.add_widget(view)
    for child in list(window.children):
        window.remove_widget(child)
    window.add_widget(holder)
    frames(2)
    texture = holder.export_as_image().texture
    pixels = np.frombuffer(texture.pixels, np.uint8).reshape(texture.height, texture.width, 4)
    window.remove_widget(holder)
    holder.remove_widget(view)
    return pixels


def _bounds(alpha: np.ndarray) -> tuple[int, int, int, int]:
    rows, columns = np.nonzero(alpha)
    return int(columns.min()), int(rows.min()), int(columns.max()) + 1, int(rows.max()) + 1


@pytest.mark.parametrize("game", GAMES)
def test_the_kiosk_draws_each_icon_inside_its_box(window, game):
    from companion.ui.widgets.icon import IconView

    spec = spec_for(game)
    for piece in spec.icons:
        view = IconView(piece=piece, spec=spec, size_hint=(None, None), size=(96, 96))
        view.pos = (20, 8)
        alpha = _drawn(window, view)[:, :, 3]
        left, top, right, bottom = _bounds(alpha)
        # Kivy's y grows upwards: the view's top row is 120 - 8 - 96 from the top.
        assert 20 <= left and right <= 116 and 16 <= top and bottom <= 112, (piece, left, top)
        assert right - left >= 80 or bottom - top >= 80, piece
        assert np.count_nonzero(alpha) > 0.3 * 96 * 96, piece


def test_the_kiosk_draws_an_icon_again_in_the_middle_of_a_box_that_changed(window):
    from companion.ui.widgets.icon import IconView

    view = IconView(icon=COIN, size_hint=(None, None), size=(96, 96), pos=(0, 0))
    _drawn(window, view)
    view.size, view.pos = (120, 48), (10, 30)
    alpha = _drawn(window, view)[:, :, 3]
    left, top, right, bottom = _bounds(alpha)
    assert abs((left + right) / 2 - 70) <= 1.5 and abs((top + bottom) / 2 - (120 - 54)) <= 1.5
    assert 44 <= right - left <= 48 and 44 <= bottom - top <= 48


def test_an_icon_that_only_moves_is_drawn_where_it_went_without_drawing_it_again(window):
    from companion.ui.widgets.icon import IconView

    view = IconView(icon=COIN, size_hint=(None, None), size=(48, 48), pos=(0, 0))
    before = _bounds(_drawn(window, view)[:, :, 3])
    shapes = list(view.canvas.children)
    view.pos = (60, 40)  # as a layout moves it: the same size
    left, top, right, bottom = _bounds(_drawn(window, view)[:, :, 3])
    assert (left, top, right, bottom) == (
        before[0] + 60,
        before[1] - 40,
        before[2] + 60,
        before[3] - 40,
    ), "drawn 60 px right and 40 px up (pixel rows count down)"
    assert list(view.canvas.children) == shapes, "its shapes were moved, not made again"


def _edges(window, icon: Icon) -> np.ndarray:
    """Where the icon's lightness changes sharply, drawn at 64 px: its
    shapes' outlines, whatever their hues (a person who tells none of the
    colours apart still sees these)."""
    from companion.ui.widgets.icon import IconView

    view = IconView(icon=icon, size_hint=(None, None), size=(64, 64))
    pixels = _drawn(window, view, (64, 64)).astype(float) / 255
    alpha = pixels[:, :, 3]
    light = (pixels[:, :, :3] @ (0.2126, 0.7152, 0.0722)) * alpha  # on black
    change = np.hypot(np.diff(light, axis=0)[:, :-1], np.diff(light, axis=1)[:-1, :])
    return change > 0.12


@pytest.mark.parametrize("game", GAMES)
def test_a_games_icons_differ_in_shape(window, game):
    """Two icons alike but for their colours would share their outlines:
    each pair differs in at least MIN_SHAPE_CHANGE of the box's pixels
    (the two policy tiles, the closest pair, in 6 %)."""
    icons = spec_for(game).icons
    edges = {piece: _edges(window, icon) for piece, icon in icons.items()}
    alike = [
        (a, b)
        for a, b in combinations(icons, 2)
        if np.count_nonzero(edges[a] ^ edges[b]) < MIN_SHAPE_CHANGE * edges[a].size
    ]
    assert alike == []


def test_the_shape_measure_sees_past_colour(window):
    """The measure above finds a tile repainted in the other party's colour
    alike: what it counts is shape."""
    liberal = spec_for("secret_hitler").icons["liberal"]

    def repainted(shape):
        roles = {k: "fascist" for k in ("fill", "stroke") if getattr(shape, k, None) == "liberal"}
        return replace(shape, **roles)

    fascist_coloured = replace(liberal, shapes=tuple(map(repainted, liberal.shapes)))
    assert fascist_coloured.roles() != liberal.roles()
    changed = _edges(window, liberal) ^ _edges(window, fascist_coloured)
    assert np.count_nonzero(changed) < MIN_SHAPE_CHANGE * changed.size


def test_the_contact_sheets_show_every_icon(window):
    """docs/images/icons-<game>.png are these sheets, looked at."""
    from colour_helpers import read_png
    from icon_sheet import CELL, COLUMNS, write_sheet
    from ui_helpers import SHOTS

    from companion.ui.widgets.palette import SCREEN

    background = np.array([round(c * 255) for c in SCREEN[:3]])
    for game in GAMES:
        pixels = read_png(write_sheet(window, spec_for(game), SHOTS / f"icons-{game}.png"))
        rows = -(-len(PIECES[game]) // COLUMNS)
        assert pixels.shape[:2] == (CELL[1] * rows, CELL[0] * COLUMNS)
        cells = [
            pixels[r * CELL[1] : (r + 1) * CELL[1], c * CELL[0] : (c + 1) * CELL[0]]
            for r in range(rows)
            for c in range(COLUMNS)
        ][: len(PIECES[game])]
        for cell in cells:  # each has its icons and its name
            assert (
                np.count_nonzero(np.abs(cell - background).sum(axis=2) > 30)
                > 0.2 * cell[:, :, 0].size
            )
