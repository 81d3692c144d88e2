"""The command strip (companion/ui/widgets/command_strip.py): the one row of
command buttons every game's table screen shows its commands on. A tap does
what the item now in its place asks, the buttons that stay are kept (only
their words are drawn again), and none keeps a property it is no longer
given."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy.base")
from phase_playouts import new_table  # noqa: E402
from ui_helpers import frames, show, tap  # noqa: E402


def _strip(window):
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.widgets.command_strip import CommandStrip

    strip = CommandStrip()
    box = BoxLayout(orientation="vertical")
    box.add_widget(strip)
    box.add_widget(BoxLayout())  # the rest of the screen, under the strip
    show(window, box, (800, 480))
    return strip


def _shown(strip) -> list:
    return list(reversed(strip.children))


def test_a_tap_does_what_the_item_in_its_place_asks(window):
    from kivy.uix.label import Label

    from companion.ui.widgets.buttons import ChoiceButton, CommandButton
    from companion.ui.widgets.command_strip import SCREEN_OWN, StripItem

    strip, tapped = _strip(window), []
    strip.show(
        [
            StripItem("Who?", kind=Label),
            StripItem("Ann", lambda: tapped.append("Ann"), ChoiceButton, {"chosen": True}),
            StripItem("Bob", lambda: tapped.append("Bob"), ChoiceButton, {"chosen": False}),
            StripItem("Cancel", lambda: tapped.append("Cancel"), properties=SCREEN_OWN),
        ]
    )
    frames(2)
    prompt, ann, bob, cancel = _shown(strip)
    assert [type(w) for w in (prompt, ann, bob, cancel)] == [
        Label,
        ChoiceButton,
        ChoiceButton,
        CommandButton,
    ]
    assert (ann.chosen, bob.chosen, cancel.seat_command) == (True, False, False)
    for widget in (bob, prompt, cancel):
        tap(widget)
    assert tapped == ["Bob", "Cancel"], "the prompt takes no tap"


def test_the_buttons_that_stay_are_kept_and_do_what_is_asked_now(window):
    from companion.ui.widgets.buttons import ChoiceButton
    from companion.ui.widgets.command_strip import StripItem

    strip, tapped = _strip(window), []
    strip.show([StripItem("Income", lambda: tapped.append(1)), StripItem("Tax")])
    before = _shown(strip)
    strip.show(
        [
            StripItem("Foreign aid", lambda: tapped.append(2)),
            StripItem("Steal", kind=ChoiceButton),
            StripItem("Coup", lambda: tapped.append(3)),
        ]
    )
    frames(2)
    after = _shown(strip)
    assert after[0] is before[0], "the first button kept, its words changed"
    assert after[1] is not before[1], "a button of another kind in its place"
    assert [w.text for w in after] == ["Foreign aid", "Steal", "Coup"]
    tap(after[0])
    tap(after[2])
    assert tapped == [2, 3]
    strip.show([])
    assert strip.children == []


def test_no_button_keeps_a_property_it_is_no_longer_given(window):
    from companion.ui.widgets.buttons import ChoiceButton
    from companion.ui.widgets.command_strip import StripItem

    strip, tapped = _strip(window), []
    strip.show([StripItem("Peace", kind=ChoiceButton, properties={"disabled": True})])
    strip.show([StripItem("Peace", lambda: tapped.append("Peace"), ChoiceButton)])
    frames(2)
    (peace,) = _shown(strip)
    assert not peace.disabled
    tap(peace)
    assert tapped == ["Peace"]


@pytest.mark.parametrize("game", ["article27", "coup", "g54", "secret_hitler", "show_of_hands"])
def test_every_game_s_screen_shows_its_commands_on_the_strip(window, tmp_path, game):
    from show_of_hands import SPEC

    from companion.games import register, spec_for, unregister
    from companion.ui.screens.table_screen import screen_class
    from companion.ui.widgets.command_strip import CommandStrip

    register(SPEC)
    try:
        players = spec_for(game).engine.min_players
        table, _clock = new_table(tmp_path / "g.sqlite3", game, "physical", players, {}, seed=1)
        screen = show(window, screen_class(game)(table), (800, 480))
        strip = screen.ids.commands
        assert isinstance(strip, CommandStrip)
        assert strip.children, "the first commands are on it"
        screen.detach()
    finally:
        unregister(SPEC.name)
