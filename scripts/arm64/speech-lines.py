#!/usr/bin/env python3
"""The speech check of scripts/arm64-check, run inside its arm64 root with the
installed app's python: render every line every game's kiosk screen may say,
in every kiosk language, with the voice a Pi would use (Debian's espeak-ng,
from deploy/packages.txt), into a scratch directory, and require that each is
a WAV with sound in it.

    speech-lines.py

Prints one summary line such as "212 lines in en, el, ru, fa with
espeak-ng-en-gb, ...: 41.2 s in all, the slowest 0.41 s, the longest line
5.1 s". Exit status 0 when every line rendered, else 1.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from companion.games import names, spec_for
from companion.i18n import LANGUAGES, Messages
from companion.speech.cache import SpeechCache
from companion.speech.voices import VoiceError, find_voice

SEATS = ["Anastasia", "Bartholomew", "Chrysanthi", "Dmitri", "Eleftheria", "Farahnaz"]


def main() -> int:
    failed, voices, slowest, longest, count = [], [], 0.0, 0.0, 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        for lang in LANGUAGES:
            voice = find_voice(lang, Path(scratch) / "voices")
            if voice is None:
                failed.append(f"{lang}: no voice")
                continue
            voices.append(voice.name)
            cache = SpeechCache(Path(scratch) / "speech", voice)
            t = Messages(lang, SEATS)
            lines = {line for game in names() for line in spec_for(game).words.spoken_lines(t)}
            for line in sorted(lines):
                began = time.monotonic()
                try:
                    rendered = cache.render(line)
                except VoiceError as exc:
                    failed.append(f"{lang}: {exc}")
                    continue
                slowest = max(slowest, time.monotonic() - began)
                longest = max(longest, rendered.seconds)
                count += 1
    print(
        f"{count} lines in {', '.join(LANGUAGES)} with {', '.join(voices)}: "
        f"{time.monotonic() - start:.1f} s in all, the slowest {slowest:.2f} s, "
        f"the longest line {longest:.1f} s"
    )
    for failure in failed:
        print(f"FAILED {failure}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
