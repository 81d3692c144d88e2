"""Secret Hitler's numbers: roles by player count, the fascist boards, the deck."""

from __future__ import annotations

LIBERAL, FASCIST, HITLER = "liberal", "fascist", "hitler"
POLICIES = (LIBERAL, FASCIST)
JA, NEIN = "ja", "nein"

# Players -> (liberals, fascists other than Hitler).
ROLE_COUNTS = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}

INVESTIGATE, SPECIAL_ELECTION, PEEK, EXECUTE = (
    "investigate",
    "special_election",
    "peek",
    "execute",
)
POWERS = (INVESTIGATE, SPECIAL_ELECTION, PEEK, EXECUTE)

# The power granted by the n-th fascist policy a government enacts, by board.
BOARDS = {
    "5-6": {3: PEEK, 4: EXECUTE, 5: EXECUTE},
    "7-8": {2: INVESTIGATE, 3: SPECIAL_ELECTION, 4: EXECUTE, 5: EXECUTE},
    "9-10": {1: INVESTIGATE, 2: INVESTIGATE, 3: SPECIAL_ELECTION, 4: EXECUTE, 5: EXECUTE},
}

DECK = (LIBERAL,) * 6 + (FASCIST,) * 11
LIBERAL_WIN = 5  # the 5th liberal policy wins
FASCIST_WIN = 6  # the 6th fascist policy wins
HITLER_ZONE = 3  # from the 3rd fascist policy, electing Hitler chancellor wins
VETO_FROM = 5  # from the 5th fascist policy, the veto is unlocked
CHAOS_AT = 3  # the third failed government in a row
FULL_TERM_LIMITS_ABOVE = 5  # with 5 or fewer alive, only the last chancellor is term-limited
HAND = 3  # tiles the president draws


def board_for(players: int) -> str:
    return "5-6" if players <= 6 else ("7-8" if players <= 8 else "9-10")


def party_of(role: str) -> str:
    """The party card: Hitler's says fascist, so an investigation never
    reveals who Hitler is."""
    return LIBERAL if role == LIBERAL else FASCIST


def hitler_knows_fascists(players: int) -> bool:
    """With 5-6 players the fascist and Hitler know each other; with 7-10
    Hitler knows nobody (the fascists still know Hitler)."""
    return players <= 6
