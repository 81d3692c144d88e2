"""The voices the kiosk can speak with, found per language.

espeak-ng (Debian's ``espeak-ng``, installed by deploy/install.sh) speaks
all four of the kiosk's languages. An operator who wants a better voice puts
a Piper voice (its ``.onnx`` file with its ``.onnx.json`` beside it) in
``<data dir>/voices/<language>/``, with the ``piper`` program on the PATH or
at ``<data dir>/voices/piper/piper``: that voice is used for that language
instead (docs/speech.md).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .names import spoken

# espeak-ng's voice for each kiosk language (``espeak-ng --voices`` lists them).
ESPEAK_VOICES = {"en": "en-gb", "el": "el", "ru": "ru", "fa": "fa"}
ESPEAK_SPEED = 150  # words a minute: a little slower than its 175, for a noisy table
RENDER_SECONDS = 30.0  # a line that takes longer to render is given up


class VoiceError(Exception):
    """A voice could not render a line (the program missing, failing or hung)."""


@dataclass(frozen=True)
class Voice:
    """A program that turns text (on its standard input) into a WAV file.

    ``name`` says which voice it is, and is part of every file it renders,
    so a new voice never plays an old voice's files. ``markup``: whether it
    reads SSML (espeak-ng's ``-m``), so a name in another script can be said
    by that script's voice (``names``)."""

    name: str
    language: str
    argv: tuple[str, ...]  # ``{wav}`` stands for the file to write
    markup: bool = False

    def said(self, text: str) -> str:
        """What this voice is given to say ``text``: its names said as names."""
        return spoken(text, self.language, self.markup)

    def render(self, text: str, wav: Path) -> None:
        argv = [arg.replace("{wav}", str(wav)) for arg in self.argv]
        try:
            done = subprocess.run(
                argv,
                input=self.said(text).encode("utf-8"),
                capture_output=True,
                timeout=RENDER_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise VoiceError(f"{self.name}: {exc}") from exc
        if done.returncode != 0:
            raise VoiceError(
                f"{self.name} exited with {done.returncode}: "
                + done.stderr.decode("utf-8", "replace").strip()[:200]
            )


def espeak_voice(language: str, program: str | None = None) -> Voice | None:
    """espeak-ng's voice for ``language``, or None without one (or without espeak-ng)."""
    voice = ESPEAK_VOICES.get(language)
    program = program or shutil.which("espeak-ng")
    if voice is None or program is None:
        return None
    return Voice(
        name=f"espeak-ng-{voice}",
        language=language,
        argv=(program, "-v", voice, "-s", str(ESPEAK_SPEED), "-m", "--stdin", "-w", "{wav}"),
        markup=True,
    )


def piper_voice(language: str, voices_dir: Path) -> Voice | None:
    """The operator's Piper voice for ``language``, if one is there and Piper can run it."""
    models = sorted((voices_dir / language).glob("*.onnx"))
    models = [m for m in models if m.with_suffix(".onnx.json").is_file()]
    bundled = voices_dir / "piper" / "piper"
    program = str(bundled) if bundled.is_file() else shutil.which("piper")
    if not models or program is None:
        return None
    model = models[0]
    return Voice(
        name=f"piper-{model.stem}",
        language=language,
        argv=(program, "--model", str(model), "--output_file", "{wav}"),
    )


def find_voice(language: str, voices_dir: Path) -> Voice | None:
    """The voice to speak ``language`` with: the operator's Piper voice if
    there is one, else espeak-ng's; None when nothing here can speak it."""
    return piper_voice(language, voices_dir) or espeak_voice(language)
