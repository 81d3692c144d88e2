"""Table Companion: a touchscreen referee beside a physical board game."""
__version__ = "0.1.0"
