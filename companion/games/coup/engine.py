"""The claim / challenge / block referee shared by Coup and its relatives.

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
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from ..base import (
    KEEPER,
    Fate,
    FrozenCommand,
    RuleError,
    Setup,
    checked_options,
    first_seat,
    seat_of,
)
from .rules import Ruleset
from .state import Claim, CoupState, Turn, Window

DIRECTIONS = ("clockwise", "counterclockwise")
REDRAW_RULES = ("optional", "mandatory")

# Phases in which the engine itself may have to produce the next event.
_CHANCE_PHASES = frozenset(("setup", "redraw", "exchange_draw", "lose", "new_life"))
# Keeper-mode events that show a hidden card to someone.
_REVEALING = frozenset(
    ("started", "redrawn", "exchange_drawn", "show", "lose", "new_life", "choose", "keep")
)
# Choices that depend on a hidden hand in keeper mode.
_PRIVATE_CHOICES = frozenset(("show", "concede", "lose", "keep", "react"))
# Distinct situations whose legal commands are kept (a few thousand per set of
# characters in practice); each cache is emptied when it reaches this size.
_LEGAL_CACHE_LIMIT = 20000
# The longest response countdown a table may set (option response_seconds).
MAX_RESPONSE_SECONDS = 120
# The phases of a claim still being settled, by its status.
_CLAIM_PHASES = {"open": "challenge", "prove": "prove"}


class ClaimEngine:
    """A Coup-family engine. ``ruleset_for`` gives a game's ruleset from its
    options (Coup: always the same; a game with sets of characters: the set
    chosen). ``players``: the fewest and most seats (the game's spec's)."""

    def __init__(
        self,
        name: str,
        catalog: Ruleset,
        ruleset_for: Callable[[dict[str, Any]], Ruleset | None],
        defaults: dict[str, Any],
        players: tuple[int, int],
        check_options: Callable[[dict[str, Any], int], None] | None = None,
        choose_set: Callable[[CoupState, Fate], dict[str, Any]] | None = None,
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
        # Legal commands by situation, and one action's commands by situation
        # (see legal_commands): shared by every game this engine runs.
        self._legal: dict[tuple, tuple[FrozenCommand, ...]] = {}
        self._menu_parts: dict[tuple, tuple[FrozenCommand, ...]] = {}
        # The one command of an action that names nobody, by action and seat.
        self._plain: dict[str, tuple[FrozenCommand, ...]] = {
            name: tuple([FrozenCommand(type=name, seat=seat) for seat in range(self.max_players)])
            for name, action in catalog.actions.items()
            if action.plain
        }
        self._decide = {
            "challenge": self._decide_challenge,
            "pass": self._decide_pass,
            "proceed": self._decide_proceed,
            "block": self._decide_block,
            "join": self._decide_join,
            "show": self._decide_show,
            "concede": self._decide_concede,
            "lose": self._decide_lose,
            "react": self._decide_react,
            "keep": self._decide_keep,
            "choose": self._decide_choose,
        }
        self._apply = {
            "started": self._apply_started,
            "challenge": self._apply_challenge,
            "pass": self._apply_pass,
            "proceed": self._apply_proceed,
            "block": self._apply_block,
            "join": self._apply_join,
            "show": self._apply_show,
            "concede": self._apply_concede,
            "lose": self._apply_lose,
            "react": self._apply_react,
            "redrawn": self._apply_redrawn,
            "new_life": self._apply_new_life,
            "exchange_drawn": self._apply_exchange_drawn,
            "keep": self._apply_keep,
            "choose": self._apply_choose,
        }
        for action in catalog.actions:
            self._decide[action] = self._decide_declare
            self._apply[action] = self._apply_declare

    # -- setup ---------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return dict(self.defaults)

    def check_setup(self, setup: Setup) -> None:
        options = checked_options(
            setup, self.name, self.min_players, self.max_players, self.default_options()
        )
        if options.get("direction", "clockwise") not in DIRECTIONS:
            raise RuleError("setup.bad_option", option="direction", value=str(options["direction"]))
        if options.get("redraw", "mandatory") not in REDRAW_RULES:
            raise RuleError("setup.bad_option", option="redraw", value=str(options["redraw"]))
        seconds = options.get("response_seconds")
        if seconds is not None and (
            type(seconds) not in (int, float) or not 1 <= seconds <= MAX_RESPONSE_SECONDS
        ):
            raise RuleError("setup.bad_option", option="response_seconds", value=str(seconds)[:40])
        if self.check_options is not None:
            self.check_options(options, setup.players)
        setup.options = options

    def new_state(self, setup: Setup) -> CoupState:
        self.check_setup(setup)
        ruleset = self.ruleset_for(setup.options) or self.catalog
        return CoupState(ruleset, setup.players, setup.mode == KEEPER, setup.options)

    # -- chance: random or forced outcomes nobody at the table decides ---------
    def chance(self, s: CoupState, fate: Fate) -> dict[str, Any] | None:
        phase = s.phase
        if phase not in _CHANCE_PHASES:
            return None
        if phase == "setup":
            return self._chance_start(s, fate)
        if phase == "redraw":
            return {"type": "redrawn", "seat": s.pending_redraw, "card": self._draw(s, fate, 1)[0]}
        if phase == "new_life":
            return {
                "type": "new_life",
                "seat": s.new_life[0],
                "card": self._draw(s, fate, 1)[0] if s.court else None,
            }
        if phase == "exchange_draw":
            k = min(s.turn.draw, len(s.court))
            return {"type": "exchange_drawn", "seat": s.turn.actor, "cards": self._draw(s, fate, k)}
        if phase == "lose":
            seat = s.losses[0][0]
            if s.react_card is not None:  # the card a reaction named goes face up
                return {"type": "lose", "seat": seat, "card": s.react_card}
            if (
                s.keeper
                and len(s.hands[seat]) == 1
                and (not s.ruleset.reactions or not self._reactions(s))
            ):
                return {"type": "lose", "seat": seat, "card": s.hands[seat][0]}
        return None

    def _chance_start(self, s: CoupState, fate: Fate) -> dict[str, Any]:
        n = s.players
        event: dict[str, Any] = {
            "type": "started",
            "first": first_seat(s.options["first"], fate, n),
        }
        if self.choose_set is not None:
            event.update(self.choose_set(s, fate))
            ruleset = self.ruleset_for({**s.options, "set": event["set"]})
            assert ruleset is not None  # a chosen set names its ruleset
            court: list[Any] = ruleset.deck() if s.keeper else [None] * len(ruleset.cards)
        else:
            court = s.court
        if s.keeper:
            size = s.ruleset.hand_size
            hands = fate.take("hands")
            if hands is None:
                deck = list(court)
                fate.rng.shuffle(deck)
                hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]
            else:
                hands = _checked_deal(hands, n, size, court)
            event["hands"] = hands
        return event

    @staticmethod
    def _draw(s: CoupState, fate: Fate, k: int) -> list[Any]:
        """k cards at random from the court (scripted draws first)."""
        court = s.court
        if not s.keeper:
            return [None] * k
        taken: list[int] = []
        for _ in range(k):
            card = fate.next("draws")
            if card is None:
                index = fate.rng.randrange(len(court))
                while index in taken:
                    index = fate.rng.randrange(len(court))
            else:
                free = [i for i, c in enumerate(court) if c == card and i not in taken]
                if not free:
                    raise RuleError("setup.bad_draw", card=str(card))
                index = free[0]
            taken.append(index)
        return [court[i] for i in taken]

    def reveals_hidden(self, s: CoupState, event: dict[str, Any]) -> bool:
        """True for keeper-mode events that showed a hidden card to someone (a
        deal or draw to its owner, a card handed over, a shown or lost card to
        the table): undoing them would re-hide or re-deal something already
        seen. In physical mode the app holds no hidden card."""
        return s.keeper and event["type"] in _REVEALING

    def private_choice(self, s: CoupState, command: dict[str, Any]) -> bool:
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
    def decide(self, s: CoupState, command: dict[str, Any]) -> list[dict[str, Any]]:
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

    def _living_seat(self, s: CoupState, command: dict[str, Any], key: str = "seat") -> int:
        seat = seat_of(command, s.players, key)
        if not s.hands[seat]:
            raise RuleError("coup.player_out", player=seat)
        return seat

    # The predicates below are each one rule, which ``decide`` refuses by
    # and ``legal_commands`` offers by.
    @staticmethod
    def _pays_fee(
        s: CoupState, seat: int, character: str | None, counter: bool = False, more: int = 0
    ) -> bool:
        """Whether ``seat`` can pay the fee for claiming ``character`` on top
        of the ``more`` coins the claim costs itself."""
        hooks = s.ruleset.hooks
        fee = 0 if hooks is None else hooks.fee(s, seat, character, counter)
        return fee + more <= s.coins[seat]

    def _check_fee(
        self, s: CoupState, seat: int, character: str | None, counter: bool = False, more: int = 0
    ) -> None:
        """Refuse a claim whose seat cannot pay the fee (the ``more`` coins
        are checked first, so the refusal names what is missing)."""
        if not self._pays_fee(s, seat, character, counter, more):
            raise s.ruleset.hooks.unpaid(character)

    def _may_join(self, s: CoupState, seat: int, action: Any) -> bool:
        """Whether ``seat`` can join the action: pay its fee, or pay the fee
        for claiming its character too."""
        if action.join == "pay":
            return s.coins[seat] >= action.join_fee
        return self._pays_fee(s, seat, action.character)

    def _forced_coup(self, s: CoupState, seat: int, coins: int) -> list[int]:
        """Whom ``seat`` must Coup: with ``forced_coup_at`` coins at the start
        of its turn (an extra action is not a turn's start), a Coup is its
        only action. Empty: not forced, or nobody is in reach."""
        if s.turn.again or coins < s.ruleset.forced_coup_at:
            return []
        return self._coup_targets(s, seat)

    @staticmethod
    def _pay_fee(s: CoupState, seat: int, character: str | None, counter: bool = False) -> None:
        hooks = s.ruleset.hooks
        if hooks is not None:
            hooks.pay_fee(s, seat, character, counter)

    def _decide_declare(self, s, command):
        if s.phase != "action":
            raise RuleError("coup.not_now")
        seat = command.get("seat")
        t = s.turn
        if seat != t.actor or type(seat) is not int:
            seat = seat_of(command, s.players)
            raise RuleError("coup.not_your_turn", player=seat)
        rules = s.ruleset
        action = rules.actions.get(command["type"])
        if action is None:  # a character not in this game's set
            raise RuleError("command.unknown", command=command["type"])
        coins = s.coins[seat]
        if t.again and action.again:
            raise RuleError("coup.again_twice", character=action.character)
        if (
            coins >= rules.forced_coup_at  # (the cheap half of the rule first)
            and action.name != rules.coup_action
            and self._forced_coup(s, seat, coins)
        ):
            raise RuleError("coup.must_coup", coins=coins)
        if coins < action.price:
            raise RuleError(
                "coup.cannot_afford", action=action.name, count=action.price, coins=coins
            )
        hooks = rules.hooks
        if hooks is not None and hooks.fee_key(s) is not None:
            self._check_fee(s, seat, action.character, more=action.price)
        event = {"type": action.name, "seat": seat}
        if action.targeted:
            target = command.get("target")
            if type(target) is not int or not 0 <= target < s.players or not s.hands[target]:
                target = self._living_seat(s, command, "target")
            if target == seat and not action.self_target:
                raise RuleError("coup.target_self")
            if hooks is not None and target != seat:
                hooks.check_reach(s, action, seat, target)
            event["target"] = target
        if action.extra:
            for field in action.extra:
                event[field] = self._extra_field(s, action, seat, command, field)
        if action.check is not None:
            refusal = action.check(action.check_key(s), event)
            if refusal is not None:
                raise refusal
        return event

    def _extra_field(
        self, s: CoupState, action: Any, seat: int, command: dict[str, Any], field: str
    ) -> Any:
        if field == "to":
            to = self._living_seat(s, command, "to")
            if to == seat and not action.self_target:
                raise RuleError("coup.target_self")
            return to
        if field == "role":
            role = command.get("role")
            if role not in s.ruleset.characters:
                raise RuleError("coup.unknown_character", character=str(role)[:20])
            return role
        raise RuleError("command.bad_field", field=field)

    @staticmethod
    def _awaited(s: CoupState, kind: type) -> Any:
        """The claim or the window (by ``kind``) the table is settling, if any:
        an interrupt first, then the turn's own."""
        current = s.interrupt
        if current is None:
            t = s.turn
            current = t.claim if t.step == "claim" else t.window if t.step == "window" else None
        return current if type(current) is kind else None

    @staticmethod
    def _still_to_answer(eligible: tuple[int, ...], passed: set[int]) -> tuple[int, ...]:
        return tuple([i for i in eligible if i not in passed]) if passed else eligible

    def _responders(self, s: CoupState) -> list[int]:
        """Seats that may still answer the open claim or window."""
        claim = self._awaited(s, Claim)
        if claim is not None:
            return (
                list(self._still_to_answer(claim.eligible, claim.passed))
                if claim.status == "open"
                else []
            )
        window = self._awaited(s, Window)
        if window is not None:
            return list(self._still_to_answer(window.eligible, window.passed))
        return []

    def _responder(
        self,
        s: CoupState,
        command: dict[str, Any],
        eligible: tuple[int, ...],
        passed: set[int],
        claimant: int | None = None,
    ) -> int:
        """The seat answering the open claim or window, if it may."""
        seat = command.get("seat")
        if type(seat) is int and seat in eligible and seat not in passed:
            return seat
        seat = self._living_seat(s, command)
        if seat == claimant:
            raise RuleError("coup.own_claim")
        if seat in passed:
            raise RuleError("coup.already_passed", player=seat)
        raise RuleError("coup.not_your_block", player=seat)

    # The phase says what the table waits on: in "challenge" an open claim,
    # in a window phase a window; an interrupt comes before the turn's own.
    def _decide_challenge(self, s, command):
        if s.phase != "challenge":
            action = s.turn.action
            if action is not None and action.character is not None:
                # A character's action whose claim has been answered (nobody
                # challenged in time, or it was shown): too late, not "general".
                raise RuleError("coup.claim_answered", character=action.character)
            raise RuleError("coup.nothing_to_challenge")
        claim = s.interrupt or s.turn.claim
        seat = command.get("seat")
        if type(seat) is not int or seat not in claim.eligible or seat in claim.passed:
            seat = self._responder(s, command, claim.eligible, claim.passed, claim.seat)
        return {"type": "challenge", "seat": seat}

    def _decide_pass(self, s, command):
        phase = s.phase
        if phase == "challenge":
            claim = s.interrupt or s.turn.claim
            eligible, passed, claimant = claim.eligible, claim.passed, claim.seat
        elif phase in s.ruleset.window_phases:
            window = s.interrupt or s.turn.window
            eligible, passed, claimant = window.eligible, window.passed, None
        else:
            raise RuleError("coup.not_now")
        seat = command.get("seat")
        if type(seat) is not int or seat not in eligible or seat in passed:
            seat = self._responder(s, command, eligible, passed, claimant)
        return {"type": "pass", "seat": seat}

    def _decide_proceed(self, s, command):
        if s.phase != "challenge" and s.phase not in s.ruleset.window_phases:
            raise RuleError("coup.not_now")
        return {"type": "proceed"}

    @staticmethod
    def _stops_due_early(s: CoupState, seat: Any, character: Any) -> bool:
        """Whether ``seat`` may stop what comes due at the end of its turn
        now: at the start of that turn, before it declares an action."""
        t = s.turn
        hooks = s.ruleset.hooks
        if hooks is None or s.phase != "action" or seat != t.actor or t.again:
            return False
        stoppers = hooks.due(s, t.actor)
        return stoppers is not None and character in stoppers

    def _decide_block(self, s, command):
        window = self._awaited(s, Window)
        seat, character = command.get("seat"), command.get("character")
        if window is None and self._stops_due_early(s, seat, character):
            self._check_fee(s, seat, character, counter=True)
            return {"type": "block", "seat": seat, "character": character}
        hooks = s.ruleset.hooks
        due = hooks is not None and window is not None and window.kind == hooks.due_kind
        if window is None or (window.kind != "block" and not due):
            raise RuleError("coup.cannot_block_now")
        seat = self._responder(s, command, window.eligible, window.passed)
        character = command.get("character")
        if character not in window.blockers:
            action = hooks.due_action if due else s.turn.action.name
            raise RuleError("coup.cannot_block_with", action=action, character=str(character)[:20])
        self._check_fee(s, seat, character, counter=True)
        return {"type": "block", "seat": seat, "character": character}

    def _decide_join(self, s, command):
        window = self._awaited(s, Window)
        if window is None or window.kind != "join":
            raise RuleError("coup.not_now")
        seat = self._responder(s, command, window.eligible, window.passed)
        action = s.turn.action
        if not self._may_join(s, seat, action):
            if action.join == "pay":
                raise RuleError(
                    "coup.cannot_afford", action="join", count=action.join_fee, coins=s.coins[seat]
                )
            raise s.ruleset.hooks.unpaid(action.character)
        return {"type": "join", "seat": seat}

    def _claimant(self, s: CoupState, command: dict[str, Any]) -> tuple[int, Claim]:
        if s.phase != "prove":
            raise RuleError("coup.not_now")
        claim = s.interrupt or s.turn.claim
        assert isinstance(claim, Claim)  # a challenged claim is being proved
        seat = command.get("seat")
        if seat != claim.seat or type(seat) is not int:
            seat = seat_of(command, s.players)
            raise RuleError("coup.not_challenged", player=seat)
        return seat, claim

    def _decide_show(self, s, command):
        seat, claim = self._claimant(s, command)
        character = claim.character
        if not self._can_show(s, claim):
            raise RuleError(
                "coup.card_not_held" if s.keeper else "coup.all_copies_face_up", character=character
            )
        redraw = command.get("redraw", True)
        if type(redraw) is not bool:
            raise RuleError("command.bad_field", field="redraw")
        if (
            not redraw
            and claim.kind != "react"  # a reaction's card is turned up
            and s.options.get("redraw", "mandatory") == "mandatory"
        ):
            raise RuleError("coup.redraw_mandatory")
        return {"type": "show", "seat": seat, "character": character, "redraw": redraw}

    @staticmethod
    def _can_show(s: CoupState, claim: Claim) -> bool:
        """Whether the claimant can show the character: holds it (keeper mode;
        for a reaction, set it aside), or a copy is still hidden (physical)."""
        if not s.keeper:
            return s.face_up(claim.character) < s.ruleset.copies
        if claim.kind == "react":
            return s.react_card == claim.character
        return claim.character in s.hands[claim.seat]

    def _decide_concede(self, s, command):
        seat, _ = self._claimant(s, command)
        return {"type": "concede", "seat": seat}

    def _card(self, s: CoupState, seat: int, command: dict[str, Any]) -> str:
        """A card the seat turns up or hands over: one it holds (keeper), one
        of which a copy is still hidden somewhere (physical)."""
        card = command.get("card")
        if not isinstance(card, str) or card not in s.ruleset.characters:
            raise RuleError("coup.unknown_character", character=str(card)[:20])
        if s.keeper:
            if card not in s.hands[seat]:
                raise RuleError("coup.card_not_held", character=card)
        elif s.face_up(card) >= s.ruleset.copies:
            raise RuleError("coup.all_copies_face_up", character=card)
        return card

    def _decide_lose(self, s, command):
        if s.phase != "lose":
            raise RuleError("coup.not_now")
        seat = command.get("seat")
        if seat != s.losses[0][0] or type(seat) is not int:
            seat = seat_of(command, s.players)
            raise RuleError("coup.not_your_loss", player=seat)
        card = command.get("card")
        if not (s.keeper and card in s.hands[seat]):  # else: a card held, surely fine
            card = self._card(s, seat, command)
        if s.react_card is not None and card != s.react_card:
            raise RuleError("coup.card_set_aside", character=s.react_card)
        return {"type": "lose", "seat": seat, "card": card}

    def _reactions(self, s: CoupState) -> tuple[str, ...]:
        """The reactions open to the player losing a life now."""
        if not s.ruleset.reactions or s.phase != "lose" or s.reacted:
            return ()
        seat, reason = s.losses[0]
        rules = s.ruleset
        open_now = rules.on_coup if reason == "coup" else rules.on_life
        if rules.hooks is None or rules.hooks.fee_key(s) is None:
            return open_now
        return tuple([c for c in open_now if self._pays_fee(s, seat, c, counter=True)])

    def _decide_react(self, s, command):
        """Claim a reaction: on losing a life, or on another player's
        elimination."""
        character = command.get("character")
        window = self._awaited(s, Window)
        if window is not None and window.kind == "elimination":
            seat = self._responder(s, command, window.eligible, window.passed)
            if character not in window.blockers:
                raise RuleError("coup.not_a_reaction", character=str(character)[:20])
            self._check_fee(s, seat, character, counter=True)
            return {"type": "react", "seat": seat, "character": character}
        if s.phase != "lose":
            raise RuleError("coup.not_now")
        seat = seat_of(command, s.players)
        if seat != s.losses[0][0]:
            raise RuleError("coup.not_your_loss", player=seat)
        if type(character) is not str or character not in self._reactions(s):
            if type(character) is str and character in s.ruleset.reactions:
                self._check_fee(s, seat, character, counter=True)
            raise RuleError("coup.not_a_reaction", character=str(character)[:20])
        event = {"type": "react", "seat": seat, "character": character}
        if s.keeper:
            # The claim is about the card being lost: it is named now, set
            # aside, and turned up once the claim is settled.
            event["card"] = self._card(s, seat, command)
        return event

    def _decide_keep(self, s, command):
        if s.phase != "exchange":
            raise RuleError("coup.not_now")
        seat = seat_of(command, s.players)
        t = s.turn
        if seat != t.actor:
            raise RuleError("coup.not_your_turn", player=seat)
        cards = command.get("cards")
        hand = s.hands[seat]
        if not isinstance(cards, (list, tuple)) or len(cards) != len(hand):
            raise RuleError("coup.keep_count", count=len(hand))
        pool = hand + list(t.drawn)
        for card in cards:
            if card not in pool:
                raise RuleError("coup.keep_not_offered")
            pool.remove(card)
        event = {"type": "keep", "seat": seat, "cards": sorted(cards)}
        if t.give_back:
            give = command.get("give")
            if give not in pool:
                raise RuleError("coup.give_not_offered")
            event["give"] = give
        return event

    def _decide_choose(self, s, command):
        if s.phase != "choice":
            raise RuleError("coup.not_now")
        choice = s.turn.choice
        assert choice is not None  # the choice phase waits on one
        seat = seat_of(command, s.players)
        if seat != choice.seat:
            raise RuleError("coup.not_your_choice", player=seat)
        option = command.get("option")
        if option not in choice.options:
            raise RuleError("coup.bad_option", option=str(option)[:20])
        event = {"type": "choose", "seat": seat, "kind": choice.kind, "option": option}
        if choice.private:
            event["private"] = True
        return event

    # -- apply: fold one event into the state -------------------------------------
    def apply(self, s: CoupState, event: dict[str, Any]) -> None:
        if "at" in event:
            s.now = event["at"]
        # A handler returns True when it has set the phase itself: the common
        # events (a pass, a challenge, a claim opened) leave nothing to settle.
        if not self._apply[event["type"]](s, event):
            self._advance(s)

    def _apply_started(self, s, e):
        if self.choose_set is not None:
            s.ruleset = self.ruleset_for({**s.options, "set": e["set"]})
            deck = s.ruleset.deck()
            s.court = deck if s.keeper else [None] * len(deck)
        for seat in range(s.players):
            s.gain(seat, s.ruleset.start_coins)
        hands = e.get("hands")
        for seat in range(s.players):
            if hands is None:
                s.hands[seat] = [s.court.pop() for _ in range(s.ruleset.hand_size)]
            else:
                for card in hands[seat]:
                    s.court.remove(card)
                s.hands[seat] = list(hands[seat])
        s.set_living(tuple(range(s.players)))
        s.turn = Turn(e["first"])
        s.turn_no = 1
        s.phase = "action"

    def _apply_declare(self, s, e):
        t = s.turn
        action = s.ruleset.actions[e["type"]]
        t.action = action
        t.target = e.get("target")
        if action.extra:
            t.extra = {field: e[field] for field in action.extra}
        if action.every_other:
            t.targets = self._everyone_reachable(s, t.actor)
        hooks = s.ruleset.hooks
        if hooks is not None:
            hooks.pay_fee(s, t.actor, action.character, False)
        cost = action.cost
        if cost:
            if action.pay_to_target:
                s.transfer(t.actor, t.target, cost)
            else:
                s.coins[t.actor] -= cost
                s.treasury += cost
            t.paid = cost
        if action.character:
            t.claim = self._new_claim(s, t.actor, action.character, "action")
            t.step = "claim"
            s.phase = "challenge"
            return True
        self._after_action_claim(s, t)
        if t.step == "window":
            s.phase = t.window.kind
            return True
        return False

    def _new_claim(self, s: CoupState, seat: int, character: str, kind: str) -> Claim:
        record = {"turn": s.turn_no, "character": character, "kind": kind, "result": "open"}
        s.claims[seat].append(record)
        return Claim(seat, character, kind, s.others[seat], record, s.now)

    def _apply_challenge(self, s, e):
        claim = s.interrupt or s.turn.claim  # the open claim
        claim.challenger = e["seat"]
        claim.record["result"] = "challenged"
        claim.record["challenger"] = e["seat"]
        claim.status = "prove"
        s.phase = "prove"
        return True

    def _apply_pass(self, s, e):
        t = s.turn
        answered = s.interrupt or (t.claim if s.phase == "challenge" else t.window)
        answered.passed.add(e["seat"])
        if len(answered.passed) < len(answered.eligible):
            return True
        return self._apply_proceed(s, e)  # everyone has answered

    def _apply_proceed(self, s, e):
        if s.phase == "challenge":
            self._close_claim(s, s.interrupt or s.turn.claim)
        else:
            self._close_window(s, s.interrupt or s.turn.window)
        return False

    @staticmethod
    def _close_claim(s: CoupState, claim: Claim) -> None:
        """Nobody (else) challenges: the claim stands."""
        claim.record["result"] = "unchallenged"
        claim.status = "upheld"

    def _close_window(self, s: CoupState, window: Window) -> None:
        """Everyone who may answer has answered (or the table says nobody else)."""
        if s.interrupt is window:
            s.interrupt = None
            if window.kind == "elimination":
                s.probate.pop(0)
            else:  # nobody stopped what came due
                s.ruleset.hooks.due_settled(s, window.eligible[0], stopped=False)
            return
        t = s.turn
        t.window = None
        if window.kind == "join":
            self._after_join(s, t)
        elif t.blocks:
            t.step = "blocks"
        else:
            t.step = "resolve"

    def _apply_block(self, s, e):
        seat, character = e["seat"], e["character"]
        hooks = s.ruleset.hooks
        if hooks is not None:
            hooks.pay_fee(s, seat, character, True)
        t = s.turn
        if s.interrupt is not None or t.step == "action":
            # What comes due, stopped as it does or at the start of the turn.
            assert hooks is not None  # only a ruleset's hooks make something due
            s.interrupt = self._new_claim(s, seat, character, hooks.due_kind)
            return False
        window = t.window
        if t.action.every_other:
            t.blocks += ((seat, character),)
            window.passed.add(seat)
            if len(window.passed) == len(window.eligible):
                self._close_window(s, window)
            return
        t.window = None
        t.claim = self._new_claim(s, seat, character, "block")
        t.step = "claim"
        s.phase = "challenge"
        return True

    def _apply_join(self, s, e):
        t = s.turn
        seat = e["seat"]
        if t.action.join == "pay":  # pay the fee to share in the action
            s.pay(seat, t.action.join_fee)
            t.joiners += (seat,)
            t.window = None
            self._after_join(s, t)
            return
        self._pay_fee(s, seat, t.action.character)
        t.window.passed.add(seat)
        t.claim = self._new_claim(s, seat, t.action.character, "join")
        t.step = "claim"

    def _apply_show(self, s, e):
        claim = s.interrupt or s.turn.claim  # the claim being proved
        claim.record["result"] = "upheld"
        claim.status = "upheld"
        seat, character = claim.seat, claim.character
        if claim.kind == "react":
            # The card shown is the life being lost: it is turned up once the
            # reaction has taken effect (a new life it gives comes first).
            s.react_card = character
        elif s.keeper and e["redraw"]:
            s.hands[seat].remove(character)
            s.court.append(character)
            s.pending_redraw = seat
        s.losses.append((claim.challenger, "challenge"))

    def _apply_concede(self, s, e):
        claim = s.interrupt or s.turn.claim
        claim.record["result"] = "failed"
        claim.status = "failed"
        s.losses.append((claim.seat, "challenge"))

    def _apply_lose(self, s, e):
        """The loss at the head of the queue: the card goes face up."""
        seat, card = e["seat"], e["card"]
        s.losses.pop(0)
        s.reacted = False
        s.react_card = None
        hand = s.hands[seat]
        if s.keeper:
            hand.remove(card)
        else:
            hand.pop()
        s.revealed[seat].append(card)
        if not hand:
            self._eliminate(s, seat)

    def _eliminate(self, s: CoupState, seat: int) -> None:
        """Out: the coins go back (or to those whose claims on the elimination
        stand) once the action has resolved (the Coup rulebook's example,
        step 8); what the ruleset's pieces held lapses."""
        s.eliminated.append(seat)
        s.set_living(tuple([i for i in s.living if i != seat]))
        if len(s.living) == 1:
            s.winner = s.living[0]
            return
        if s.ruleset.hooks is not None:
            s.ruleset.hooks.eliminated(s, seat)
        if s.ruleset.on_elimination:
            s.probate.append(seat)

    def _apply_react(self, s, e):
        seat, character = e["seat"], e["character"]
        self._pay_fee(s, seat, character, counter=True)
        window = self._awaited(s, Window)
        if window is not None and window.kind == "elimination":
            window.passed.add(seat)
            s.window_after = window
            s.interrupt = self._new_claim(s, seat, character, "elimination")
            return
        s.reacted = True
        s.react_card = e.get("card")
        s.interrupt = self._new_claim(s, seat, character, "react")

    def _apply_redrawn(self, s, e):
        s.court.remove(e["card"])
        s.hands[e["seat"]].append(e["card"])
        s.pending_redraw = None

    def _apply_new_life(self, s, e):
        """A reaction that stood draws its claimant a card from the court, a
        new life."""
        s.new_life.pop(0)
        if s.court:
            if s.keeper:
                s.court.remove(e["card"])
            else:
                s.court.pop()
            s.hands[e["seat"]].append(e["card"])

    def _apply_exchange_drawn(self, s, e):
        t = s.turn
        for card in e["cards"]:
            s.court.remove(card)
        t.drawn += tuple(e["cards"])
        after = t.after_draw
        if after != "exchange":
            t.action.choose(s, t, after)
            return False
        t.step = s.phase = "exchange"
        return True

    def _apply_keep(self, s, e):
        t = s.turn
        pool = s.hands[t.actor] + list(t.drawn)
        for card in e["cards"]:
            pool.remove(card)
        s.hands[t.actor] = list(e["cards"])
        if "give" in e:  # one card back to the target it was taken from
            pool.remove(e["give"])
            s.hands[t.target].append(e["give"])
        s.court.extend(pool)
        t.drawn = ()
        t.give_back = False
        t.step = "done"

    def _apply_choose(self, s, e):
        t = s.turn
        t.action.choose(s, t, e["option"])

    # -- continuations ---------------------------------------------------------------
    def _after_action_claim(self, s: CoupState, t: Turn) -> None:
        action = t.action
        if action.join:
            eligible = s.others[t.actor]
            if action.join == "pay":  # the target does not pay to see itself fall
                eligible = tuple([i for i in eligible if i != t.target])
            t.window = Window("join", eligible)
            t.step = "window" if eligible else "resolve"
        elif action.blockers:
            self._open_block(s, t)
        else:
            t.step = "resolve"

    def _after_join(self, s: CoupState, t: Turn) -> None:
        if t.action.join == "pay" and not t.joiners:
            t.step = "done"  # nobody paid: the action's cost is spent
        else:
            self._open_block(s, t)

    def _open_block(self, s: CoupState, t: Turn) -> None:
        """Open the block window: the target alone, every other living player
        (each for themselves), or anyone for the whole action; with nobody
        able to block the action resolves at once."""
        action = t.action
        if not action.blockers:
            t.step = "resolve"
            return
        if action.every_other:
            eligible = t.targets
        elif not action.target_blocks_only:
            eligible = s.others[t.actor]
        elif t.target is not None and t.target != t.actor and s.hands[t.target]:
            eligible = (t.target,)
        else:
            eligible = ()
        if eligible:
            t.window = Window("block", eligible, action.blockers)
            t.step = "window"
        else:
            t.step = "resolve"

    def _claim_settled(self, s: CoupState, claim: Claim) -> None:
        """What a settled claim leads to, by what it was for."""
        upheld = claim.status == "upheld"
        t = s.turn
        kind = claim.kind
        if kind == "action":
            t.claim = None
            if upheld:
                self._after_action_claim(s, t)
                return
            if t.action.on_failed is not None:
                t.action.on_failed(s, t, claim.challenger)
            if t.paid:  # a failed action claim gets its coins back
                if t.action.pay_to_target:
                    assert t.target is not None  # paid to the target it names
                    s.transfer(t.target, t.actor, t.paid)
                else:
                    s.gain(t.actor, t.paid)
            t.step = "done"
        elif kind == "block":
            t.claim = None
            if upheld:
                if t.action.every_other:
                    t.protected |= {claim.seat}
                elif t.action.on_blocked is not None:
                    t.action.on_blocked(s, t)  # the part the block does not reach
                    return
                else:
                    t.step = "done"  # the action is blocked; no refund
                    return
            t.step = "blocks" if t.action.every_other else "resolve"
        elif kind == "join":
            t.claim = None
            if upheld:
                t.joiners += (claim.seat,)
            window = t.window
            assert window is not None  # the join window the claim answered
            if len(window.passed) == len(window.eligible):
                self._close_window(s, window)
            else:
                t.step = "window"
        elif kind == "react":
            s.interrupt = None
            if upheld:
                s.ruleset.reactions[claim.character].reward(s, claim.seat)
        elif kind == "elimination":
            if upheld:
                s.heirs.setdefault(s.probate[0], []).append(claim.seat)
            # The window comes back once the challenge's losses are settled.
            s.interrupt = None
        else:  # a block of what came due
            s.interrupt = None
            s.ruleset.hooks.due_settled(s, claim.seat, stopped=upheld)

    # -- the deterministic steps between events -------------------------------------
    def _advance(self, s: CoupState) -> None:
        t = s.turn
        while True:
            if s.winner is not None:
                _settle_the_eliminated(s)
                s.phase = "over"
                return
            if s.pending_redraw is not None:
                s.phase = "redraw"
                return
            if s.new_life:
                s.phase = "new_life"
                return
            current = s.interrupt
            if current is not None:
                if type(current) is Claim:
                    waiting = _CLAIM_PHASES.get(current.status)
                    if waiting is not None:
                        s.phase = waiting
                        return
                    self._claim_settled(s, current)
                    continue
                s.phase = current.kind  # a window's kind names its phase
                return
            if s.losses:
                if s.hands[s.losses[0][0]]:
                    s.phase = "lose"
                    return
                s.losses.pop(0)  # already out: nothing left to lose
                s.reacted = False
                continue
            if s.probate:
                self._hold_elimination_window(s)
                continue
            step = t.step
            if step == "claim":
                assert t.claim is not None
                waiting = _CLAIM_PHASES.get(t.claim.status)
                if waiting is not None:
                    s.phase = waiting
                    return
                self._claim_settled(s, t.claim)
            elif step == "window":
                assert t.window is not None
                s.phase = t.window.kind
                return
            elif step == "resolve":
                t.resolved = True
                t.action.resolve(s, t)
            elif step == "blocks":
                if t.blocks:
                    seat, character = _first_clockwise(s, t.actor, t.blocks)
                    t.blocks = tuple(b for b in t.blocks if b != (seat, character))
                    t.claim = self._new_claim(s, seat, character, "block")
                    t.step = "claim"
                else:
                    t.step = "resolve"
            elif step in ("choice", "exchange", "exchange_draw"):
                s.phase = step
                return
            elif step == "done":
                if self._end_turn(s, t):
                    return
            elif not s.hands[t.actor]:
                # Out before declaring anything (what came due struck at the
                # start of its turn): the turn ends.
                t.step = "done"
            else:
                s.phase = "action"
                return

    @staticmethod
    def _hold_elimination_window(s: CoupState) -> None:
        """The window for reactions to the elimination at the head of
        ``probate``: opened, or back after a claim interrupted it, unless
        everyone still in has answered."""
        window, s.window_after = s.window_after, None
        if window is None:
            s.interrupt = Window("elimination", s.others[s.probate[0]], s.ruleset.on_elimination)
            return
        window.eligible = tuple([i for i in window.eligible if s.hands[i]])
        window.passed &= set(window.eligible)
        if len(window.passed) < len(window.eligible):
            s.interrupt = window
        else:
            s.probate.pop(0)

    @staticmethod
    def _end_turn(s: CoupState, t: Turn) -> bool:
        """The action is done: what comes due at the end of the turn opens
        its window (False: the table waits on it); else the actor takes the
        extra action its action gave, or the next living seat its turn."""
        another = (
            t.action is not None
            and t.action.again
            and t.resolved
            and not t.again
            and s.hands[t.actor]
        )
        hooks = s.ruleset.hooks
        if hooks is not None and not another:
            stoppers = hooks.due(s, t.actor)
            if stoppers is not None:
                s.interrupt = Window(hooks.due_kind, (t.actor,), stoppers)
                return False
        if s.eliminated:
            _settle_the_eliminated(s)
        if another:
            s.turn = Turn(t.actor, again=True)
        else:
            s.turn = Turn(s.after[t.actor])
            s.turn_no += 1
        s.phase = "action"
        return True

    # -- what may happen next ---------------------------------------------------------
    def is_over(self, s: CoupState) -> bool:
        return s.phase == "over"

    def result(self, s: CoupState) -> dict[str, Any] | None:
        return {"winner": s.winner} if s.phase == "over" else None

    def ballot(self, s: CoupState) -> None:
        """No simultaneous votes in this family."""
        return None

    def open_claim(self, s: CoupState) -> dict[str, Any] | None:
        """The claim a seat's challenge buzzer answers now, or None: its key
        (presses race for one claim), its claimant, and the way play passes
        (an exact tie goes to the seat nearest after the claimant)."""
        claim = self._awaited(s, Claim)
        if s.phase != "challenge" or s.turn.action is None or claim is None:
            return None
        return {
            "key": (s.turn_no, claim.seat, claim.character, claim.kind),
            "claimant": claim.seat,
            "step": -1 if s.options.get("direction") == "counterclockwise" else 1,
        }

    def timer(self, s: CoupState, now: float) -> dict[str, Any] | None:
        """The response countdown of the claim open to challenge, when the
        table plays with one (option ``response_seconds``)."""
        deadline = self._response_deadline(s)
        if deadline is None:
            return None
        seconds = s.options["response_seconds"]
        return {
            "kind": "response",
            "running": True,
            "remaining": max(0.0, min(float(seconds), deadline - now)),
            "seconds": seconds,
        }

    def due(self, s: CoupState, now: float) -> dict[str, Any] | None:
        """An unchallenged claim stands when its countdown ends."""
        deadline = self._response_deadline(s)
        return {"type": "proceed"} if deadline is not None and now >= deadline else None

    @staticmethod
    def _response_deadline(s: CoupState) -> float | None:
        seconds = s.options.get("response_seconds")
        if not seconds or s.phase != "challenge":
            return None
        claim = s.interrupt or s.turn.claim
        assert not isinstance(claim, Window)  # the challenge phase settles a claim
        if claim is None or claim.opened_at is None:
            return None
        return claim.opened_at + seconds

    def next_game_options(self, s: CoupState) -> dict[str, Any]:
        """Options for the next game at the same table: the winner of the
        previous game plays first."""
        options = dict(s.options)
        if s.winner is not None:
            options["first"] = s.winner
        return options

    def waiting_for(self, s: CoupState) -> list[int]:
        """Seats whose answer the table is waiting for."""
        phase = s.phase
        t = s.turn
        if phase == "action" or phase == "exchange":
            return [t.actor]
        if phase == "challenge" or phase in s.ruleset.window_phases:
            return self._responders(s)
        if phase == "prove":
            claim = s.interrupt or t.claim
            assert isinstance(claim, Claim)  # a challenged claim is being proved
            return [claim.seat]
        if phase == "lose":
            return [s.losses[0][0]]
        if phase == "choice":
            assert t.choice is not None
            return [t.choice.seat]
        return []

    def legal_commands(self, s: CoupState) -> tuple[dict[str, Any], ...]:
        """Every command the engine would accept now (for buttons and playouts).

        What may be done depends on a handful of values (whose turn, what they
        can afford, who may still answer, which cards are possible), so the
        commands are built once per such situation and shared, as commands
        that refuse changes. Random playouts ask at every step, so the key is
        made here in one function, the commonest situations first."""
        phase = s.phase
        key: tuple[Any, ...]
        if phase == "challenge":  # the commonest: who may still challenge
            claim = s.interrupt or s.turn.claim
            assert isinstance(claim, Claim)  # the open claim
            passed = claim.passed
            key = (
                "challenge",
                tuple([i for i in claim.eligible if i not in passed]) if passed else claim.eligible,
            )
        elif phase == "action":  # whose turn, what they can afford, who is in
            t = s.turn
            seat = t.actor
            rules = s.ruleset
            coins = s.coins[seat]
            forced = rules.forced_coup_at
            if coins > forced:
                coins = forced
            if rules is not self.catalog:
                # A game of sets: thousands of sets, times the ruleset's
                # pieces and checks, make a whole menu rarely seen twice; it
                # is put together from kept parts.
                menu = self._action_menu(s, seat, coins, s.living)
                if rules.hooks is not None and not t.again:
                    stoppers = rules.hooks.due(s, seat)
                    if stoppers:
                        menu += self._early_stops(s, seat, stoppers)
                return menu
            key = ("action", seat, coins, s.living)
        elif phase == "prove":
            claim = s.interrupt or s.turn.claim
            assert isinstance(claim, Claim)  # a challenged claim is being proved
            key = (phase, claim.seat, self._can_show(s, claim))
        elif phase == "lose":
            rules = s.ruleset
            seat = s.losses[0][0]
            cards = (
                set(s.hands[seat])
                if s.keeper
                else [c for c in rules.characters if s.face_up(c) < rules.copies]
            )
            key = (phase, seat, tuple(sorted(cards)))
            if rules.reactions:  # keeper reactions name the card too
                key += (self._reactions(s), s.keeper)
        elif phase in s.ruleset.window_phases:
            window = s.interrupt or s.turn.window
            assert isinstance(window, Window)  # a window's kind names its phase
            passed = window.passed
            responders = (
                tuple([i for i in window.eligible if i not in passed])
                if passed
                else window.eligible
            )
            key = (phase, responders, window.blockers)
            if phase == "join":
                action = s.turn.action
                key += (action.name, tuple(s.coins[i] >= action.join_fee for i in responders))
            hooks = s.ruleset.hooks
            fees = None if hooks is None else hooks.fee_key(s)
            if fees is not None:  # who can pay the fee to claim
                key += (fees, tuple(s.coins[i] > 0 for i in responders))
        elif phase == "exchange":
            t = s.turn
            give_back = t.give_back
            key = (
                phase,
                t.actor,
                tuple(sorted(s.hands[t.actor] + list(t.drawn))),
                len(s.hands[t.actor]),
                give_back,
            )
        elif phase == "choice":
            choice = s.turn.choice
            assert choice is not None
            key = (phase, choice.seat, choice.options)
        else:
            key = (phase,)
        cache = self._legal
        commands = cache.get(key)
        if commands is None:
            if len(cache) >= _LEGAL_CACHE_LIMIT:
                cache.clear()
            if phase == "action":
                commands = self._action_menu(s, key[1], key[2], key[3])
            else:
                commands = tuple(map(FrozenCommand, self._commands_for(s, key)))
            cache[key] = commands
        return commands

    def _commands_for(self, s: CoupState, key: tuple) -> list[dict[str, Any]]:
        phase = key[0]
        if phase == "challenge" or phase in s.ruleset.window_phases:
            out: list[dict[str, Any]] = []
            action = s.turn.action
            verb = "react" if phase == "elimination" else "block"
            for i in key[1]:
                if phase == "challenge":
                    out.append({"type": "challenge", "seat": i})
                elif phase == "join":
                    if self._may_join(s, i, action):
                        out.append({"type": "join", "seat": i})
                else:
                    out.extend(
                        {"type": verb, "seat": i, "character": c}
                        for c in key[2]
                        if self._pays_fee(s, i, c, counter=True)
                    )
                out.append({"type": "pass", "seat": i})
            out.append({"type": "proceed"})
            return out
        if phase == "prove":
            _, seat, can_show = key
            show = [{"type": "show", "seat": seat, "redraw": True}] if can_show else []
            return show + [{"type": "concede", "seat": seat}]
        if phase == "lose":
            seat, cards = key[1], key[2]
            reactions = key[3] if len(key) > 3 else ()
            losses = [{"type": "lose", "seat": seat, "card": c} for c in cards]
            if not s.keeper:
                return losses + [{"type": "react", "seat": seat, "character": c} for c in reactions]
            return losses + [
                {"type": "react", "seat": seat, "character": c, "card": card}
                for c in reactions
                for card in cards
            ]
        if phase == "exchange":
            _, seat, pool, size, give_back = key
            if not give_back:
                return [
                    {"type": "keep", "seat": seat, "cards": combo}
                    for combo in dict.fromkeys(combinations(pool, size))
                ]
            out = []
            for combo in dict.fromkeys(combinations(pool, size)):
                rest = list(pool)
                for card in combo:
                    rest.remove(card)
                out.extend(
                    {"type": "keep", "seat": seat, "cards": combo, "give": give}
                    for give in dict.fromkeys(rest)
                )
            return out
        if phase == "choice":
            _, seat, options = key
            return [{"type": "choose", "seat": seat, "option": o} for o in options]
        return []

    def _early_stops(
        self, s: CoupState, seat: int, stoppers: tuple[str, ...]
    ) -> tuple[FrozenCommand, ...]:
        """The actor's blocks of what comes due at the end of its turn, made
        before its action."""
        return tuple(
            [
                FrozenCommand(type="block", seat=seat, character=c)
                for c in stoppers
                if self._pays_fee(s, seat, c, counter=True)
            ]
        )

    def _action_menu(
        self, s: CoupState, seat: int, coins: int, living: tuple[int, ...]
    ) -> tuple[FrozenCommand, ...]:
        """The actions ``seat`` may declare. Each action's commands are kept
        apart (``_menu_part``), so a new set of characters builds its menus
        from parts other sets have already made."""
        rules = s.ruleset
        t = s.turn
        targets = self._forced_coup(s, seat, coins) if coins >= rules.forced_coup_at else ()
        if targets:
            return tuple(
                [FrozenCommand(type=rules.coup_action, seat=seat, target=i) for i in targets]
            )
        out: list[FrozenCommand] = []
        parts = self._menu_parts
        plain = self._plain
        hooks = rules.hooks
        fees = None if hooks is None else hooks.fee_key(s)
        again = t.again
        reach = (living, None if hooks is None else hooks.reach_key(s))
        for action in rules.menu:
            if again and action.again:
                continue
            if coins < action.price or (
                fees is not None
                and not self._pays_fee(s, seat, action.character, more=action.price)
            ):
                continue
            if action.plain:
                out.append(plain[action.name][seat])
                continue
            # What its targets and fields depend on: who is in, what keeps
            # players out of reach, the set (a role to name), a check.
            key: tuple = (action.name, seat, reach)
            if "role" in action.extra:
                key += (rules.characters,)
            checked = None
            if action.check_key is not None:
                checked = action.check_key(s)
                key += (checked,)
            part = parts.get(key)
            if part is None:
                if len(parts) >= _LEGAL_CACHE_LIMIT:
                    parts.clear()
                part = parts[key] = tuple(
                    map(FrozenCommand, self._menu_part(s, action, seat, living, checked))
                )
            out.extend(part)
        return tuple(out)

    def _menu_part(
        self, s: CoupState, action: Any, seat: int, living: tuple[int, ...], checked: Any
    ) -> list[dict[str, Any]]:
        """One action's commands: every target and extra field it may name
        (and its check allows, given ``checked``, its ``check_key``'s value)."""
        name = action.name
        hooks = s.ruleset.hooks
        limited = hooks is not None and hooks.reach_key(s) is not None
        named = living if action.self_target else [i for i in living if i != seat]
        reached = [i for i in named if not limited or self._reachable(s, action, seat, i)]
        if action.targeted and not action.extra and action.check is None:
            return [{"type": name, "seat": seat, "target": i} for i in reached]
        commands = [{"type": name, "seat": seat}]
        if action.targeted:
            commands = [{**c, "target": i} for c in commands for i in reached]
        for field in action.extra:
            values = s.ruleset.characters if field == "role" else named
            commands = [{**c, field: v} for c in commands for v in values]
        if action.check is not None:
            commands = [c for c in commands if action.check(checked, c) is None]
        return commands

    def _coup_targets(self, s: CoupState, seat: int) -> list[int]:
        """Whom ``seat`` may Coup. A player who must Coup but may reach nobody
        (the ruleset keeps the last other player out of reach) plays on as
        usual."""
        coup = s.ruleset.actions[s.ruleset.coup_action]
        return [i for i in s.others[seat] if self._reachable(s, coup, seat, i)]

    def _everyone_reachable(self, s: CoupState, seat: int) -> tuple[int, ...]:
        """The players the actor's action on every other player reaches,
        clockwise from the next."""
        action = s.turn.action
        return tuple([i for i in s.clockwise_from(seat) if self._reachable(s, action, seat, i)])

    @staticmethod
    def _reachable(s: CoupState, action: Any, seat: int, target: int) -> bool:
        """Whether ``action`` by ``seat`` may name ``target`` (the one rule
        the declaration checks and the menus offer by)."""
        hooks = s.ruleset.hooks
        if hooks is None or target == seat:
            return True
        try:
            hooks.check_reach(s, action, seat, target)
        except RuleError:
            return False
        return True

    # -- views --------------------------------------------------------------------
    def public_view(self, s: CoupState) -> dict[str, Any]:
        t = s.turn
        pending = None
        if t.action is not None and s.phase != "over":
            claim = self._awaited(s, Claim)
            window = self._awaited(s, Window)
            pending = {
                "action": t.action.name,
                "actor": t.actor,
                "target": t.target,
                **t.extra,
                "paid": t.paid,
                "step": t.step,
                "claim": (
                    None
                    if claim is None
                    else {
                        "seat": claim.seat,
                        "character": claim.character,
                        "kind": claim.kind,
                        "challenger": claim.challenger,
                        "passed": sorted(claim.passed),
                    }
                ),
                "window": (
                    None
                    if window is None
                    else {
                        "kind": window.kind,
                        "passed": sorted(window.passed),
                        "characters": list(window.blockers),
                    }
                ),
                "targets": list(t.targets),
                "protected": sorted(t.protected),
                "joiners": list(t.joiners),
                "again": t.again,
                "choice": (
                    None
                    if t.choice is None
                    else {
                        "seat": t.choice.seat,
                        "kind": t.choice.kind,
                        "cards": t.choice.private,  # the options are cards of its hand
                    }
                ),
            }
        # A card handed over for a swap is still its owner's life.
        lent = t.target if t.give_back else None
        view = {
            "game": self.name,
            "mode": "keeper" if s.keeper else "physical",
            "phase": s.phase,
            "turn": s.turn_no,
            "direction": s.options.get("direction", "clockwise"),
            "current": None if s.phase in ("setup", "over") else t.actor,
            "waiting_for": self.waiting_for(s),
            "treasury": s.treasury,
            "court": len(s.court),
            "players": [
                {
                    "seat": i,
                    "coins": s.coins[i],
                    "influence": len(s.hands[i]) + (i == lent),
                    "revealed": list(s.revealed[i]),
                    "out": s.phase != "setup" and i not in s.living,
                    "claims": [dict(c) for c in s.claims[i]],
                }
                for i in range(s.players)
            ],
            "pending": pending,
            "losing": (
                None if not s.losses else {"seat": s.losses[0][0], "reason": s.losses[0][1]}
            ),
            "winner": s.winner,
        }
        if s.ruleset.hooks is not None:
            view.update(s.ruleset.hooks.public(s))
        return view

    def private_view(self, s: CoupState, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see: in keeper mode its hidden cards and, while
        it exchanges, the cards drawn from the court."""
        view: dict[str, Any] = {"seat": seat}
        if s.keeper:
            view["hand"] = sorted(s.hands[seat])
            t = s.turn
            if t.drawn and t.actor == seat and s.phase in ("exchange", "choice"):
                view["drawn"] = list(t.drawn)
        return view

    def describe(self, event: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """A public, translatable line for the table's log: never a hidden card."""
        kind = event["type"]
        if kind == "started":
            if "set" in event:
                return "log.started_set", {"player": event["first"], "characters": event["set"]}
            return "log.started", {"player": event["first"]}
        if kind in self.catalog.actions:
            args = {"player": event["seat"], "target": event.get("target")}
            if "to" in event:
                args["to"] = event["to"]
            if "role" in event:
                args["character"] = event["role"]
            return f"log.action.{kind}", args
        if kind == "block":
            return "log.block", {"player": event["seat"], "character": event["character"]}
        if kind == "react":
            reaction = self.catalog.reactions.get(event["character"])
            life = reaction is not None and reaction.when != "elimination"
            return (
                "log.react_card" if life else "log.react",
                {"player": event["seat"], "character": event["character"]},
            )
        if kind == "lose":
            return "log.lose", {"player": event["seat"], "character": event["card"]}
        if kind == "show":
            return "log.show", {"player": event["seat"], "character": event["character"]}
        if kind == "exchange_drawn":
            return "log.exchange_drawn", {"player": event["seat"], "count": len(event["cards"])}
        if kind in ("challenge", "pass", "concede", "redrawn", "keep", "join", "new_life"):
            return f"log.{kind}", {"player": event["seat"]}
        if kind == "choose":  # a private choice's option is a hidden card
            if event.get("private"):
                return f"log.choose.{event['kind']}", {"player": event["seat"]}
            return f"log.choose.{event['kind']}.{event['option']}", {"player": event["seat"]}
        if kind == "proceed":
            return "log.proceed", {}
        return None


def _first_clockwise(
    s: CoupState, actor: int, blocks: tuple[tuple[int, str], ...]
) -> tuple[int, str]:
    """The block to settle next: clockwise from the player after the actor."""
    order = s.clockwise_from(actor)
    return min(blocks, key=lambda b: order.index(b[0]) if b[0] in order else len(order))


def _settle_the_eliminated(s: CoupState) -> None:
    """Players knocked out during the action give up their coins: to those
    whose claims on the elimination stood (shared, the rest to the
    treasury), or to the treasury."""
    for seat in s.eliminated:
        heirs = s.heirs.pop(seat, [])
        coins = s.coins[seat]
        if heirs and coins:
            share = coins // len(heirs)
            for heir in heirs:
                s.transfer(seat, heir, share)
        if s.coins[seat]:
            s.pay(seat, s.coins[seat])
    s.eliminated.clear()


def _checked_deal(hands: Any, players: int, size: int, court: list[str]) -> list[list[str]]:
    """A scripted deal, if it is one this court can deal."""
    pool = list(court)
    if not isinstance(hands, list) or len(hands) != players:
        raise RuleError("setup.bad_deal")
    for hand in hands:
        if not isinstance(hand, list) or len(hand) != size:
            raise RuleError("setup.bad_deal")
        for card in hand:
            if card not in pool:
                raise RuleError("setup.bad_deal")
            pool.remove(card)
    return [list(hand) for hand in hands]
