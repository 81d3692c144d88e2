"""A script read aloud, over the table screen: the words of the step being
read, large (for a player who cannot hear them, a muted kiosk, or whoever
reads them out), which step it is, "Repeat" (the step again) and "Something
went wrong" (stop: eyes open, the script's own line for it, and a fresh
start offered). When the script ends, or stops, "Start over" and "Close"."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.modalview import ModalView

from ...i18n import Messages
from ..system.narrator import Narrator
from ..system.script_reader import ScriptReader
from ..system.sounds import Sounds
from ..text.direction import Row  # noqa: F401 - its kv rule uses one

Builder.load_file(str(Path(__file__).with_name("script_view.kv")))


class ScriptView(ModalView):
    title = StringProperty("")
    words = StringProperty("")  # the line being read (or the last one read)
    step_text = StringProperty("")
    reading = BooleanProperty(False)
    repeat_text = StringProperty("")
    wrong_text = StringProperty("")
    again_text = StringProperty("")
    close_text = StringProperty("")

    def __init__(
        self,
        title: str,
        steps: Sequence[tuple[str, bool]],
        wrong_line: str,
        t: Messages,
        narrator: Narrator | None = None,
        sounds: Sounds | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.title = title
        self.wrong_line = wrong_line
        self.narrator = narrator
        self.t = t
        self.repeat_text = t("ui.script.repeat")
        self.wrong_text = t("ui.script.wrong")
        self.again_text = t("ui.script.again")
        self.close_text = t("ui.phones.close")
        self.reader = ScriptReader(steps, narrator, sounds, self._show_step, self._ended)

    def start(self) -> None:
        """Open over the screen and read from the first step."""
        self.open(animation=False)
        self.start_over()

    def start_over(self) -> None:
        self.reading = True
        self.reader.start()

    def repeat(self) -> None:
        self.reader.repeat()

    def went_wrong(self) -> None:
        """Stop the script: say and show the line that opens everyone's eyes."""
        self.reader.stop()
        self.reading = False
        self.step_text = ""
        self.words = self.wrong_line
        if self.narrator is not None:
            self.narrator.say(self.wrong_line)

    def close(self) -> None:
        """Stop reading (if it still is) and take the script off the screen."""
        self.reader.stop()
        self.reading = False
        self.dismiss(animation=False)

    def _show_step(self, index: int) -> None:
        self.words = self.reader.steps[index][0]
        self.step_text = self.t("ui.script.step", number=index + 1, total=len(self.reader.steps))

    def _ended(self) -> None:
        self.reading = False
