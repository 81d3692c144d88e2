"""The state of a Secret Hitler table.

In physical mode the envelopes and the policy tiles are real: ``roles`` are
unknown (``None``) and the draw and discard piles hold ``None`` for each tile
(the app counts them). In keeper mode they hold the real roles and tiles, the
draw pile in order, top first.
"""

from __future__ import annotations

from typing import Any

from .rules import board_for


class SecretHitlerState:
    __slots__ = (
        "players",
        "keeper",
        "options",
        "board",
        "roles",
        "alive",
        "confirmed",
        "phase",
        "round",
        "ballots",
        "candidate",
        "nominee",
        "president",
        "chancellor",
        "last_president",
        "last_chancellor",
        "rotation_base",
        "special_candidate",
        "special_caller",
        "tracker",
        "liberal",
        "fascist",
        "deck",
        "discard",
        "hand",
        "veto_refused",
        "veto_requested",
        "power",
        "investigations",
        "knowledge",
        "not_hitler",
        "last_election",
        "executed",
        "reveal",
        "reshuffle_due",
        "winner",
        "win_reason",
        "living",
    )

    def __init__(self, players: int, keeper: bool, options: dict[str, Any]) -> None:
        self.players = players
        self.keeper = keeper
        self.options = options
        self.board = board_for(players)
        self.roles: list[str | None] = [None] * players
        self.alive = [True] * players
        # The living seats in seat order (kept by the engine as players die).
        self.living: tuple[int, ...] = tuple(range(players))
        self.confirmed: set[int] = set()  # night phase: seen their role
        self.phase = "setup"
        self.round = 0
        self.ballots = 0  # elections held, names each ballot
        self.candidate: int | None = None  # presidential candidate
        self.nominee: int | None = None  # chancellor candidate
        self.president: int | None = None  # the sitting government
        self.chancellor: int | None = None
        self.last_president: int | None = None  # the last elected pair (term limits)
        self.last_chancellor: int | None = None
        self.rotation_base: int | None = None  # the next candidate follows this seat
        self.special_candidate: int | None = None
        self.special_caller: int | None = None
        self.tracker = 0
        self.liberal = 0
        self.fascist = 0
        self.deck: list[str | None] = []
        self.discard: list[str | None] = []
        self.hand: list[str | None] = []  # tiles of the office holder in session
        self.veto_refused = False
        self.veto_requested = False
        self.power: str | None = None  # a presidential power waiting to be used
        self.investigations: list[tuple[int, int]] = []
        self.knowledge: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.not_hitler: set[int] = set()
        # The latest closed election, as the table saw it: who stood, every
        # vote (None for the dead), elected or not, the election tracker it
        # left, and whether its failure threw the country into chaos.
        self.last_election: dict[str, Any] | None = None
        self.executed: list[int] = []
        # Physical mode: (seat, "elected" | "executed") whose Hitler card the
        # table must say.
        self.reveal: tuple[int, str] | None = None
        self.reshuffle_due = False
        self.winner: str | None = None
        self.win_reason: str | None = None

    def next_alive(self, seat: int) -> int:
        """The next living seat clockwise after ``seat`` (which may be dead)."""
        for k in range(1, self.players + 1):
            candidate = (seat + k) % self.players
            if self.alive[candidate]:
                return candidate
        return seat

    def investigated(self, seat: int) -> bool:
        # A plain loop: the engine asks for every living seat whenever a
        # power to investigate comes up, and a generator costs more here.
        for _, target in self.investigations:
            if target == seat:
                return True
        return False
