"""The kiosk's narration: every line a game may say renders, in every
language, to a WAV that holds speech of a sane length (espeak-ng, Debian's
package, for real); lines play through the kiosk's sounds, after them, at
their volume, and not at all when muted or turned off; the screens say their
cues when the table does what they announce."""

from __future__ import annotations

import array
import math
import shutil
import sys
import time
import wave
from pathlib import Path

import pytest
from a27_helpers import DI, HU, NU, PK, SM, FakeClock
from a27_kiosk_helpers import kiosk_table
from helpers import coup_with_countdown

from companion.games import names, spec_for
from companion.i18n import LANGUAGES, Messages
from companion.speech.cache import SpeechCache, wav_length
from companion.speech.voices import VoiceError, espeak_voice, find_voice

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is missing (scripts/system-packages.sh)"
)
# The longest names a seat may take, in each script, so the lines are as long as they get.
SEATS = ["Anastasia", "Bartholomew", "Chrysanthi", "Dmitri", "Eleftheria", "Farahnaz"] + [
    "Georgios",
    "Hamid",
    "Irina",
    "Jasmin",
]
QUIET = 300  # RMS of 16-bit samples: below this a file is silence (speech is thousands)


def loudness(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2, "16-bit samples"
        samples = array.array("h", wav.readframes(wav.getnframes()))
    if sys.byteorder != "little":
        samples.byteswap()
    return math.sqrt(sum(s * s for s in samples) / len(samples))


def sane_seconds(line: str) -> tuple[float, float]:
    """How long a line may take to say: at least a short word's worth, at
    most about a slow reader's pace for its letters (and a little more)."""
    return 0.3, 1.5 + 0.12 * len(line)


def every_line(lang: str) -> list[str]:
    t = Messages(lang, SEATS)
    return list(
        dict.fromkeys(line for game in names() for line in spec_for(game).words.spoken_lines(t))
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_of_every_game_renders_to_speech_of_a_sane_length(tmp_path, lang):
    cache = SpeechCache(tmp_path, find_voice(lang, tmp_path / "no-voices"))
    lines = every_line(lang)
    assert len(lines) > 10
    for line in lines:
        rendered = cache.render(line)
        low, high = sane_seconds(line)
        assert low <= rendered.seconds <= high, (line, rendered.seconds)
        assert loudness(rendered.path) > QUIET, f"silent: {line!r}"
        assert cache.find(line) == rendered, "a rendered line is found again, not rendered"


def test_a_line_is_rendered_once_per_voice_and_text(tmp_path):
    english = SpeechCache(tmp_path, espeak_voice("en"))
    first = english.render("One minute left.")
    stamp = first.path.stat().st_mtime_ns
    time.sleep(0.01)
    assert english.render("One minute left.").path.stat().st_mtime_ns == stamp
    assert english.path_for("Time is up.") != first.path
    assert SpeechCache(tmp_path, espeak_voice("el")).path_for("One minute left.") != first.path


def test_a_half_written_file_is_rendered_again_and_a_voice_that_fails_says_so(tmp_path):
    cache = SpeechCache(tmp_path, espeak_voice("en"))
    line = "The vote is open."
    cache.path_for(line).write_bytes(b"RIFF\x00\x00")  # a power cut mid-render
    assert cache.find(line) is None
    assert wav_length(cache.render(line).path) is not None

    broken = espeak_voice("en", program=str(tmp_path / "no-such-espeak"))
    with pytest.raises(VoiceError):
        SpeechCache(tmp_path / "b", broken).render(line)
    assert not list((tmp_path / "b").glob("*.wav")), "nothing half made is kept"


def test_an_operators_piper_voice_is_used_for_its_language(tmp_path):
    """A Piper voice in the data directory wins over espeak-ng for its
    language. The ``piper`` here is a stand-in program with Piper's command
    line (--model, --output_file, text on stdin) that speaks with espeak-ng."""
    voices = tmp_path / "voices"
    (voices / "el").mkdir(parents=True)
    (voices / "el" / "el_GR-test-low.onnx").write_bytes(b"model")
    (voices / "el" / "el_GR-test-low.onnx.json").write_text("{}")
    piper = voices / "piper" / "piper"
    piper.parent.mkdir()
    piper.write_text(
        "#!/bin/sh\n"
        '[ "$1" = --model ] && [ -f "$2" ] && [ "$3" = --output_file ] || exit 2\n'
        f'exec {shutil.which("espeak-ng")} -v el --stdin -w "$4"\n'
    )
    piper.chmod(0o755)
    voice = find_voice("el", voices)
    assert voice.name == "piper-el_GR-test-low"
    rendered = SpeechCache(tmp_path / "cache", voice).render("Ο χρόνος τελείωσε.")
    assert loudness(rendered.path) > QUIET
    assert find_voice("ru", voices).name == "espeak-ng-ru", "other languages keep espeak-ng"
    (voices / "el" / "el_GR-test-low.onnx.json").unlink()
    assert find_voice("el", voices).name == "espeak-ng-el", (
        "a model without its config is passed over"
    )


def test_every_line_is_whole_and_made_from_nothing_secret():
    """Lines are heard by the whole table. ``spoken_lines`` is given only the
    reader's words and the seats' names, never a view, so no line can hold
    a secret; each comes out whole, every field filled."""
    for lang in LANGUAGES:
        t = Messages(lang, SEATS)
        for game in names():
            lines = spec_for(game).words.spoken_lines(t)
            assert lines and all(line.strip() for line in lines), game
            assert not [line for line in lines if "{" in line or "}" in line], game


# -- through the kiosk -------------------------------------------------------------
pytest.importorskip("kivy.base")
from ui_helpers import frames, show, tap, wait_for  # noqa: E402


def narrator_for(tmp_path, volume=1.0, enabled=True):
    from companion.ui.system.narrator import Narrator
    from companion.ui.system.sounds import Sounds

    sounds = Sounds(tmp_path / "sounds", volume=volume)
    return Narrator(sounds, tmp_path / "speech", tmp_path / "voices", enabled=enabled)


def rendered(narrator, lang, lines):
    worker = narrator.use(lang, lines)
    if worker is not None:
        worker.join(timeout=60)
    assert narrator.ready(lines)


def test_lines_play_through_the_sounds_one_after_another_and_after_a_sound(window, tmp_path):
    from companion.ui.system.sounds import GAVEL

    narrator = narrator_for(tmp_path)
    lines = ["The gavel. Time to vote.", "One minute left."]
    rendered(narrator, "en", lines)
    sounds = narrator.sounds
    sounds.play(GAVEL)
    assert narrator.say(lines[0]) and narrator.say(lines[1])
    assert narrator.spoken == [], "a line waits for the sound playing"
    assert wait_for(lambda: narrator.spoken == lines[:1])
    first_end = sounds.busy_until
    assert sounds.played == [GAVEL, f"say:{lines[0]}"]
    assert wait_for(lambda: narrator.spoken == lines)
    assert time.monotonic() >= first_end, "the second line waited for the first"
    assert sounds.played[-1] == f"say:{lines[1]}"
    assert sounds.busy_until > first_end


def test_muted_or_off_nothing_is_said_and_a_line_not_rendered_waits_for_no_one(window, tmp_path):
    line = "Time is up."
    muted = narrator_for(tmp_path / "m", volume=0.0)
    rendered(muted, "en", [line])
    assert not muted.say(line)
    off = narrator_for(tmp_path / "o", enabled=False)
    rendered(off, "en", [line])
    assert not off.say(line)
    frames(3)
    assert muted.spoken == off.spoken == [] and muted.sounds.played == off.sounds.played == []

    on = narrator_for(tmp_path / "n")
    rendered(on, "en", [line])
    assert not on.say("A line nobody rendered."), "never synthesised on the spot"
    on.sounds.volume = 0.0
    on.say(line)
    frames(3)
    assert on.spoken == []


def test_a_language_change_speaks_with_that_languages_voice(window, tmp_path):
    narrator = narrator_for(tmp_path)
    rendered(narrator, "en", ["Time is up."])
    assert narrator.voice_name == "espeak-ng-en-gb"
    rendered(narrator, "fa", ["وقت تمام شد."])
    assert narrator.voice_name == "espeak-ng-fa"
    assert not narrator.ready(["Time is up."]), "the English files are not played for Persian"


# Every language's lines render (above); here English, and Persian's digits
# and right-to-left bar. Each run waits for the lines to be played out.
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_article27_screen_says_its_cues_in_the_kiosks_language(window, tmp_path, lang):
    from companion.games.article27.screen import Article27TableScreen

    clock = FakeClock()
    table = kiosk_table(tmp_path / "g.sqlite3", clock=clock, timer_seconds=90)
    for issue, agenda in zip(
        (PK, SM, DI, HU, NU), ("peace", "wealth", "power", "justice", "prestige")
    ):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    narrator = narrator_for(tmp_path)
    t = Messages(lang, table.names)
    rendered(narrator, lang, spec_for("article27").words.spoken_lines(t))
    screen = show(
        window,
        Article27TableScreen(table, lang=lang, sounds=narrator.sounds, narrator=narrator),
        (800, 480),
    )
    tap(screen.ids.gavel)
    clock.advance(31)  # 59 s left
    screen.tick()
    assert screen.ids.bar.ids.info.text == t("speech.a27.one_minute"), "captioned too"
    clock.advance(30)  # 29 s left
    screen.tick()
    clock.advance(30)
    screen.tick()
    expected = [
        t("speech.a27.gavel.start"),
        t("speech.a27.one_minute"),
        t("speech.a27.seconds_left", count=30),
        t("speech.a27.time_up"),
    ]
    assert wait_for(lambda: narrator.spoken == expected, seconds=30), narrator.spoken
    said = [name for name in narrator.sounds.played if name.startswith("say:")]
    assert said == [f"say:{line}" for line in expected]


def test_a_ballot_is_announced_when_it_opens_and_when_the_last_vote_reveals_it(window, tmp_path):
    from sh_helpers import nominate, vote_all
    from sh_kiosk_helpers import start

    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = start(tmp_path, 5)
    narrator = narrator_for(tmp_path)
    t = Messages("en", table.names)
    rendered(narrator, "en", spec_for("secret_hitler").words.spoken_lines(t))
    show(
        window,
        SecretHitlerTableScreen(table, lang="en", sounds=narrator.sounds, narrator=narrator),
        (1280, 720),
    )
    nominate(table)
    vote_all(table, "ja")
    expected = [t("speech.ballot.open"), t("speech.ballot.revealed")]
    assert wait_for(lambda: narrator.spoken == expected, seconds=20), narrator.spoken


def test_the_operator_turns_narration_on_with_whose_turn_and_sets_its_pace(window, tmp_path):
    """By touch, in the settings: narration off (the default), then on with
    whose turn it is; the pace slider; all kept in kiosk.ini. With turns on,
    the Coup screen calls the next player when a turn ends."""
    from companion.games.base import Setup
    from companion.table import EventStore, Table
    from companion.ui.kiosk import Kiosk
    from companion.ui.panels.settings_view import OperatorSettings
    from companion.ui.system.kiosk_settings import KioskSettings

    store = EventStore(tmp_path / "g.sqlite3")
    table = Table.start(store, Setup(game="coup", seats=["Ann", "Bob"], options={"first": 0}))
    kiosk = show(
        window,
        Kiosk(
            store, table, settings=KioskSettings(tmp_path / "kiosk.ini"), sounds_dir=tmp_path / "s"
        ),
        (1280, 720),
    )
    narrator = kiosk.narrator
    assert not narrator.enabled and not KioskSettings(tmp_path / "kiosk.ini").narration
    panel = OperatorSettings(kiosk)
    panel.open(animation=False)
    frames(3)
    t = Messages("en")
    assert panel.voice_text == t("settings.voice", name="espeak-ng-en-gb")
    [turns] = [b for b in panel.ids.narration.children if b.text == t("settings.narration.turns")]
    panel.ids.narration.parent.parent.scroll_to(turns, animate=False)
    frames(2)
    tap(turns)
    assert narrator.enabled and narrator.turns
    saved = KioskSettings(tmp_path / "kiosk.ini")
    assert saved.narration and saved.announce_turns
    panel.pause = 11
    panel.dismiss(animation=False)
    frames(2)
    assert narrator.pause == 11 and KioskSettings(tmp_path / "kiosk.ini").pause == 11
    KioskSettings(tmp_path / "kiosk.ini").pause = 99
    assert KioskSettings(tmp_path / "kiosk.ini").pause == 20, "kept within the range offered"

    lines = table.spec.words.spoken_lines(Messages("en", table.names))
    worker = narrator.render(lines)
    if worker is not None:
        worker.join(timeout=60)
    table.execute({"type": "income", "seat": 0})
    assert wait_for(lambda: narrator.spoken == [t("speech.claim.turn", player="Bob")])


def test_the_last_seconds_to_challenge_a_claim_are_announced_once(window, tmp_path):
    from companion.games.claims.screen import ClaimTableScreen
    from companion.games.claims.words import CHALLENGE_CUE

    clock = FakeClock()
    table = coup_with_countdown(tmp_path / "g.sqlite3", clock)
    narrator = narrator_for(tmp_path)
    t = Messages("ru", table.names)
    rendered(narrator, "ru", table.spec.words.spoken_lines(t))
    screen = show(
        window,
        ClaimTableScreen(table, lang="ru", sounds=narrator.sounds, narrator=narrator),
        (800, 480),
    )
    table.execute({"type": "tax", "seat": 0})
    screen.tick()
    clock.advance(4)  # 6 s left: not yet
    screen.tick()
    frames(2)
    assert narrator.spoken == []
    clock.advance(1.5)  # 4.5 s left
    screen.tick()
    clock.advance(1)
    screen.tick()
    line = t("speech.claim.challenge_left", count=CHALLENGE_CUE)
    assert wait_for(lambda: narrator.spoken == [line]), narrator.spoken
    assert screen.ids.bar.ids.info.text == line


def test_without_a_voice_the_settings_say_so_and_the_kiosk_only_captions(
    window, tmp_path, monkeypatch
):
    from companion.games.base import Setup
    from companion.table import EventStore, Table
    from companion.ui.kiosk import Kiosk
    from companion.ui.panels.settings_view import OperatorSettings
    from companion.ui.system.kiosk_settings import KioskSettings

    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))  # no espeak-ng, no piper
    settings = KioskSettings(tmp_path / "kiosk.ini")
    settings.narration = True
    store = EventStore(tmp_path / "g.sqlite3")
    table = Table.start(store, Setup(game="coup", seats=["Ann", "Bob"], options={"first": 0}))
    kiosk = show(
        window, Kiosk(store, table, settings=settings, sounds_dir=tmp_path / "s"), (800, 480)
    )
    assert kiosk.narrator.voice_name is None
    panel = OperatorSettings(kiosk)
    assert panel.voice_text == Messages("en")("settings.no_voice")
    line = Messages("en", table.names)("speech.ballot.open")
    assert not kiosk.narrator.say(line) and kiosk.narrator.spoken == []
