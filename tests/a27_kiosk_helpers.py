"""Helpers for the Article 27 table screen's tests: a real table on a real
SQLite file with a hand-moved clock, the screen with its sounds in a
temporary directory, and ways to find and tap what the screen shows."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from a27_helpers import DI, HU, NU, PK, SM, FakeClock
from ui_helpers import fits_in_window, frames, tap

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table, seat_source

NAMES = ["Anna", "Ben", "Chloe", "Dimitris", "Eleni", "Farid"]


def kiosk_table(
    path: Path,
    players: int = 3,
    mode: str = "physical",
    clock: FakeClock | None = None,
    **options: Any,
) -> Table:
    """A table on the SQLite file ``path``; Anna is the first SG."""
    setup = Setup(
        game="article27", seats=NAMES[:players], mode=mode, options={"first": 0, **options}
    )
    return Table.start(EventStore(path), setup, fate=Fate(seed=5), clock=clock or FakeClock())


def a27_screen(table: Table, sound_dir: Path, volume: float = 1.0, lang: str = "en"):
    from companion.games.article27.screen import Article27TableScreen
    from companion.ui.system.sounds import Sounds

    return Article27TableScreen(table, lang=lang, sounds=Sounds(sound_dir, volume=volume))


def strip(screen) -> list[str]:
    """The texts of the command strip, in reading order."""
    return [w.text for w in reversed(screen.ids.commands.children)]


def strip_button(screen, text: str):
    from kivy.uix.button import Button

    found = [w for w in screen.ids.commands.children if isinstance(w, Button) and w.text == text]
    assert found, f"no button {text!r} in the strip: {strip(screen)}"
    return found[0]


def tap_strip(screen, *texts: str) -> None:
    for text in texts:
        tap(strip_button(screen, text))


def tile(screen, issue: str):
    """The issue's tile, by the name the screen shows."""
    found = [w for w in (*screen.ids.floor.children, *screen.ids.table.children) if w.name == issue]
    assert found, f"no tile {issue!r} on the board"
    return found[0]


def floor_names(screen) -> list[str]:
    return [w.name for w in reversed(screen.ids.floor.children)]


def table_names(screen) -> list[str]:
    return [w.name for w in reversed(screen.ids.table.children)]


def until_revealed(ballot, seconds: float = 5.0) -> None:
    """Let the ballot's reveal animation run to its end."""
    deadline = time.monotonic() + seconds
    while ballot.revealing and time.monotonic() < deadline:
        frames(1)
    assert not ballot.revealing, "the reveal ends"


def buttons_in(widget):
    """Every enabled, visible button under ``widget``."""
    from kivy.uix.button import Button

    for child in widget.walk(restrict=True):
        if isinstance(child, Button) and not child.disabled and child.opacity > 0:
            yield child


# -- every stage of a game ------------------------------------------------------------------
def physical_stages(table, clock):
    """A 4-player physical game through each of its stages: yields each
    stage's name once the table is in it."""
    yield "unused"
    table.execute({"type": "unused", "agendas": ["power", "wealth"]})
    for issue, agenda in ((PK, "peace"), (SM, "prestige")):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    yield "reveal"
    for issue, agenda in ((DI, "innovation"), (HU, "justice"), (NU, "peace")):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    yield "ready"
    table.execute({"type": "gavel"})
    for issue in (PK, NU):
        table.execute({"type": "move", "issue": issue, "to": "floor"})
    clock.advance(100)
    yield "negotiation"
    clock.advance(180)
    yield "warning"
    table.execute({"type": "pause"})
    yield "paused"
    table.execute({"type": "resume"})
    clock.advance(20)
    table.tick()
    table.execute({"type": "vote", "seat": 0, "choice": "yes"}, source=seat_source(0))
    yield "voting"
    for seat, choice in ((1, "yes"), (2, "abstain"), (3, "yes")):
        table.execute({"type": "vote", "seat": seat, "choice": choice}, source=seat_source(seat))
    yield "scored"
    for round_ in (2, 3, 4):
        table.execute({"type": "next_round"})
        for _issue in range(5):
            table.execute(dict(table.legal_commands()[0]))  # the first disk allowed
        table.execute({"type": "gavel"})
        clock.advance(300)
        table.tick()
        if round_ == 2:
            yield "place_one"
        table.execute({"type": "move", "issue": SM, "to": "floor"})
        for seat in range(4):
            table.execute(
                {"type": "vote", "seat": seat, "choice": "veto" if seat == 1 else "yes"},
                source=seat_source(seat),
            )
    yield "final"
    for seat, (influence, agenda) in enumerate(
        ((14, "peace"), (9, "justice"), (12, "prestige"), (20, "innovation"))
    ):
        table.execute(
            {"type": "final_tally", "seat": seat, "influence": influence, "agenda": agenda}
        )
    yield "over"


