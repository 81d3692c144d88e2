"""Article 27's numbers: issues, agendas, slots, thresholds, track values."""

from __future__ import annotations

# The five issues (the Greek rulebook names them; which colour is which is
# not known, so the app names issues, not colours).
ISSUES = ("peacekeeping", "smuggling", "diplomatic", "humanitarian", "nuclear")
AGENDAS = ("wealth", "peace", "prestige", "innovation", "justice", "power")

# A player's five hidden scoring slots, filled left to right in draw order.
SLOT_VALUES = (5, 3, 1, -2, -4)
TOKENS_PER_ISSUE = 6  # draw tokens in the bag, per issue

START_INFLUENCE = 12
COME_AND_GO_INFLUENCE = 20  # the "Come and Go" variant
INFLUENCE_IN_THE_BOX = 378  # 63×1 + 27×5 + 18×10 tokens
PRIVILEGE = 5  # the Success Privilege
VETO_COST = 5  # a veto needs, and costs, 5 influence
YES_NEEDED = {3: 2, 4: 3, 5: 3, 6: 4}
TIMER_SECONDS = 300  # negotiation: 5 minutes
SAME_AGENDA_LIMIT = 2  # disks of one agenda revealed in a round (not the last)

# Agenda track: the value of a row with k disks passed face up.
TRACK_VALUES = (0, 1, 3, 6, 10, 15)
TRACK_SLOTS = 5

YES, VETO, ABSTAIN = "yes", "veto", "abstain"
VOTES = (YES, VETO, ABSTAIN)
PASSED, VETOED, FAILED = "passed", "vetoed", "failed"

# Bribe conditions. INCLUDE / EXCLUDE name an issue and are promises by the SG.
INCLUDE, EXCLUDE, OTHER = "include", "exclude", "other"
BRIBE_KINDS = (YES, VETO, ABSTAIN, INCLUDE, EXCLUDE, OTHER)

# Lie, Cheat and Steal.
CHALLENGE_NEEDS = 3
HONEST_CHALLENGE_COST = 3
LIE_PENALTY_CAP = 5
SCORE_RANGE = (-6, 9)  # the lowest and highest score a round can give


def rounds_for(players: int) -> int:
    """Every player is Secretary-General once; twice with three players."""
    return 6 if players == 3 else players


def unused_agendas_removed(players: int) -> bool:
    """With 4 or 5 players the unused agendas are shown and their disks put
    away; with 3 they are set aside unseen and every disk stays."""
    return players in (4, 5)


def track_value(passed: int) -> int:
    return TRACK_VALUES[min(passed, TRACK_SLOTS)]


def conflicts(kind_a: str, issue_a: str | None, kind_b: str, issue_b: str | None) -> bool:
    """Whether two bribe conditions cannot both be honoured: two different
    votes, or including and excluding the same issue."""
    votes = (YES, VETO, ABSTAIN)
    if kind_a in votes and kind_b in votes:
        return kind_a != kind_b
    return {kind_a, kind_b} == {INCLUDE, EXCLUDE} and issue_a == issue_b
