"""What a game declares to the rest of the companion: one spec per game, in
the spirit of OpenSpiel's ``GameType`` and boardgame.io's ``Game`` object.

The table, the phones, the devices, the kiosk and the command line read a
game's spec and its traits; none of them names a game. A game's package
builds its ``SPEC`` without importing its engine (a kiosk resuming one game
does not pay for loading the others): the engine, the words and the kiosk
screen are named by module and imported when first needed.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .base import RuleError

if TYPE_CHECKING:
    from .base import Engine
    from .icons import Icons
    from .palette import Palette
    from .words import Words

# A home-screen variant: an option and the values a tap steps through, the
# engine's default first.
Variant = tuple[str, tuple[Any, ...]]

# How an option's value is written as text (the command line's ``--option
# key=value``): "choice", one of ``choices`` (words); "flag", true or false;
# "int", a whole number from 0; "number", any finite number; "seat", "random"
# or a seat's number counted from 0; "names", one of ``choices`` or names
# separated by commas (a list).
OptionKind = Literal["choice", "flag", "int", "number", "seat", "names"]
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


@dataclass(frozen=True)
class Option:
    """An option a game's set-up takes (``Setup.options[name]``): its
    default, how it is written as text, and ``help``, the catalog key that
    says what it does (the command line's help). ``optional``: "none" is a
    value too (None: the option is off). A value that parses may still be
    refused by the engine, which judges ranges and combinations: its check
    stays the authority."""

    name: str
    default: Any
    help: str
    kind: OptionKind = "choice"
    choices: tuple[Any, ...] = ()
    optional: bool = False

    def parse(self, text: str) -> Any:
        """The value ``text`` writes; RuleError ``setup.bad_option`` if it
        writes none of this option's."""
        word = text.strip()
        if self.optional and word.lower() == "none":
            return None
        value: Any = None
        if self.kind == "flag":
            value = True if word.lower() in _TRUE else False if word.lower() in _FALSE else None
        elif self.kind in ("choice", "names") and word in self.choices:
            value = word
        elif self.kind == "names":
            value = [name.strip() for name in word.split(",") if name.strip()] or None
        elif self.kind in ("int", "seat") and word.isascii() and word.isdigit():
            value = int(word)
        elif self.kind == "seat" and word == "random":
            value = word
        elif self.kind == "number":
            value = _number(word)
        if value is None:
            raise RuleError("setup.bad_option", option=self.name, value=text[:40])
        return value

    def metavar(self) -> str:
        """How the value is written, for the command line's help."""
        words = {
            "flag": "true|false",
            "int": "N",
            "number": "N",
            "seat": "random|SEAT",
            "names": "|".join([*map(str, self.choices), "NAME,NAME,..."]),
        }
        written = words.get(self.kind) or "|".join(map(str, self.choices))
        return f"{written}|none" if self.optional else written


# A flag option's values, the default first.
BOOLEAN = (False, True)

# Every game's ``first`` option (see ``base.checked_options``).
FIRST = Option("first", "random", "option.first", kind="seat")


def _number(word: str) -> float | None:
    """A finite number, or None (a setup is stored as JSON, which has no
    NaN or infinity)."""
    try:
        value = float(word)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class Traits:
    """What a game's table has that other layers act on.

    ``challenge_buzzer``: a standing claim may be challenged by a seat's
    button; the engine answers ``open_claim(state)`` (the kiosk's simulated
    buttons read "Challenge" while it has one).
    ``gavel``: the table's gavel input strikes; the engine answers
    ``gavel_command(state)`` (only such a game's simulated buttons offer a
    gavel).
    ``acknowledgements``: commands that hide nothing but are the seat's own
    to give, so its phone offers them ("I have seen my role").
    ``timer_pause``: the command types that pause and resume the game's
    timer, for the café's console (companion/fleet/actions.py); None: the
    game has no timer to pause.
    """

    challenge_buzzer: bool = False
    gavel: bool = False
    acknowledgements: frozenset[str] = frozenset()
    timer_pause: tuple[str, str] | None = None


@dataclass(frozen=True)
class GameSpec:
    """One game, as the companion knows it.

    ``engine``, ``words`` and ``screen`` are "module:attribute" paths
    (``screen`` may be None: the kiosk then shows the game on its generic
    screen, from the words and the legal commands). ``palette_path`` names
    the game's :class:`~.palette.Palette`, the colours its screen gives
    meaning to (None: its screen shows only the kiosk's shared ones).
    ``order`` places the game on the home screen. ``catalogs`` is the
    directory of ``<lang>.json`` files with the game's own texts (every
    text only this game uses), or several: a game on a framework reads the
    framework's too (Coup's and G54's, the claim framework's).
    ``icons_path`` names the game's
    :data:`~.icons.Icons`, an icon for each of its pieces by the name the
    game gives it (None: the game draws none).

    ``min_players`` and ``max_players``: the seats the game takes (the
    engine's set-up check and the home screen read them here). ``options``:
    every option its set-up takes, with its default (the engine fills in
    these defaults; the command line sets any of them); ``variants`` are
    those the home screen offers.

    ``private_bytes`` is the length a seat's own part of its phone's state
    (its secrets and its choices, worded) is padded to, so that every seat's
    state is as long as any other's whatever they hold: someone who sees the
    Wi-Fi's frames but not what they carry learns nothing from their lengths
    (``companion.web.server.padded``). It must be more than that part takes
    in any phase and language with the longest names, as
    tests/test_web_lengths.py plays it out: a part that outgrows it takes
    twice as many bytes (or four times...), and shows that it did. 2048
    covers Coup's, G54's and Secret Hitler's (1.0 kB, 1.4 kB, 1.4 kB at most,
    with the longest refusal).
    ``sealed_bytes`` is the length the same part takes on the seat's socket,
    where it is deflated on its own and then padded
    (``companion.web.server.sealed``); the same test holds it to that,
    with names that deflate least. 768 covers Coup's, G54's and Secret
    Hitler's (0.5 kB, 0.5 kB, 0.7 kB at most).
    """

    name: str
    order: int
    engine_path: str
    words_path: str
    min_players: int
    max_players: int
    screen_path: str | None = None
    palette_path: str | None = None
    icons_path: str | None = None
    options: tuple[Option, ...] = ()
    variants: tuple[Variant, ...] = ()
    traits: Traits = field(default_factory=Traits)
    catalogs: Path | tuple[Path, ...] | None = None
    private_bytes: int = 2048
    sealed_bytes: int = 768

    def defaults(self) -> dict[str, Any]:
        """Every option's default, by name."""
        return {option.name: option.default for option in self.options}

    def option(self, name: str) -> Option:
        """The option called ``name``; RuleError ``setup.no_such_option``
        (naming the game's options) if the game takes none by that name."""
        for option in self.options:
            if option.name == name:
                return option
        raise RuleError(
            "setup.no_such_option",
            game=self.name,
            option=name[:40],
            options=", ".join(option.name for option in self.options),
        )

    def parse_options(self, written: Iterable[tuple[str, str]]) -> dict[str, Any]:
        """The options ``written`` as (name, text) pairs set, as values."""
        return {name: self.option(name).parse(text) for name, text in written}

    @property
    def catalog_dirs(self) -> tuple[Path, ...]:
        """The directories of the game's texts (``catalogs``, as a tuple)."""
        if self.catalogs is None:
            return ()
        return (self.catalogs,) if isinstance(self.catalogs, Path) else self.catalogs

    @cached_property
    def engine(self) -> Engine:
        return _load(self.engine_path)

    @cached_property
    def words(self) -> Words:
        return _load(self.words_path)

    @cached_property
    def palette(self) -> Palette | None:
        return None if self.palette_path is None else _load(self.palette_path)

    @cached_property
    def icons(self) -> Icons:
        return {} if self.icons_path is None else _load(self.icons_path)

    def screen(self) -> type | None:
        """The game's kiosk screen class (imports Kivy), or None."""
        return None if self.screen_path is None else _load(self.screen_path)


def _load(path: str) -> Any:
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)
