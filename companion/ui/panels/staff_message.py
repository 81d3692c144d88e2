"""A message from the café's staff (the console's ``message`` action), over
whatever the table shows, until someone taps it away."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from ...i18n import translate

Builder.load_file(str(Path(__file__).with_name("staff_message.kv")))


class StaffMessage(ModalView):
    heading = StringProperty("")
    text = StringProperty("")  # the staff's words, as they wrote them
    hint = StringProperty("")

    def __init__(self, text: str, lang: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.heading = translate("fleet.message.heading", lang)
        self.text = text
        self.hint = translate("fleet.message.dismiss", lang)

    def on_touch_down(self, touch: Any) -> bool:
        """A tap anywhere, on the message too, takes it away."""
        self.dismiss()
        return True
