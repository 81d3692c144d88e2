"""Players' names said as names in every voice (docs/speech.md, "Names").

What a listener hears is asserted as espeak-ng's phonemes (``-x``) for what
the kiosk's voice is given, set beside the phonemes of the name as a reader
of that language writes it, or as its own language's voice says it: a Latin
name in the Greek voice sounds as its Greek spelling does, never as an
English word; a Cyrillic name in the Greek voice as the Russian voice says
it, never "Cyrillic d, Cyrillic em..."; "Nguyễn" as the Vietnamese voice
says it, never its code point's digits. The line a name goes into keeps its
own words.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from companion.games import names, spec_for
from companion.i18n import LANGUAGES, Messages
from companion.speech.cache import SpeechCache
from companion.speech.voices import ESPEAK_VOICES, Voice, espeak_voice


@pytest.fixture(autouse=True)
def espeak_ng_is_here() -> None:
    """Not a skip: without espeak-ng these tests would pass with nothing
    heard (scripts/system-packages.sh installs it)."""
    assert shutil.which("espeak-ng"), "espeak-ng is missing (scripts/system-packages.sh)"


def phonemes(argv: list[str], text: str) -> str:
    done = subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return " ".join(done.stdout.split())


def heard(lang: str, text: str) -> str:
    """What the kiosk's espeak-ng voice for ``lang`` says for ``text``: its
    own command line, writing phonemes in place of a WAV file."""
    voice = espeak_voice(lang)
    argv = [arg for arg in voice.argv if arg not in ("-w", "{wav}")]
    return phonemes([*argv, "-q", "-x"], voice.said(text))


def native(espeak_language: str, text: str) -> str:
    """``text`` said by espeak-ng's ``espeak_language`` voice, plainly."""
    return phonemes(["espeak-ng", "-v", espeak_language, "-q", "-x", "--stdin"], text)


# A Latin name in each voice sounds as a reader there writes it down.
WRITTEN = [
    ("el", "Ann", "Αν"),
    ("ru", "Ann", "Ан"),
    ("fa", "Ann", "آن"),
    ("el", "Chloé", "Χλοε"),
    ("ru", "Chloé", "Хлоэ"),
    ("fa", "Chloé", "کْلُئِ"),  # with its vowels marked: klo-e
    ("el", "Anastasia", "Αναστασια"),
    ("ru", "Anastasia", "Анастасия"),
    ("fa", "Irina", "ایرینا"),
    ("el", "Eleftheria", "Ελεφθερια"),
    ("ru", "Dmitri", "Дмитри"),
    ("el", "Jean-Luc", "Τζεαν-Λουκ"),
]


@pytest.mark.parametrize(("lang", "name", "written"), WRITTEN)
def test_a_latin_name_sounds_as_the_voices_own_letters_write_it(lang, name, written):
    said = heard(lang, name)
    assert said == native(ESPEAK_VOICES[lang], written), (name, said)
    assert "(en)" not in said, "not read as an English word"


def test_a_latin_name_in_the_english_voice_keeps_its_accents_but_not_klor_ay():
    assert heard("en", "Chloé") == native("en-gb", "Chloe")  # was "kl@r-'eI"
    assert "r-" not in heard("en", "Zoé")
    assert heard("en", "Léa") == native("en-gb", "Léa") != native("en-gb", "Lea")
    assert heard("en", "Ann") == native("en-gb", "Ann")


# A name in a script the voice does not read is said by its script's voice.
OTHER_SCRIPTS = [("Γιώργος", "el"), ("Дмитрий", "ru"), ("فرهناز", "fa")]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("name", "its_voice"), OTHER_SCRIPTS)
def test_a_name_in_another_script_is_said_by_that_scripts_voice(lang, name, its_voice):
    said = heard(lang, name)
    assert said == native(its_voice, name), (lang, name, said)
    for spelled in ("sI2r'IlIk", "'ar@bIk", "g'am@"):  # "Cyrillic", "Arabic", "gamma"
        assert spelled not in said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_vietnamese_name_is_said_by_the_vietnamese_voice_not_as_digits(lang):
    for name in ("Nguyễn", "Trần Thị Hương"):
        said = heard(lang, name)
        assert said == native("vi", name), (lang, name, said)
    # It was read as "letter 1 e c 5" (its code point) in every voice.
    for digit in ("1", "5"):
        assert native(ESPEAK_VOICES[lang], digit) not in heard(lang, "Nguyễn").split()


NAMES = ["Chloé", "Γιώργος", "Дмитрий", "فرهناز", "Nguyễn"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_the_line_a_name_goes_into_keeps_its_own_words(lang, name):
    """ "{player}, your turn.": the name as above, then the line's own words
    as the voice says them without any name (a Persian comma after a switch
    of voice was read out as the word "comma")."""
    line = Messages(lang, [name])("speech.claim.turn", player=0)
    own_words = line.split(name, 1)[1].lstrip("\u2069,، ")  # a Persian name ends its isolate
    assert heard(lang, line) == f"{heard(lang, name)} {native(ESPEAK_VOICES[lang], own_words)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_with_no_name_from_elsewhere_is_given_to_the_voice_as_written(lang):
    """Only a name is ever respelled or handed to another voice: every line
    of every game, its seats named in the language's own letters, goes to
    the voice unchanged."""
    own = {"en": "Ann", "el": "Άννα", "ru": "Анна", "fa": "آنا"}[lang]
    t = Messages(lang, [own] * 10)
    voice = espeak_voice(lang)
    lines = [line for game in names() for line in spec_for(game).words.spoken_lines(t)]
    assert len(lines) > 10
    for line in lines:
        assert voice.said(line) == line


def test_a_voice_without_markup_gets_the_transliteration_and_other_scripts_as_written():
    """An operator's Piper voice reads plain text: no SSML is given to it."""
    piper = Voice("piper-el_GR-test", "el", ("piper",))
    assert piper.said("Ann, η σειρά σου.") == "Αν, η σειρά σου."
    assert piper.said("Дмитрий, η σειρά σου.") == "Дмитрий, η σειρά σου."


def test_a_line_is_rendered_again_when_its_name_is_said_anew(tmp_path):
    """A file is named by what the voice is given, so a kiosk's cache from
    before a name was said as a name does not play the old reading."""
    cache = SpeechCache(tmp_path, espeak_voice("el"))
    line = "Ann, η σειρά σου."
    assert cache.path_for(line) == cache.path_for("Αν, η σειρά σου.")
