"""The on-screen keyboard's layouts: the letters of each kiosk language in
the order of that language's own standard keyboard (QWERTY; the Greek
layout; ЙЦУКЕН; the Persian standard, ISIRI 9147), and a page of digits and
signs. Plain data: the keyboard (``touch_keyboard``) draws and types them.

Each layout's rows are strings, one character a key. A layout may have an
accent key, a dead key that puts its accent on the letter typed next, as a
Greek keyboard's tonos does (ά έ ή ί ό ύ ώ): each tap of it steps to the
next accent it offers (Greek: tonos, dialytika; Latin: ´ ` ^ ¨ ~ ¸, for
Chloé, Zoë, Ñ, Ç), then to none. Persian's rows 2 and 3 end in the keys a
name needs that the standard layout reaches with shift (آ, ژ, ء in row 3, ئ
in row 2: «عائشه», «علاء»); its half-space (the zero-width non-joiner, as
in «می‌کشد») is a key of the bottom row."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

ACCENT = "\u0301"  # where a layout's rows put its accent key (shown as its first)
ZWNJ = "\u200c"  # Persian's half-space


@dataclass(frozen=True)
class Layout:
    lang: str
    rows: tuple[str, str, str]
    cased: bool = True  # has capitals: a shift key, and a capital to start a word
    extra: str = ""  # the bottom row's keys beside the space bar
    # The accent key's steps: (what the key shows, the combining mark it adds).
    accents: tuple[tuple[str, str], ...] = ()


LATIN_ACCENTS = (
    ("´", "\u0301"),
    ("`", "\u0300"),
    ("^", "\u0302"),
    ("¨", "\u0308"),
    ("~", "\u0303"),
    ("¸", "\u0327"),
)
GREEK_ACCENTS = (("΄", "\u0301"), ("¨", "\u0308"))

LETTERS = {
    "en": Layout(
        "en", ("qwertyuiop", "asdfghjkl" + ACCENT, "zxcvbnm"), extra="'-", accents=LATIN_ACCENTS
    ),
    "el": Layout(
        "el", ("ςερτυθιοπ", "ασδφγηξκλ" + ACCENT, "ζχψωβνμ"), extra="'-", accents=GREEK_ACCENTS
    ),
    "ru": Layout("ru", ("йцукенгшщзхъ", "фывапролджэ", "ячсмитьбюё"), extra="'-"),
    "fa": Layout("fa", ("ضصثقفغعهخحجچ", "شسیبلاتنمکگئ", "ظطزرذدپوژآء"), cased=False, extra=ZWNJ),
}

SIGNS = ("1234567890", "@#&*()_-+=", ".,!?'\":;/%")
DIGITS = ("123", "456", "789", "0")


def accented(letter: str, mark: str) -> str | None:
    """The letter with the combining ``mark`` as one character (α + tonos →
    ά, e + acute → é, N + tilde → Ñ), or None if no such letter exists."""
    composed = unicodedata.normalize("NFC", letter + mark)
    return composed if len(composed) == 1 else None


def languages_after(lang: str, offered: tuple[str, ...]) -> tuple[str, ...]:
    """The languages the language key steps through, starting at ``lang``."""
    order = [code for code in offered if code in LETTERS] or ["en"]
    start = order.index(lang) if lang in order else 0
    return tuple(order[start:] + order[:start])
