"""Scores: issue points, the agenda track, Lie-Cheat-and-Steal penalties and
the final ranking with its tie-breakers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .rules import (
    CHALLENGE_NEEDS,
    HONEST_CHALLENGE_COST,
    LIE_PENALTY_CAP,
    PASSED,
    SLOT_VALUES,
    TRACK_SLOTS,
    VETO_COST,
    track_value,
)
from .state import Article27State


def issue_score(slots: list[str], floor: Sequence[str]) -> int:
    """The sum of the slot values whose issue is on the floor (R4); an issue
    drawn twice counts twice."""
    return sum(value for value, issue in zip(SLOT_VALUES, slots) if issue in floor)


def collect(s: Article27State, seat: int, score: int) -> None:
    """A positive score comes from the bank; a negative one is paid to it,
    never more than the player holds (P4)."""
    assert s.influence is not None  # keeper mode: the app holds the influence
    if score >= 0:
        s.influence[seat] += score
        s.bank -= score
    else:
        paid = min(-score, s.influence[seat])
        s.influence[seat] -= paid
        s.bank += paid


def pay_vetoes(s: Article27State) -> None:
    assert s.influence is not None  # keeper mode: the app holds the influence
    for seat in s.vetoers:
        s.influence[seat] -= VETO_COST
        s.bank += VETO_COST


def pay_issue_points(s: Article27State) -> None:
    """A passed proposal pays every player, abstainers included."""
    assert s.slots is not None  # keeper mode: the app dealt the slots
    for seat in range(s.players):
        collect(s, seat, issue_score(s.slots[seat], s.floor))


def end_privilege(s: Article27State) -> None:
    """The SG takes the Success Privilege on a pass; otherwise it goes back."""
    if not s.privilege:
        return
    s.privilege = False
    if s.keeper:
        assert s.influence is not None and s.sg is not None
        if s.outcome == PASSED:
            s.influence[s.sg] += 5
        else:
            s.bank += 5


def place_disks(s: Article27State) -> None:
    """Every disk of the round goes to its agenda's row: face up when its
    issue was in a passed proposal, face down otherwise (P7)."""
    for issue, agenda in s.revealed.items():
        side = "up" if s.outcome == PASSED and issue in s.floor else "down"
        s.track[agenda][side] += 1


def track_view(s: Article27State) -> list[dict[str, Any]]:
    """Each agenda's row: disks face up and down, its value now, and the best
    value it can still reach (every disk still to come passing)."""
    rows = []
    for agenda, row in s.track.items():
        in_play = agenda in s.in_play
        to_come = (TRACK_SLOTS - row["up"] - row["down"]) if in_play else 0
        rows.append(
            {
                "agenda": agenda,
                "in_play": in_play,
                "up": row["up"],
                "down": row["down"],
                "value": track_value(row["up"]),
                "best": track_value(row["up"] + to_come),
            }
        )
    return rows


def challenge_result(
    s: Article27State, announcer: int, announced: int, challenger: int
) -> dict[str, Any]:
    """Lie, Cheat and Steal, decided from the real slots: a true announcement
    costs the challenger 3; a false one costs the announcer the difference,
    at most 5, and the bank pays what the announcer cannot. The actual score
    is what the announcer then collects."""
    assert s.slots is not None and s.influence is not None  # keeper mode
    actual = issue_score(s.slots[announcer], s.floor)
    if actual == announced:
        return {
            "truthful": True,
            "collected": announced,
            "penalty": HONEST_CHALLENGE_COST,
            "from_announcer": 0,
            "from_bank": 0,
        }
    penalty = min(abs(actual - announced), LIE_PENALTY_CAP)
    from_announcer = min(penalty, s.influence[announcer])
    return {
        "truthful": False,
        "collected": actual,
        "penalty": penalty,
        "from_announcer": from_announcer,
        "from_bank": penalty - from_announcer,
    }


def apply_challenge(
    s: Article27State, announcer: int, challenger: int, result: dict[str, Any]
) -> None:
    assert s.influence is not None  # keeper mode: the app holds the influence
    if result["truthful"]:
        s.influence[challenger] -= result["penalty"]
        s.influence[announcer] += result["penalty"]
    else:
        s.influence[announcer] -= result["from_announcer"]
        s.bank -= result["from_bank"]
        s.influence[challenger] += result["penalty"]
    collect(s, announcer, result["collected"])


def can_challenge(s: Article27State, seat: int) -> bool:
    return s.free(seat) >= CHALLENGE_NEEDS


def rank(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Order players by total score. Ties go to fewer agenda points, then to a
    player who passed a proposal as SG; otherwise the victory is shared. Each
    entry says which rule placed it against those with the same total."""

    def key(e: dict[str, Any]) -> tuple[int, int, bool]:
        return (-e["total"], e["points"], not e["passed_as_sg"])

    ordered = sorted(entries, key=lambda e: (key(e), e["seat"]))
    for e in ordered:
        same_total = [o for o in ordered if o["total"] == e["total"]]
        if len(same_total) == 1:
            e["tie_break"] = None
        elif sum(o["points"] == e["points"] for o in same_total) == 1:
            e["tie_break"] = "fewer_agenda_points"
        elif sum(key(o) == key(e) for o in same_total) == 1:
            e["tie_break"] = "passed_as_sg"
        else:
            e["tie_break"] = "shared"
        e["rank"] = 1 + sum(key(o) < key(e) for o in ordered)
    return ordered


def final_entries(s: Article27State) -> list[dict[str, Any]]:
    """Keeper mode: the app knows every agenda and every influence."""
    entries = []
    for seat in range(s.players):
        if s.keeper:
            assert s.influence is not None
            agenda, influence = s.agendas[seat], s.influence[seat]
        else:
            agenda, influence = s.tally[seat]["agenda"], s.tally[seat]["influence"]
        assert agenda is not None  # dealt at the start (keeper), or entered at the end
        points = track_value(s.track[agenda]["up"])
        entries.append(
            {
                "seat": seat,
                "agenda": agenda,
                "influence": influence,
                "points": points,
                "total": influence + points,
                "passed_as_sg": seat in s.passed_as_sg,
            }
        )
    return rank(entries)
