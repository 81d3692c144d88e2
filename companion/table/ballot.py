"""The secret ballot: the table collects the votes, the game decides the rest.

The engine says when a ballot is open and for what (``engine.ballot(state)``
returns ``{"id", "eligible", "choices"}``, optionally ``"allowed"``: the
choices open to a given seat, or None). A choice the engine restricts by what
only the seat knows must be one of its private choices (``private_choice``):
the shared screen neither offers nor takes it for any seat, so only the
seat's own channel hears why it is refused. Seats vote with
``{"type": "vote", "seat": s, "choice": c}`` from any input; each vote is a
table event, stored like any other so a power cut loses none, but while the
ballot is open the views show only *who* has voted, never what. A vote may be
changed (unless the table locks votes on the first press: ``BallotBox(locked=
True)``) until the last eligible vote arrives, but only from the channel that
cast it (the seat's phone or buttons, or a local script), never from the
shared screen, where anyone may stand: any other attempt is told that the seat
has already voted, whatever its choice, so it can neither learn nor replace a
vote. (A seat's phone and its buttons are different channels.) From the
channel that cast it, the same choice again is taken like a change: a repeat
and a change look the same, so pressing a seat's buttons tells nothing. The
last vote closes the ballot, and the table hands every vote to the engine in
one ``ballot`` command, whose event reveals them all at once. The operator
can abort a ballot (``{"type": "ballot_abort"}``) to run it again (to
correct a vote entered on the shared screen, say); the log says so.
"""

from __future__ import annotations

from ..games.base import Command, Event, RuleError, seat_of
from ..games.views import BallotSpec, PublicBallot

# Table events (never passed to the engine) and the engine command the table
# alone may give.
VOTE, ABORT, CLOSE = "vote", "ballot_abort", "ballot"


class BallotBox:
    """The votes cast so far in the ballot the engine has open."""

    def __init__(self, locked: bool = False) -> None:
        self.locked = locked  # the first vote counts: no changes
        self.ballot_id: str | None = None
        self.votes: dict[int, str] = {}
        self.channels: dict[int, str] = {}  # the source that cast each vote

    def record(self, event: Event) -> None:
        if event["type"] == ABORT:
            self.votes, self.channels = {}, {}
            return
        if event["ballot"] != self.ballot_id:
            self.ballot_id, self.votes, self.channels = event["ballot"], {}, {}
        self.votes[event["seat"]] = event["choice"]
        self.channels[event["seat"]] = event["by"]

    def cast(self, spec: BallotSpec | None) -> dict[int, str]:
        """The votes of the open ballot ``spec`` (none once it has closed)."""
        if spec is None or spec["id"] != self.ballot_id:
            return {}
        return self.votes

    def vote_event(
        self,
        spec: BallotSpec | None,
        command: Command,
        players: int,
        source: str,
        shared: bool,
    ) -> Event:
        """Validate a vote from ``source`` (``shared``: the shared screen)
        against the open ballot; return its event."""
        if spec is None:
            raise RuleError("ballot.none_open")
        seat = seat_of(command, players)
        if seat not in spec["eligible"]:
            raise RuleError("ballot.not_eligible", player=seat)
        cast = self.cast(spec)
        if seat in cast and (self.locked or shared or self.channels[seat] != source):
            # The same answer whatever the choice: nothing about the vote.
            raise RuleError("ballot.already_voted", player=seat)
        choice = command.get("choice")
        # (Every choice is a string: the check says so to the type checker.)
        if not isinstance(choice, str) or choice not in spec["choices"]:
            raise RuleError("ballot.bad_choice", choice=str(choice)[:20])
        if choice not in spec.get("allowed", {}).get(seat, spec["choices"]):
            # Said only to the voter: it may reflect what only they know. The
            # game may say why (``why_not``: choice -> (key, arguments)).
            key, args = spec.get("why_not", {}).get(choice, ("ballot.choice_not_allowed", {}))
            raise RuleError(key, **{"choice": choice, **args})
        # The same choice again is taken like a change, so nobody at the
        # seat's buttons can tell a repeat from a change.
        return {"type": VOTE, "ballot": spec["id"], "seat": seat, "choice": choice, "by": source}

    def changes(self, spec: BallotSpec | None, seat: int, source: str) -> list[Command]:
        """The votes ``source`` may still send for ``seat``, which has voted
        from it: a vote for every choice open to the seat (the one it made
        too, as a repeat is taken like a change), while the ballot is open
        and the table takes changes; otherwise none."""
        cast = self.cast(spec)
        if spec is None or self.locked or seat not in cast or self.channels[seat] != source:
            return []
        choices = spec.get("allowed", {}).get(seat, spec["choices"])
        return [{"type": VOTE, "seat": seat, "choice": choice} for choice in choices]

    def abort_event(self, spec: BallotSpec | None) -> Event:
        if spec is None:
            raise RuleError("ballot.none_open")
        return {"type": ABORT, "ballot": spec["id"]}

    def closing_command(
        self, spec: BallotSpec, players: int, shared_channel: str
    ) -> Command | None:
        """The engine command that closes the ballot, once every eligible seat
        has voted: every vote at once, in seat order (None for a seat that
        does not vote), and whether every one was cast in public, from
        ``shared_channel`` (the shared screen): the game's mode says whether
        the reveal then showed anything hidden (``engine.reveals_hidden``)."""
        votes = self.cast(spec)
        if any(seat not in votes for seat in spec["eligible"]):
            return None
        return {
            "type": CLOSE,
            "votes": [votes.get(seat) for seat in range(players)],
            "in_public": all(self.channels[seat] == shared_channel for seat in votes),
        }

    def public(self, spec: BallotSpec | None) -> PublicBallot | None:
        """What everyone may see of an open ballot: who has voted, not what."""
        if spec is None:
            return None
        return {
            "id": spec["id"],
            "eligible": list(spec["eligible"]),
            "choices": list(spec["choices"]),
            "voted": sorted(self.cast(spec)),
        }

    def legal_votes(self, spec: BallotSpec | None, shared: bool = False) -> list[Command]:
        """A vote for every choice open to every eligible seat that has not
        voted. For a shared screen (``shared``) every choice is listed, so the
        buttons do not tell the table which choices a seat may not make."""
        if spec is None:
            return []
        cast = self.cast(spec)
        allowed = {} if shared else spec.get("allowed", {})
        return [
            {"type": VOTE, "seat": seat, "choice": choice}
            for seat in spec["eligible"]
            if seat not in cast
            for choice in allowed.get(seat, spec["choices"])
        ]
