"""How a game is said, as plain data: the words the kiosk and the phones
share. No Kivy and no rules here: an engine says what is so and what is
legal, a game's words only say it. Each game's spec names a subclass of
:class:`Words`; what it does not override is said the plain way below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from . import board as parts
from .base import Command
from .board import Board, Part, Seat
from .forms import Form
from .views import View

if TYPE_CHECKING:
    from ..i18n import Messages


@dataclass
class Chart:
    """What the end-of-game chart shows: a line per player (or side) over
    the game's turns or rounds. Only what was public at the time, or is at
    the end, is drawn."""

    title: str
    x_label: str
    series: list[tuple[str, list[int]]]  # (label, one value per step)
    number: Callable[[int], str] = str  # a scale's number, in the reader's digits


@dataclass
class LastBallot:
    title: str
    choices: tuple[str, ...]  # in the ballot's order (a screen colours by it)
    votes: list[tuple[int, str]]  # (seat, choice), in seat order
    result: str


class ReferenceCard(NamedTuple):
    """A card the table keeps in sight: its name, what it does, and the
    piece whose icon it wears (the game's name for it; "" for none)."""

    name: str
    text: str
    piece: str = ""


# What a seat's phone may buzz for (seat.js gives each one pattern of its own).
TURN, BALLOT, CHOOSE = "turn", "ballot", "choose"


class Words:
    """The words of a game. ``t`` is the reader's :class:`Messages`.

    ``cue_phases``: the phases of the game's public view in which the seat
    the table waits for (``waiting_for``) is to take its turn (``TURN``) or
    to make a choice of its own (``CHOOSE``: a loss, a keep...); see
    :meth:`phone_cue`."""

    cue_phases: dict[str, str] = {}

    def status_line(self, view: View, t: Messages) -> str:
        """One sentence saying what the table is waiting for."""
        if view["phase"] == "over" and view.get("winner") is not None:
            return t("status.winner", player=view["winner"])
        return t(f"status.{view['phase']}")

    def phone_cue(self, view: View, seat: int) -> str | None:
        """What the seat's phone buzzes for now: ``BALLOT`` while an open
        ballot waits for its vote, else ``TURN`` or ``CHOOSE`` while the
        table waits for the seat in a phase ``cue_phases`` names, else None.
        Worked out from the public view alone, so a buzz tells whoever feels
        or hears it only what the kiosk's screen shows, and every seat in
        the same public situation gets the same cue whatever it holds."""
        ballot = view.get("ballot")
        if ballot and seat in ballot["eligible"] and seat not in ballot["voted"]:
            return BALLOT
        if seat not in view.get("waiting_for", ()):
            return None
        return self.cue_phases.get(view["phase"])

    def refusal(self, error: Exception, view: View, t: Messages) -> str:
        """A refused command in words. An engine's "not now" (its
        ``<game>.not_now`` key) says what the table is waiting for instead,
        in the status line's words ("Not now: Stelios loses an influence...")."""
        if getattr(error, "key", "").endswith(".not_now"):
            return t("error.not_now", status=self.status_line(view, t))
        return t.error(error)

    def command_label(self, command: Command, view: View, t: Messages) -> str:
        """A command's button on the kiosk: ``cmd.<type>`` with its fields
        (a vote: the seat and its choice in words)."""
        if command["type"] == "vote":
            return t("cmd.vote", player=command["seat"], choice=t(f"choice.{command['choice']}"))
        args = {("player" if k == "seat" else k): v for k, v in command.items() if k != "type"}
        return t(f"cmd.{command['type']}", **args)

    def spoken_lines(self, t: Messages) -> list[str]:
        """Every line the game's kiosk screen may say aloud at this table
        (``t`` knows its names), so the kiosk renders them all before they
        are needed. None may carry a secret: the whole table hears them.
        A game's words add its own to these, the table screen's ballot cues."""
        return [t("speech.ballot.open"), t("speech.ballot.revealed")]

    def explain(self, view: View, t: Messages) -> list[str]:
        """What is happening now and what each player may do, in a few short
        sentences ("rules at hand"). Worked out from the public view alone,
        so every reader in the same situation reads the same words and none
        carries a secret. A game's words say it in the game's own terms;
        said the plain way, it is the status line, then how this table keeps
        its secrets where its view says (or, at the end, how to go on)."""
        if view["phase"] == "over":
            return [self.status_line(view, t), t("explain.over")]
        if view.get("mode") is None:  # a game that keeps no secrets apart
            return [self.status_line(view, t)]
        return [self.status_line(view, t), t(f"explain.mode.{view['mode']}")]

    def quick_reference(self, view: View, t: Messages) -> list[tuple[str, str]]:
        """The game's rules at a glance, as (heading, text) sections in the
        rulebook's words, for the game this table plays (its player count,
        its characters): none unless the game says."""
        return []

    def bar_items(self, view: View, t: Messages) -> list[str]:
        """The table's figures, shown beside its name (the kiosk's bar, the
        public page): none unless the game says."""
        return []

    def reference_cards(self, view: View, t: Messages) -> list[ReferenceCard]:
        """Cards the table keeps in sight, on the kiosk and the public page:
        none unless the game says."""
        return []

    def board(self, view: View, t: Messages) -> Board:
        """The public board as the kiosk's screen shows it (see
        :mod:`.board`), for the public table and the seats' pages: the
        seats, the game's parts, then the ballot."""
        return parts.board(
            self.board_seats(view, t), [*self.board_parts(view, t), self.ballot_part(view, t)]
        )

    def board_seats(self, view: View, t: Messages) -> list[Seat]:
        """Each seat's panel: its name and what the game's words say of it."""
        waiting = set(view.get("waiting_for", ()))
        return [
            parts.seat(
                p["name"],
                [self.seat_line(view, p["seat"], t)],
                *((t("ui.seat.waiting"), "waiting") if p["seat"] in waiting else ()),
            )
            for p in view["players"]
        ]

    def board_parts(self, view: View, t: Messages) -> list[Part | None]:
        """The game's own parts of the board (its tracks, piles, cards...)."""
        return []

    def ballot_part(self, view: View, t: Messages) -> Part | None:
        """The ballot as the kiosk shows it: while it is open, who has voted
        (never how); once closed, every vote and the result, for as long as
        the table shows it."""
        ballot = view.get("ballot")
        voted_word = t("ui.ballot.voted")
        if ballot:
            voted = set(ballot["voted"])
            return parts.part(
                "ballot",
                self.ballot_title(view, t),
                [
                    parts.item(
                        t("web.ballot_seat", player=s, state=voted_word)
                        if s in voted
                        else t("web.ballot_seat", player=s, state=t("ui.ballot.waiting")),
                        on=s in voted,
                    )
                    for s in ballot["eligible"]
                ],
                kind="ballot",
            )
        last = self.last_ballot(view, t)
        if last is None:
            return None
        return parts.part(
            "ballot",
            last.title,
            [
                parts.item(t("web.ballot_seat", player=s, state=t(f"choice.{c}")), on=True)
                for s, c in last.votes
            ],
            kind="ballot",
            note=last.result,
        )

    def seat_line(self, view: View, seat: int, t: Messages) -> str:
        """What the table knows of one seat, on one line ("" for its name alone)."""
        return ""

    def ballot_title(self, view: View, t: Messages) -> str:
        """What the open ballot decides."""
        return t("ui.ballot.title")

    def last_ballot(self, view: View, t: Messages) -> LastBallot | None:
        """The latest closed ballot, face up, as long as the table shows it:
        its title, its choices in order, each eligible seat's choice and the
        result in words; None when there is none to show."""
        return None

    def variant_value(self, option: str, value: Any, t: Messages) -> str:
        """A home-screen variant's value in words."""
        if value is None or isinstance(value, bool):
            return t("home.value.on") if value else t("home.value.off")
        if isinstance(value, int):
            return t.number(value)
        return t(f"home.value.{value}")

    def secret_lines(self, private: View, t: Messages) -> list[str]:
        """A seat's private view in words, for its phone only (empty when
        the table holds every secret itself)."""
        return []

    def phone_label(self, command: Command, view: View, t: Messages, private: View) -> str:
        """A private action's button on the seat's phone."""
        if command["type"] == "vote":
            return t(f"choice.{command['choice']}")
        return t(
            f"phone.{command['type']}",
            **{k: v for k, v in command.items() if k not in ("type", "seat")},
        )

    def phone_actions(
        self, commands: list[Command], view: View, t: Messages, private: View
    ) -> list[dict[str, Any]]:
        """The seat's private actions with their labels. A seat that may
        vote is offered every choice of the ballot, allowed or not: which
        choices it may take can rest on what only it knows (Article 27's
        Veto needs 5 influence behind the screen), and a missing button
        would show that at a glance. The table refuses a choice not allowed,
        on this phone only."""
        votes = [c for c in commands if c["type"] == "vote"]
        if votes and view.get("ballot"):
            seat = votes[0]["seat"]
            commands = [
                *({"type": "vote", "seat": seat, "choice": c} for c in view["ballot"]["choices"]),
                *(c for c in commands if c["type"] != "vote"),
            ]
        return [
            {"command": dict(c), "label": self.phone_label(c, view, t, private)} for c in commands
        ]

    def phone_forms(
        self, commands: list[Command], view: View, t: Messages, private: View
    ) -> list[Form]:
        """The forms on the seat's phone for its commands with open-ended
        terms (an amount, a condition, its own words), which no list of
        buttons could hold (see :mod:`.forms`): none unless the game says.
        Every command of ``commands`` that :meth:`phone_actions` leaves out
        must be one a form here can send (tests/test_completeness.py)."""
        return []

    def chart(self, views: list[View], names: list[str], t: Messages) -> Chart | None:
        """The chart of a finished game from the public views it went
        through, or None when there is nothing to draw (or it is not over)."""
        if not views or views[-1]["phase"] != "over":
            return None
        return self.game_chart(views, names, t)

    def game_chart(self, views: list[View], names: list[str], t: Messages) -> Chart | None:
        """The chart of the finished game ``views`` went through."""
        return None

    def outcome(self, result: dict[str, Any], names: Sequence[str], t: Messages) -> str:
        """How a finished game ended, in a few words, for home's list of
        past games: ``result`` is the engine's (``Engine.result``, as
        stored), ``names`` the seats'. Said the plain way: the seat
        ``winner`` names won, or the seats ``winners`` lists did."""
        winners = result["winners"] if "winners" in result else [result["winner"]]
        return t("home.outcome.winners", winners=t.join(names[seat] for seat in winners))


def seat_names(seats: Iterable[int], t: Messages) -> str:
    """Seats' names as a list in the reader's language."""
    return t.join(t.names[seat] for seat in seats)


def waiting_line(seats: Sequence[int], t: Messages) -> list[str]:
    """Who the table still waits for, as a sentence (none when nobody)."""
    return [t("explain.waiting", players=seat_names(seats, t))] if seats else []


def ballot_lines(view: View, t: Messages) -> list[str]:
    """How the open ballot is cast and shown, and who is still to vote."""
    ballot = view.get("ballot")
    if not ballot:
        return []
    still = [seat for seat in ballot["eligible"] if seat not in ballot["voted"]]
    return [t("explain.ballot"), *waiting_line(still, t)]


def last_per(views: list[View], key: str) -> list[View]:
    """The last view of each turn or round (its state when it ended), in order."""
    last: dict[Any, View] = {}
    for view in views:
        last[view[key]] = view
    return [last[k] for k in sorted(last)]
