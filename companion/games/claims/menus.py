"""Every command the engine would accept now (for buttons and playouts).

What may be done depends on a handful of values (whose turn, what they can
afford, who may still answer, which cards are possible), so the commands are
built once per such situation and shared, as commands that refuse changes.
Random playouts ask at every step, so the key is made in one function, the
commonest situations first."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..base import Command, FrozenCommand
from .awaiting import current_claim, current_window
from .predicates import can_show, forced_coup, may_join, pays_fee, reachable, reactions
from .rules import Action, Ruleset
from .state import ClaimState

# Distinct situations whose legal commands are kept (a few thousand per set of
# characters in practice); each cache is emptied when it reaches this size.
_LEGAL_CACHE_LIMIT = 20000

Situation = tuple[Any, ...]


class LegalCommands:
    """The legal commands of every game one engine runs, kept by situation
    (shared by those games), and each action's commands apart; for tables
    of up to ``max_players``."""

    def __init__(self, catalog: Ruleset, max_players: int) -> None:
        self.catalog = catalog
        self._legal: dict[Situation, tuple[FrozenCommand, ...]] = {}
        self._menu_parts: dict[Situation, tuple[FrozenCommand, ...]] = {}
        # The one command of an action that names nobody, by action and seat.
        self._plain: dict[str, tuple[FrozenCommand, ...]] = {
            name: tuple([FrozenCommand(type=name, seat=seat) for seat in range(max_players)])
            for name, action in catalog.actions.items()
            if action.plain
        }

    def __call__(self, s: ClaimState) -> tuple[FrozenCommand, ...]:
        phase = s.phase
        if phase == "action" and s.ruleset is not self.catalog:
            return self._assembled_menu(s)
        key = situation(s)
        cache = self._legal
        commands = cache.get(key)
        if commands is None:
            if len(cache) >= _LEGAL_CACHE_LIMIT:
                cache.clear()
            if phase == "action":
                commands = self._action_menu(s, key[1], key[2], key[3])
            else:
                commands = tuple(map(FrozenCommand, commands_for(s, key)))
            cache[key] = commands
        return commands

    def _assembled_menu(self, s: ClaimState) -> tuple[FrozenCommand, ...]:
        """A game of sets: thousands of sets, times the ruleset's pieces and
        checks, make a whole menu rarely seen twice; it is put together from
        kept parts."""
        seat = s.turn.actor
        rules = s.ruleset
        coins = min(s.coins[seat], rules.forced_coup_at)
        menu = self._action_menu(s, seat, coins, s.living)
        if rules.hooks is not None and not s.turn.again:
            stoppers = rules.hooks.due(s, seat)
            if stoppers:
                menu += _early_stops(s, seat, stoppers)
        return menu

    def _action_menu(
        self, s: ClaimState, seat: int, coins: int, living: tuple[int, ...]
    ) -> tuple[FrozenCommand, ...]:
        """The actions ``seat`` may declare. Each action's commands are kept
        apart (``_menu_part``), so a new set of characters builds its menus
        from parts other sets have already made."""
        rules = s.ruleset
        targets = forced_coup(s, seat, coins) if coins >= rules.forced_coup_at else ()
        if targets:
            return tuple(
                [FrozenCommand(type=rules.coup_action, seat=seat, target=i) for i in targets]
            )
        out: list[FrozenCommand] = []
        hooks = rules.hooks
        fees = None if hooks is None else hooks.fee_key(s)
        reach = (living, None if hooks is None else hooks.reach_key(s))
        for action in rules.menu:
            if s.turn.again and action.again:
                continue
            if coins < action.price or (
                fees is not None and not pays_fee(s, seat, action.character, more=action.price)
            ):
                continue
            if action.plain:
                out.append(self._plain[action.name][seat])
            else:
                out.extend(self._menu_part(s, action, seat, living, reach))
        return tuple(out)

    def _menu_part(
        self, s: ClaimState, action: Action, seat: int, living: tuple[int, ...], reach: Any
    ) -> tuple[FrozenCommand, ...]:
        """One action's commands, kept by what its targets and fields depend
        on: who is in, what keeps players out of reach, the set (a role to
        name), a check."""
        key: Situation = (action.name, seat, reach)
        if "role" in action.extra:
            key += (s.ruleset.characters,)
        checked = None
        if action.check_key is not None:
            checked = action.check_key(s)
            key += (checked,)
        parts = self._menu_parts
        part = parts.get(key)
        if part is None:
            if len(parts) >= _LEGAL_CACHE_LIMIT:
                parts.clear()
            part = parts[key] = tuple(
                map(FrozenCommand, action_commands(s, action, seat, living, checked))
            )
        return part


def situation(s: ClaimState) -> Situation:
    """What the legal commands of the phase depend on (the cache's key)."""
    phase = s.phase
    if phase == "challenge":  # the commonest: who may still challenge
        claim = current_claim(s)
        passed = claim.passed
        return (
            "challenge",
            tuple([i for i in claim.eligible if i not in passed]) if passed else claim.eligible,
        )
    if phase == "action":  # whose turn, what they can afford, who is in
        seat = s.turn.actor
        return ("action", seat, min(s.coins[seat], s.ruleset.forced_coup_at), s.living)
    if phase == "prove":
        claim = current_claim(s)
        return (phase, claim.seat, can_show(s, claim))
    if phase == "lose":
        return _losing(s)
    if phase in s.ruleset.window_phases:
        return _answering(s)
    if phase == "exchange":
        t = s.turn
        hand = s.hands[t.actor]
        return (phase, t.actor, tuple(sorted(hand + list(t.drawn))), len(hand), t.give_back)
    if phase == "choice":
        choice = s.turn.choice
        assert choice is not None
        return (phase, choice.seat, choice.options)
    return (phase,)


def _losing(s: ClaimState) -> Situation:
    """Who loses a life, the cards they may turn up, the reactions open."""
    rules = s.ruleset
    seat = s.losses[0][0]
    cards = (
        set(s.hands[seat])
        if s.keeper
        else [c for c in rules.characters if s.face_up(c) < rules.copies]
    )
    key: Situation = ("lose", seat, tuple(sorted(cards)))
    if rules.reactions:  # keeper reactions name the card too
        key += (reactions(s), s.keeper)
    return key


def _answering(s: ClaimState) -> Situation:
    """Who may still answer the window, with what, and what they can pay."""
    phase = s.phase
    window = current_window(s)
    passed = window.passed
    responders = (
        tuple([i for i in window.eligible if i not in passed]) if passed else window.eligible
    )
    key: Situation = (phase, responders, window.blockers)
    if phase == "join":
        action = s.turn.action
        key += (action.name, tuple(s.coins[i] >= action.join_fee for i in responders))
    hooks = s.ruleset.hooks
    fees = None if hooks is None else hooks.fee_key(s)
    if fees is not None:  # who can pay the fee to claim
        key += (fees, tuple(s.coins[i] > 0 for i in responders))
    return key


def commands_for(s: ClaimState, key: Situation) -> list[Command]:
    """The commands of a situation other than a turn's actions."""
    phase = key[0]
    if phase == "challenge" or phase in s.ruleset.window_phases:
        return _answers(s, key)
    if phase == "prove":
        _, seat, showable = key
        show = [{"type": "show", "seat": seat, "redraw": True}] if showable else []
        return show + [{"type": "concede", "seat": seat}]
    if phase == "lose":
        return _losses(s, key)
    if phase == "exchange":
        return _keeps(key)
    if phase == "choice":
        _, seat, options = key
        return [{"type": "choose", "seat": seat, "option": o} for o in options]
    return []


def _answers(s: ClaimState, key: Situation) -> list[Command]:
    """Each responder's challenge, join, blocks or reactions, and pass; and
    the table's "proceed"."""
    phase = key[0]
    out: list[Command] = []
    action = s.turn.action
    verb = "react" if phase == "elimination" else "block"
    for i in key[1]:
        if phase == "challenge":
            out.append({"type": "challenge", "seat": i})
        elif phase == "join":
            if may_join(s, i, action):
                out.append({"type": "join", "seat": i})
        else:
            out.extend(
                {"type": verb, "seat": i, "character": c}
                for c in key[2]
                if pays_fee(s, i, c, counter=True)
            )
        out.append({"type": "pass", "seat": i})
    out.append({"type": "proceed"})
    return out


def _losses(s: ClaimState, key: Situation) -> list[Command]:
    """The cards the loser may turn up, and the reactions it may claim."""
    seat, cards = key[1], key[2]
    reacting = key[3] if len(key) > 3 else ()
    losses: list[Command] = [{"type": "lose", "seat": seat, "card": c} for c in cards]
    if not s.keeper:
        return losses + [{"type": "react", "seat": seat, "character": c} for c in reacting]
    return losses + [
        {"type": "react", "seat": seat, "character": c, "card": card}
        for c in reacting
        for card in cards
    ]


def _keeps(key: Situation) -> list[Command]:
    """The cards the actor may keep of its hand and those drawn (and, with
    a card to give back, which)."""
    _, seat, pool, size, give_back = key
    if not give_back:
        return [
            {"type": "keep", "seat": seat, "cards": combo}
            for combo in dict.fromkeys(combinations(pool, size))
        ]
    out: list[Command] = []
    for combo in dict.fromkeys(combinations(pool, size)):
        rest = list(pool)
        for card in combo:
            rest.remove(card)
        out.extend(
            {"type": "keep", "seat": seat, "cards": combo, "give": give}
            for give in dict.fromkeys(rest)
        )
    return out


def _early_stops(s: ClaimState, seat: int, stoppers: tuple[str, ...]) -> tuple[FrozenCommand, ...]:
    """The actor's blocks of what comes due at the end of its turn, made
    before its action."""
    return tuple(
        [
            FrozenCommand(type="block", seat=seat, character=c)
            for c in stoppers
            if pays_fee(s, seat, c, counter=True)
        ]
    )


def action_commands(
    s: ClaimState, action: Action, seat: int, living: tuple[int, ...], checked: Any
) -> list[Command]:
    """One action's commands: every target and extra field it may name
    (and its check allows, given ``checked``, its ``check_key``'s value)."""
    name = action.name
    hooks = s.ruleset.hooks
    limited = hooks is not None and hooks.reach_key(s) is not None
    named = living if action.self_target else [i for i in living if i != seat]
    reached = [i for i in named if not limited or reachable(s, action, seat, i)]
    if action.targeted and not action.extra and action.check is None:
        return [{"type": name, "seat": seat, "target": i} for i in reached]
    commands: list[Command] = [{"type": name, "seat": seat}]
    if action.targeted:
        commands = [{**c, "target": i} for c in commands for i in reached]
    for field in action.extra:
        values = s.ruleset.characters if field == "role" else named
        commands = [{**c, field: v} for c in commands for v in values]
    if action.check is not None:
        check = action.check
        commands = [c for c in commands if check(checked, c) is None]
    return commands