def keeper_stages(table, clock):
    """A 3-player keeper game with Lie, Cheat and Steal through the stages
    only keeper mode has, to its end."""
    table.execute({"type": "gavel"})
    table.execute({"type": "move", "issue": HU, "to": "floor"})
    offer = table.execute({"type": "offer", "seat": 1, "to": 0, "amount": 2, "kind": "yes"})
    table.execute({"type": "accept", "seat": 0, "bribe": offer[0]["bribe"]})
    other = table.execute(
        {
            "type": "offer",
            "seat": 2,
            "to": 1,
            "amount": 1,
            "kind": "other",
            "text": "Ben backs Chloe next round",
        }
    )
    table.execute({"type": "accept", "seat": 1, "bribe": other[0]["bribe"]})
    clock.advance(40)
    yield "keeper-negotiation"
    table.execute({"type": "gavel"})
    for seat in range(3):
        table.execute({"type": "vote", "seat": seat, "choice": "yes"}, source=seat_source(seat))
    yield "keeper-settle"
    for seat in (1, 2):
        table.execute(
            {"type": "confirm_other", "bribe": other[0]["bribe"], "seat": seat, "kept": True}
        )
    yield "keeper-announce"
    table.execute({"type": "announce", "seat": 0, "score": 4})
    yield "keeper-challenge"
    while not table.is_over:
        phase = table.public_view()["phase"]
        if phase == "voting":
            for seat in range(3):
                table.execute(
                    {"type": "vote", "seat": seat, "choice": "abstain"}, source=seat_source(seat)
                )
        elif phase == "challenge":
            table.execute({"type": "proceed"})
        elif phase == "announce":
            table.execute(
                {"type": "announce", "seat": table.public_view()["announcer"], "score": 0}
            )
        elif phase == "negotiation":
            table.execute({"type": "move", "issue": PK, "to": "floor"})
            table.execute({"type": "gavel"})
        else:
            table.execute({"type": "next_round"} if phase == "scored" else {"type": "gavel"})
    yield "keeper-over"


PHYSICAL_STAGES = [
    "unused",
    "reveal",
    "ready",
    "negotiation",
    "warning",
    "paused",
    "voting",
    "scored",
    "place_one",
    "final",
    "over",
]
KEEPER_STAGES = [
    "keeper-negotiation",
    "keeper-settle",
    "keeper-announce",
    "keeper-challenge",
    "keeper-over",
]


def at_stage(path, stage: str):
    """A table on the SQLite file ``path``, brought to ``stage`` (of
    ``physical_stages`` or ``keeper_stages``) through its commands."""
    clock = FakeClock()
    if stage in KEEPER_STAGES:
        table = kiosk_table(path, players=3, mode="keeper", clock=clock, lie_cheat_steal=True)
        stages = keeper_stages(table, clock)
    else:
        table = kiosk_table(path, players=4, clock=clock)
        stages = physical_stages(table, clock)
    assert stage in stages  # plays the stages up to this one
    return table


def one_line_fits(label) -> bool:
    """Whether a label's text fits its width on one line, unshortened."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold)
    core.refresh()
    return core.texture.size[0] <= label.width + 1


def inside(part, box) -> bool:
    """``part`` lies within ``box``."""
    return (
        box.x - 1 <= part.x
        and part.right <= box.right + 1
        and box.y - 1 <= part.y
        and part.top <= box.top + 1
    )


def apart(one, other) -> bool:
    """Side by side or one above the other, not overlapping."""
    return (
        one.right <= other.x + 1
        or other.right <= one.x + 1
        or one.top <= other.y + 1
        or other.top <= one.y + 1
    )


def check_layout(screen, window, name):
    """Nothing sticks out of the window, every live button is a finger's
    size, and the words that matter fit."""
    frames(2)
    for button in buttons_in(screen):
        assert button.height >= 48 and button.width >= 48, (name, button.text)
        assert fits_in_window(button, window), (name, button.text)
    ids = screen.ids
    labels = [ids.status, ids.sg, ids.bar.ids.info, ids.message]
    assert one_line_fits(ids.bar.ids.info), (name, ids.bar.ids.info.text)
    if screen.clock_shown:
        labels += [ids.countdown, ids.timer_caption]
        assert ids.countdown.texture_size[1] <= ids.countdown.height + 1, name
        assert ids.countdown.texture_size[0] <= ids.countdown.width + 1, name
    if screen.board_shown:
        labels += [*ids.floor.children, *ids.table.children]
    labels += list(ids.track.children)
    for label in labels:
        assert fits_in_window(label, window), (name, getattr(label, "text", label))
    for tile in (*ids.floor.children, *ids.table.children):
        # Each text on one line: the issue and its agenda whole inside the tile.
        name_label, agenda_label = tile.ids.name, tile.ids.agenda
        assert inside(name_label, tile) and inside(agenda_label, tile), (name, tile.name)
        assert apart(name_label, agenda_label), (name, tile.name)
        if tile.command is not None:
            assert tile.height >= 48, (name, tile.name)
    for row in ids.track.children:
        name_label, figures = row.ids.name, row.ids.figures
        assert inside(name_label, row) and inside(figures, row), (name, row.agenda)
        assert apart(name_label, figures), (name, row.agenda)
    status = ids.status
    assert status.texture_size[1] <= status.height + 1, name
