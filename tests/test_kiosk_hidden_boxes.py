"""What a kiosk screen hides is out of the way: a box hidden in place (of
no size, or only not drawn) neither draws nor takes a touch, so the buttons
round it answer a finger. Article 27's countdown box, hidden outside the
negotiation, lay over the bar at 720×1280 and swallowed every tap on it."""

from __future__ import annotations

import pytest
from a27_kiosk_helpers import KEEPER_STAGES, PHYSICAL_STAGES, at_stage
from kiosk_helpers import window_shot
from reach_helpers import open_panels_of, press
from ui_helpers import PORTRAIT, frames, show

from companion.ui.kiosk import HOME

SIZES = [(800, 480), PORTRAIT]


def size_id(size):
    return f"{size[0]}x{size[1]}"


def test_a_hidden_box_lets_a_touch_through_to_what_lies_beneath(window):
    """A hidden box of no height, holding a disabled button of its own
    height that lies over another button: the tap goes to the one beneath;
    shown again, the box's button takes it."""
    from kivy.uix.floatlayout import FloatLayout

    from companion.ui.widgets.buttons import CommandButton, HidingCommandButton
    from companion.ui.widgets.hiding import HidingBox

    pressed = []
    beneath = CommandButton(text="beneath", pos=(100, 170), size=(200, 40))
    beneath.bind(on_release=lambda _b: pressed.append("beneath"))
    box = HidingBox(orientation="vertical", size_hint=(None, None), pos=(100, 160), size=(200, 0))
    over = HidingCommandButton(text="over", size_hint=(1, None), height=60, disabled=True)
    box.add_widget(over)
    holder = FloatLayout()
    holder.add_widget(beneath)
    holder.add_widget(box)
    show(window, holder, (800, 480))
    assert over.y < beneath.top, "the box's button lies over the other"
    box.shown = False
    frames(2)
    assert box.opacity == 0
    assert press(window, beneath) and pressed == ["beneath"]
    box.shown, over.disabled = True, False
    frames(2)
    assert not press(window, beneath), "shown, the box's button is on top"
    # Hidden on its own, a button takes no touch either.
    over.shown = False
    frames(2)
    assert over.opacity == 0 and press(window, beneath)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_article27_s_bar_answers_taps_in_every_stage(window, tmp_path, size):
    """Each bar button, tapped at its centre through the window, does what
    it says, in every stage, the countdown shown or hidden."""
    from companion.ui.kiosk import Kiosk

    hidden_stages = []
    for stage in PHYSICAL_STAGES + KEEPER_STAGES:
        directory = tmp_path / stage
        directory.mkdir()
        table = at_stage(directory / "g.sqlite3", stage)
        opened = []
        kiosk = Kiosk(table.store, table, lang="en", sounds_dir=directory / "sounds")
        # The app's openers of the phones and the seat buttons, as taps reach them.
        kiosk.open_phones = lambda opened=opened: opened.append("phones")
        kiosk.open_buttons = lambda opened=opened: opened.append("buttons")
        show(window, kiosk, size)
        screen = kiosk.table_screen
        screen.tick()
        frames(3)
        if not screen.clock_shown:
            hidden_stages.append(stage)
        if stage == "voting" and size == PORTRAIT:
            window_shot(window, f"a27-bar-voting-{size_id(size)}")
        bar = screen.ids.bar.ids
        for name in ("log", "help"):
            assert press(window, bar[name]), (stage, name)
            panels = open_panels_of(window)
            assert len(panels) == 1, (stage, name, panels)
            panels[0].dismiss(animation=False)
            frames(2)
        for name in ("buttons", "phones"):
            assert press(window, bar[name]), (stage, name)
        assert opened == ["buttons", "phones"], stage
        if screen.can_undo:
            before = len(table.log)
            assert press(window, bar.undo), stage
            assert len(table.log) == before + 1 and table.log[-1][1]["type"] == "undo", stage
        assert press(window, bar.home), stage
        assert kiosk.current == HOME, stage
        window.remove_widget(kiosk)
        screen.detach()
        table.store.close()
    # The stages between negotiations were all met: the clock hidden in them.
    assert {"unused", "reveal", "voting", "scored", "final", "over"} <= set(hidden_stages)
