"""State of a claim-and-challenge game (Coup and its relatives): the same
for every ruleset, whose own pieces live in ``extras``.

The state is mutable and changed only by the engine's ``apply``; it holds the
real components (coins, cards, tokens) so the invariants a test checks are
real: coins move between the treasury and the players, cards between the
court, the hands and the face-up piles.

In physical mode the app does not know hidden cards: every hidden card, in a
hand or in the court, is ``None``. In keeper mode they are character names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import Ruleset


class Claim:
    """A character claim, open to challenge by every other living player.

    ``kind`` says what the claim is for: ``action`` (the actor's action),
    ``block``, ``join`` (another player claims the same character for a share
    of the action), ``react`` (on losing a life) or ``elimination`` (on another
    player's elimination). ``status``: ``open`` (anyone may challenge),
    ``prove`` (challenged: show or concede), ``upheld`` or ``failed``.
    """

    __slots__ = (
        "seat",
        "character",
        "kind",
        "status",
        "challenger",
        "eligible",
        "passed",
        "record",
        "opened_at",
    )

    def __init__(
        self,
        seat: int,
        character: str,
        kind: str,
        eligible: tuple[int, ...],
        record: dict[str, Any],
        opened_at: float | None = None,
    ) -> None:
        self.opened_at = opened_at  # table time it opened (a response countdown)
        self.seat = seat
        self.character = character
        self.kind = kind
        self.status = "open"
        self.challenger: int | None = None
        self.eligible = eligible
        self.passed: set[int] = set()
        self.record = record


class Window:
    """A moment when several players may answer: block an action, join it,
    claim a reaction on an elimination, or stop what comes due."""

    __slots__ = ("kind", "eligible", "passed", "blockers")

    def __init__(
        self, kind: str, eligible: tuple[int, ...], blockers: tuple[str, ...] = ()
    ) -> None:
        self.kind = kind
        self.eligible = eligible
        self.passed: set[int] = set()
        self.blockers = blockers  # the characters that may answer (block windows)


@dataclass(frozen=True, slots=True)
class Choice:
    """A choice the table waits on: ``seat`` picks one of ``options``.
    ``kind`` names it (for the words: the action's); ``private``: the
    options are cards of the seat's hand (keeper mode), so the choice is
    made on that seat's own device."""

    seat: int
    kind: str
    options: tuple[Any, ...]
    private: bool = False


_NO_FIELDS: dict[str, Any] = {}
_NOBODY: frozenset[int] = frozenset()


class Turn:
    """The action being played and where its resolution stands.

    ``step``: ``action`` (nothing declared yet), ``claim`` (a claim is being
    settled: see ``claim``), ``window`` (see ``window``), ``choice`` (a player
    must choose: see ``choice``), ``exchange_draw`` (waiting for ``draw``
    cards from the court, then ``after_draw``), ``exchange`` (the actor
    chooses what to keep, and with ``give_back`` which card goes back to the
    target), and the passing steps ``declared``, ``blocks``, ``resolve``,
    ``done``.
    """

    __slots__ = (
        "actor",
        "action",
        "target",
        "extra",
        "paid",
        "step",
        "claim",
        "window",
        "targets",
        "blocks",
        "protected",
        "joiners",
        "choice",
        "draw",
        "after_draw",
        "give_back",
        "counted",
        "drawn",
        "again",
        "resolved",
    )

    def __init__(self, actor: int, again: bool = False) -> None:
        # Containers start as shared empty values and are replaced, never
        # mutated, so that a turn costs little to begin.
        self.actor = actor
        self.action: Any = None
        self.target: int | None = None
        self.extra: dict[str, Any] = _NO_FIELDS  # more declared fields ("to", "role")
        self.paid = 0
        self.step = "action"
        self.claim: Claim | None = None
        self.window: Window | None = None
        self.targets: tuple[int, ...] = ()  # whom an action on every other player hits
        self.blocks: tuple[tuple[int, str], ...] = ()  # block claims waiting to be settled
        self.protected: frozenset[int] = _NOBODY  # players whose block stood
        self.joiners: tuple[int, ...] = ()  # players whose join stood
        self.choice: Choice | None = None
        self.draw = 0  # cards to draw from the court (step exchange_draw)
        self.after_draw = "exchange"  # then: the exchange, or this option of the action's
        self.give_back = False  # the exchange hands one card back to the target
        self.counted = 0  # cards drawn on the table (physical mode: the app counts)
        self.drawn: tuple[Any, ...] = ()
        self.again = again  # this is the extra action an action gave its actor
        self.resolved = False  # the action took effect (was not stopped)


class ClaimState:
    """A game in play: coins, cards, claims, the turn and what interrupts it."""

    __slots__ = (
        "ruleset",
        "keeper",
        "players",
        "rotation",
        "coins",
        "treasury",
        "hands",
        "revealed",
        "court",
        "claims",
        "turn",
        "turn_no",
        "phase",
        "losses",
        "pending_redraw",
        "winner",
        "eliminated",
        "living",
        "others",
        "after",
        "options",
        "interrupt",
        "window_after",
        "reacted",
        "react_card",
        "probate",
        "heirs",
        "extras",
        "new_life",
        "now",
    )

    def __init__(
        self, ruleset: Ruleset, players: int, keeper: bool, options: dict[str, Any]
    ) -> None:
        self.ruleset = ruleset
        self.keeper = keeper
        self.players = players
        self.options = options
        # With a response countdown: the table time of the command being
        # applied (events carry it then), so a claim knows when it opened.
        self.now: float | None = None
        # +1 walks the seat list forward (clockwise), -1 backward.
        self.rotation = 1 if options.get("direction", "clockwise") == "clockwise" else -1
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
        # Influence losses to settle, in order: (seat, reason); the reason
        # ("coup", "challenge", ...) decides which reactions are open.
        self.losses: list[tuple[int, str]] = []
        self.pending_redraw: int | None = None
        self.winner: int | None = None
        # Knocked out during the current action; their coins go back (or to
        # those whose claims on the elimination stood) when it ends.
        self.eliminated: list[int] = []
        # Seats still in the game, in seat order (kept by the engine as hands empty).
        self.living: tuple[int, ...] = ()
        # By seat: the other living seats (who may challenge its claims), and
        # the next living seat in the direction of play.
        self.others: tuple[tuple[int, ...], ...] = ()
        self.after: tuple[int, ...] = ()
        # A claim or window that interrupts the turn: a reaction to a lost
        # life or to an elimination, something coming due.
        self.interrupt: Claim | Window | None = None
        self.window_after: Window | None = None  # the elimination window a claim interrupts
        self.reacted = False  # the loss at the head was reacted to
        self.react_card: str | None = None  # the card that reaction turns up, once known
        self.new_life: list[int] = []  # seats a reaction owes a card from the court
        self.probate: list[int] = []  # eliminations waiting for their window
        self.heirs: dict[int, list[int]] = {}  # eliminated seat -> upheld claims on it
        # The ruleset's own pieces (its hooks' ``new_extras``), e.g. tokens.
        self.extras: Any = None if ruleset.hooks is None else ruleset.hooks.new_extras()

    # -- movements of real components -------------------------------------
    def gain(self, seat: int, amount: int) -> int:
        """Take ``amount`` coins from the treasury: less if it runs short,
        unless the game's treasury has no limit (then it may go negative)."""
        if amount > self.treasury and not self.ruleset.unlimited_treasury:
            amount = self.treasury
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

    def set_living(self, living: tuple[int, ...]) -> None:
        self.living = living
        self.others, self.after = _seating(self.players, living, self.rotation)

    def alive(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def queue_loss(self, seat: int, reason: str = "effect") -> None:
        self.losses.append((seat, reason))

    def face_up(self, character: str) -> int:
        """How many copies of a character are face up on the whole table."""
        return sum(pile.count(character) for pile in self.revealed)

    def clockwise_from(self, seat: int) -> list[int]:
        """The living seats after ``seat``, in the direction of play."""
        n = self.players
        order = [(seat + self.rotation * k) % n for k in range(1, n)]
        return [i for i in order if self.hands[i]]


# Seating tables by (players, living seats, direction): a game meets few of
# them, and every game at a table of the same size meets the same ones.
_SEATING: dict[
    tuple[int, tuple[int, ...], int], tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
] = {}


def _seating(
    players: int, living: tuple[int, ...], step: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    key = (players, living, step)
    table = _SEATING.get(key)
    if table is None:
        others = tuple(tuple([i for i in living if i != seat]) for seat in range(players))
        after = tuple(
            next(
                (
                    (seat + step * k) % players
                    for k in range(1, players + 1)
                    if (seat + step * k) % players in living
                ),
                seat,
            )
            for seat in range(players)
        )
        table = _SEATING[key] = (others, after)
    return table
