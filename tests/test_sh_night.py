"""The Secret Hitler night in physical mode: the rulebook's script for the
table's size (5-6: the fascist and Hitler see each other; 7-10: the fascists
see each other and Hitler shows a thumb, eyes closed)."""

from __future__ import annotations

import math
import shutil
import time
import wave
from array import array

import pytest

from companion.games.secret_hitler.night import SMALL, WRONG, night_lines, night_script
from companion.i18n import Messages
from companion.speech.voices import ESPEAK_VOICES

SMALL_KEYS = [
    "sh.night.all_close",
    "sh.night.pair_open",
    "sh.night.fascists_close",
    "sh.night.all_open",
]
LARGE_KEYS = [
    "sh.night.all_close",
    "sh.night.fascists_open",
    "sh.night.hitler_thumb",
    "sh.night.fascists_note",
    "sh.night.fascists_close_thumb",
    "sh.night.all_open",
]


@pytest.mark.parametrize("players", range(5, 11))
def test_the_script_follows_the_rulebook_for_the_tables_size(players):
    script = night_script(players)
    assert [step.key for step in script] == (SMALL_KEYS if players <= 6 else LARGE_KEYS)
    acting = [step.key for step in script if step.act]
    assert acting == (
        ["sh.night.pair_open"]
        if players <= 6
        else ["sh.night.fascists_open", "sh.night.fascists_note"]
    ), "the table is left time where it looks at each other, not where eyes close"


def rms(samples) -> float:
    return math.sqrt(sum(s * s for s in samples) / len(samples))


