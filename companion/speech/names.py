"""Players' names, said as names in each voice.

A spoken line is the catalog's words in the kiosk's language with the
seats' names in it, and a name may be written in any script. Left to itself
espeak-ng reads a Latin name in the Greek, Russian or Persian voice as an
English word ("Ann" as "an"), spells a Cyrillic or Persian name letter by
letter in a voice that does not read that script ("Cyrillic d, Cyrillic
em..."), and reads a Vietnamese letter such as "ễ" as its code point's
digits. So each word of a line in a script that is not its voice's own
(only a name can be: the catalogs' lines are written in their language's
script) is given to the voice as:

- Latin, in the Greek, Russian or Persian voice: written in that voice's
  letters (``LATIN_LETTERS``: "Ann" becomes "Αν", "Ан", "آنْ"), accents
  dropped, as a reader there would write the name down and say it. Nobody
  can tell a name's own language from its letters, so the tables follow
  how each language writes foreign names (ch as χ in Greek and as х
  before l or r in Russian, b as μπ in Greek, every vowel of a Persian
  name marked so the voice says it rather than guessing);
- Greek, Cyrillic, Persian, or Latin with Vietnamese tone letters: said by
  that language's own espeak-ng voice (an SSML ``<voice xml:lang>``), as
  its speakers say it, since no other voice's letters write those sounds;
- Latin in the English voice: as written, which espeak-ng reads as an
  English reader would (André, Léa), but for an accent on a vowel after a
  vowel, which it misreads ("Chloé" as "klor-AY"): that accent is dropped.

A voice that reads no markup (an operator's Piper voice) gets the
transliteration only: other scripts are left as written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html import escape

# Each kiosk language's own script (the first word of a letter's Unicode name).
OWN_SCRIPT = {"en": "LATIN", "el": "GREEK", "ru": "CYRILLIC", "fa": "ARABIC"}
# The espeak-ng language that says a name written in each script.
SCRIPT_VOICE = {"GREEK": "el", "CYRILLIC": "ru", "ARABIC": "fa", "VIETNAMESE": "vi"}
VIETNAMESE = "VIETNAMESE"  # Latin letters with Vietnamese tone or vowel marks

# Marks only Vietnamese puts on Latin letters (hook above, horn, dot below),
# and its crossed d; a letter with two marks (ễ, ầ) is Vietnamese too.
VIETNAMESE_MARKS = {"\u0309", "\u031b", "\u0323"}
VIETNAMESE_LETTERS = {"đ", "Đ"}
# Latin letters that are not a plain letter with marks, so NFD keeps them whole.
PLAIN = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i", "þ": "th"}
VOWELS = "aeiou"


@dataclass(frozen=True)
class Letters:
    """How one language writes a Latin name in its own letters.

    ``letters`` maps Latin letters (a digraph before its letters) to this
    script's; ``initial`` and ``after_vowel`` replace some of them at a
    word's start or after a vowel (Russian э, Persian vowels, which need a
    carrier letter there); ``final`` at a word's end (Greek ς). ``bare``
    follows a consonant with no vowel after it: Persian's sukun, which keeps
    the voice from guessing a vowel there."""

    letters: dict[str, str]
    initial: dict[str, str] = field(default_factory=dict)
    after_vowel: dict[str, str] = field(default_factory=dict)
    final: dict[str, str] = field(default_factory=dict)
    bare: str = ""


# fmt: off
LATIN_LETTERS = {
    "el": Letters(
        letters={
            "th": "θ", "ch": "χ", "ph": "φ", "ps": "ψ", "ks": "ξ", "kh": "χ",
            "sh": "σ", "zh": "ζ", "tz": "τζ", "ts": "τσ", "dz": "τζ", "ou": "ου",
            "oo": "ου", "ee": "ι", "ai": "αϊ", "oi": "οϊ", "au": "αου", "eu": "εου",
            "ya": "για", "yo": "γιο", "yu": "γιου", "ye": "γιε", "ge": "γε", "gi": "γι",
            "nd": "ντ", "mb": "μπ",
            "a": "α", "b": "μπ", "d": "ντ", "e": "ε", "f": "φ", "g": "γκ", "h": "χ",
            "i": "ι", "j": "τζ", "k": "κ", "l": "λ", "m": "μ", "n": "ν", "o": "ο",
            "p": "π", "q": "κ", "r": "ρ", "s": "σ", "t": "τ", "u": "ου", "v": "β",
            "w": "ου", "x": "ξ", "y": "ι", "z": "ζ",
        },
        final={"s": "ς", "h": ""},
    ),
    "ru": Letters(
        letters={
            "shch": "щ", "chl": "хл", "chr": "хр", "sch": "ш", "tch": "ч", "ch": "ч",
            "sh": "ш", "zh": "ж", "kh": "х", "ts": "ц", "th": "т", "ph": "ф",
            "ya": "я", "yu": "ю", "yo": "йо", "ye": "е", "ay": "ай", "ey": "ей",
            "oy": "ой", "uy": "уй", "iy": "ий", "ia": "ия", "ou": "у", "oo": "у",
            "ee": "и",
            "a": "а", "b": "б", "d": "д", "e": "е", "f": "ф", "g": "г", "h": "х",
            "i": "и", "j": "дж", "k": "к", "l": "л", "m": "м", "n": "н", "o": "о",
            "p": "п", "q": "к", "r": "р", "s": "с", "t": "т", "u": "у", "v": "в",
            "w": "в", "x": "кс", "y": "и", "z": "з",
        },
        initial={"e": "э"},
        after_vowel={"e": "э"},
    ),
    "fa": Letters(
        letters={
            "chl": "کْل", "chr": "کْر", "sh": "ش", "ch": "چ", "kh": "خ", "zh": "ژ",
            "th": "ت", "ph": "ف", "gh": "ق", "ou": "و", "oo": "و", "ee": "ی",
            "a": "ا", "b": "ب", "d": "د", "e": "\u0650", "f": "ف", "g": "گ", "h": "ه",
            "i": "ی", "j": "ج", "k": "ک", "l": "ل", "m": "م", "n": "ن", "o": "\u064f",
            "p": "پ", "q": "ک", "r": "ر", "s": "س", "t": "ت", "u": "و", "v": "و",
            "w": "و", "x": "کْس", "y": "ی", "z": "ز",
        },
        # A vowel starting a word sits on alef; e or o after a vowel on hamza.
        # Short e and o are kasra and damma, so the voice says them.
        initial={"a": "آ", "e": "اِ", "i": "ای", "o": "اُ", "u": "او", "ou": "او"},
        after_vowel={"e": "ئِ", "o": "ئُ"},
        bare="\u0652",  # sukun
    ),
}
# fmt: on

# A word (its letters) and the punctuation right after it.
WORD = re.compile(r"([^\W\d_]+)([^\w\s]*)")


def script_of(word: str) -> str:
    """The script a word is written in: its first letter's (VIETNAMESE for
    Latin with a mark only Vietnamese uses)."""
    script = unicodedata.name(word[0], "UNKNOWN").split()[0]
    if script == "LATIN" and is_vietnamese(word):
        return VIETNAMESE
    return script


def is_vietnamese(word: str) -> bool:
    if any(letter in VIETNAMESE_LETTERS for letter in word):
        return True
    for letter in word:
        marks = [m for m in unicodedata.normalize("NFD", letter)[1:] if unicodedata.combining(m)]
        if len(marks) > 1 or VIETNAMESE_MARKS.intersection(marks):
            return True
    return False


def plain_latin(word: str) -> str:
    """``word`` in lower-case Latin letters without accents, spelled as the
    tables read it: doubled consonants once ("Ann": "an"), c as k or s,
    and y between consonants or at the end as i."""
    word = "".join(PLAIN.get(letter, letter) for letter in word.lower())
    word = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
    word = re.sub(r"([^aeiou])\1", r"\1", word)
    word = re.sub(r"ck", "k", word)
    word = re.sub(r"c(?=[eiy])", "s", word)
    word = re.sub(r"c(?!h)", "k", word)
    return re.sub(r"(?<=[^aeiou])y(?![aeiou])", "i", word)


def transliterate(word: str, language: str) -> str:
    """A Latin ``word`` in ``language``'s letters (``LATIN_LETTERS``)."""
    table = LATIN_LETTERS[language]
    plain = plain_latin(word)
    longest = max(map(len, table.letters))
    parts: list[tuple[str, str]] = []  # (Latin letters, written)
    at = 0
    while at < len(plain):
        for size in range(min(longest, len(plain) - at), 0, -1):
            latin = plain[at : at + size]
            if latin in table.letters or size == 1:
                break
        at += len(latin)
        if at == len(plain) and latin in table.final:
            written = table.final[latin]
        elif not parts and latin in table.initial:
            written = table.initial[latin]
        elif parts and parts[-1][0][-1] in VOWELS and latin in table.after_vowel:
            written = table.after_vowel[latin]
        else:
            written = table.letters.get(latin, latin)
        parts.append((latin, written))
    out = ""
    for i, (latin, written) in enumerate(parts):
        following = parts[i + 1][0] if i + 1 < len(parts) else ""
        consonant = latin[-1] not in VOWELS + "y"
        out += written + (table.bare if consonant and following[:1] not in VOWELS + "y" else "")
    return out[:1].upper() + out[1:]


