"""The registry of games. Each game's package under ``companion.games``
declares its :class:`~.spec.GameSpec` as ``SPEC``; a game installed as its
own distribution names its spec in the entry-point group ``GROUP``
(docs/games/writing-a-game.md); a game kept elsewhere (a test's) calls
:func:`register`. Building the registry imports only the specs: an engine
is imported when its game is first asked for, so a kiosk resuming one game
does not pay for loading the rest."""

from __future__ import annotations

import importlib
import logging
import pkgutil
from importlib.metadata import EntryPoint, entry_points

from .base import Engine, RuleError
from .spec import GameSpec

GROUP = "table_companion.games"
log = logging.getLogger(__name__)

_REGISTERED: dict[str, GameSpec] = {}
_FOUND = False


def register(spec: GameSpec) -> GameSpec:
    """Make a game known (by its spec's name); returns the spec."""
    from ..i18n import add_catalogs

    for directory in spec.catalog_dirs:
        add_catalogs(directory)
    _REGISTERED[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Forget a game registered with :func:`register` (a test's, at its end)."""
    spec = _REGISTERED.pop(name, None)
    if spec is None:
        return
    from ..i18n import remove_catalogs

    still_read = {d for other in _REGISTERED.values() for d in other.catalog_dirs}
    for directory in set(spec.catalog_dirs) - still_read:  # a framework's stay for its other games
        remove_catalogs(directory)


def _find_packages() -> None:
    """Register every game package in this directory, then every installed
    game of the entry-point group, once."""
    global _FOUND
    if _FOUND:
        return
    _FOUND = True
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            spec = getattr(importlib.import_module(f"{__name__}.{module.name}"), "SPEC", None)
            if isinstance(spec, GameSpec):
                register(spec)
    for entry in entry_points(group=GROUP):
        spec = _installed(entry)
        if spec is not None:
            register(spec)


def _installed(entry: EntryPoint) -> GameSpec | None:
    """The spec an installed game's entry point names, or None (and one
    warning) for one that cannot be played: its code fails to import, it
    names no GameSpec, or its name is a game's already known. Someone else's
    broken game is skipped; it never stops the kiosk from starting."""
    try:
        spec = entry.load()
    except Exception as exc:  # any error of another distribution's code
        why = f"it cannot be imported: {type(exc).__name__}: {' '.join(str(exc).split())}"
    else:
        if isinstance(spec, GameSpec) and spec.name not in _REGISTERED:
            return spec
        why = (
            f"it names a {type(spec).__name__}, not a GameSpec"
            if not isinstance(spec, GameSpec)
            else f"a game named {spec.name!r} is already known"
        )
    where = f"{entry.value} ({entry.dist.name} {entry.dist.version})" if entry.dist else entry.value
    log.warning("the installed game %r from %s is skipped: %s", entry.name, where, why)
    return None


def specs() -> list[GameSpec]:
    """Every known game, in the home screen's order."""
    _find_packages()
    return sorted(_REGISTERED.values(), key=lambda spec: (spec.order, spec.name))


def names() -> list[str]:
    return [spec.name for spec in specs()]


def spec_for(name: str) -> GameSpec:
    """A game's spec; an unknown game is a RuleError (a setup from a file,
    a command line, an old store)."""
    _find_packages()
    spec = _REGISTERED.get(name) if isinstance(name, str) else None
    if spec is None:
        raise RuleError("setup.unknown_game", game=str(name)[:40])
    return spec


def engine_for(name: str) -> Engine:
    return spec_for(name).engine