# -- the hush under it -------------------------------------------------------------
def test_the_hush_is_a_soft_steady_hiss_that_loops_without_a_seam(tmp_path):
    from companion.ui.system.sounds import HUSH, SECONDS, write_sounds

    path = write_sounds(tmp_path)[HUSH]
    with wave.open(str(path), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        assert wav.getnframes() / wav.getframerate() == pytest.approx(SECONDS[HUSH], abs=0.01)
        samples = array("h", wav.readframes(wav.getnframes()))
    steps = sorted(abs(a - b) for a, b in zip(samples, samples[1:]))
    seam = abs(samples[-1] - samples[0])
    assert seam <= steps[len(steps) // 2], "its end runs into its start like any two samples"
    quarter = len(samples) // 4
    loudness = [rms(samples[n * quarter : (n + 1) * quarter]) for n in range(4)]
    assert min(loudness) > 0.7 * max(loudness), "as loud all through: no fade in a loop"
    assert 1000 < min(loudness) and max(abs(s) for s in samples) <= 32767


def test_a_loop_plays_under_the_rest_and_follows_the_volume_and_mute(tmp_path):
    from companion.ui.system.sounds import HUSH, Sounds

    sounds = Sounds(tmp_path, volume=0.0)
    sounds.loop(HUSH)
    assert sounds.played == [], "muted: nothing is heard"
    sounds.volume = 0.5
    assert sounds.played == [HUSH], "a volume starts the loop asked for"
    assert sounds.busy_until == 0, "a loop never makes a line wait"
    sounds.volume = 0.0
    sounds.volume = 0.6
    assert sounds.played == [HUSH, HUSH], "muted, then heard again"
    sounds.stop_loop(HUSH)
    sounds.volume = 0.8
    assert sounds.played == [HUSH, HUSH] and not sounds.looping
    with pytest.raises(ValueError):
        sounds.loop("no-such-sound")


# -- on the kiosk ----------------------------------------------------------------------
pytest.importorskip("kivy.base")
from kiosk_helpers import button_with, shown_texts  # noqa: E402
from sh_helpers import nominate  # noqa: E402
from sh_kiosk_helpers import keeper, start  # noqa: E402
from ui_helpers import frames, screenshot, show, tap, wait_for  # noqa: E402

PAUSE = 0.2  # seconds: the operator's pause, short for the test
READ = "Read the night aloud"
speech = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is missing")


def night_screen(window, tmp_path, players, volume=1.0, lang="en", size=(800, 480)):
    """A physical table's screen with a real narrator (espeak-ng), the
    night's lines rendered, a short pause."""
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen
    from companion.ui.system.narrator import Narrator
    from companion.ui.system.sounds import Sounds

    table = start(tmp_path, players)
    t = Messages(lang, table.names)
    narrator = Narrator(
        Sounds(tmp_path / "sounds", volume=volume),
        tmp_path / "speech",
        fast_voice(tmp_path / "voices", lang),
        enabled=True,
        pause=PAUSE,
    )
    lines = [t(step.key) for step in night_script(players)] + [t(WRONG)]
    worker = narrator.use(lang, lines)  # the screen renders the rest as it comes up
    if worker is not None:
        worker.join(timeout=60)
    screen = SecretHitlerTableScreen(table, lang=lang, sounds=narrator.sounds, narrator=narrator)
    return show(window, screen, size), narrator


def fast_voice(voices, lang):
    """An operator's voice (the Piper path) that is espeak-ng at three times
    its pace: the script's timing is the same whatever the voice, and the
    test is over sooner. ``piper`` here keeps Piper's command line."""
    (voices / lang).mkdir(parents=True)
    (voices / lang / f"{lang}-fast.onnx").write_bytes(b"model")
    (voices / lang / f"{lang}-fast.onnx.json").write_text("{}")
    piper = voices / "piper" / "piper"
    piper.parent.mkdir()
    piper.write_text(
        "#!/bin/sh\n"
        f'exec {shutil.which("espeak-ng")} -v {ESPEAK_VOICES[lang]} -s 450 --stdin -w "$4"\n'
    )
    piper.chmod(0o755)
    return voices


def said(sounds) -> list[str]:
    return [name.removeprefix("say:") for name in sounds.played if name.startswith("say:")]


@speech
def test_the_night_is_read_aloud_step_by_step_over_the_hush(window, tmp_path):
    from companion.ui.system.sounds import HUSH

    screen, narrator = night_screen(window, tmp_path, 5)
    t = screen.t
    lines = [t(key) for key in SMALL_KEYS]
    tap(button_with(screen, READ))
    view = screen.night
    shown: list[tuple[float, str]] = [(time.monotonic(), view.words)]
    view.bind(words=lambda _v, words: shown.append((time.monotonic(), words)))
    assert view.words == lines[0] and view.step_text == "Step 1 of 4"
    assert narrator.sounds.played[0] == HUSH and HUSH in narrator.sounds.looping
    screenshot(window, "sh-night-800x480")
    assert wait_for(lambda: not view.reading, seconds=30), view.words
    assert [words for _at, words in shown] == lines, "each step shown, in order"
    assert narrator.spoken == lines and said(narrator.sounds) == lines
    assert HUSH not in narrator.sounds.looping, "the hush ends with the script"
    starts = [at for at, _words in shown]
    for n, line in list(enumerate(lines[:-1]))[1:]:  # the first began before it was watched
        leaves = PAUSE if SMALL[n].act else PAUSE / 3
        assert starts[n + 1] - starts[n] >= narrator.length(line) + leaves - 0.05, (
            "a step waits for its line to be said, then for the table"
        )
    assert [view.ids.first.text, view.ids.second.text] == ["Start over", "Close"]
    tap(view.ids.second)
    assert view.parent is None and screen.night is None


@speech
def test_repeat_says_the_step_again_and_something_went_wrong_stops_it_all(window, tmp_path):
    from companion.ui.system.sounds import HUSH

    screen, narrator = night_screen(window, tmp_path, 7, size=(1280, 720))
    t = screen.t
    first, second = t("sh.night.all_close"), t("sh.night.fascists_open")
    tap(button_with(screen, READ))
    view = screen.night
    assert view.words == first and view.step_text == "Step 1 of 6"
    assert wait_for(lambda: narrator.spoken == [first])
    tap(view.ids.first)  # Repeat
    assert view.words == first and view.reading
    assert wait_for(lambda: narrator.spoken == [first, first]), narrator.spoken
    assert view.words == first, "the step is read again, from its line"
    assert wait_for(lambda: view.words == second), "then the script goes on"
    screenshot(window, "sh-night-1280x720")
    tap(view.ids.second)  # Something went wrong
    wrong = t("sh.night.wrong")
    assert not view.reading and view.words == wrong and HUSH not in narrator.sounds.looping
    assert wait_for(lambda: narrator.spoken[-1] == wrong), narrator.spoken
    time.sleep(PAUSE)
    frames(3)
    assert narrator.spoken in ([first, first, wrong], [first, first, second, wrong]), (
        "the script stops where it was: nothing of it is said after"
    )
    assert [view.ids.first.text, view.ids.second.text] == ["Start over", "Close"]
    screenshot(window, "sh-night-wrong-1280x720")
    tap(view.ids.first)  # Start over
    assert view.reading and view.words == first and HUSH in narrator.sounds.looping
    screen.detach()  # the kiosk puts another screen up
    assert view.parent is None and HUSH not in narrator.sounds.looping
    assert not view.reader.reading


@speech
def test_muted_nothing_is_heard_and_the_steps_still_go_by_on_the_screen(window, tmp_path):
    screen, narrator = night_screen(window, tmp_path, 6, volume=0.0)
    t = screen.t
    tap(button_with(screen, READ))
    view = screen.night
    assert view.words == t("sh.night.all_close")
    assert wait_for(lambda: view.words == t("sh.night.pair_open"), seconds=8)
    assert view.step_text == "Step 2 of 4"
    assert narrator.sounds.played == [] and narrator.spoken == []
    view.close()


@pytest.mark.parametrize(
    "lang, size",
    [
        ("en", (800, 480)),
        ("fa", (800, 480)),
        ("ru", (800, 480)),
        ("fa", (1280, 720)),
    ],
    ids=lambda v: v if isinstance(v, str) else f"{v[0]}x{v[1]}",
)
def test_every_line_of_the_night_fits_the_screen_in_every_script(window, tmp_path, lang, size):
    """Without a narrator (no voice here): the words alone, large, every one
    of them whole on the smallest screen, Russian's longest and Persian's
    right to left."""
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    screen = show(window, SecretHitlerTableScreen(start(tmp_path, 8), lang=lang), size)
    t = screen.t
    button = button_with(screen, t("sh.ui.night.read"))
    screenshot(window, f"sh-night-button-{lang}-{size[0]}x{size[1]}")
    tap(button)
    view = screen.night
    words = view.ids.words
    assert words.text == t("sh.night.all_close") and view.reading
    assert all(fits(b, window) for b in (view.ids.first, view.ids.second))
    screenshot(window, f"sh-night-{lang}-{size[0]}x{size[1]}")
    for line in night_lines(t):
        view.words = line
        words.texture_update()
        assert words.texture_size[1] <= words.height, f"cut off: {line!r}"
    view.close()
    assert screen.night is None


def fits(widget, window) -> bool:
    x, y = widget.to_window(widget.x, widget.y)
    return (
        x >= 0
        and y >= 0
        and x + widget.width <= window.width
        and y + widget.height <= window.height
    )


def test_the_night_is_offered_only_before_a_physical_games_first_nomination(window, tmp_path):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    screen = show(window, SecretHitlerTableScreen(start(tmp_path / "p", 5)), (800, 480))
    assert READ in shown_texts(screen)
    nominate(screen.table)
    frames(2)
    assert READ not in shown_texts(screen), "play has begun"
    screen.undo()
    frames(2)
    assert READ in shown_texts(screen), "the nomination taken back: the night is not over yet"

    kept = show(window, SecretHitlerTableScreen(keeper(tmp_path / "k", 5)), (800, 480))
    assert kept.table.public_view()["phase"] == "nominate"
    assert READ not in shown_texts(kept), "keeper mode's night is on the phones"


def test_the_night_ends_when_the_kiosk_leaves_the_table_screen(window, tmp_path):
    """The operator (or the café's console) ends the game, or the kiosk goes
    home: the night's words come off, the hush stops, nothing more is read."""
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import KioskSettings
    from companion.ui.system.sounds import HUSH

    table = start(tmp_path, 5)
    kiosk = show(
        window,
        Kiosk(
            table.store,
            table,
            settings=KioskSettings(tmp_path / "kiosk.ini"),
            sounds_dir=tmp_path / "s",
        ),
        (800, 480),
    )
    screen = kiosk.table_screen
    tap(button_with(screen, READ))
    view = screen.night
    assert view.reading and HUSH in kiosk.sounds.looping
    kiosk.end_game()
    frames(2)
    assert view.parent is None and screen.night is None and not view.reader.reading
    assert HUSH not in kiosk.sounds.looping and kiosk.current == "home"
