"""The kiosk's shared colours that carry meaning, by name: the kv files
import this module (``#:import palette companion.ui.widgets.palette``) and the screens
read its names. A game's own colours are in its package (its spec's
``palette``). Each pair in ``PALETTE.pairs`` stays apart under simulated
deuteranopia, protanopia and tritanopia (tests/test_colour_vision.py), and
none of these colours says anything alone: a seat whose turn it is is marked
by a sign as well, a vote by its word, a refusal by its sentence."""

from __future__ import annotations

from ...games.palette import RGBA, Palette

SCREEN: RGBA = (0.09, 0.1, 0.1, 1)  # every table screen's background
TEXT: RGBA = (0.92, 0.92, 0.88, 1)
ACCENT: RGBA = (1, 0.86, 0.45, 1)  # amber: what the table is about to do, a caption, a result
ALERT: RGBA = (1, 0.45, 0.6, 1)  # a refused command, an error: rose, not amber's neighbour red
SEAT_ACTIVE: RGBA = (0.40, 0.28, 0.02, 1)  # the seat whose turn (or office) it is
SEAT_WAITING: RGBA = (0.08, 0.26, 0.48, 1)  # a seat the table waits for
SEAT_IDLE: RGBA = (0.17, 0.17, 0.16, 1)
CHIP_VOTED: RGBA = (0.25, 0.45, 0.62, 1)  # a ballot's seat that has voted...
CHIP_WAITING: RGBA = (0.22, 0.24, 0.26, 1)  # ... and one that has not
BUTTON_CHOSEN: RGBA = (0.85, 0.66, 0.2, 1)  # a chosen option (home, settings, keyboard)
BUTTON: RGBA = (0.27, 0.31, 0.35, 1)
# A vote's face on the generic screen, by its choice's place in the ballot:
# blue, orange, grey (a game with its own screen colours its own votes).
CHOICES: tuple[RGBA, ...] = ((0.10, 0.40, 0.75, 1), (0.72, 0.26, 0.0, 1), (0.34, 0.34, 0.34, 1))

PALETTE = Palette(
    name="kiosk",
    colours={
        "text": TEXT,
        "accent": ACCENT,
        "alert": ALERT,
        "seat_active": SEAT_ACTIVE,
        "seat_waiting": SEAT_WAITING,
        "seat_idle": SEAT_IDLE,
        "chip_voted": CHIP_VOTED,
        "chip_waiting": CHIP_WAITING,
        "button_chosen": BUTTON_CHOSEN,
        "button": BUTTON,
        **{f"choice_{i}": colour for i, colour in enumerate(CHOICES)},
    },
    pairs=(
        ("accent", "alert"),
        ("alert", "text"),
        ("seat_active", "seat_waiting"),
        ("seat_active", "seat_idle"),
        ("seat_waiting", "seat_idle"),
        ("chip_voted", "chip_waiting"),
        ("button_chosen", "button"),
        ("choice_0", "choice_1"),
        ("choice_0", "choice_2"),
        ("choice_1", "choice_2"),
    ),
)
