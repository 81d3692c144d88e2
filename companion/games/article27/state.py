"""The state of an Article 27 table.

In keeper mode the app holds the agendas, every player's slots and influence
(the bank) and the bribes in escrow. In physical mode those stay behind the
screens: ``agendas``, ``slots`` and ``influence`` are ``None``, and the app
keeps what is public on the board.
"""

from __future__ import annotations

from typing import Any, TypedDict

from .rules import AGENDAS, ISSUES, rounds_for, unused_agendas_removed

# A bribe (keeper mode), from its offer until the round's end: its terms
# (``amount``, ``kind``: a vote, include, exclude or other, with its
# ``issue`` or ``text``), the influence it ``held`` in escrow, its ``status``
# ("offered", "countered", "accepted", then "paid", "returned"...), the seat
# whose answer it ``awaiting``, whether a later deal ``conflicted`` with it,
# both parties' word on an OTHER deal (``confirmed``, by seat) and its public
# ``number`` once accepted. ("from" is a keyword: hence the functional form.)
Bribe = TypedDict(
    "Bribe",
    {
        "id": int,
        "from": int,
        "to": int,
        "amount": int,
        "kind": str,
        "issue": str | None,
        "text": str | None,
        "held": int,
        "status": str,
        "awaiting": int | None,
        "conflicted": bool,
        "confirmed": dict[int, bool],
        "number": int | None,
    },
)


class Article27State:
    __slots__ = (
        "players",
        "keeper",
        "options",
        "rounds",
        "round",
        "sg",
        "phase",
        "agendas",
        "unused",
        "in_play",
        "areas",
        "revealed",
        "floor",
        "privilege",
        "influence",
        "bank",
        "slots",
        "timer_started",
        "closed",
        "timer_paused",
        "timer_paused_total",
        "votes",
        "outcome",
        "vetoers",
        "bribes",
        "offers_made",
        "accepted",
        "track",
        "passed_as_sg",
        "history",
        "announcements",
        "announcer",
        "challenge",
        "passed",
        "tally",
        "results",
    )

    def __init__(self, players: int, keeper: bool, options: dict[str, Any]) -> None:
        self.players = players
        self.keeper = keeper
        self.options = options
        self.rounds = rounds_for(players)
        self.round = 0
        self.sg: int | None = None
        self.phase = "setup"
        self.agendas: list[str | None] = [None] * players
        self.unused: list[str] = []  # shown with 4-5 players
        self.in_play: tuple[str, ...] = AGENDAS  # agendas whose disks are in play
        # The disks still face down in each issue area, by agenda (the set is
        # public: a disk's agenda is known once revealed; the order is not).
        self.areas: dict[str, list[str]] = {issue: list(AGENDAS) for issue in ISSUES}
        self.revealed: dict[str, str] = {}  # this round's disk per issue
        self.floor: tuple[str, ...] = ()  # issues in the proposal, in order placed
        self.privilege = False  # the Success Privilege is on the floor
        self.influence: list[int] | None = None
        self.bank = 0
        self.slots: list[list[str]] | None = None
        self.timer_started: float | None = None
        self.timer_paused: float | None = None
        self.timer_paused_total = 0.0
        self.votes: list[str] | None = None  # the last ballot, revealed
        self.outcome: str | None = None
        self.vetoers: list[int] = []
        # This round's bribes: live ones (open or accepted) and closed ones,
        # each by number.
        self.bribes: dict[int, Bribe] = {}
        self.closed: dict[int, Bribe] = {}
        # Offers made so far this game, by (briber, recipient): a bribe's
        # number counts only its own pair's (see bribes.bribe_id).
        self.offers_made: dict[tuple[int, int], int] = {}
        self.accepted = 0  # bribes accepted (public numbers given)
        self.track = {agenda: {"up": 0, "down": 0} for agenda in AGENDAS}
        self.passed_as_sg: set[int] = set()
        self.history: list[dict[str, Any]] = []
        # Lie, Cheat and Steal: this round's announcements, whose turn, the
        # open challenge window.
        self.announcements: list[dict[str, Any]] = []
        self.announcer: int | None = None
        self.challenge: dict[str, Any] | None = None
        self.passed: set[int] = set()
        self.tally: dict[int, dict[str, Any]] = {}  # physical: what each player enters at the end
        self.results: list[dict[str, Any]] | None = None

    @property
    def table(self) -> list[str]:
        """Issues revealed this round and not on the floor."""
        return [issue for issue in ISSUES if issue in self.revealed and issue not in self.floor]

    def removes_unused(self) -> bool:
        return unused_agendas_removed(self.players)

    def free(self, seat: int) -> int:
        """Influence behind the screen (keeper): what the seat may spend."""
        return self.influence[seat] if self.influence is not None else 0

    def held(self) -> int:
        """Influence in escrow: offered or accepted, not yet settled."""
        return sum(b["held"] for b in self.bribes.values())
