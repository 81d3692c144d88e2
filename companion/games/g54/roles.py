"""The 25 characters of Coup: Rebellion G54 as data plus small functions.

Each role is a category, an "advanced" flag and either an action over the
shared claim / challenge / block engine (``..claims.rules.Action``) or a
reaction (claimed on losing a life, or on another player's elimination).
Costs, blocks and texts follow the rules digest's character table (its
sources are named in docs/games/g54.md, with the readings taken where they
are silent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import RuleError
from ..claims.general import begin_exchange, lose_influence
from ..claims.rules import Action, Reaction, Resolve
from ..claims.state import Choice, ClaimState, Turn
from .tokens import DISAPPEAR_TOKENS, Tokens

FINANCE, COMMUNICATIONS, FORCE, SPECIAL = "finance", "communications", "force", "special"
CATEGORIES = (FINANCE, COMMUNICATIONS, FORCE, SPECIAL)

CRIME_BOSS_FINE = 5  # what the Crime Boss pays when the target refuses
EXTORTION = 2  # what the Crime Boss's target may pay instead
RIOT_FEE = 3  # what a player pays to join the Protestor


@dataclass(frozen=True)
class Role:
    name: str
    category: str
    advanced: bool
    action: Action | None = None  # None: a reaction (see ``reaction``)
    reaction: Reaction | None = None
    token: str | None = None  # the token its action puts in play


# -- Finance ---------------------------------------------------------------------


def _gain(amount: int) -> Resolve:
    def resolve(s: ClaimState, t: Turn) -> None:
        s.gain(t.actor, amount)
        t.step = "done"

    return resolve


def dividends(s: ClaimState, t: Turn) -> None:
    """Capitalist: +4, then 1 to each player whose claim to join stood."""
    s.gain(t.actor, 4)
    for joiner in t.joiners:
        s.transfer(t.actor, joiner, 1)
    t.step = "done"


def cooperation(s: ClaimState, t: Turn) -> None:
    """Farmer: take 3, give 1 of them to another player."""
    s.gain(t.actor, 3)
    if s.alive(t.extra["to"]):
        s.transfer(t.actor, t.extra["to"], 1)
    t.step = "done"


def gamble(s: ClaimState, t: Turn) -> None:
    """Speculator: as many coins as the actor holds, at most 5."""
    s.gain(t.actor, min(s.coins[t.actor], 5))
    t.step = "done"


def gamble_lost(s: ClaimState, t: Turn, challenger: int | None) -> None:
    """A Speculator caught bluffing gives all their coins to the challenger."""
    if challenger is not None:
        s.transfer(t.actor, challenger, s.coins[t.actor])


# -- Communications -----------------------------------------------------------------


def _exchange(draw: int, gain: int = 0) -> Resolve:
    def resolve(s: ClaimState, t: Turn) -> None:
        if gain:
            s.gain(t.actor, gain)
        begin_exchange(s, t, draw)

    return resolve


def produce(s: ClaimState, t: Turn) -> None:
    """Producer: one card from the court, then one the target hands over."""
    begin_exchange(s, t, 1, after="from_target")


def produce_from_the_court(s: ClaimState, t: Turn) -> None:
    """The Producer blocked by its target: the target's card is out of reach,
    but the court's part stands (the Persian rulebook: the other details of
    the action are still carried out): one card from the court, and one of
    the hand back to it, an exchange of one."""
    begin_exchange(s, t, 1)


def producer_step(s: ClaimState, t: Turn, option: Any) -> None:
    assert t.target is not None  # a targeted action names its target
    if option == "from_target":
        if not s.keeper:  # the cards change hands on the table
            t.step = "done"
            return
        hand = s.hands[t.target]
        if not hand:  # the target is out: an exchange with the court
            t.choice, t.step = None, "exchange"
            return
        t.choice = Choice(t.target, "producer", tuple(sorted(set(hand))), private=True)
        t.step = "choice"
        return
    s.hands[t.target].remove(option)  # the card the target hands over
    t.drawn += (option,)
    t.choice, t.give_back = None, True
    t.step = "exchange"


def write(s: ClaimState, t: Turn) -> None:
    """Writer: draw one, then may pay 1 for each further card."""
    begin_exchange(s, t, 1, after="more")


def writer_step(s: ClaimState, t: Turn, option: Any) -> None:
    # Cards drawn so far: in keeper mode they are in ``t.drawn`` (and out of
    # the court); on the table the app counts them.
    if option == "more":  # a card has just been drawn
        if not s.keeper:
            t.counted += 1
        left = len(s.court) - (0 if s.keeper else t.counted)
        if s.coins[t.actor] >= 1 and left > 0:
            t.choice = Choice(t.actor, "writer", ("draw", "stop"))
            t.step = "choice"
            return
        option = "stop"
    if option == "draw":
        s.pay(t.actor, 1)
        t.choice = None
        begin_exchange(s, t, 1, after="more")
        return
    t.choice = None
    t.step = "exchange" if s.keeper else "done"


# -- Force -------------------------------------------------------------------------


def extortion(s: ClaimState, t: Turn) -> None:
    """Crime Boss: the target pays 2, or the Crime Boss pays 5 and the target
    loses a life. A target who cannot pay has no choice."""
    assert t.target is not None  # a targeted action names its target
    if not s.alive(t.target):
        t.step = "done"
        return
    if s.coins[t.target] < EXTORTION:
        extortion_step(s, t, "refuse")
        return
    t.choice = Choice(t.target, "extortion", ("pay", "refuse"))
    t.step = "choice"


def extortion_step(s: ClaimState, t: Turn, option: Any) -> None:
    assert t.target is not None  # a targeted action names its target
    if option == "pay":
        s.transfer(t.target, t.actor, EXTORTION)
    else:
        s.pay(t.actor, CRIME_BOSS_FINE)
        s.queue_loss(t.target, "crime_boss")
    t.choice = None
    t.step = "done"


def purge(s: ClaimState, t: Turn) -> None:
    """General: every other player reached loses a life, unless their block stood."""
    for seat in t.targets:
        if seat not in t.protected and s.alive(seat):
            s.queue_loss(seat, "general")
    t.step = "done"


def disappear(s: ClaimState, t: Turn) -> None:
    """Mercenary: a Disappear token on the target."""
    assert t.target is not None  # a targeted action names its target
    if s.alive(t.target):
        tokens: Tokens = s.extras
        tokens.disappear[t.target] = tokens.disappear.get(t.target, 0) + 1
    t.step = "done"


def tokens_used(s: ClaimState) -> bool:
    return sum(s.extras.disappear.values()) >= DISAPPEAR_TOKENS


def tokens_left(used: bool, event: dict[str, Any]) -> RuleError | None:
    """A Mercenary needs a Disappear token left (``used``: ``tokens_used``)."""
    return RuleError("g54.no_disappear_token") if used else None


# -- Special interests -----------------------------------------------------------------


def redistribution(s: ClaimState, t: Turn) -> None:
    """Communist: up to 3 from the richest player to the poorest."""
    assert t.target is not None  # a targeted action names its target
    s.transfer(t.target, t.extra["to"], 3)
    t.step = "done"


def richest_and_poorest(s: ClaimState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    coins = [s.coins[i] for i in s.living]
    high, low = max(coins), min(coins)
    return (
        tuple([i for i in s.living if s.coins[i] == high]),
        tuple([i for i in s.living if s.coins[i] == low]),
    )


def richest_to_poorest(
    ends: tuple[tuple[int, ...], tuple[int, ...]], event: dict[str, Any]
) -> RuleError | None:
    """The Communist takes from a richest living player for a poorest one
    (``ends``: ``richest_and_poorest``)."""
    rich, poor = event["target"], event["to"]
    if rich not in ends[0]:
        return RuleError("g54.not_richest", player=rich)
    if poor not in ends[1]:
        return RuleError("g54.not_poorest", player=poor)
    if rich == poor:
        return RuleError("g54.same_player")
    return None


def customs(s: ClaimState, t: Turn) -> None:
    """Customs Officer: one Tax token kept, the other on a role."""
    s.extras.tax = (t.actor, t.extra["role"])
    t.step = "done"


def alliance(s: ClaimState, t: Turn) -> None:
    """Foreign Consular: the two Treaty tokens, one kept, one given."""
    if s.alive(t.extra["to"]):
        s.extras.treaty = (t.actor, t.extra["to"])
    t.step = "done"


def peacekeeping(s: ClaimState, t: Turn) -> None:
    """Peacekeeper: +1 and the Peacekeeping token."""
    s.gain(t.actor, 1)
    s.extras.peacekeeper = t.actor
    t.step = "done"


def bribery(s: ClaimState, t: Turn) -> None:
    """Politician: up to 2 from the target."""
    assert t.target is not None  # a targeted action names its target
    s.transfer(t.target, t.actor, 2)
    t.step = "done"


def charity(s: ClaimState, t: Turn) -> None:
    """Priest: every other player reached gives 1, unless their block stood."""
    for seat in t.targets:
        if seat not in t.protected and s.alive(seat):
            s.transfer(seat, t.actor, 1)
    t.step = "done"


def memoirs(s: ClaimState, seat: int) -> None:
    """Intellectual: +5 on losing a life."""
    s.gain(seat, 5)


def sacrifice(s: ClaimState, seat: int) -> None:
    """Missionary: a new life drawn from the court."""
    s.new_life.append(seat)


def riot(s: ClaimState, t: Turn) -> None:
    """Protestor: the target loses a life (a player paid 3 to see it)."""
    lose_influence(s, t)


ROLES: tuple[Role, ...] = (
    Role("banker", FINANCE, False, Action("banker", _gain(3), character="banker")),
    Role(
        "capitalist",
        FINANCE,
        True,
        Action("capitalist", dividends, character="capitalist", join="claim"),
    ),
    Role(
        "farmer", FINANCE, False, Action("farmer", cooperation, character="farmer", extra=("to",))
    ),
    Role(
        "speculator",
        FINANCE,
        True,
        Action("speculator", gamble, character="speculator", on_failed=gamble_lost),
    ),
    Role("spy", FINANCE, False, Action("spy", _gain(1), character="spy", again=True)),
    Role("director", COMMUNICATIONS, False, Action("director", _exchange(2), character="director")),
    Role(
        "newscaster",
        COMMUNICATIONS,
        False,
        Action("newscaster", _exchange(3), character="newscaster", cost=1),
    ),
    Role(
        "producer",
        COMMUNICATIONS,
        True,
        Action(
            "producer",
            produce,
            character="producer",
            targeted=True,
            blockers=("producer",),
            choose=producer_step,
            on_blocked=produce_from_the_court,
        ),
    ),
    Role(
        "reporter",
        COMMUNICATIONS,
        False,
        Action("reporter", _exchange(1, gain=1), character="reporter"),
    ),
    Role(
        "writer",
        COMMUNICATIONS,
        True,
        Action("writer", write, character="writer", choose=writer_step),
    ),
    Role(
        "crime_boss",
        FORCE,
        True,
        Action(
            "crime_boss",
            extortion,
            character="crime_boss",
            targeted=True,
            needs=CRIME_BOSS_FINE,
            choose=extortion_step,
        ),
    ),
    Role(
        "general",
        FORCE,
        False,
        Action(
            "general", purge, character="general", cost=5, every_other=True, blockers=("general",)
        ),
    ),
    Role(
        "guerrilla",
        FORCE,
        False,
        Action(
            "guerrilla",
            lose_influence,
            character="guerrilla",
            cost=4,
            targeted=True,
            blockers=("guerrilla",),
        ),
    ),
    Role(
        "judge",
        FORCE,
        False,
        Action(
            "judge",
            lose_influence,
            character="judge",
            cost=3,
            targeted=True,
            pay_to_target=True,
            blockers=("judge",),
        ),
    ),
    Role(
        "mercenary",
        FORCE,
        True,
        Action(
            "mercenary",
            disappear,
            character="mercenary",
            cost=3,
            targeted=True,
            blockers=("mercenary",),
            check=tokens_left,
            check_key=tokens_used,
        ),
        token="disappear",
    ),
    Role(
        "communist",
        SPECIAL,
        True,
        Action(
            "communist",
            redistribution,
            character="communist",
            targeted=True,
            self_target=True,
            extra=("to",),
            blockers=("communist",),
            check=richest_to_poorest,
            check_key=richest_and_poorest,
        ),
    ),
    Role(
        "customs_officer",
        SPECIAL,
        True,
        Action("customs_officer", customs, character="customs_officer", extra=("role",)),
        token="tax",
    ),
    Role(
        "foreign_consular",
        SPECIAL,
        True,
        Action("foreign_consular", alliance, character="foreign_consular", extra=("to",)),
        token="treaty",
    ),
    Role("intellectual", SPECIAL, False, reaction=Reaction("life", memoirs)),
    Role("lawyer", SPECIAL, False, reaction=Reaction("elimination")),
    Role("missionary", SPECIAL, True, reaction=Reaction("life_not_coup", sacrifice)),
    Role(
        "peacekeeper",
        SPECIAL,
        False,
        Action("peacekeeper", peacekeeping, character="peacekeeper"),
        token="peacekeeping",
    ),
    Role(
        "politician",
        SPECIAL,
        False,
        Action(
            "politician", bribery, character="politician", targeted=True, blockers=("politician",)
        ),
    ),
    Role(
        "priest",
        SPECIAL,
        False,
        Action("priest", charity, character="priest", every_other=True, blockers=("priest",)),
    ),
    Role(
        "protestor",
        SPECIAL,
        True,
        Action(
            "protestor",
            riot,
            character="protestor",
            cost=2,
            targeted=True,
            join="pay",
            join_fee=RIOT_FEE,
            blockers=("protestor",),
        ),
    ),
)

BY_NAME: dict[str, Role] = {role.name: role for role in ROLES}
STARTER_SET = ("banker", "director", "guerrilla", "politician", "peacekeeper")
