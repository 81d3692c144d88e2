"""The registry of game engines, by name."""
from __future__ import annotations

from .base import Engine, RuleError
from .article27 import ENGINE as ARTICLE27_ENGINE
from .coup import ENGINE as COUP_ENGINE
from .g54 import ENGINE as G54_ENGINE
from .secret_hitler import ENGINE as SECRET_HITLER_ENGINE

GAMES: dict[str, Engine] = {engine.name: engine for engine in
                            (COUP_ENGINE, G54_ENGINE, SECRET_HITLER_ENGINE, ARTICLE27_ENGINE)}


def engine_for(name: str) -> Engine:
    engine = GAMES.get(name) if isinstance(name, str) else None
    if engine is None:
        raise RuleError("setup.unknown_game", game=str(name)[:40])
    return engine
