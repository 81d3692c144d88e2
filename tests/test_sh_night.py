"""The Secret Hitler night in physical mode: the rulebook's script for the
table's size (5-6: the fascist and Hitler see each other; 7-10: the fascists
see each other and Hitler shows a thumb, eyes closed)."""

from __future__ import annotations

import math
import wave
from array import array

import pytest

from companion.games.secret_hitler.night import night_script

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
    from companion.ui.sounds import HUSH, SECONDS, write_sounds

    path = write_sounds(tmp_path)[HUSH]
    with wave.open(str(path), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        assert wav.getnframes() / wav.getframerate() == pytest.approx(SECONDS[HUSH], abs=0.01)
        samples = array("h", wav.readframes(wav.getnframes()))
    steps = [abs(a - b) for a, b in zip(samples, samples[1:])]
    assert abs(samples[-1] - samples[0]) <= max(steps), "its end runs into its start"
    quarter = len(samples) // 4
    loudness = [rms(samples[n * quarter : (n + 1) * quarter]) for n in range(4)]
    assert min(loudness) > 0.7 * max(loudness), "as loud all through: no fade in a loop"
    assert 1000 < min(loudness) and max(abs(s) for s in samples) <= 32767


def test_a_loop_plays_under_the_rest_and_follows_the_volume_and_mute(tmp_path):
    from companion.ui.sounds import HUSH, Sounds

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
