"""Show of Hands: the smallest game that uses every seam a game can.

Each round the table asks a question aloud and every seat answers Yes or
No on a secret ballot (buttons, pad or phone); the answers show all at once,
and each seat on the larger side scores a point (a tie scores nobody). After
the last round the highest score wins; a tie for it is shared. In keeper
mode each seat is dealt a secret hunch (1 to 6) at the start, which only its
phone shows; a seat may play its hunch once, from its phone only, for that
many points at the end: a private choice the shared screen never offers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.base import KEEPER, Fate, RuleError, Setup, checked_options, seat_of

from . import SPEC

YES, NO = "yes", "no"
DEFAULTS = SPEC.defaults()


@dataclass
class HandsState:
    players: int
    mode: str
    rounds: int
    round: int = 1
    asking: bool = False  # a ballot is open
    scores: list[int] = field(default_factory=list)
    hunches: list[int] | None = None  # keeper mode: dealt at the start
    played: list[bool] = field(default_factory=list)
    last: list[str | None] | None = None  # the latest revealed answers
    winners: list[int] | None = None


class ShowOfHandsEngine:
    name = "show_of_hands"
    min_players, max_players = SPEC.min_players, SPEC.max_players

    def check_setup(self, setup: Setup) -> None:
        options = checked_options(setup, self.name, self.min_players, self.max_players, DEFAULTS)
        if type(options["rounds"]) is not int or not 1 <= options["rounds"] <= 9:
            raise RuleError("setup.bad_option", option="rounds", value=str(options["rounds"]))

    def new_state(self, setup: Setup) -> HandsState:
        self.check_setup(setup)
        rounds = {**DEFAULTS, **setup.options}["rounds"]
        return HandsState(
            players=setup.players,
            mode=setup.mode,
            rounds=rounds,
            scores=[0] * setup.players,
            played=[False] * setup.players,
        )

    def chance(self, s: HandsState, fate: Fate) -> dict[str, Any] | None:
        if s.mode != KEEPER or s.hunches is not None:
            return None
        hunches = fate.take("hunches") or [fate.rng.randint(1, 6) for _ in range(s.players)]
        return {"type": "dealt", "hunches": list(hunches)}

    def decide(self, s: HandsState, command: dict[str, Any]) -> list[dict[str, Any]]:
        kind = command.get("type")
        if s.winners is not None:
            raise RuleError("hands.over")
        if kind == "ask":
            if s.asking:
                raise RuleError("hands.asking")
            return [{"type": "asked", "round": s.round}]
        if kind == "ballot":
            if not s.asking:
                raise RuleError("ballot.none_open")
            return [{"type": "revealed", "votes": list(command["votes"])}]
        if kind == "play_hunch":
            seat = seat_of(command, s.players)
            if not self._may_play(s, seat):
                raise RuleError("hands.no_hunch")
            return [{"type": "hunch_played", "seat": seat}]
        raise RuleError("command.unknown", command=str(kind)[:20])

    def apply(self, s: HandsState, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "dealt":
            s.hunches = list(event["hunches"])
        elif kind == "asked":
            s.asking = True
        elif kind == "hunch_played":
            s.played[event["seat"]] = True
        elif kind == "revealed":
            s.asking, s.last = False, list(event["votes"])
            yes, no = s.last.count(YES), s.last.count(NO)
            if yes != no:
                side = YES if yes > no else NO
                for seat, vote in enumerate(s.last):
                    s.scores[seat] += vote == side
            if s.round == s.rounds:
                s.winners = self._winners(s)
            else:
                s.round += 1

    @staticmethod
    def _may_play(s: HandsState, seat: int) -> bool:
        return s.hunches is not None and not s.played[seat]

    @staticmethod
    def _final(s: HandsState, seat: int) -> int:
        bonus = s.hunches[seat] if s.hunches is not None and s.played[seat] else 0
        return s.scores[seat] + bonus

    def _winners(self, s: HandsState) -> list[int]:
        best = max(self._final(s, seat) for seat in range(s.players))
        return [seat for seat in range(s.players) if self._final(s, seat) == best]

    def legal_commands(self, s: HandsState) -> tuple[dict[str, Any], ...]:
        if s.winners is not None:
            return ()
        out = [] if s.asking else [{"type": "ask"}]
        out += [
            {"type": "play_hunch", "seat": seat}
            for seat in range(s.players)
            if self._may_play(s, seat)
        ]
        return tuple(out)

    def private_choice(self, s: HandsState, command: dict[str, Any]) -> bool:
        return command.get("type") == "play_hunch"

    def reveals_hidden(self, s: HandsState, event: dict[str, Any]) -> bool:
        return False

    def is_over(self, s: HandsState) -> bool:
        return s.winners is not None

    def ballot(self, s: HandsState) -> dict[str, Any] | None:
        if not s.asking:
            return None
        return {"id": f"round-{s.round}", "eligible": list(range(s.players)), "choices": (YES, NO)}

    def timer(self, s: HandsState, now: float) -> None:
        return None

    def due(self, s: HandsState, now: float) -> None:
        return None

    def result(self, s: HandsState) -> dict[str, Any] | None:
        return None if s.winners is None else {"winners": s.winners}

    def next_game_options(self, s: HandsState) -> dict[str, Any]:
        return {"rounds": s.rounds}

    def public_view(self, s: HandsState) -> dict[str, Any]:
        over = s.winners is not None
        return {
            "game": self.name,
            "phase": "over" if over else "vote" if s.asking else "ask",
            "round": s.round,
            "rounds": s.rounds,
            "last": s.last,
            "winners": s.winners,
            "winner": None,
            "players": [
                {
                    "seat": seat,
                    "score": s.scores[seat],
                    "final": self._final(s, seat) if over else None,
                }
                for seat in range(s.players)
            ],
        }

    def private_view(self, s: HandsState, seat: int) -> dict[str, Any]:
        if s.hunches is None:
            return {}
        return {"hunch": s.hunches[seat], "hunch_played": s.played[seat]}

    def describe(self, event: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        kind = event["type"]
        if kind == "asked":
            return "hands.log.asked", {"count": event["round"]}
        if kind == "revealed":
            return "hands.log.revealed", {
                "yes": event["votes"].count(YES),
                "no": event["votes"].count(NO),
            }
        if kind == "hunch_played":
            return "hands.log.hunch", {"player": event["seat"]}
        return None


ENGINE = ShowOfHandsEngine()
