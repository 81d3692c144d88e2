"""The registry of game engines, by name. An engine's module is imported
when its game is first asked for: a kiosk resuming one game does not pay
for loading the other three."""
from __future__ import annotations

import importlib

from .base import Engine, RuleError

# Each game's package, which holds its ENGINE.
PACKAGES = {"coup": "coup", "g54": "g54", "secret_hitler": "secret_hitler",
            "article27": "article27"}


def engine_for(name: str) -> Engine:
    package = PACKAGES.get(name) if isinstance(name, str) else None
    if package is None:
        raise RuleError("setup.unknown_game", game=str(name)[:40])
    return importlib.import_module(f"{__package__}.{package}").ENGINE
