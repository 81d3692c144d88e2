"""Message catalogs: every string a person sees is looked up here by key.

Catalogs are JSON files, one per language, mapping a key to a text with
``{name}`` fields. A text may instead be an object of plural forms
(``one``/``few``/``many``/``other``) chosen by the ``count`` argument with the
language's plural rule. A key missing from a language falls back to English,
and a key missing from English shows as the key itself (a test keeps English
complete).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from .calendar import jalali

LANGUAGES = ("en", "el", "ru", "fa")
DEFAULT_LANGUAGE = "en"
RIGHT_TO_LEFT = frozenset(("fa",))
JALALI = frozenset(("fa",))  # readers who date by the Solar Hijri calendar
# The plural forms each catalog gives a counted text (CLDR categories).
PLURAL_FORMS = {
    "en": {"one", "other"},
    "el": {"one", "other"},
    "ru": {"one", "few", "many"},
    "fa": {"one", "other"},
}
_HERE = Path(__file__).parent
log = logging.getLogger(__name__)

# Arguments that name a seat are shown as the player's name; arguments that
# name a game term are translated through their own catalog entries.
_SEAT_ARGS = frozenset(("player", "target", "challenger", "blocker", "seat", "to"))
_TERM_ARGS = {
    "character": "character.",
    "action": "action.",
    "game": "game.",
    "policy": "policy.",
    "issue": "issue.",
    "agenda": "agenda.",
    "characters": "character.",
    "role": "character.",
}


# Directories of a game's own catalogs (``<lang>.json``): every game keeps
# its texts in its own package (see ``GameSpec.catalogs``); registering the
# game adds them here.
_EXTRA: list[Path] = []


@cache
def catalog(lang: str) -> dict[str, Any]:
    """The texts of ``lang``: the companion's, then those of the games (which
    never replace one of the companion's). Finding the games registers their
    catalogs: a text of a game reads whole even where no game was asked for
    yet (the café's console, a log line at start-up)."""
    from ..games import specs

    specs()
    texts: dict[str, Any] = {}
    for directory in [*_EXTRA, _HERE]:
        path = directory / f"{lang}.json"
        if path.exists():
            texts.update(json.loads(path.read_text(encoding="utf-8")))
    return texts


def add_catalogs(directory: Path) -> None:
    if directory not in _EXTRA:
        _EXTRA.append(directory)
        _catalogs_changed()


def remove_catalogs(directory: Path) -> None:
    if directory in _EXTRA:
        _EXTRA.remove(directory)
        _catalogs_changed()


def _catalogs_changed() -> None:
    catalog.cache_clear()
    _said.clear()


def plural_category(lang: str, n: int) -> str:
    """CLDR plural category of an integer for the languages we ship."""
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "fa":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def direction(lang: str) -> str:
    """The writing direction of a language: "rtl" or "ltr"."""
    return "rtl" if lang in RIGHT_TO_LEFT else "ltr"


# Persian is read with its own digits (and decimal separator) in running text.
_NATIVE_DIGITS = {"fa": str.maketrans("0123456789.", "۰۱۲۳۴۵۶۷۸۹٫")}
_LIST_SEPARATOR = {"fa": "، "}
_NUMERAL = re.compile(r"[0-9]+([.:][0-9]+)*")
# A value written the other way from the sentence around it is set apart (a
# first-strong isolate): a Latin name at the start of a Persian line does not
# turn the whole line left to right, nor a Persian name typed at the kiosk
# ("ناتاشا, choose an action.") an English line right to left.
_LEFT_TO_RIGHT = re.compile("[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]")
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_ISOLATE = "\u2068{}\u2069"


def number(value: Any, lang: str) -> str:
    """A number written as a reader of ``lang`` expects (Persian digits in fa)."""
    return str(value).translate(_NATIVE_DIGITS.get(lang, {}))


def join_list(items: Iterable[str], lang: str) -> str:
    """Items in a list as ``lang`` writes one (each Latin name set apart in
    a right-to-left language, so the list itself runs right to left)."""
    return _LIST_SEPARATOR.get(lang, ", ").join(_shown(item, lang) for item in items)


def _shown(value: Any, lang: str) -> Any:
    """A formatting argument as it reads inside a text of ``lang``."""
    if isinstance(value, bool):
        return value
    if lang not in RIGHT_TO_LEFT:
        if isinstance(value, str) and _RIGHT_TO_LEFT.search(value) and _ISOLATE[0] not in value:
            return _ISOLATE.format(value)
        return value
    if isinstance(value, (int, float)):
        return number(value, lang)
    if isinstance(value, str):
        if _NUMERAL.fullmatch(value):
            return number(value, lang)
        if _LEFT_TO_RIGHT.search(value) and _ISOLATE[0] not in value:
            return _ISOLATE.format(value)
    return value


class _Fields(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def translate(key: str, lang: str = DEFAULT_LANGUAGE, **args: Any) -> str:
    text: str | dict[str, str] | None = catalog(lang).get(key)  # a text, or its plural forms
    if text is None and lang != DEFAULT_LANGUAGE:
        text = catalog(DEFAULT_LANGUAGE).get(key)
        lang = DEFAULT_LANGUAGE
    if text is None:
        return key
    if isinstance(text, dict):
        count = args.get("count", 0)
        try:
            form = plural_category(lang, int(count))
        except (TypeError, ValueError, OverflowError):  # "x", NaN, a list: no count
            log.warning("i18n: %s: a count of %.40r is no number; 'other' shown", key, count)
            form = "other"
        text = text.get(form, text.get("other", key))
    fields = _Fields({name: _shown(value, lang) for name, value in args.items()})
    try:
        return text.format_map(fields)
    except (ValueError, TypeError, AttributeError, IndexError) as exc:
        # A field's format that its argument cannot take ("{count:d}" given
        # a text): the text as it is, its fields unfilled, never an error.
        log.warning("i18n: %s cannot be formatted with %.80r: %s", key, args, exc)
        return text


# Texts already worded, by (language, seat names, key, arguments): a table's
# phones and screens word the same lines again at every change (a seat's
# secrets, the quick reference, the tracks), in four languages at once.
_said: dict[tuple[Any, ...], str] = {}
SAID_KEPT = 8192  # then the oldest are forgotten


class Messages:
    """Translation for one audience: a language plus the table's seat names."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] = ()) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self.names = names

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @names.setter
    def names(self, names: Sequence[str]) -> None:
        self._names = tuple(names)

    def __call__(self, key: str, **args: Any) -> str:
        """The text of ``key`` in this language, its fields filled from
        ``args`` (a seat's number as its name, a term in words). Worded once
        for the same arguments when each is a text or a whole number (a
        ``True`` or a ``1.0`` would be the same key as a 1, and reads
        otherwise)."""
        for value in args.values():
            if type(value) is not str and type(value) is not int:
                return self._say(key, args)
        said_key = (self.lang, self._names, key, *args.items())
        said = _said.get(said_key)
        if said is None:
            said = self._say(key, args)
            if len(_said) >= SAID_KEPT:
                del _said[next(iter(_said))]
            _said[said_key] = said
        return said

    def _say(self, key: str, args: dict[str, Any]) -> str:
        shown = {}
        for name, value in args.items():
            if name in _SEAT_ARGS and type(value) is int and 0 <= value < len(self.names):
                value = self.names[value]
            elif name in _TERM_ARGS and isinstance(value, str):
                value = self._term(_TERM_ARGS[name] + value, value)
            elif name in _TERM_ARGS and isinstance(value, (list, tuple)):  # a list of terms
                value = join_list(
                    [self._term(_TERM_ARGS[name] + str(v), str(v)) for v in value], self.lang
                )
            shown[name] = value
        return translate(key, self.lang, **shown)

    def number(self, value: Any) -> str:
        return number(value, self.lang)

    def join(self, items: Iterable[str]) -> str:
        return join_list(items, self.lang)

    def _term(self, key: str, value: str) -> str:
        """A game term in this language (a value that is already words stays)."""
        return translate(key, self.lang) if key in catalog(DEFAULT_LANGUAGE) else value

    def date_time(self, moment: datetime) -> str:
        """A date and time as this reader writes them (a Persian reader by
        the Solar Hijri calendar)."""
        year, month, day = (
            jalali(moment.date())
            if self.lang in JALALI
            else (moment.year, moment.month, moment.day)
        )
        return self(
            "format.date_time",
            year=year,
            month=f"{month:02d}",
            day=f"{day:02d}",
            hour=f"{moment.hour:02d}",
            minute=f"{moment.minute:02d}",
        )

    def log_line(self, key: str, args: dict[str, Any]) -> str:
        """A line of the game's log, marked when it was undone."""
        line = self(key, **args)
        return self("ui.log_undone", line=line) if args.get("undone") else line

    def error(self, exc: Exception) -> str:
        """The message for an error a person caused (a RuleError), or a calm
        generic one for anything else: never a traceback."""
        key = getattr(exc, "key", None)
        if key is None:
            return translate("error.unexpected", self.lang)
        return self(key, **getattr(exc, "args_", {}))
