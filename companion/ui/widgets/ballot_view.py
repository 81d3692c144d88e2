"""The ballot on the table screen: while it is open, who has voted (never
what); when the last vote is in, every vote turns face up at once, like cards
flipped together, and the result is said in words. The game's screen says
what the votes were and what they mean; this widget only shows them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kivy.animation import Animation
from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ..text.measures import kept_measure
from .palette import CHIP_VOTED, CHIP_WAITING

Builder.load_file(str(Path(__file__).with_name("ballot_view.kv")))

REVEAL_SECONDS = 0.9  # short: the table is waiting to hear the result
# A chip's sizes of text, largest first: every chip of a ballot takes the
# same one, the largest at which every word of every chip fits its chip
# (never below the smallest: the chips take more rows). A roomy screen
# (portrait) starts larger.
CHIP_FONTS = (17, 16, 15, 14)
ROOMY_FONTS = (24, 22, 20)
ROOMY_ROWS = 3  # a roomy screen's rows of chips, for a larger text


class VoteChip(Label):
    """One seat's vote: its back (voted or not) until the reveal turns it."""

    back_text = StringProperty("")
    face_text = StringProperty("")
    back_color = ListProperty(CHIP_WAITING)
    face_color = ListProperty(CHIP_VOTED)
    turn = NumericProperty(1.0)  # 0: the back, 1: the face; flips through edge-on

    @staticmethod
    @kept_measure  # the same words measured again at every layout
    def word_width(text: str, font_size: float, font_name: str) -> float:
        """The width of the text's longest word."""
        core = CoreLabel(font_size=font_size, font_name=font_name)
        return max((core.get_cached_extents()(word)[0] for word in text.split()), default=0)

    @staticmethod
    @kept_measure
    def text_height(text: str, font_size: float, font_name: str, width: float) -> float:
        """The height of the text wrapped (between words) to ``width``."""
        core = CoreLabel(
            text=text, font_size=font_size, font_name=font_name, text_size=(width, None)
        )
        return core.render()[1]


