"""Which five characters a game of Coup: Rebellion G54 uses, and the ruleset
they make over the claim framework (``..claims``).

The ``set`` option: "random" (1 Finance, 1 Communications, 1 Force and 2
Special Interests, drawn when the game starts; the ``advanced`` option lets
the advanced characters in), "starter" (the rulebook's first-game set), or a
list of five character names (a table's own choice).
"""

from __future__ import annotations

from typing import Any

from ..base import Fate, RuleError
from ..claims.general import COUP, INCOME
from ..claims.rules import Ruleset
from ..claims.state import ClaimState
from . import SPEC
from .roles import BY_NAME, CATEGORIES, COMMUNICATIONS, FINANCE, FORCE, ROLES, SPECIAL, STARTER_SET
from .tokens import MERCENARY, TokenHooks

SET_SIZE = 5
# What a random set draws from each category (the rulebook's setup).
DRAW = {FINANCE: 1, COMMUNICATIONS: 1, FORCE: 1, SPECIAL: 2}
# The values of G54's own options, as its spec declares them ("set" may be
# a list of five names too).
CHOICES: dict[str, tuple[Any, ...]] = {
    name: SPEC.option(name).choices
    for name in ("set", "advanced", "communist", "treaty_two_players", "tax_on")
}
_ORDER = {role.name: i for i, role in enumerate(ROLES)}
_RULESETS: dict[tuple[str, ...], Ruleset] = {}


def check_options(options: dict[str, Any], players: int) -> None:
    for name, allowed in CHOICES.items():
        value = options[name]
        if name == "set" and isinstance(value, list):
            _check_names(value)
        elif value not in allowed or type(value) is not type(allowed[0]):
            raise RuleError("setup.bad_option", option=name, value=str(value)[:40])


def _check_names(names: list[Any]) -> None:
    for name in names:
        if type(name) is not str or name not in BY_NAME:
            raise RuleError("coup.unknown_character", character=str(name)[:40])
    if len(names) != SET_SIZE or len(set(names)) != SET_SIZE:
        raise RuleError("g54.bad_set", count=SET_SIZE)


def fixed_set(options: dict[str, Any]) -> tuple[str, ...] | None:
    """The five characters the options name, or None for a random set."""
    chosen = options.get("set", "random")
    if chosen == "starter":
        return STARTER_SET
    if isinstance(chosen, list):
        return tuple(chosen)
    return None


def ruleset_for(options: dict[str, Any]) -> Ruleset | None:
    names = fixed_set(options)
    return None if names is None else ruleset(names)


def choose_set(s: ClaimState, fate: Fate) -> dict[str, Any]:
    """The five characters of this game: the options', a scripted set, or a
    random draw by category."""
    names = fixed_set(s.options)
    if names is None:
        scripted = fate.take("set")
        if scripted is not None:
            _check_names(scripted)
            names = tuple(scripted)
        else:
            names = random_set(fate, s.options["advanced"], s.options["communist"])
    return {"set": sorted(names, key=_ORDER.__getitem__)}


def random_set(fate: Fate, advanced: bool, communist: str = SPECIAL) -> tuple[str, ...]:
    names: list[str] = []
    rng = fate.rng
    for category, pool in _POOLS[advanced, communist]:
        count = DRAW[category]
        names += [rng.choice(pool)] if count == 1 else rng.sample(pool, count)
    return tuple(names)


def category_of(name: str, communist: str = SPECIAL) -> str:
    return communist if name == "communist" else BY_NAME[name].category


# What a random set draws from, by (advanced characters allowed, the
# Communist's category): each category's characters, in category order.
_POOLS = {
    (advanced, communist): tuple(
        (
            category,
            [
                r.name
                for r in ROLES
                if category_of(r.name, communist) == category and (advanced or not r.advanced)
            ],
        )
        for category in CATEGORIES
    )
    for advanced in CHOICES["advanced"]
    for communist in CHOICES["communist"]
}


def ruleset(names: tuple[str, ...] | list[str]) -> Ruleset:
    """The ruleset of a set of characters (built once per set)."""
    key = tuple(sorted(names, key=_ORDER.__getitem__))
    found = _RULESETS.get(key)
    if found is None:
        found = _RULESETS[key] = _build(key)
    return found


def _build(names: tuple[str, ...]) -> Ruleset:
    roles = [BY_NAME[n] for n in names]
    actions = {"income": INCOME, "coup": COUP}
    actions.update((r.name, r.action) for r in roles if r.action is not None)
    mercenary = BY_NAME[MERCENARY].action
    assert mercenary is not None  # the Mercenary's is an action, not a reaction
    hooks = TokenHooks(
        in_play=tuple(r.token for r in roles if r.token is not None),
        stoppers=mercenary.blockers if MERCENARY in names else (),
    )
    return Ruleset(
        name="g54",
        characters=names,
        actions=actions,
        action_order=tuple(actions),
        reactions={r.name: r.reaction for r in roles if r.reaction is not None},
        unlimited_treasury=True,
        hooks=hooks,
    )


def catalog() -> Ruleset:
    """Every character and action the game knows (for the log and the
    catalogue of translations)."""
    return _build(tuple(r.name for r in ROLES))
