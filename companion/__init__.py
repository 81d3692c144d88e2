"""Table Companion: a touchscreen referee beside a physical board game."""

__version__ = "0.2.0"