class BallotView(BoxLayout):
    title = StringProperty("")
    result_text = StringProperty("")
    # The result to be said when the turning ends: its line is held empty
    # at its height meanwhile, so that what lies below the ballot (the
    # commands) does not move under a finger when the result appears.
    coming_result = StringProperty("")
    revealing = BooleanProperty(False)
    roomy = BooleanProperty(False)  # the screen has height to spare (portrait): larger chips
    tight = BooleanProperty(False)  # a short screen: chips only as tall as their words
    # A closed ballot's chips folded away, its title and result kept: the
    # screen needs their room for what matters now (its log keeps the votes).
    folded = BooleanProperty(False)
    # The whole closed ballot put away (title and result too), where even
    # folded it leaves the commands out of sight: the seats' badges show the
    # government it elected, the log its votes.
    put_away = BooleanProperty(False)
    chips_height = NumericProperty(dp(64))  # the chips' rows, folded or not

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chips: list[VoteChip] = []
        self._animation: Animation | None = None
        # Every text a chip of this ballot may show, from its opening to
        # its reveal: the chips are fitted to all of them, so they keep one
        # size as the votes come in and turn (none drawn again for a new
        # size at the reveal, the busiest step of a ballot game).
        self._may_show: list[str] = []

    @property
    def chips(self) -> list[VoteChip]:
        return list(self._chips)

    def show_open(
        self,
        title: str,
        seats: Sequence[tuple[str, bool]],
        voted_text: str,
        waiting_text: str,
        choices: Sequence[str] = (),
    ) -> None:
        """An open ballot: each eligible seat's name and whether it has
        voted; ``choices``, the votes in words, any of which a chip may turn
        up at the reveal."""
        self._stop()
        self.title, self.result_text = title, ""
        self._chips_for(len(seats))
        for chip, (name, voted) in zip(self._chips, seats):
            chip.back_text = f"{name}\n{voted_text if voted else waiting_text}"
            chip.back_color = CHIP_VOTED if voted else CHIP_WAITING
            chip.face_text = ""
            chip.turn = 0.0
        self._may_show = _texts([name for name, _ in seats], (voted_text, waiting_text, *choices))
        self.fit_chips()

    def reveal(
        self,
        title: str,
        votes: Sequence[tuple[str, str, Sequence[float]]],
        result: str,
        voted_text: str,
        animate: bool = True,
        waiting_text: str = "",
        choices: Sequence[str] = (),
    ) -> None:
        """Every vote face up at once (``votes``: name, choice in words, its
        colour), then the result; ``waiting_text`` and ``choices`` as the
        open ballot was shown with (its chips keep their size)."""
        self._stop()
        self.title = title
        self._chips_for(len(votes))
        for chip, (name, choice, color) in zip(self._chips, votes):
            chip.back_text = f"{name}\n{voted_text}"
            chip.back_color = CHIP_VOTED
            chip.face_text = f"{name}\n{choice}"
            chip.face_color = list(color)
        names = [name for name, _, _ in votes]
        shown = [choice for _, choice, _ in votes]
        self._may_show = _texts(names, (voted_text, waiting_text, *choices, *shown))
        self.fit_chips()
        if not animate:
            for chip in self._chips:
                chip.turn = 1.0
            self.result_text = result
            return
        self.result_text, self.coming_result = "", result
        self.revealing = True
        for chip in self._chips:
            chip.turn = 0.0
        self._animation = Animation(turn=1.0, d=REVEAL_SECONDS, t="in_out_quad")
        self._animation.bind(on_complete=lambda *_: self._revealed(result))
        for chip in self._chips:
            self._animation.start(chip)

    def fit_chips(self, *_args: Any) -> None:
        """Every chip of one size and one size of text: the largest text at
        which every word of every text a chip of this ballot may show fits
        its chip, in as few rows as that allows; a name of several words
        wraps between them, and every chip is as tall as the fullest needs.
        A short screen (``tight``) sets chips that take more than a row in
        the smallest text, as low as their words allow."""
        row, chips = self.ids.chips, self._chips
        if not chips:
            self.chips_height = dp(64)
            return
        texts = self._may_show
        font_name = chips[0].font_name
        fonts = [sp(size) for size in ((*ROOMY_FONTS, *CHIP_FONTS) if self.roomy else CHIP_FONTS)]
        gap, count = row.spacing[0], len(chips)
        # Few rows first; a roomy screen takes up to three for a larger text.
        tries = [(rows, f) for rows in range(1, count + 1) for f in fonts]
        if self.roomy:
            tries.sort(key=lambda t: (t[0] > ROOMY_ROWS, -t[1] if t[0] <= ROOMY_ROWS else t[0]))
        cols, font = 1, fonts[-1]  # where none fits: one chip a row, the smallest text
        for rows, size in tries:
            per_row = -(-count // rows)
            room = (row.width - gap * (per_row - 1)) / per_row - dp(10)
            if self._longest_word(texts, size, font_name) <= room:
                cols, font = per_row, size
                break
        width = (row.width - gap * (cols - 1)) / cols
        rows = -(-count // cols)
        if self.tight and rows > 1:
            font = fonts[-1]  # a short screen's rows of chips as low as they go
        wrap = max(1.0, width - dp(8))  # the chip's text_size
        heights = (VoteChip.text_height(text, font, font_name, wrap) for text in texts)
        lines = max(heights, default=0)
        least = dp(96) if self.roomy else (0 if self.tight else dp(64))
        height = max(least, lines + (dp(6) if self.tight else dp(12)))
        for chip in chips:
            chip.font_size = font
        row.cols = cols
        row.row_default_height = height
        self.chips_height = rows * height + row.spacing[1] * (rows - 1)

    @staticmethod
    def _longest_word(texts: Sequence[str], font_size: float, font_name: str) -> float:
        return max((VoteChip.word_width(text, font_size, font_name) for text in texts), default=0)

    def clear(self) -> None:
        self._stop()
        self.title = self.result_text = self.coming_result = ""
        self._may_show = []
        self._chips_for(0)

    def _revealed(self, result: str) -> None:
        self.revealing = False
        self.result_text, self.coming_result = result, ""
        self._animation = None

    def _stop(self) -> None:
        if self._animation is not None:
            for chip in self._chips:
                self._animation.cancel(chip)
                chip.turn = 1.0
            self._animation = None
            self.revealing = False
            self.coming_result = ""

    def _chips_for(self, count: int) -> None:
        row = self.ids.chips
        while len(self._chips) > count:
            row.remove_widget(self._chips.pop())
        while len(self._chips) < count:
            self._chips.append(VoteChip())
            row.add_widget(self._chips[-1])


def _texts(names: Sequence[str], words: Sequence[str]) -> list[str]:
    """Each name over each of the words (those that are words), once."""
    return list(dict.fromkeys(f"{name}\n{word}" for name in names for word in words if word))