def english(word: str) -> str:
    """A Latin name for the English voice: as written, but an accent on a
    vowel right after a vowel dropped (espeak-ng reads "oé" as "or-AY")."""
    out = ""
    for letter in word:
        base = unicodedata.normalize("NFD", letter)[0]
        out += base if out and out[-1].lower() in VOWELS and base.lower() in VOWELS else letter
    return out


def spoken(text: str, language: str, markup: bool) -> str:
    """``text`` as the ``language`` voice is given it, every name said as a
    name (the module's docstring says how). With ``markup`` the result is
    SSML for espeak-ng's ``-m``: the text escaped, and a name in another
    script (its words together, with the punctuation after it: a Persian
    comma left after the switch back is read out as "comma") wrapped in
    that script's voice."""
    text = unicodedata.normalize("NFC", text)
    own = OWN_SCRIPT[language]
    out, at = "", 0
    for script, words in runs(text):
        start, end = words[0].start(), words[-1].end()
        out += quoted(text[at:start], markup)
        at = end
        if script != own and script in SCRIPT_VOICE and markup:
            said = quoted(text[start:end], markup)
            out += f'<voice xml:lang="{SCRIPT_VOICE[script]}">{said}</voice>'
            continue
        for i, word in enumerate(words):
            if i:
                out += quoted(text[words[i - 1].end() : word.start()], markup)
            letters, tail = word.groups()
            if script == "LATIN" and language in LATIN_LETTERS:
                letters = transliterate(letters, language)
            elif script == "LATIN" and language == "en":
                letters = english(letters)
            out += quoted(letters + tail, markup)
    return out + quoted(text[at:], markup)


def runs(text: str) -> list[tuple[str, list[re.Match[str]]]]:
    """The words of ``text`` by script, a name's words together: words of
    one script with only spaces between them."""
    found: list[tuple[str, list[re.Match[str]]]] = []
    for word in WORD.finditer(text):
        script = script_of(word.group(1))
        if found and found[-1][0] == script:
            last = found[-1][1][-1]
            if not last.group(2) and not text[last.end() : word.start()].strip():
                found[-1][1].append(word)
                continue
        found.append((script, [word]))
    return found


def quoted(text: str, markup: bool) -> str:
    return escape(text, quote=False) if markup else text
