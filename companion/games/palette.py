"""Colours that carry meaning, gathered by name, and the pairs of them a
person must tell apart (tests/test_colour_vision.py checks each pair under
simulated colour-vision deficiencies). Kivy-free plain data: a game's package
declares its own through its spec (``GameSpec.palette``), the kiosk's shared
colours are in ``companion.ui.widgets.palette``. A colour here always comes with a word,
a shape or an icon that says the same (docs/accessibility.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

RGBA = tuple[float, float, float, float]


@dataclass(frozen=True)
class Palette:
    """``colours`` by name; ``pairs``: names of colours that mean different
    things where a person sees them side by side (two votes, two parties, a
    seat whose turn it is beside one whose turn it is not)."""

    name: str
    colours: Mapping[str, RGBA]
    pairs: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        unknown = {n for pair in self.pairs for n in pair} - set(self.colours)
        if unknown:
            raise ValueError(f"{self.name}: pairs name unknown colours {sorted(unknown)}")


def hex_colour(rgba: RGBA) -> str:
    """A colour as Kivy markup's ``[color=...]`` wants it: "7fd88f"."""
    return "".join(f"{round(c * 255):02x}" for c in rgba[:3])
