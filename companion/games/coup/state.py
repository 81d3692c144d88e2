"""State of a claim-and-challenge game (Coup and its relatives).

The state is mutable and changed only by the engine's ``apply``; it holds the
real components (coins, cards) so the invariants a test checks are real: coins
move between the treasury and the players, cards between the court, the
hands and the face-up piles.

In physical mode the app does not know hidden cards: every hidden card, in a
hand or in the court, is ``None``. In keeper mode they are character names.
"""
from __future__ import annotations

from typing import Any


class Turn:
    """The action being played this turn and where its resolution stands.

    ``stage`` is one of: ``claim`` (a claim is open to challenge), ``prove``
    (the claimant must show or concede), ``claim_upheld``, ``claim_failed``,
    ``block`` (the block window), ``resolve``, ``exchange_draw`` (waiting for
    the court draw), ``exchange`` (the actor chooses what to keep), ``done``,
    or ``action`` before anything is declared.
    """

    __slots__ = ("actor", "action", "target", "paid", "stage", "claimant",
                 "claim", "kind", "challenger", "passed", "eligible", "blocker",
                 "drawn", "record")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.action: Any = None
        self.target: int | None = None
        self.paid = 0
        self.stage = "action"
        self.claimant: int | None = None
        self.claim: str | None = None
        self.kind: str | None = None          # "action" or "block"
        self.challenger: int | None = None
        self.passed: set[int] = set()
        self.eligible: tuple[int, ...] = ()   # who may answer the open window
        self.blocker: int | None = None
        self.drawn: list[Any] = []
        self.record: dict[str, Any] | None = None


class CoupState:
    __slots__ = ("ruleset", "keeper", "players", "step", "coins",
                 "treasury", "hands", "revealed", "court", "claims", "turn",
                 "turn_no", "phase", "losses", "pending_redraw", "winner",
                 "eliminated", "living", "options")

    def __init__(self, ruleset: Any, players: int, keeper: bool,
                 options: dict[str, Any]) -> None:
        self.ruleset = ruleset
        self.keeper = keeper
        self.players = players
        self.options = options
        # +1 walks the seat list forward (clockwise), -1 backward.
        self.step = 1 if options["direction"] == "clockwise" else -1
        self.coins = [0] * players
        self.treasury = ruleset.coins
        self.hands: list[list[Any]] = [[] for _ in range(players)]
        self.revealed: list[list[str]] = [[] for _ in range(players)]
        deck = ruleset.deck()
        self.court: list[Any] = deck if keeper else [None] * len(deck)
        self.claims: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.turn = Turn(0)
        self.turn_no = 0
        self.phase = "setup"
        self.losses: list[int] = []
        self.pending_redraw: int | None = None
        self.winner: int | None = None
        # Knocked out during the current action; their coins return when it ends.
        self.eliminated: list[int] = []
        # Seats still in the game, in seat order (kept by the engine as hands empty).
        self.living: tuple[int, ...] = ()

    # -- movements of real components -------------------------------------
    def gain(self, seat: int, amount: int) -> int:
        """Take up to ``amount`` coins from the treasury (less if it runs short)."""
        amount = min(amount, self.treasury)
        self.treasury -= amount
        self.coins[seat] += amount
        return amount

    def pay(self, seat: int, amount: int) -> None:
        self.coins[seat] -= amount
        self.treasury += amount

    def transfer(self, source: int, dest: int, amount: int) -> int:
        amount = min(amount, self.coins[source])
        self.coins[source] -= amount
        self.coins[dest] += amount
        return amount

    def alive(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def queue_loss(self, seat: int) -> None:
        self.losses.append(seat)

    def face_up(self, character: str) -> int:
        """How many copies of a character are face up on the whole table."""
        return sum(pile.count(character) for pile in self.revealed)

    def next_alive(self, seat: int) -> int:
        """The next seat still in the game, in the direction of play."""
        n = self.players
        for k in range(1, n + 1):
            candidate = (seat + self.step * k) % n
            if self.hands[candidate]:
                return candidate
        return seat
