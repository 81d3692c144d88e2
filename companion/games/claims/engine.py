"""The claim / challenge / block referee shared by Coup and its relatives:
the engine each ruleset package (Coup's and its relatives') builds its
``ENGINE`` as.

Flow of one action (the steps of :class:`~.state.Turn`)::

    declare (pay the cost) ─┬─ general action ──────────────> block window or resolve
                            └─ character claim ─> claim ─┬─ upheld ─┐
                                                          └─ failed ─> refund, done
    upheld action claim ─> join window (claim it too, or pay) ─> block window ─> resolve
    block window: one target, or anyone (Foreign Aid): the first block is a
        claim; upheld, the action is blocked (no refund), failed, it goes on.
        An action on every other player: each may block for themselves;
        the blocks are then settled one by one, clockwise from the player
        after the actor, and the action spares whoever's block stood.
    resolve ─> (a choice, a draw from the court, an exchange) ─> done
    done ─> (another action, if it gives one) ─> what comes due ─> next living seat

A claim is open to challenge by every other living player; challenged, the
claimant shows the card (the challenger loses a life, the card goes back and
a new one is drawn) or concedes (the claimant loses a life). Before any step
goes on, pending losses are settled (the loser picks the card, and may first
claim a reaction to the loss), redraws are drawn, and windows for reactions
to an elimination are held: so a challenge is always settled before the
action or a block takes effect, and "challenge loss first, then the action's
effect" holds. A player eliminated mid-action keeps their coins until the
action has resolved (the Coup rulebook's example, step 8).

What a ruleset adds of its own (tokens, fees, something that comes due) it
adds through its hooks (``rules.Hooks``); the machinery names none of it.

The engine dispatches; the rules are in modules by concern: ``setup`` and
``chance`` (the deal, the draws), ``declare`` (actions), ``challenges``
(claims), ``blocks`` (windows), ``losses`` (lives, reactions,
eliminations), ``exchanges`` (cards kept, choices), ``turns`` (the steps
between events), ``menus`` (the legal commands) and ``views``, over
``predicates`` (each one rule, which decide refuses by and the menus offer
by) and ``awaiting`` (the claim or window the table is settling).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import (
    KEEPER,
    Command,
    Event,
    Fate,
    FrozenCommand,
    RuleError,
    Setup,
    checked_options,
)
from ..views import Claim as BuzzerClaim
from ..views import Timer, View
from . import blocks, challenges, declare, exchanges, losses, views
from .chance import chance_event
from .menus import LegalCommands
from .rules import Ruleset
from .setup import ChooseSet, RulesetFor, apply_started, check_common_options, start_event
from .state import ClaimState
from .turns import advance

# Keeper-mode events that show a hidden card to someone.
_REVEALING = frozenset(
    ("started", "redrawn", "exchange_drawn", "show", "lose", "new_life", "choose", "keep")
)
# Choices that depend on a hidden hand in keeper mode.
_PRIVATE_CHOICES = frozenset(("show", "concede", "lose", "keep", "react"))

Decide = Callable[[ClaimState, Command], Event]
# An event folded in: True when its handler has set the phase itself (the
# common events, a pass, a challenge, a claim opened, leave nothing to settle).
Apply = Callable[[ClaimState, Event], bool]

_DECIDE: dict[str, Decide] = {
    "challenge": challenges.decide_challenge,
    "pass": challenges.decide_pass,
    "proceed": challenges.decide_proceed,
    "show": challenges.decide_show,
    "concede": challenges.decide_concede,
    "block": blocks.decide_block,
    "join": blocks.decide_join,
    "lose": losses.decide_lose,
    "react": losses.decide_react,
    "keep": exchanges.decide_keep,
    "choose": exchanges.decide_choose,
}
_APPLY: dict[str, Apply] = {
    "challenge": challenges.apply_challenge,
    "pass": challenges.apply_pass,
    "proceed": challenges.apply_proceed,
    "show": challenges.apply_show,
    "concede": challenges.apply_concede,
    "block": blocks.apply_block,
    "join": blocks.apply_join,
    "lose": losses.apply_lose,
    "react": losses.apply_react,
    "redrawn": losses.apply_redrawn,
    "new_life": losses.apply_new_life,
    "exchange_drawn": exchanges.apply_exchange_drawn,
    "keep": exchanges.apply_keep,
    "choose": exchanges.apply_choose,
}


class ClaimEngine:
    """A Coup-family engine. ``ruleset_for`` gives a game's ruleset from its
    options (Coup: always the same; a game with sets of characters: the set
    chosen). ``players``: the fewest and most seats (the game's spec's)."""

    def __init__(
        self,
        name: str,
        catalog: Ruleset,
        ruleset_for: RulesetFor,
        defaults: dict[str, Any],
        players: tuple[int, int],
        check_options: Callable[[dict[str, Any], int], None] | None = None,
        choose_set: ChooseSet | None = None,
    ) -> None:
        # ``catalog`` holds every character and action the game may use;
        # ``ruleset_for`` picks a game's own from its options (None: decided by
        # chance at the start, with ``choose_set``).
        self.name = name
        self.catalog = catalog
        self.ruleset_for = ruleset_for
        self.defaults = defaults
        self.check_options = check_options
        self.choose_set = choose_set
        self.min_players, self.max_players = players
        # Legal commands by situation: shared by every game this engine runs.
        self._menus = LegalCommands(catalog, self.max_players)
        self._decide = {**_DECIDE, **dict.fromkeys(catalog.actions, declare.decide_declare)}
        self._apply = {
            **_APPLY,
            "started": self._apply_started,
            **dict.fromkeys(catalog.actions, declare.apply_declare),
        }

    # -- setup ---------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return dict(self.defaults)

    def check_setup(self, setup: Setup) -> None:
        options = checked_options(
            setup, self.name, self.min_players, self.max_players, self.default_options()
        )
        check_common_options(options)
        if self.check_options is not None:
            self.check_options(options, setup.players)
        setup.options = options

    def new_state(self, setup: Setup) -> ClaimState:
        self.check_setup(setup)
        ruleset = self.ruleset_for(setup.options) or self.catalog
        return ClaimState(ruleset, setup.players, setup.mode == KEEPER, setup.options)

    # -- chance: random or forced outcomes nobody at the table decides ---------
    def chance(self, s: ClaimState, fate: Fate) -> Event | None:
        if s.phase == "setup":
            return start_event(s, fate, self.choose_set, self.ruleset_for)
        return chance_event(s, fate)

    def _apply_started(self, s: ClaimState, e: Event) -> bool:
        return apply_started(s, e, self.ruleset_for if self.choose_set is not None else None)

    def reveals_hidden(self, s: ClaimState, event: Event) -> bool:
        """True for keeper-mode events that showed a hidden card to someone (a
        deal or draw to its owner, a card handed over, a shown or lost card to
        the table): undoing them would re-hide or re-deal something already
        seen. In physical mode the app holds no hidden card."""
        return s.keeper and event["type"] in _REVEALING

    def private_choice(self, s: ClaimState, command: Command) -> bool:
        """Whether offering this command would show what only its seat may know:
        in keeper mode, whether a challenged player can show the card, which
        cards a player can turn up, keep or hand over. Such choices belong on
        that seat's own device, never on the shared screen."""
        kind = command.get("type")
        if not s.keeper or type(kind) is not str:
            return False
        if kind == "choose":
            choice = s.turn.choice
            return choice is not None and choice.private
        if kind == "react":  # a claim on an elimination names no card
            return "card" in command
        return kind in _PRIVATE_CHOICES

    # -- decide: validate a command, return its events --------------------------
    def decide(self, s: ClaimState, command: Command) -> list[Event]:
        try:
            handler = self._decide[command["type"]]
        except (KeyError, TypeError):
            raise RuleError("command.unknown", command=str(command.get("type"))[:40]) from None
        try:
            event = handler(s, command)
        except RuleError:
            if s.phase == "over":
                raise RuleError("game.over") from None
            raise
        if s.options.get("response_seconds") and "at" in command:
            event["at"] = command["at"]  # when claims it opens start their countdown
        return [event]

    # -- apply: fold one event into the state -------------------------------------
    def apply(self, s: ClaimState, event: Event) -> None:
        if "at" in event:
            s.now = event["at"]
        if not self._apply[event["type"]](s, event):
            advance(s)

    # -- what may happen next ---------------------------------------------------------
    def is_over(self, s: ClaimState) -> bool:
        return s.phase == "over"

    def result(self, s: ClaimState) -> dict[str, Any] | None:
        return {"winner": s.winner} if s.phase == "over" else None

    def ballot(self, s: ClaimState) -> None:
        """No simultaneous votes in this family."""
        return None

    def open_claim(self, s: ClaimState) -> BuzzerClaim | None:
        return views.buzzer_claim(s)

    def timer(self, s: ClaimState, now: float) -> Timer | None:
        return views.response_timer(s, now)

    def due(self, s: ClaimState, now: float) -> Command | None:
        """An unchallenged claim stands when its countdown ends."""
        deadline = views.response_deadline(s)
        return {"type": "proceed"} if deadline is not None and now >= deadline else None

    def next_game_options(self, s: ClaimState) -> dict[str, Any]:
        """Options for the next game at the same table: the winner of the
        previous game plays first."""
        options = dict(s.options)
        if s.winner is not None:
            options["first"] = s.winner
        return options

    def waiting_for(self, s: ClaimState) -> list[int]:
        return views.waiting_for(s)

    def legal_commands(self, s: ClaimState) -> tuple[FrozenCommand, ...]:
        """Every command the engine would accept now (see ``menus``)."""
        return self._menus(s)

    # -- views --------------------------------------------------------------------
    def public_view(self, s: ClaimState) -> View:
        return views.public_view(s, self.name)

    def private_view(self, s: ClaimState, seat: int) -> View:
        return views.private_view(s, seat)

    def describe(self, event: Event) -> tuple[str, dict[str, Any]] | None:
        return views.describe(self.catalog, event)
