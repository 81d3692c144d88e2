"""From instructions counted here to time on a Raspberry Pi (provisional)."""

from __future__ import annotations

PI4_PER_MS = 500_000.0
PI5_PER_MS = 1_500_000.0


def pi4_ms(instructions: float) -> float:
    return instructions / PI4_PER_MS


def pi5_ms(instructions: float) -> float:
    return instructions / PI5_PER_MS
