"""The Secret Hitler referee (5-10 players), in physical and keeper modes.

A round: the candidate nominates a chancellor; every living player votes
Ja/Nein through the table's ballot; a strict majority elects the government,
after which (from the 3rd fascist policy) electing Hitler chancellor wins for
the fascists. The legislative session draws 3 tiles: the president discards
one, the chancellor enacts one (or, from the 5th fascist policy, requests a
veto). A fascist policy enacted by a government may give the president a
power. Three failed governments in a row throw the country into chaos: the top
tile is enacted, its power ignored, the tracker reset and term limits cleared.

Phases (``state.phase``): ``night`` (keeper: everyone confirms they have seen
their role), ``nominate``, ``election`` (the ballot is open), ``hitler_reveal``
(physical: the table says whether the new chancellor is Hitler),
``president_discard`` and ``chancellor_enact`` (keeper), ``legislative``
(physical: the table enters the enacted tile), ``veto``, ``chaos`` (physical:
the table enters the top tile; keeper: the app turns it), ``investigate``,
``special_election``, ``peek``, ``execute``, ``execution_reveal`` (physical),
and the passing phases ``new_round`` and ``session``. The public phase
(``public_phase``) is the state's, or ``reshuffle`` while the draw pile waits
to be reshuffled, or ``over``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..base import (
    KEEPER,
    Command,
    Engine,
    Event,
    Fate,
    FrozenCommand,
    RuleError,
    Setup,
    checked_options,
    first_seat,
    same_items,
    seat_of,
)
from ..views import BallotSpec, View
from . import SPEC
from .rules import (
    BOARDS,
    CHAOS_AT,
    DECK,
    EXECUTE,
    FASCIST,
    FASCIST_WIN,
    FULL_TERM_LIMITS_ABOVE,
    HAND,
    HITLER,
    HITLER_ZONE,
    INVESTIGATE,
    JA,
    LIBERAL,
    LIBERAL_WIN,
    NEIN,
    PEEK,
    POLICIES,
    ROLE_COUNTS,
    SPECIAL_ELECTION,
    VETO_FROM,
    hitler_knows_fascists,
    party_of,
)
from .state import SecretHitlerState

_POWER_PHASES = frozenset((INVESTIGATE, SPECIAL_ELECTION, PEEK, EXECUTE))
# Keeper-mode events undo must not take back: those after which someone has
# seen something hidden (roles dealt, the president's draw, which follows the
# vote, the chancellor's two tiles, a turned tile, an investigated party card,
# an execution, after which the game ends or goes on as the target was Hitler
# or not), and a reshuffle, whose order is chance (undone, it would be drawn
# again).
_KEEPER_REVEALING = frozenset(
    ("started", "discard", "enact", "chaos", "investigate", "execute", "reshuffled")
)
# Choices that depend on the tiles in a hand (keeper mode).
_PRIVATE_CHOICES = frozenset(("discard", "enact"))
# Situations whose menus are kept (a few thousand at most in practice); the
# cache is emptied when it reaches this size.
_LEGAL_CACHE_LIMIT = 20000


class SecretHitlerEngine:
    name = "secret_hitler"
    min_players = SPEC.min_players
    max_players = SPEC.max_players

    def __init__(self) -> None:
        self._decide: dict[str, Callable[[SecretHitlerState, Command], Event]] = {
            "confirm": self._decide_confirm,
            "nominate": self._decide_nominate,
            "ballot": self._decide_ballot,
            "reveal": self._decide_reveal,
            "discard": self._decide_discard,
            "enact": self._decide_enact,
            "veto": self._decide_veto,
            "veto_response": self._decide_veto_response,
            "chaos": self._decide_chaos,
            "investigate": self._decide_investigate,
            "special_election": self._decide_special_election,
            "peek": self._decide_peek,
            "execute": self._decide_execute,
        }
        # Menus by situation (see legal_commands), shared by every table.
        self._legal: dict[tuple[Any, ...], tuple[FrozenCommand, ...]] = {}
        self._apply: dict[str, Callable[[SecretHitlerState, Event], None]] = {
            "started": self._apply_started,
            "confirm": self._apply_confirm,
            "nominate": self._apply_nominate,
            "ballot": self._apply_ballot,
            "reveal": self._apply_reveal,
            "discard": self._apply_discard,
            "enact": self._apply_enact,
            "veto": self._apply_veto,
            "veto_response": self._apply_veto_response,
            "chaos": self._apply_chaos,
            "reshuffled": self._apply_reshuffled,
            "investigate": self._apply_investigate,
            "special_election": self._apply_special_election,
            "peek": self._apply_peek,
            "execute": self._apply_execute,
        }

    # -- setup ---------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return SPEC.defaults()

    def check_setup(self, setup: Setup) -> None:
        setup.options = checked_options(
            setup, self.name, self.min_players, self.max_players, self.default_options()
        )

    def new_state(self, setup: Setup) -> SecretHitlerState:
        self.check_setup(setup)
        return SecretHitlerState(setup.players, setup.mode == KEEPER, setup.options)

    # -- chance ---------------------------------------------------------------
    def chance(self, s: SecretHitlerState, fate: Fate) -> Event | None:
        if s.winner is not None:
            return None
        if s.phase == "setup":
            return self._chance_start(s, fate)
        if s.reshuffle_due:
            if not s.keeper:
                return {"type": "reshuffled"}
            pool = s.deck + s.discard
            order = fate.next("decks")
            if order is None:
                order = list(pool)
                fate.rng.shuffle(order)
            elif not same_items(order, cast(list[str], pool)):  # keeper: every tile known
                raise RuleError("setup.bad_deal")
            return {"type": "reshuffled", "deck": list(order)}
        if s.phase == "chaos" and s.keeper:
            return {"type": "chaos", "policy": s.deck[0]}
        return None

    def _chance_start(self, s: SecretHitlerState, fate: Fate) -> Event:
        n = s.players
        event: Event = {
            "type": "started",
            "first": first_seat(s.options["first"], fate, n),
        }
        if s.keeper:
            liberals, fascists = ROLE_COUNTS[n]
            pack = [LIBERAL] * liberals + [FASCIST] * fascists + [HITLER]
            roles = fate.take("roles")
            if roles is None:
                roles = list(pack)
                fate.rng.shuffle(roles)
            elif not same_items(roles, pack):
                raise RuleError("setup.bad_deal")
            deck = fate.take("deck")
            if deck is None:
                deck = list(DECK)
                fate.rng.shuffle(deck)
            elif not same_items(deck, list(DECK)):
                raise RuleError("setup.bad_deal")
            event["roles"] = list(roles)
            event["deck"] = list(deck)
        return event

    def reveals_hidden(self, s: SecretHitlerState, event: Event) -> bool:
        """Whether undoing this event would re-hide something someone has
        seen: a closed ballot's votes (keeper mode's ballot is secret; in
        physical mode, unless every vote was typed on the kiosk, in
        everyone's sight: then the reveal showed nothing new, and undoing a
        mis-tapped last vote opens the ballot again with the others), and in
        keeper mode the roles, the tiles in a hand, a turned tile, an
        investigated party or whether an executed player was Hitler; or
        shuffle again a draw pile that chance has already ordered (keeper
        mode)."""
        kind = event["type"]
        if kind == "ballot":
            return s.keeper or not event.get("in_public", False)
        return s.keeper and kind in _KEEPER_REVEALING

    def private_choice(self, s: SecretHitlerState, command: Command) -> bool:
        """In keeper mode, which tiles may be discarded or enacted shows the
        hand: those choices belong on the office holder's phone."""
        kind = command.get("type")
        return s.keeper and type(kind) is str and kind in _PRIVATE_CHOICES

    # -- decide ---------------------------------------------------------------
    def decide(self, s: SecretHitlerState, command: Command) -> list[Event]:
        kind = command.get("type")
        handler = self._decide.get(kind) if type(kind) is str else None
        if handler is None:
            raise RuleError("command.unknown", command=str(kind)[:40])
        if s.winner is not None:
            raise RuleError("game.over")
        return [handler(s, command)]

    @staticmethod
    def _in_phase(s: SecretHitlerState, *phases: str) -> None:
        if s.reshuffle_due or s.phase not in phases:
            raise RuleError("sh.not_now")

    @staticmethod
    def _target_refusal(s: SecretHitlerState, actor: int | None, target: int) -> RuleError | None:
        """Why ``actor``'s power may not aim at ``target``, or None: the one
        rule ``decide`` enforces and ``legal_commands`` offers."""
        if not s.alive[target]:
            return RuleError("sh.player_dead", player=target)
        if target == actor:
            return RuleError("sh.target_self")
        return None

    def _target(self, s: SecretHitlerState, command: Command, actor: int) -> int:
        target = seat_of(command, s.players, "target")
        refusal = self._target_refusal(s, actor, target)
        if refusal is not None:
            raise refusal
        return target

    def _targets(self, s: SecretHitlerState, actor: int | None) -> list[int]:
        return [i for i in s.living if self._target_refusal(s, actor, i) is None]

    @staticmethod
    def _veto_refusal(s: SecretHitlerState) -> RuleError | None:
        """Why the chancellor may not ask for a veto now, or None."""
        if s.fascist < VETO_FROM:
            return RuleError("sh.veto_locked", count=VETO_FROM)
        if s.veto_refused:
            return RuleError("sh.veto_refused")
        return None

    @staticmethod
    def _president(s: SecretHitlerState, command: Command) -> int:
        seat = seat_of(command, s.players)
        if seat != s.president:
            raise RuleError("sh.not_president", player=seat)
        return seat

    @staticmethod
    def _chancellor(s: SecretHitlerState, command: Command) -> int:
        seat = seat_of(command, s.players)
        if seat != s.chancellor:
            raise RuleError("sh.not_chancellor", player=seat)
        return seat

    @staticmethod
    def _policy(command: Command) -> str:
        policy = command.get("policy")
        if policy not in POLICIES:
            raise RuleError("sh.unknown_policy", policy=str(policy)[:20])
        return policy

    def _decide_confirm(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "night")
        seat = seat_of(command, s.players)
        if seat in s.confirmed:
            raise RuleError("sh.already_confirmed", player=seat)
        return {"type": "confirm", "seat": seat}

    def _decide_nominate(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "nominate")
        seat = seat_of(command, s.players)
        if seat != s.candidate:
            raise RuleError("sh.not_candidate", player=seat)
        target = self._target(s, command, seat)
        if target in self.term_limited(s):
            raise RuleError("sh.term_limited", player=target)
        return {"type": "nominate", "seat": seat, "target": target}

    def _decide_ballot(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "election")
        votes = command.get("votes")
        if not isinstance(votes, list) or len(votes) != s.players:
            raise RuleError("sh.bad_ballot")
        # Every living seat votes Ja or Nein and every dead one (the
        # executed) nothing: counted, and the few dead looked at, rather
        # than every seat walked in Python, as each election asks.
        if votes.count(JA) + votes.count(NEIN) != len(s.living):
            raise RuleError("sh.bad_ballot")
        for seat in s.executed:
            if votes[seat] is not None:
                raise RuleError("sh.bad_ballot")
        # Whether every vote was cast on the kiosk (the table says so when it
        # closes the ballot; nobody else may send this command).
        in_public = command.get("in_public") is True
        return {"type": "ballot", "votes": list(votes), "in_public": in_public}

    def _decide_reveal(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "hitler_reveal", "execution_reveal")
        seat = seat_of(command, s.players)
        assert s.reveal is not None  # someone reveals in this phase
        if seat != s.reveal[0]:
            raise RuleError("sh.not_revealing", player=seat)
        hitler = command.get("hitler")
        if type(hitler) is not bool:
            raise RuleError("command.bad_field", field="hitler")
        if hitler and seat in s.not_hitler:
            raise RuleError("sh.already_not_hitler", player=seat)
        return {"type": "reveal", "seat": seat, "hitler": hitler}

    def _decide_discard(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "president_discard")
        seat = self._president(s, command)
        policy = self._policy(command)
        if policy not in s.hand:
            raise RuleError("sh.tile_not_held", policy=policy)
        return {"type": "discard", "seat": seat, "policy": policy}

    def _decide_enact(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "chancellor_enact", "legislative")
        seat = self._chancellor(s, command)
        policy = self._policy(command)
        if s.keeper and policy not in s.hand:
            raise RuleError("sh.tile_not_held", policy=policy)
        return {"type": "enact", "seat": seat, "policy": policy}

    def _decide_veto(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "chancellor_enact", "legislative")
        seat = self._chancellor(s, command)
        refusal = self._veto_refusal(s)
        if refusal is not None:
            raise refusal
        return {"type": "veto", "seat": seat}

    def _decide_veto_response(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "veto")
        seat = self._president(s, command)
        agree = command.get("agree")
        if type(agree) is not bool:
            raise RuleError("command.bad_field", field="agree")
        return {"type": "veto_response", "seat": seat, "agree": agree}

    def _decide_chaos(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, "chaos")
        if s.keeper:
            raise RuleError("sh.app_turns_tile")
        return {"type": "chaos", "policy": self._policy(command)}

    def _decide_investigate(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, INVESTIGATE)
        seat = self._president(s, command)
        target = self._target(s, command, seat)
        if s.investigated(target):
            raise RuleError("sh.already_investigated", player=target)
        return {"type": INVESTIGATE, "seat": seat, "target": target}

    def _decide_special_election(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, SPECIAL_ELECTION)
        seat = self._president(s, command)
        return {"type": SPECIAL_ELECTION, "seat": seat, "target": self._target(s, command, seat)}

    def _decide_peek(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, PEEK)
        return {"type": PEEK, "seat": self._president(s, command)}

    def _decide_execute(self, s: SecretHitlerState, command: Command) -> Event:
        self._in_phase(s, EXECUTE)
        seat = self._president(s, command)
        return {"type": EXECUTE, "seat": seat, "target": self._target(s, command, seat)}

    # -- apply ----------------------------------------------------------------
    def apply(self, s: SecretHitlerState, event: Event) -> None:
        self._apply[event["type"]](s, event)
        if s.winner is None and not s.reshuffle_due:
            if s.phase == "new_round":
                self._new_round(s)
            elif s.phase == "session":
                self._begin_session(s)

    def _apply_started(self, s: SecretHitlerState, e: Event) -> None:
        if s.keeper:
            s.roles = list(e["roles"])
            s.deck = list(e["deck"])
        else:
            s.deck = [None] * len(DECK)
        s.candidate = s.rotation_base = e["first"]
        s.round = 1
        s.phase = "night" if s.keeper else "nominate"

    def _apply_confirm(self, s: SecretHitlerState, e: Event) -> None:
        s.confirmed.add(e["seat"])
        if len(s.confirmed) == s.players:
            s.phase = "nominate"

    def _apply_nominate(self, s: SecretHitlerState, e: Event) -> None:
        s.nominee = e["target"]
        s.ballots += 1
        s.phase = "election"

    def _apply_ballot(self, s: SecretHitlerState, e: Event) -> None:
        votes = e["votes"]
        elected = votes.count(JA) * 2 > len(s.living)  # a strict majority
        s.last_election = {
            "president": s.candidate,
            "chancellor": s.nominee,
            "votes": list(votes),
            "elected": elected,
            "chaos": False,
            "tracker": s.tracker,
        }
        if elected:
            assert s.candidate is not None and s.nominee is not None  # as voted on
            s.president, s.chancellor = s.candidate, s.nominee
            s.last_president, s.last_chancellor = s.president, s.chancellor
            s.nominee = None
            if s.fascist >= HITLER_ZONE and s.chancellor not in s.not_hitler:
                if not s.keeper:
                    s.reveal = (s.chancellor, "elected")
                    s.phase = "hitler_reveal"
                    return
                if s.roles[s.chancellor] == HITLER:
                    self._win(s, FASCIST, "hitler_elected")
                    return
                s.not_hitler.add(s.chancellor)
            s.phase = "session"
        else:
            s.nominee = None
            self._failed_government(s)
            s.last_election.update(tracker=s.tracker, chaos=s.phase == "chaos")

    def _failed_government(self, s: SecretHitlerState) -> None:
        s.tracker += 1
        s.phase = "chaos" if s.tracker >= CHAOS_AT else "new_round"

    def _apply_reveal(self, s: SecretHitlerState, e: Event) -> None:
        assert s.reveal is not None  # someone reveals in this phase
        seat, why = s.reveal
        s.reveal = None
        if why == "elected":
            if e["hitler"]:
                self._win(s, FASCIST, "hitler_elected")
                return
            s.not_hitler.add(seat)
            s.phase = "session"
        else:
            if e["hitler"]:
                self._win(s, LIBERAL, "hitler_executed")
                return
            s.phase = "new_round"

    def _begin_session(self, s: SecretHitlerState) -> None:
        s.veto_refused = s.veto_requested = False
        if s.keeper:
            s.hand = s.deck[:HAND]
            del s.deck[:HAND]
            s.phase = "president_discard"
        else:
            s.phase = "legislative"

    def _apply_discard(self, s: SecretHitlerState, e: Event) -> None:
        s.hand.remove(e["policy"])
        s.discard.append(e["policy"])
        s.phase = "chancellor_enact"

    def _apply_enact(self, s: SecretHitlerState, e: Event) -> None:
        policy = e["policy"]
        if s.keeper:
            s.hand.remove(policy)
            s.discard.extend(s.hand)
            s.hand = []
        else:
            del s.deck[:HAND]
            s.discard.extend([None] * (HAND - 1))
        self._enacted(s, policy, by_government=True)

    def _apply_veto(self, s: SecretHitlerState, e: Event) -> None:
        s.veto_requested = True
        s.phase = "veto"

    def _apply_veto_response(self, s: SecretHitlerState, e: Event) -> None:
        s.veto_requested = False
        if not e["agree"]:
            s.veto_refused = True
            s.phase = "chancellor_enact" if s.keeper else "legislative"
            return
        if s.keeper:
            s.discard.extend(s.hand)
            s.hand = []
        else:
            del s.deck[:HAND]
            s.discard.extend([None] * HAND)
        if len(s.deck) < HAND:
            s.reshuffle_due = True
        self._failed_government(s)

    def _apply_chaos(self, s: SecretHitlerState, e: Event) -> None:
        if s.keeper:
            s.deck.pop(0)
        else:
            s.deck.pop()
        self._enacted(s, e["policy"], by_government=False)

    def _enacted(self, s: SecretHitlerState, policy: str, by_government: bool) -> None:
        """A policy goes on its track: reset the tracker, check for a win
        (the game ends at once), reshuffle a short draw pile, then grant the
        slot's power (only to a government, never from chaos)."""
        s.tracker = 0
        if policy == LIBERAL:
            s.liberal += 1
        else:
            s.fascist += 1
        if not by_government:
            s.last_president = s.last_chancellor = None  # chaos clears term limits
        if s.liberal >= LIBERAL_WIN:
            self._win(s, LIBERAL, "policies")
            return
        if s.fascist >= FASCIST_WIN:
            self._win(s, FASCIST, "policies")
            return
        if len(s.deck) < HAND:
            s.reshuffle_due = True
        power = BOARDS[s.board].get(s.fascist) if (by_government and policy == FASCIST) else None
        if power == INVESTIGATE and not self._investigable(s):
            power = None  # nobody is left to investigate
        s.power = power
        s.phase = power or "new_round"

    def _apply_reshuffled(self, s: SecretHitlerState, e: Event) -> None:
        if s.keeper:
            s.deck = list(e["deck"])
        else:
            s.deck = [None] * (len(s.deck) + len(s.discard))
        s.discard = []
        s.reshuffle_due = False

    def _apply_investigate(self, s: SecretHitlerState, e: Event) -> None:
        president, target = e["seat"], e["target"]
        s.investigations.append((president, target))
        if s.keeper:
            role = s.roles[target]
            assert role is not None  # keeper mode dealt the roles
            s.knowledge[president].append(
                {"kind": INVESTIGATE, "target": target, "party": party_of(role)}
            )
        s.power = None
        s.phase = "new_round"

    def _apply_special_election(self, s: SecretHitlerState, e: Event) -> None:
        s.special_candidate = e["target"]
        s.special_caller = s.rotation_base = e["seat"]
        s.power = None
        s.phase = "new_round"

    def _apply_peek(self, s: SecretHitlerState, e: Event) -> None:
        if s.keeper:
            s.knowledge[e["seat"]].append({"kind": PEEK, "tiles": s.deck[:HAND]})
        s.power = None
        s.phase = "new_round"

    def _apply_execute(self, s: SecretHitlerState, e: Event) -> None:
        target = e["target"]
        s.alive[target] = False
        s.living = tuple([i for i in s.living if i != target])
        s.executed.append(target)
        s.power = None
        if s.keeper and s.roles[target] == HITLER:
            self._win(s, LIBERAL, "hitler_executed")
        elif not s.keeper and target not in s.not_hitler:
            # The table asks whether they were Hitler, unless it already knows.
            s.reveal = (target, "executed")
            s.phase = "execution_reveal"
        else:
            s.phase = "new_round"

    def _new_round(self, s: SecretHitlerState) -> None:
        s.president = s.chancellor = s.nominee = None
        s.hand = []
        if s.special_candidate is not None:
            s.candidate = s.special_candidate
            s.special_candidate = None
        else:
            # Rotation: the seat after the last ordinary candidate, or after
            # the president who called a special election.
            assert s.rotation_base is not None  # set when the game started
            s.candidate = s.rotation_base = s.next_alive(s.rotation_base)
            s.special_caller = None
        s.round += 1
        s.phase = "nominate"

    @staticmethod
    def _win(s: SecretHitlerState, team: str, reason: str) -> None:
        s.winner, s.win_reason = team, reason
        s.phase = "over"

    # -- questions --------------------------------------------------------------
    @staticmethod
    def _investigable(s: SecretHitlerState) -> list[int]:
        return [
            i
            for i in s.living
            if SecretHitlerEngine._target_refusal(s, s.president, i) is None
            and not s.investigated(i)
        ]

    @staticmethod
    def term_limited(s: SecretHitlerState) -> set[int]:
        """Who may not be nominated chancellor: the last elected chancellor,
        and the last elected president while more than 5 players are alive."""
        limited = set()
        if s.last_chancellor is not None:
            limited.add(s.last_chancellor)
        if s.last_president is not None and len(s.living) > FULL_TERM_LIMITS_ABOVE:
            limited.add(s.last_president)
        return limited

    def eligible_chancellors(self, s: SecretHitlerState) -> list[int]:
        limited = self.term_limited(s)
        return [i for i in s.living if i != s.candidate and i not in limited]

    @staticmethod
    def public_phase(s: SecretHitlerState) -> str:
        """The phase the table sees (the views, the commands offered)."""
        if s.winner is not None:
            return "over"
        if s.reshuffle_due:
            return "reshuffle"
        return s.phase

    def is_over(self, s: SecretHitlerState) -> bool:
        return s.winner is not None

    def result(self, s: SecretHitlerState) -> dict[str, Any] | None:
        if s.winner is None:
            return None
        return {"winner": s.winner, "reason": s.win_reason}

    def next_game_options(self, s: SecretHitlerState) -> dict[str, Any]:
        return dict(s.options)

    def timer(self, s: Any, now: float) -> None:
        """No timers in this game."""
        return None

    def due(self, s: Any, now: float) -> None:
        return None

    def ballot(self, s: SecretHitlerState) -> BallotSpec | None:
        """The government vote: every living player, Ja or Nein."""
        if s.phase != "election" or s.winner is not None:
            return None
        return {"id": f"election-{s.ballots}", "eligible": s.living, "choices": (JA, NEIN)}

    def waiting_for(self, s: SecretHitlerState) -> list[int]:
        phase = self.public_phase(s)
        if phase == "night":
            return [i for i in range(s.players) if i not in s.confirmed]
        if phase == "nominate":
            assert s.candidate is not None
            return [s.candidate]
        if phase == "election":
            return list(s.living)
        if phase in ("hitler_reveal", "execution_reveal"):
            assert s.reveal is not None
            return [s.reveal[0]]
        if phase in ("president_discard", "veto") or phase in _POWER_PHASES:
            assert s.president is not None
            return [s.president]
        if phase in ("chancellor_enact", "legislative"):
            assert s.chancellor is not None
            return [s.chancellor]
        return []

    def legal_commands(self, s: SecretHitlerState) -> tuple[Command, ...]:
        """Every command the engine accepts now (votes go through the table's
        ballot and are not listed here).

        The menus are built once per situation and shared, as commands that refuse changes; see
        ``_situation`` for what a situation is."""
        key = self._situation(s)
        if key is None:
            return self._commands(s, self.public_phase(s))
        commands = self._legal.get(key)
        if commands is None:
            if len(self._legal) >= _LEGAL_CACHE_LIMIT:
                self._legal.clear()
            commands = self._legal[key] = self._commands(s, key[0])
        return commands

    def _situation(self, s: SecretHitlerState) -> tuple[Any, ...] | None:
        """Everything the menu of the current phase is made from (None for
        the phases built afresh): the nomination reads the candidate, who
        lives and the last government (``eligible_chancellors``); a hand, its
        holder and which policies it holds, the chancellor's also the veto
        (``_veto_refusal``); a power, the president, who lives and (to
        investigate) who was investigated; the night, who has confirmed. The
        key holds every value those rules read, so a kept menu is the one
        they would build now."""
        if s.winner is not None or s.reshuffle_due:
            return None
        phase = s.phase
        if phase == "election":  # the ballot's: nothing listed
            return (phase,)
        if phase == "nominate":
            return (phase, s.candidate, s.living, s.last_chancellor, s.last_president)
        if phase == "president_discard":
            hand = s.hand
            return (phase, s.president, LIBERAL in hand, FASCIST in hand)
        if phase == "chancellor_enact" or phase == "legislative":
            hand = s.hand
            return (
                phase,
                s.chancellor,
                s.keeper,
                LIBERAL in hand,
                FASCIST in hand,
                s.fascist >= VETO_FROM,
                s.veto_refused,
            )
        if phase == "veto" or phase == PEEK:
            return (phase, s.president)
        if phase == SPECIAL_ELECTION or phase == EXECUTE:
            return (phase, s.president, s.living)
        if phase == INVESTIGATE:
            return (phase, s.president, s.living, tuple(s.investigations))
        if phase == "night":
            return (phase, s.players, frozenset(s.confirmed))
        return None

    def _commands(self, s: SecretHitlerState, phase: str) -> tuple[FrozenCommand, ...]:
        """The menu of ``phase`` as the rules build it now."""
        out: list[Command] = []
        if phase == "night":
            out = [{"type": "confirm", "seat": i} for i in range(s.players) if i not in s.confirmed]
        elif phase == "nominate":
            out = [
                {"type": "nominate", "seat": s.candidate, "target": i}
                for i in self.eligible_chancellors(s)
            ]
        elif phase in ("hitler_reveal", "execution_reveal"):
            assert s.reveal is not None
            seat = s.reveal[0]
            out = [{"type": "reveal", "seat": seat, "hitler": False}]
            if seat not in s.not_hitler:
                out.append({"type": "reveal", "seat": seat, "hitler": True})
        elif phase == "president_discard":
            out = [
                {"type": "discard", "seat": s.president, "policy": p}
                for p in POLICIES
                if p in s.hand
            ]
        elif phase in ("chancellor_enact", "legislative"):
            out = [
                {"type": "enact", "seat": s.chancellor, "policy": p}
                for p in POLICIES
                if not s.keeper or p in s.hand
            ]
            if self._veto_refusal(s) is None:
                out.append({"type": "veto", "seat": s.chancellor})
        elif phase == "veto":
            out = [
                {"type": "veto_response", "seat": s.president, "agree": agree}
                for agree in (True, False)
            ]
        elif phase == "chaos" and not s.keeper:
            out = [{"type": "chaos", "policy": p} for p in POLICIES]
        elif phase == INVESTIGATE:
            out = [
                {"type": INVESTIGATE, "seat": s.president, "target": i}
                for i in self._investigable(s)
            ]
        elif phase in (SPECIAL_ELECTION, EXECUTE):
            out = [
                {"type": phase, "seat": s.president, "target": i}
                for i in self._targets(s, s.president)
            ]
        elif phase == PEEK:
            out = [{"type": PEEK, "seat": s.president}]
        return tuple(map(FrozenCommand, out))

    # -- views ---------------------------------------------------------------------
    def public_view(self, s: SecretHitlerState) -> View:
        phase = self.public_phase(s)
        limited = self.term_limited(s)
        over = phase == "over"
        powers = BOARDS[s.board]
        return {
            "game": self.name,
            "mode": "keeper" if s.keeper else "physical",
            "phase": phase,
            "round": s.round,
            "waiting_for": self.waiting_for(s),
            "players": [
                {
                    "seat": i,
                    "alive": s.alive[i],
                    "not_hitler": i in s.not_hitler,
                    "investigated": s.investigated(i),
                    "term_limited": i in limited,
                    "confirmed": i in s.confirmed,
                    # When the game is over in keeper mode, every role is shown.
                    "role": s.roles[i] if over else None,
                }
                for i in range(s.players)
            ],
            "candidate": s.candidate,
            "nominee": s.nominee,
            "president": s.president,
            "chancellor": s.chancellor,
            "term_limited": {
                "president": s.last_president if s.last_president in limited else None,
                "chancellor": s.last_chancellor,
            },
            "tracker": s.tracker,
            "liberal": s.liberal,
            "fascist": s.fascist,
            "board": s.board,
            "powers": [powers.get(slot) for slot in range(1, FASCIST_WIN)],
            "next_power": powers.get(s.fascist + 1),
            "veto_unlocked": s.fascist >= VETO_FROM,
            "veto_requested": s.veto_requested,
            "veto_refused": s.veto_refused,
            "hitler_zone": s.fascist >= HITLER_ZONE,
            "draw": len(s.deck),
            "discard": len(s.discard),
            "last_election": (
                None
                if s.last_election is None
                else {**s.last_election, "votes": list(s.last_election["votes"])}
            ),
            "last_votes": None if s.last_election is None else list(s.last_election["votes"]),
            "investigations": [{"by": by, "target": t} for by, t in s.investigations],
            "executed": list(s.executed),
            "special_election": (
                None
                if s.special_caller is None
                else {"caller": s.special_caller, "candidate": s.special_candidate}
            ),
            "power": s.power,
            "winner": s.winner,
            "reason": s.win_reason,
        }

    def private_view(self, s: SecretHitlerState, seat: int) -> View:
        """What only ``seat`` may know: in keeper mode its role, party and
        teammates, the tiles in its hand while it holds office, the top tiles
        during its peek, and what its investigations and peeks showed it."""
        view: View = {"seat": seat}
        if not s.keeper:
            return view
        role = s.roles[seat]
        assert role is not None  # keeper mode: the roles are dealt
        view["role"] = role
        view["party"] = party_of(role)
        view["teammates"] = self._teammates(s, seat)
        phase = self.public_phase(s)
        if (phase == "president_discard" and seat == s.president) or (
            phase in ("chancellor_enact", "veto") and seat == s.chancellor
        ):
            view["hand"] = list(s.hand)
        if phase == PEEK and seat == s.president:
            view["peek"] = s.deck[:HAND]
        view["knowledge"] = [dict(k) for k in s.knowledge[seat]]
        return view

    @staticmethod
    def _teammates(s: SecretHitlerState, seat: int) -> list[dict[str, Any]]:
        role = s.roles[seat]
        if role == LIBERAL or (role == HITLER and not hitler_knows_fascists(s.players)):
            return []
        return [{"seat": i, "role": r} for i, r in enumerate(s.roles) if i != seat and r != LIBERAL]

    def describe(self, event: Event) -> tuple[str, dict[str, Any]] | None:
        """A public log line: votes only once revealed, never a hidden tile,
        party or role."""
        kind = event["type"]
        if kind == "started":
            return "sh.log.started", {"player": event["first"]}
        if kind in ("confirm", "veto", PEEK):
            return f"sh.log.{kind}", {"player": event["seat"]}
        if kind == "discard":
            return "sh.log.discard", {"player": event["seat"]}
        if kind in ("nominate", INVESTIGATE, SPECIAL_ELECTION, EXECUTE):
            return f"sh.log.{kind}", {"player": event["seat"], "target": event["target"]}
        if kind == "ballot":
            ja = event["votes"].count(JA)
            nein = event["votes"].count(NEIN)
            return "sh.log.ballot", {"ja": ja, "nein": nein}
        if kind in ("enact", "chaos"):
            return f"sh.log.{kind}", {"policy": event["policy"]}
        if kind == "veto_response":
            return f"sh.log.veto_{'agreed' if event['agree'] else 'refused'}", {
                "player": event["seat"]
            }
        if kind == "reveal":
            return f"sh.log.reveal_{'hitler' if event['hitler'] else 'not_hitler'}", {
                "player": event["seat"]
            }
        if kind == "reshuffled":
            return "sh.log.reshuffled", {}
        return None


# Typed as the contract, so mypy checks the engine keeps it.
ENGINE: Engine = SecretHitlerEngine()
