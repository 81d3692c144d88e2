"""The claim / challenge / block referee shared by Coup and its relatives.

Flow of one turn (the stages of :class:`~.state.Turn`)::

    declare ─┬─ general action, no block ───────────────────────────> resolve
             ├─ general action, blockable ─────────────> block window
             └─ character claim ─> claim window ─┬─ all pass ─> upheld ─┤
                                                 └─ challenge ─> prove ─┤
                                                  show: upheld (challenger loses)
                                                  concede: failed (claimant loses)
    upheld action: block window if blockable, else resolve
    failed action: refund the cost, done
    block window ─┬─ nobody blocks ─> resolve
                  └─ block claim ─> claim window ... upheld: blocked (done);
                                                      failed: resolve
    resolve ─> (keeper exchange: draw, keep) ─> done ─> next living seat

Before any stage goes on, pending influence losses are settled (the loser
picks the card) and a pending redraw is drawn, so a challenge is always
settled before the action or a block takes effect, and "challenge loss first,
then the action's effect" holds. A player eliminated mid-action keeps their
coins until the action has resolved (the rulebook's example, step 8).
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..base import (KEEPER, Fate, FrozenCommand, RuleError, Setup, checked_options,
                    first_seat, seat_of)
from .rules import Ruleset
from .state import CoupState, Turn

DIRECTIONS = ("clockwise", "counterclockwise")
REDRAW_RULES = ("optional", "mandatory")

# Phases in which the engine itself may have to produce the next event.
_CHANCE_PHASES = frozenset(("setup", "redraw", "exchange_draw", "lose"))
# Keeper-mode events that show a hidden card to someone.
_REVEALING = frozenset(("started", "redrawn", "exchange_drawn", "show", "lose"))
# Choices that depend on a hidden hand in keeper mode.
_PRIVATE_CHOICES = frozenset(("show", "concede", "lose", "keep"))
# Distinct situations whose legal commands are kept (a few thousand in practice).
_LEGAL_CACHE_LIMIT = 20000

# Stages that wait for a person, and the public phase each one shows as.
_WAITING = {"claim": "challenge", "prove": "prove", "block": "block",
            "exchange": "exchange", "exchange_draw": "exchange_draw"}


class ClaimEngine:
    """A Coup-family engine over a :class:`Ruleset`."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.rules = ruleset
        self.name = ruleset.name
        self.min_players = ruleset.min_players
        self.max_players = ruleset.max_players
        self._decide = {
            "challenge": self._decide_challenge,
            "pass": self._decide_pass,
            "proceed": self._decide_proceed,
            "block": self._decide_block,
            "show": self._decide_show,
            "concede": self._decide_concede,
            "lose": self._decide_lose,
            "keep": self._decide_keep,
        }
        for action in ruleset.actions:
            self._decide[action] = self._decide_declare
        self._apply = {
            "started": self._apply_started,
            "challenge": self._apply_challenge,
            "pass": self._apply_pass,
            "proceed": self._apply_proceed,
            "block": self._apply_block,
            "show": self._apply_show,
            "concede": self._apply_concede,
            "lose": self._apply_lose,
            "redrawn": self._apply_redrawn,
            "exchange_drawn": self._apply_exchange_drawn,
            "keep": self._apply_keep,
        }
        for action in ruleset.actions:
            self._apply[action] = self._apply_declare
        self._legal_cache: dict[tuple, tuple[dict[str, Any], ...]] = {}
        self._forced = ruleset.forced_coup_at
        # The actions in menu order, as (name, cost, targeted).
        self._menu = tuple((a.name, a.cost, a.targeted) for a in
                           (ruleset.actions[n] for n in ruleset.action_order))

    # -- setup ---------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        # The Greek rulebook: play passes counter-clockwise, and a defender
        # "may" return and redraw the shown card.
        return {"direction": "counterclockwise", "first": "random",
                "redraw": "optional"}

    def check_setup(self, setup: Setup) -> None:
        options = checked_options(setup, self.name, self.min_players, self.max_players,
                                  self.default_options())
        if options["direction"] not in DIRECTIONS:
            raise RuleError("setup.bad_option", option="direction",
                            value=str(options["direction"]))
        if options["redraw"] not in REDRAW_RULES:
            raise RuleError("setup.bad_option", option="redraw",
                            value=str(options["redraw"]))
        setup.options = options

    def new_state(self, setup: Setup) -> CoupState:
        self.check_setup(setup)
        return CoupState(self.rules, setup.players, setup.mode == KEEPER,
                         setup.options)

    # -- chance: random or forced outcomes nobody at the table decides ---------
    def chance(self, s: CoupState, fate: Fate) -> dict[str, Any] | None:
        phase = s.phase
        if phase not in _CHANCE_PHASES:
            return None
        if phase == "setup":
            return self._chance_start(s, fate)
        if phase == "redraw":
            return {"type": "redrawn", "seat": s.pending_redraw,
                    "card": self._draw(s, fate, 1)[0]}
        if phase == "exchange_draw":
            k = min(self.rules.exchange_draw, len(s.court))
            return {"type": "exchange_drawn", "seat": s.turn.actor,
                    "cards": self._draw(s, fate, k)}
        if phase == "lose" and s.keeper and len(s.hands[s.losses[0]]) == 1:
            seat = s.losses[0]
            return {"type": "lose", "seat": seat, "card": s.hands[seat][0]}
        return None

    def _chance_start(self, s: CoupState, fate: Fate) -> dict[str, Any]:
        n, size = s.players, self.rules.hand_size
        event: dict[str, Any] = {"type": "started",
                                 "first": first_seat(s.options["first"], fate, n)}
        if s.keeper:
            hands = fate.take("hands")
            if hands is None:
                deck = list(s.court)
                fate.rng.shuffle(deck)
                hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(n)]
            else:
                hands = _checked_deal(hands, n, size, s.court)
            event["hands"] = hands
        return event

    @staticmethod
    def _draw(s: CoupState, fate: Fate, k: int) -> list[str]:
        """k cards at random from the court (scripted draws first)."""
        court = s.court
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
        deal or draw to its owner, a shown or lost card to the table): undoing
        them would re-hide or re-deal something already seen. In physical mode
        the app holds no hidden card, so every entry can be undone."""
        return s.keeper and event["type"] in _REVEALING

    def private_choice(self, s: CoupState, command: dict[str, Any]) -> bool:
        """Whether offering this command would show what only its seat may know:
        in keeper mode, whether a challenged player can show the card, which
        cards a player can turn up or keep. Such choices belong on that seat's
        own device, never on the shared screen."""
        kind = command.get("type")
        return s.keeper and type(kind) is str and kind in _PRIVATE_CHOICES

    # -- decide: validate a command, return its events --------------------------
    def decide(self, s: CoupState, command: dict[str, Any]) -> list[dict[str, Any]]:
        kind = command.get("type")
        handler = self._decide.get(kind) if type(kind) is str else None
        if handler is None:
            raise RuleError("command.unknown", command=str(kind)[:40])
        try:
            return [handler(s, command)]
        except RuleError:
            if s.phase == "over":
                raise RuleError("game.over") from None
            raise

    def _living_seat(self, s: CoupState, command: dict[str, Any],
                     key: str = "seat") -> int:
        seat = seat_of(command, s.players, key)
        if not s.hands[seat]:
            raise RuleError("coup.player_out", player=seat)
        return seat

    def _decide_declare(self, s, command):
        if s.phase != "action":
            raise RuleError("coup.not_now")
        seat = seat_of(command, s.players)
        if seat != s.turn.actor:
            raise RuleError("coup.not_your_turn", player=seat)
        action = self.rules.actions[command["type"]]
        coins = s.coins[seat]
        if coins >= self.rules.forced_coup_at and action.name != self.rules.coup_action:
            raise RuleError("coup.must_coup", coins=coins)
        if coins < action.cost:
            raise RuleError("coup.cannot_afford", action=action.name,
                            cost=action.cost, coins=coins)
        event = {"type": action.name, "seat": seat}
        if action.targeted:
            target = self._living_seat(s, command, "target")
            if target == seat:
                raise RuleError("coup.target_self")
            event["target"] = target
        return event

    @staticmethod
    def _responders(s: CoupState) -> list[int]:
        """Seats that may still answer the open claim or block window."""
        t = s.turn
        if t.stage != "claim" and t.stage != "block":
            return []
        passed = t.passed
        return [i for i in t.eligible if i not in passed] if passed else list(t.eligible)

    def _responder(self, s: CoupState, command: dict[str, Any]) -> int:
        """The seat answering the open window, if it may."""
        seat = command.get("seat")
        t = s.turn
        if type(seat) is int and seat in t.eligible and seat not in t.passed:
            return seat
        seat = self._living_seat(s, command)
        if s.phase == "challenge" and seat == t.claimant:
            raise RuleError("coup.own_claim")
        if seat in t.passed:
            raise RuleError("coup.already_passed", player=seat)
        raise RuleError("coup.not_your_block", player=seat)

    def _decide_challenge(self, s, command):
        if s.phase != "challenge":
            raise RuleError("coup.nothing_to_challenge")
        return {"type": "challenge", "seat": self._responder(s, command)}

    def _decide_pass(self, s, command):
        if s.phase not in ("challenge", "block"):
            raise RuleError("coup.not_now")
        return {"type": "pass", "seat": self._responder(s, command)}

    def _decide_proceed(self, s, command):
        if s.phase not in ("challenge", "block"):
            raise RuleError("coup.not_now")
        return {"type": "proceed"}

    def _decide_block(self, s, command):
        if s.phase != "block":
            raise RuleError("coup.cannot_block_now")
        seat = self._responder(s, command)
        character = command.get("character")
        if character not in s.turn.action.blockers:
            raise RuleError("coup.cannot_block_with", action=s.turn.action.name,
                            character=str(character))
        return {"type": "block", "seat": seat, "character": character}

    def _claimant(self, s: CoupState, command: dict[str, Any]) -> int:
        if s.phase != "prove":
            raise RuleError("coup.not_now")
        seat = seat_of(command, s.players)
        if seat != s.turn.claimant:
            raise RuleError("coup.not_challenged", player=seat)
        return seat

    def _decide_show(self, s, command):
        seat = self._claimant(s, command)
        claim = s.turn.claim
        if s.keeper:
            if claim not in s.hands[seat]:
                raise RuleError("coup.card_not_held", character=claim)
        elif s.face_up(claim) >= self.rules.copies:
            raise RuleError("coup.all_copies_face_up", character=claim)
        redraw = command.get("redraw", True)
        if type(redraw) is not bool:
            raise RuleError("command.bad_field", field="redraw")
        if not redraw and s.options["redraw"] == "mandatory":
            raise RuleError("coup.redraw_mandatory")
        return {"type": "show", "seat": seat, "character": claim, "redraw": redraw}

    def _decide_concede(self, s, command):
        return {"type": "concede", "seat": self._claimant(s, command)}

    def _decide_lose(self, s, command):
        if s.phase != "lose":
            raise RuleError("coup.not_now")
        seat = seat_of(command, s.players)
        if seat != s.losses[0]:
            raise RuleError("coup.not_your_loss", player=seat)
        card = command.get("card")
        if card not in self.rules.characters:
            raise RuleError("coup.unknown_character", character=str(card))
        if s.keeper:
            if card not in s.hands[seat]:
                raise RuleError("coup.card_not_held", character=card)
        elif s.face_up(card) >= self.rules.copies:
            raise RuleError("coup.all_copies_face_up", character=card)
        return {"type": "lose", "seat": seat, "card": card}

    def _decide_keep(self, s, command):
        if s.phase != "exchange":
            raise RuleError("coup.not_now")
        seat = seat_of(command, s.players)
        if seat != s.turn.actor:
            raise RuleError("coup.not_your_turn", player=seat)
        cards = command.get("cards")
        hand = s.hands[seat]
        if not isinstance(cards, (list, tuple)) or len(cards) != len(hand):
            raise RuleError("coup.keep_count", count=len(hand))
        pool = hand + s.turn.drawn
        for card in cards:
            if card not in pool:
                raise RuleError("coup.keep_not_offered")
            pool.remove(card)
        return {"type": "keep", "seat": seat, "cards": sorted(cards)}

    # -- apply: fold one event into the state -------------------------------------
    def apply(self, s: CoupState, event: dict[str, Any]) -> None:
        self._apply[event["type"]](s, event)
        if s.winner is None and s.pending_redraw is None and not s.losses:
            waiting = _WAITING.get(s.turn.stage)
            if waiting is not None:          # the common case: a window stays open
                s.phase = waiting
                return
        self._advance(s)

    def _apply_started(self, s, e):
        for seat in range(s.players):
            s.gain(seat, self.rules.start_coins)
        hands = e.get("hands")
        for seat in range(s.players):
            if hands is None:
                s.hands[seat] = [s.court.pop() for _ in range(self.rules.hand_size)]
            else:
                for card in hands[seat]:
                    s.court.remove(card)
                s.hands[seat] = list(hands[seat])
        s.living = tuple(range(s.players))
        s.turn = Turn(e["first"])
        s.turn_no = 1
        s.phase = "action"

    def _apply_declare(self, s, e):
        t = s.turn
        action = self.rules.actions[e["type"]]
        t.action = action
        t.target = e.get("target")
        if action.cost:
            s.pay(t.actor, action.cost)
            t.paid = action.cost
        if action.character:
            self._open_claim(s, t.actor, action.character, "action")
        elif action.blockable:
            self._open_block(s, t)
        else:
            t.stage = "resolve"

    @staticmethod
    def _open_claim(s: CoupState, seat: int, character: str, kind: str) -> None:
        """Open the window in which any other living player may challenge."""
        t = s.turn
        t.claimant, t.claim, t.kind = seat, character, kind
        t.passed = set()
        t.challenger = None
        t.eligible = tuple([i for i in s.living if i != seat])
        t.record = {"turn": s.turn_no, "character": character, "kind": kind,
                    "result": "open"}
        s.claims[seat].append(t.record)
        t.stage = "claim"

    @staticmethod
    def _open_block(s: CoupState, t: Turn) -> None:
        """Open the block window: the target alone, or every other living
        player; with nobody able to block (the target is out) the action
        resolves at once."""
        if t.action.target_blocks_only:
            t.eligible = (t.target,) if s.hands[t.target] else ()
        else:
            actor = t.actor
            t.eligible = tuple([i for i in s.living if i != actor])
        t.passed = set()
        t.stage = "block" if t.eligible else "resolve"

    def _apply_challenge(self, s, e):
        t = s.turn
        t.challenger = e["seat"]
        t.record["result"] = "challenged"
        t.record["challenger"] = e["seat"]
        t.stage = "prove"

    def _close_window(self, s: CoupState) -> None:
        t = s.turn
        if t.stage == "claim":
            t.record["result"] = "unchallenged"
            t.stage = "claim_upheld"
        else:
            t.stage = "resolve"

    def _apply_pass(self, s, e):
        t = s.turn
        t.passed.add(e["seat"])
        if len(t.passed) == len(t.eligible):
            self._close_window(s)

    def _apply_proceed(self, s, e):
        self._close_window(s)

    def _apply_block(self, s, e):
        s.turn.blocker = e["seat"]
        self._open_claim(s, e["seat"], e["character"], "block")

    def _apply_show(self, s, e):
        t = s.turn
        t.record["result"] = "upheld"
        if s.keeper and e["redraw"]:
            s.hands[t.claimant].remove(t.claim)
            s.court.append(t.claim)
            s.pending_redraw = t.claimant
        s.queue_loss(t.challenger)
        t.stage = "claim_upheld"

    def _apply_concede(self, s, e):
        t = s.turn
        t.record["result"] = "failed"
        s.queue_loss(t.claimant)
        t.stage = "claim_failed"

    def _apply_lose(self, s, e):
        seat = e["seat"]
        s.losses.pop(0)
        hand = s.hands[seat]
        if s.keeper:
            hand.remove(e["card"])
        else:
            hand.pop()
        s.revealed[seat].append(e["card"])
        if not hand:
            # Out: the coins go back once the action has resolved (example, step 8).
            s.eliminated.append(seat)
            s.living = tuple([i for i in s.living if i != seat])
            if len(s.living) == 1:
                s.winner = s.living[0]

    def _apply_redrawn(self, s, e):
        s.court.remove(e["card"])
        s.hands[e["seat"]].append(e["card"])
        s.pending_redraw = None

    def _apply_exchange_drawn(self, s, e):
        for card in e["cards"]:
            s.court.remove(card)
        s.turn.drawn = list(e["cards"])
        s.turn.stage = "exchange"

    def _apply_keep(self, s, e):
        t = s.turn
        pool = s.hands[t.actor] + t.drawn
        for card in e["cards"]:
            pool.remove(card)
        s.hands[t.actor] = list(e["cards"])
        s.court.extend(pool)
        t.drawn = []
        t.stage = "done"

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
            if s.losses:
                if s.hands[s.losses[0]]:
                    s.phase = "lose"
                    return
                s.losses.pop(0)     # already out: nothing left to lose
                continue
            stage = t.stage
            waiting = _WAITING.get(stage)
            if waiting is not None:
                s.phase = waiting
                return
            if stage == "claim_upheld":
                if t.kind == "block":
                    t.stage = "done"         # the action is blocked; no refund
                elif t.action.blockable:
                    self._open_block(s, t)
                else:
                    t.stage = "resolve"
            elif stage == "claim_failed":
                if t.kind == "block":
                    t.stage = "resolve"
                else:
                    if t.paid:               # a failed action claim gets its coins back
                        s.gain(t.actor, t.paid)
                    t.stage = "done"
            elif stage == "resolve":
                t.action.resolve(s, t)
            elif stage == "done":
                if s.eliminated:
                    _settle_the_eliminated(s)
                s.turn = Turn(s.next_alive(t.actor))
                s.turn_no += 1
                s.phase = "action"
                return
            else:
                s.phase = "action"
                return

    # -- what may happen next ---------------------------------------------------------
    def is_over(self, s: CoupState) -> bool:
        return s.phase == "over"

    def timer(self, s: Any, now: float) -> None:
        """No timers in this game."""
        return None

    def due(self, s: Any, now: float) -> None:
        return None

    def ballot(self, s: CoupState) -> None:
        """Coup has no simultaneous votes."""
        return None

    def result(self, s: CoupState) -> dict[str, Any] | None:
        return {"winner": s.winner} if s.phase == "over" else None

    def next_game_options(self, s: CoupState) -> dict[str, Any]:
        """Options for the next game at the same table: the winner of the
        previous game plays first (S5)."""
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
        if phase in ("challenge", "block"):
            return self._responders(s)
        if phase == "prove":
            return [t.claimant]
        if phase == "lose":
            return [s.losses[0]]
        return []

    def legal_commands(self, s: CoupState) -> tuple[dict[str, Any], ...]:
        """Every command the engine would accept now (for buttons and playouts).

        What may be done depends on a handful of values (whose turn, what they
        can afford, who may still answer, which cards are possible), so the
        commands are built once per such situation and shared, as commands
        that refuse changes: random playouts ask at every step."""
        key = self._situation(s)
        commands = self._legal_cache.get(key)
        if commands is None:
            if len(self._legal_cache) >= _LEGAL_CACHE_LIMIT:
                self._legal_cache.clear()
            commands = self._legal_cache[key] = tuple(
                map(FrozenCommand, self._commands_for(key)))
        return commands

    def _situation(self, s: CoupState) -> tuple:
        """Everything the legal commands depend on, as a hashable key."""
        phase = s.phase
        t = s.turn
        if phase == "challenge":
            passed = t.passed
            return (phase, tuple([i for i in t.eligible if i not in passed])
                    if passed else t.eligible)
        if phase == "action":
            seat = t.actor
            # The key holds every living seat; the actor is left out of the targets.
            return (phase, seat, min(s.coins[seat], self._forced), s.living)
        if phase == "block":
            passed = t.passed
            return (phase, tuple([i for i in t.eligible if i not in passed])
                    if passed else t.eligible, t.action.blockers)
        if phase == "prove":
            seat = t.claimant
            can_show = (t.claim in s.hands[seat] if s.keeper
                        else s.face_up(t.claim) < self.rules.copies)
            return (phase, seat, can_show)
        if phase == "lose":
            seat = s.losses[0]
            cards = (set(s.hands[seat]) if s.keeper else
                     [c for c in self.rules.characters
                      if s.face_up(c) < self.rules.copies])
            return (phase, seat, tuple(sorted(cards)))
        if phase == "exchange":
            return (phase, t.actor, tuple(sorted(s.hands[t.actor] + t.drawn)),
                    len(s.hands[t.actor]))
        return (phase,)

    def _commands_for(self, key: tuple) -> list[dict[str, Any]]:
        phase = key[0]
        if phase == "action":
            _, seat, coins, living = key
            targets = [i for i in living if i != seat]
            if coins >= self.rules.forced_coup_at:
                return [{"type": self.rules.coup_action, "seat": seat, "target": i}
                        for i in targets]
            out: list[dict[str, Any]] = []
            for name, cost, targeted in self._menu:
                if coins < cost:
                    continue
                if targeted:
                    out.extend({"type": name, "seat": seat, "target": i} for i in targets)
                else:
                    out.append({"type": name, "seat": seat})
            return out
        if phase == "challenge" or phase == "block":
            out = []
            for i in key[1]:
                if phase == "challenge":
                    out.append({"type": "challenge", "seat": i})
                else:
                    out.extend({"type": "block", "seat": i, "character": c} for c in key[2])
                out.append({"type": "pass", "seat": i})
            out.append({"type": "proceed"})
            return out
        if phase == "prove":
            _, seat, can_show = key
            show = [{"type": "show", "seat": seat, "redraw": True}] if can_show else []
            return show + [{"type": "concede", "seat": seat}]
        if phase == "lose":
            return [{"type": "lose", "seat": key[1], "card": c} for c in key[2]]
        if phase == "exchange":
            _, seat, pool, size = key
            return [{"type": "keep", "seat": seat, "cards": combo}
                    for combo in dict.fromkeys(combinations(pool, size))]
        return []

    # -- views --------------------------------------------------------------------
    def public_view(self, s: CoupState) -> dict[str, Any]:
        t = s.turn
        pending = None
        if t.action is not None and s.phase != "over":
            pending = {
                "action": t.action.name, "actor": t.actor, "target": t.target,
                "paid": t.paid, "stage": t.stage,
                "claim": (None if t.claimant is None else
                          {"seat": t.claimant, "character": t.claim, "kind": t.kind}),
                "challenger": t.challenger, "blocker": t.blocker,
                "passed": sorted(t.passed),
            }
        return {
            "game": self.name,
            "mode": "keeper" if s.keeper else "physical",
            "phase": s.phase,
            "turn": s.turn_no,
            "direction": s.options["direction"],
            "current": None if s.phase in ("setup", "over") else t.actor,
            "waiting_for": self.waiting_for(s),
            "treasury": s.treasury,
            "court": len(s.court),
            "players": [
                {"seat": i, "coins": s.coins[i], "influence": len(s.hands[i]),
                 "revealed": list(s.revealed[i]), "out": s.phase != "setup" and not s.hands[i],
                 "claims": [dict(c) for c in s.claims[i]]}
                for i in range(s.players)
            ],
            "pending": pending,
            "winner": s.winner,
        }

    def private_view(self, s: CoupState, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see: in keeper mode its hidden cards and, while
        it exchanges, the cards drawn from the court."""
        view: dict[str, Any] = {"seat": seat}
        if s.keeper:
            view["hand"] = sorted(s.hands[seat])
            if s.phase == "exchange" and s.turn.actor == seat:
                view["drawn"] = list(s.turn.drawn)
        return view

    def describe(self, event: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """A public, translatable line for the table's log: never a hidden card."""
        kind = event["type"]
        if kind == "started":
            return "log.started", {"player": event["first"]}
        if kind in self.rules.actions:
            return f"log.action.{kind}", {"player": event["seat"],
                                          "target": event.get("target")}
        if kind == "block":
            return "log.block", {"player": event["seat"], "character": event["character"]}
        if kind == "lose":
            return "log.lose", {"player": event["seat"], "character": event["card"]}
        if kind == "show":
            return "log.show", {"player": event["seat"], "character": event["character"]}
        if kind in ("challenge", "pass", "concede", "redrawn",
                    "exchange_drawn", "keep"):
            return f"log.{kind}", {"player": event["seat"]}
        if kind == "proceed":
            return "log.proceed", {}
        return None


def _settle_the_eliminated(s: CoupState) -> None:
    """Players knocked out during the action return their coins."""
    for seat in s.eliminated:
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
