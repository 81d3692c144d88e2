"""The table screen of a game that brings no screen of its own: the
players with what the game's words say of each, the status line, the
ballot (who has voted, then every vote at once), and one button per command
the table accepts from the shared screen. Everything it shows comes from the
game's spec: its words and the table's legal commands."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import StringProperty

from ...games.views import PublicBallot
from ..widgets.ballot_view import BallotView  # noqa: F401 - the kv rule uses it
from ..widgets.command_strip import StripItem
from ..widgets.palette import CHOICES
from .table_screen import TableScreen

Builder.load_file(str(Path(__file__).with_name("plain_screen.kv")))


class PlainTableScreen(TableScreen):
    status_text = StringProperty("")
    players_text = StringProperty("")

    def show(self, view: dict[str, Any]) -> None:
        t, words = self.t, self.table.spec.words
        self.status_text = words.status_line(view, t)
        self.players_text = "   ".join(
            words.seat_line(view, p["seat"], t) or p["name"] for p in view["players"]
        )
        self._show_ballot(view)
        self.ids.commands.show(
            [
                StripItem(words.command_label(command, view, t), partial(self.send, command))
                for command in self.table.shared_commands()
            ]
        )

    def _show_ballot(self, view: dict[str, Any]) -> None:
        t, names = self.t, self.table.names
        ballot: PublicBallot | None = view["ballot"]
        words = self.table.spec.words
        if ballot is not None:
            voted = set(ballot["voted"])
            self.ids.ballot.show_open(
                words.ballot_title(view, t),
                [(names[s], s in voted) for s in ballot["eligible"]],
                t("ui.ballot.voted"),
                t("ui.ballot.waiting"),
                [t(f"choice.{choice}") for choice in ballot["choices"]],
            )
            return
        last = words.last_ballot(view, t)
        if last is None:
            self.ids.ballot.clear()
            return
        colors = {
            choice: CHOICES[min(i, len(CHOICES) - 1)] for i, choice in enumerate(last.choices)
        }
        self.ids.ballot.reveal(
            last.title,
            [(names[s], t(f"choice.{choice}"), colors[choice]) for s, choice in last.votes],
            last.result,
            t("ui.ballot.voted"),
            animate=False,
            waiting_text=t("ui.ballot.waiting"),
            choices=[t(f"choice.{choice}") for choice in last.choices],
        )
