"""The secret ballot: the table collects the votes, the game decides the rest.

The engine says when a ballot is open and for what (``engine.ballot(state)``
returns ``{"id", "eligible", "choices"}``, optionally ``"allowed"``: the
choices open to a given seat, or None). Seats vote with
``{"type": "vote", "seat": s, "choice": c}`` from any input; each vote is a
table event, stored like any other so a power cut loses none, but while the
ballot is open the views show only *who* has voted, never what. A seat may
change its vote until the last eligible vote arrives; the last vote closes the
ballot, and the table hands every vote to the engine in one ``ballot`` command,
whose event reveals them all at once. The operator can abort a ballot
(``{"type": "ballot_abort"}``) to run it again; the log says so.
"""
from __future__ import annotations

from typing import Any

from ..games.base import RuleError, seat_of

# Table events (never passed to the engine) and the engine command the table
# alone may give.
VOTE, ABORT, CLOSE = "vote", "ballot_abort", "ballot"


class BallotBox:
    """The votes cast so far in the ballot the engine has open."""

    def __init__(self) -> None:
        self.ballot_id: str | None = None
        self.votes: dict[int, str] = {}

    def record(self, event: dict[str, Any]) -> None:
        if event["type"] == ABORT:
            self.votes = {}
            return
        if event["ballot"] != self.ballot_id:
            self.ballot_id, self.votes = event["ballot"], {}
        self.votes[event["seat"]] = event["choice"]

    def cast(self, spec: dict[str, Any] | None) -> dict[int, str]:
        """The votes of the open ballot ``spec`` (none once it has closed)."""
        if spec is None or spec["id"] != self.ballot_id:
            return {}
        return self.votes

    def vote_event(self, spec: dict[str, Any] | None, command: dict[str, Any],
                   players: int) -> dict[str, Any]:
        """Validate a vote against the open ballot; return its event."""
        if spec is None:
            raise RuleError("ballot.none_open")
        seat = seat_of(command, players)
        if seat not in spec["eligible"]:
            raise RuleError("ballot.not_eligible", player=seat)
        choice = command.get("choice")
        if choice not in spec["choices"]:
            raise RuleError("ballot.bad_choice", choice=str(choice)[:20])
        if choice not in spec.get("allowed", {}).get(seat, spec["choices"]):
            # Said only to the voter: it may reflect what only they know.
            raise RuleError("ballot.choice_not_allowed", choice=choice)
        if self.cast(spec).get(seat) == choice:
            raise RuleError("ballot.already_voted", player=seat)
        return {"type": VOTE, "ballot": spec["id"], "seat": seat, "choice": choice}

    def abort_event(self, spec: dict[str, Any] | None) -> dict[str, Any]:
        if spec is None:
            raise RuleError("ballot.none_open")
        return {"type": ABORT, "ballot": spec["id"]}

    def closing_command(self, spec: dict[str, Any], players: int) -> dict[str, Any] | None:
        """The engine command that closes the ballot, once every eligible seat
        has voted: every vote at once, in seat order (None for a seat that
        does not vote)."""
        votes = self.cast(spec)
        if any(seat not in votes for seat in spec["eligible"]):
            return None
        return {"type": CLOSE, "votes": [votes.get(seat) for seat in range(players)]}

    def public(self, spec: dict[str, Any] | None) -> dict[str, Any] | None:
        """What everyone may see of an open ballot: who has voted, not what."""
        if spec is None:
            return None
        return {"id": spec["id"], "eligible": list(spec["eligible"]),
                "choices": list(spec["choices"]), "voted": sorted(self.cast(spec))}

    def legal_votes(self, spec: dict[str, Any] | None,
                    shared: bool = False) -> list[dict[str, Any]]:
        """A vote for every choice open to every eligible seat that has not
        voted. For a shared screen (``shared``) every choice is listed, so the
        buttons do not tell the table which choices a seat may not make."""
        if spec is None:
            return []
        cast = self.cast(spec)
        allowed = {} if shared else spec.get("allowed", {})
        return [{"type": VOTE, "seat": seat, "choice": choice}
                for seat in spec["eligible"] if seat not in cast
                for choice in allowed.get(seat, spec["choices"])]
