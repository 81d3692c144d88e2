"""The Article 27 referee (3-6 players), in physical and keeper modes.

A round: the Secretary-General's issues are revealed (one disk per issue, no
third disk of one agenda except in the last round); the SG strikes the gavel
and the 5-minute negotiation begins; only the SG moves issues between the
table and the floor; the second strike ("Vote!") needs an issue on the floor
and freezes the proposal; when the timer runs out with an empty floor the
Success Privilege goes back to the bank and the SG places exactly one issue.
Everyone votes Yes, Veto or Abstain through the table's ballot. Then bribes are
settled, vetoers pay, a passed proposal pays the issue points and the
privilege, every disk goes to the agenda track, and the gavel passes left.

Phases (``state.phase``): ``setup``; ``unused`` (physical, 4-5 players: the
table enters the agendas it put aside); ``deal`` (keeper: the app draws the
slots and the disks); ``reveal`` (physical: the table enters each disk);
``ready``; ``negotiation``; ``place_one``; ``voting``; ``settle_other``
(keeper: both parties of each OTHER bribe say whether it was kept);
``announce`` and ``challenge`` (keeper, "Lie, Cheat and Steal"); ``scored``
(the round's result is shown until the next SG starts the next round); ``final``
(physical: each player enters their influence and agenda); ``over``.

The timer is state: the gavel, pauses and expiry are events stamped with the
table's clock, so a restarted table knows how much time is left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from ..base import (
    KEEPER,
    Command,
    Event,
    Fate,
    FrozenCommand,
    GavelEngine,
    RuleError,
    Setup,
    checked_options,
    first_seat,
    seat_of,
)
from ..views import BallotSpec, Timer, View
from . import SPEC, bribes, scoring
from .rules import (
    ABSTAIN,
    AGENDAS,
    BRIBE_KINDS,
    COME_AND_GO_INFLUENCE,
    EXCLUDE,
    FAILED,
    INCLUDE,
    INFLUENCE_IN_THE_BOX,
    ISSUES,
    PASSED,
    PRIVILEGE,
    SAME_AGENDA_LIMIT,
    SCORE_RANGE,
    SLOT_VALUES,
    START_INFLUENCE,
    TOKENS_PER_ISSUE,
    VETO,
    VETO_COST,
    VETOED,
    VOTES,
    YES,
    YES_NEEDED,
)
from .state import Article27State

_BRIBE_COMMANDS = frozenset(("offer", "counter", "accept", "refuse", "withdraw", "reclaim"))
# Keeper-mode choices that show a player's influence or a deal in the making:
# they belong on the player's own phone.
_PRIVATE_CHOICES = _BRIBE_COMMANDS | {"confirm_other", "challenge"}
# Keeper-mode events after which someone has seen something hidden.
_KEEPER_REVEALING = frozenset(
    ("started", "round_started", "offer", "counter", "accept", "confirm_other", "challenge")
)


class Article27Engine:
    name = "article27"
    min_players = SPEC.min_players
    max_players = SPEC.max_players

    def __init__(self) -> None:
        # Negotiation menus shared by every table, built once per situation.
        self._moves: dict[tuple, tuple[Command, ...]] = {}
        self._offers: dict[tuple, tuple[Command, ...]] = {}
        self._decide: dict[str, Callable[[Article27State, Command], Event]] = {
            "unused": self._decide_unused,
            "reveal_disk": self._decide_reveal_disk,
            "gavel": self._decide_gavel,
            "move": self._decide_move,
            "pause": self._decide_pause,
            "resume": self._decide_resume,
            "timer_expired": self._decide_timer_expired,
            "offer": bribes.decide_offer,
            "counter": bribes.decide_counter,
            "accept": bribes.decide_accept,
            "refuse": bribes.decide_refuse,
            "withdraw": bribes.decide_withdraw,
            "reclaim": bribes.decide_reclaim,
            "ballot": self._decide_ballot,
            "confirm_other": self._decide_confirm_other,
            "announce": self._decide_announce,
            "challenge": self._decide_challenge,
            "pass": self._decide_pass,
            "proceed": self._decide_proceed,
            "final_tally": self._decide_final_tally,
            "next_round": self._decide_next_round,
        }
        self._apply: dict[str, Callable[[Article27State, Event], None]] = {
            "started": self._apply_started,
            "unused": self._apply_unused,
            "round_started": self._apply_round_started,
            "reveal_disk": self._apply_reveal_disk,
            "gavel": self._apply_gavel,
            "vote_called": self._apply_vote_called,
            "move": self._apply_move,
            "pause": self._apply_pause,
            "resume": self._apply_resume,
            "timer_expired": self._apply_timer_expired,
            "offer": bribes.apply_offer,
            "counter": bribes.apply_counter,
            "accept": bribes.apply_accept,
            "refuse": bribes.apply_closing,
            "withdraw": bribes.apply_closing,
            "reclaim": bribes.apply_closing,
            "ballot": self._apply_ballot,
            "confirm_other": self._apply_confirm_other,
            "announce": self._apply_announce,
            "challenge": self._apply_challenge,
            "pass": self._apply_pass,
            "proceed": self._apply_proceed,
            "final_tally": self._apply_final_tally,
            "next_round": self._apply_next_round,
        }

    # -- setup ------------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return SPEC.defaults()

    def check_setup(self, setup: Setup) -> None:
        options = checked_options(
            setup, self.name, self.min_players, self.max_players, self.default_options()
        )
        for flag in ("come_and_go", "lie_cheat_steal"):
            if type(options[flag]) is not bool:
                raise RuleError("setup.bad_option", option=flag, value=str(options[flag]))
        seconds = options["timer_seconds"]
        if type(seconds) is not int or not 10 <= seconds <= 3600:
            raise RuleError("setup.bad_option", option="timer_seconds", value=str(seconds))
        setup.options = options

    def new_state(self, setup: Setup) -> Article27State:
        self.check_setup(setup)
        return Article27State(setup.players, setup.mode == KEEPER, setup.options)

    # -- chance -------------------------------------------------------------------
    def chance(self, s: Article27State, fate: Fate) -> Event | None:
        phase = s.phase
        if phase == "deal":
            return self._chance_round(s, fate)
        if phase == "setup":
            return self._chance_start(s, fate)
        return None

    def _chance_start(self, s: Article27State, fate: Fate) -> Event:
        n = s.players
        event: Event = {
            "type": "started",
            "first": first_seat(s.options["first"], fate, n),
        }
        if s.keeper:
            agendas = fate.take("agendas")
            if agendas is None:
                agendas = fate.rng.sample(AGENDAS, n)
            elif (
                not isinstance(agendas, list)
                or len(agendas) != n
                or not all(a in AGENDAS for a in agendas)
                or len(set(agendas)) != n
            ):
                raise RuleError("setup.bad_deal")
            event["agendas"] = list(agendas)
        return event

    def _chance_round(self, s: Article27State, fate: Fate) -> Event:
        """Keeper mode: every player draws 5 tokens from the bag into their
        slots (starting with the SG), then one disk is revealed per issue."""
        scripted = fate.next("slots")
        if scripted is None:
            bag = [issue for issue in ISSUES for _ in range(TOKENS_PER_ISSUE)]
            fate.rng.shuffle(bag)
            assert s.sg is not None  # the game has started
            order = [(s.sg + k) % s.players for k in range(s.players)]
            slots: list[list[str]] = [[] for _ in range(s.players)]
            for k, seat in enumerate(order):
                slots[seat] = bag[k * len(SLOT_VALUES) : (k + 1) * len(SLOT_VALUES)]
        elif not _valid_slots(scripted, s.players):
            raise RuleError("setup.bad_deal")
        else:
            slots = [list(x) for x in scripted]
        disks: dict[str, str] = {}
        returned: list[dict[str, str]] = []
        for issue in ISSUES:
            pool = list(s.areas[issue])
            wanted = fate.next("disks")
            while True:
                if wanted is not None:
                    if wanted not in pool:
                        raise RuleError("setup.bad_deal")
                    agenda = wanted
                else:
                    agenda = pool[fate.rng.randrange(len(pool))]
                if self._third_allowed(s, disks, agenda, pool):
                    break
                # A third disk of one agenda: back to its area, draw another.
                returned.append({"issue": issue, "agenda": agenda})
                pool.remove(agenda)
                wanted = fate.next("disks")
            disks[issue] = agenda
        return {"type": "round_started", "slots": slots, "disks": disks, "returned": returned}

    def _third_allowed(
        self, s: Article27State, revealed: dict[str, str], agenda: str, pool: list[str]
    ) -> bool:
        """Whether a disk may be revealed: not the third of its agenda this
        round (R6), except in the last round (R7) or when every disk left in
        the area would be a third (X5)."""
        if s.round == s.rounds:
            return True
        counts = list(revealed.values())
        if counts.count(agenda) < SAME_AGENDA_LIMIT:
            return True
        return all(counts.count(other) >= SAME_AGENDA_LIMIT for other in pool)

    # -- the contract's small questions --------------------------------------------------
    def reveals_hidden(self, s: Article27State, event: Event) -> bool:
        """Whether undo must not take back this event of the latest entry: a
        closed ballot, and in keeper mode one that showed someone a slot, an
        agenda or a deal, and anything during negotiation, when the latest
        entry may be a private deal: undoing it, or refusing to, would show
        the table that it was made. (Every public step of negotiation, a move
        or a pause, is reversed by another command.)"""
        kind = event["type"]
        return kind == "ballot" or (
            s.keeper and (kind in _KEEPER_REVEALING or s.phase == "negotiation")
        )

    def private_choice(self, s: Article27State, command: Command) -> bool:
        """Keeper mode: bribes, an OTHER bribe's word, a challenge and a veto
        depend on a player's influence or deals; made on the shared screen,
        a refusal would show them. They come from the player's own phone or
        buttons, which alone hear why one is refused."""
        kind = command.get("type")
        if not s.keeper or type(kind) is not str:
            return False
        return kind in _PRIVATE_CHOICES or (kind == "vote" and command.get("choice") == VETO)

    def is_over(self, s: Article27State) -> bool:
        return s.phase == "over"

    def result(self, s: Article27State) -> dict[str, Any] | None:
        if s.phase != "over":
            return None
        assert s.results is not None  # ranked when the game ended
        return {"ranking": [{k: e[k] for k in ("seat", "rank", "total")} for e in s.results]}

    def next_game_options(self, s: Article27State) -> dict[str, Any]:
        return dict(s.options)

    def gavel_command(self, s: Article27State) -> Command | None:
        """What the table's gavel input means: the Secretary-General strikes
        (the engine then judges whether a strike is allowed now)."""
        return None if s.sg is None else {"type": "gavel", "seat": s.sg}

    def ballot(self, s: Article27State) -> BallotSpec | None:
        """The vote on the proposal: everyone, the SG included. In keeper mode
        a player with less than 5 influence behind the screen cannot veto."""
        if s.phase != "voting":
            return None
        spec: BallotSpec = {
            "id": f"vote-{s.round}",
            "eligible": tuple(range(s.players)),
            "choices": VOTES,
        }
        if s.keeper:
            spec["allowed"] = {
                seat: (YES, ABSTAIN) for seat in range(s.players) if s.free(seat) < VETO_COST
            }
            spec["why_not"] = {VETO: ("a27.veto_needs", {"amount": VETO_COST})}
        return spec

    def deadline(self, s: Article27State) -> float | None:
        if s.timer_started is None:
            return None
        return s.timer_started + s.options["timer_seconds"] + s.timer_paused_total

    def timer(self, s: Article27State, now: float) -> Timer | None:
        """The negotiation timer as the table shows it."""
        if s.phase not in ("ready", "negotiation"):
            return None
        duration = s.options["timer_seconds"]
        if s.timer_started is None:
            return {"duration": duration, "remaining": duration, "running": False, "paused": False}
        at = s.timer_paused if s.timer_paused is not None else now
        deadline = self.deadline(s)
        assert deadline is not None  # the timer has started
        remaining = max(0.0, min(float(duration), deadline - at))
        return {
            "duration": duration,
            "remaining": round(remaining, 1),
            "running": s.timer_paused is None and remaining > 0,
            "paused": s.timer_paused is not None,
        }

    def due(self, s: Article27State, now: float) -> Command | None:
        if s.phase == "negotiation" and s.timer_paused is None:
            deadline = self.deadline(s)
            assert deadline is not None  # the gavel started the timer
            if now >= deadline:
                return {"type": "timer_expired"}
        return None

    # -- decide -------------------------------------------------------------------
    def decide(self, s: Article27State, command: Command) -> list[Event]:
        kind = command.get("type")
        handler = self._decide.get(kind) if type(kind) is str else None
        if handler is None:
            raise RuleError("command.unknown", command=str(kind)[:40])
        if s.phase == "over":
            raise RuleError("game.over")
        if kind in _BRIBE_COMMANDS and (s.phase != "negotiation" or not s.keeper):
            # Bribes: keeper mode, during negotiation only.
            raise RuleError("a27.not_now" if s.keeper else "a27.keeper_only")
        return [handler(s, command)]

    @staticmethod
    def _in_phase(s: Article27State, *phases: str) -> None:
        if s.phase not in phases:
            raise RuleError("a27.not_now")

    @staticmethod
    def _at(command: Command) -> float:
        at = command.get("at")
        if at is None or type(at) not in (int, float):
            raise RuleError("command.bad_field", field="at")
        return float(at)

    @staticmethod
    def _sg(s: Article27State, command: Command) -> int:
        """The SG acts (from the kiosk, or from the SG's own phone)."""
        assert s.sg is not None  # the game has started
        if "seat" in command:
            seat = seat_of(command, s.players)
            if seat != s.sg:
                raise RuleError("a27.not_sg", player=seat)
        return s.sg

    def _decide_unused(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "unused")
        agendas = command.get("agendas")
        count = len(AGENDAS) - s.players
        if (
            not isinstance(agendas, list)
            or len(agendas) != count
            or not all(isinstance(a, str) for a in agendas)
            or len(set(agendas)) != count
            or not set(agendas) <= set(AGENDAS)
        ):
            raise RuleError("a27.bad_unused", count=count)
        return {"type": "unused", "agendas": sorted(agendas)}

    def _decide_reveal_disk(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "reveal")
        issue = command.get("issue")
        if issue not in ISSUES or issue in s.revealed:
            raise RuleError("a27.unknown_issue", issue=str(issue)[:20])
        agenda = command.get("agenda")
        if agenda not in s.areas[issue]:
            raise RuleError("a27.no_such_disk", issue=issue, agenda=str(agenda)[:20])
        if not self._third_allowed(s, s.revealed, agenda, s.areas[issue]):
            raise RuleError("a27.third_agenda", agenda=agenda)
        return {"type": "reveal_disk", "issue": issue, "agenda": agenda}

    def _decide_gavel(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "ready", "negotiation")
        seat = self._sg(s, command)
        if s.phase == "ready":
            return {"type": "gavel", "seat": seat, "at": self._at(command)}
        if not s.floor:
            raise RuleError("a27.empty_floor")
        return {"type": "vote_called", "seat": seat, "at": self._at(command)}

    def _decide_move(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "negotiation", "place_one")
        seat = self._sg(s, command)
        issue = command.get("issue")
        if issue not in ISSUES or issue not in s.revealed:
            raise RuleError("a27.unknown_issue", issue=str(issue)[:20])
        to = command.get("to")
        if to not in ("floor", "table"):
            raise RuleError("command.bad_field", field="to")
        if (to == "floor") == (issue in s.floor):
            raise RuleError("a27.already_there", issue=issue)
        if s.phase == "place_one" and to != "floor":
            raise RuleError("a27.place_one")
        return {"type": "move", "seat": seat, "issue": issue, "to": to}

    def _decide_pause(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "negotiation")
        if s.timer_paused is not None:
            raise RuleError("a27.timer_paused")
        return {"type": "pause", "at": self._at(command)}

    def _decide_resume(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "negotiation")
        if s.timer_paused is None:
            raise RuleError("a27.timer_running")
        return {"type": "resume", "at": self._at(command)}

    def _decide_timer_expired(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "negotiation")
        at = self._at(command)
        deadline = self.deadline(s)
        assert deadline is not None  # the gavel started the timer
        if s.timer_paused is not None or at < deadline:
            raise RuleError("a27.timer_running")
        return {"type": "timer_expired", "at": at}

    def _decide_ballot(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "voting")
        votes = command.get("votes")
        if (
            not isinstance(votes, list)
            or len(votes) != s.players
            or any(v not in VOTES for v in votes)
        ):
            raise RuleError("a27.bad_ballot")
        if s.keeper and any(v == VETO and s.free(i) < VETO_COST for i, v in enumerate(votes)):
            raise RuleError("a27.veto_needs", amount=VETO_COST)
        return {"type": "ballot", "votes": list(votes)}

    def _decide_confirm_other(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "settle_other")
        return bribes.decide_confirm(s, command)

    def _decide_announce(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "announce")
        seat = seat_of(command, s.players)
        if seat != s.announcer:
            raise RuleError("a27.not_announcer", player=seat)
        score = command.get("score")
        low, high = SCORE_RANGE
        if type(score) is not int or not low <= score <= high:
            raise RuleError("a27.impossible_score", low=low, high=high)
        return {"type": "announce", "seat": seat, "score": score}

    def _responder(self, s: Article27State, command: Command) -> int:
        seat = seat_of(command, s.players)
        if seat == s.announcer or seat in s.passed:
            raise RuleError("a27.cannot_answer", player=seat)
        return seat

    def _decide_challenge(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "challenge")
        seat = self._responder(s, command)
        assert s.announcer is not None  # someone announces in this phase
        if not scoring.can_challenge(s, seat):
            raise RuleError("a27.challenge_needs", amount=3)
        announced = s.announcements[-1]["score"]
        return {
            "type": "challenge",
            "seat": seat,
            "result": scoring.challenge_result(s, s.announcer, announced, seat),
        }

    def _decide_pass(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "challenge")
        return {"type": "pass", "seat": self._responder(s, command)}

    def _decide_proceed(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "challenge")
        return {"type": "proceed"}

    def _decide_next_round(self, s: Article27State, command: Command) -> Event:
        """The gavel passes to the left: the new SG (or the kiosk) starts the
        next round once the table has taken in the result."""
        self._in_phase(s, "scored")
        assert s.sg is not None  # the game has started
        following = (s.sg + 1) % s.players
        if "seat" in command and seat_of(command, s.players) != following:
            raise RuleError("a27.not_sg", player=command["seat"])
        return {"type": "next_round", "seat": following}

    def _decide_final_tally(self, s: Article27State, command: Command) -> Event:
        self._in_phase(s, "final")
        seat = seat_of(command, s.players)
        if seat in s.tally:
            raise RuleError("a27.already_entered", player=seat)
        influence = command.get("influence")
        if type(influence) is not int or influence < 0:
            raise RuleError("a27.bad_amount")
        agenda = command.get("agenda")
        taken = {t["agenda"] for t in s.tally.values()}
        if agenda not in s.in_play or agenda in taken:
            raise RuleError("a27.bad_agenda", agenda=str(agenda)[:20])
        return {"type": "final_tally", "seat": seat, "influence": influence, "agenda": agenda}

    # -- apply -----------------------------------------------------------------------
    def apply(self, s: Article27State, event: Event) -> None:
        self._apply[event["type"]](s, event)

    def _apply_started(self, s: Article27State, e: Event) -> None:
        s.sg = e["first"]
        if s.keeper:
            s.agendas = list(e["agendas"])
            start = COME_AND_GO_INFLUENCE if s.options["come_and_go"] else START_INFLUENCE
            s.influence = [start] * s.players
            s.bank = INFLUENCE_IN_THE_BOX - start * s.players
            if s.removes_unused():
                self._put_away(s, [a for a in AGENDAS if a not in s.agendas])
        if not s.keeper and s.removes_unused():
            s.phase = "unused"
        else:
            self._begin_round(s)

    def _put_away(self, s: Article27State, unused: list[str]) -> None:
        """4-5 players: the unused agendas are shown and their disks boxed."""
        s.unused = sorted(unused)
        s.in_play = tuple(a for a in AGENDAS if a not in unused)
        for issue in ISSUES:
            s.areas[issue] = list(s.in_play)

    def _apply_unused(self, s: Article27State, e: Event) -> None:
        self._put_away(s, e["agendas"])
        self._begin_round(s)

    def _begin_round(self, s: Article27State) -> None:
        if s.round:
            assert s.sg is not None
            s.sg = (s.sg + 1) % s.players  # the gavel passes to the left
        s.round += 1
        s.revealed = {}
        s.floor = ()
        s.privilege = True
        if s.keeper:
            s.bank -= PRIVILEGE
        s.votes = s.outcome = None
        s.vetoers = []
        s.bribes = {}
        s.closed = {}
        s.accepted = 0
        s.announcements = []
        s.announcer = s.challenge = None
        s.timer_started = s.timer_paused = None
        s.timer_paused_total = 0.0
        s.phase = "deal" if s.keeper else "reveal"

    def _apply_round_started(self, s: Article27State, e: Event) -> None:
        s.slots = [list(x) for x in e["slots"]]
        for issue, agenda in e["disks"].items():
            self._reveal(s, issue, agenda)
        s.phase = "ready"

    def _reveal(self, s: Article27State, issue: str, agenda: str) -> None:
        s.areas[issue].remove(agenda)
        s.revealed[issue] = agenda

    def _apply_reveal_disk(self, s: Article27State, e: Event) -> None:
        self._reveal(s, e["issue"], e["agenda"])
        if len(s.revealed) == len(ISSUES):
            s.phase = "ready"

    def _apply_gavel(self, s: Article27State, e: Event) -> None:
        s.timer_started = e["at"]
        s.phase = "negotiation"

    def _apply_vote_called(self, s: Article27State, e: Event) -> None:
        s.phase = "voting"

    def _apply_move(self, s: Article27State, e: Event) -> None:
        if e["to"] == "floor":
            s.floor += (e["issue"],)
        else:
            s.floor = tuple([issue for issue in s.floor if issue != e["issue"]])
        if s.phase == "place_one":
            s.phase = "voting"

    def _apply_pause(self, s: Article27State, e: Event) -> None:
        s.timer_paused = e["at"]

    def _apply_resume(self, s: Article27State, e: Event) -> None:
        s.timer_paused_total += max(0.0, e["at"] - s.timer_paused)
        s.timer_paused = None

    def _apply_timer_expired(self, s: Article27State, e: Event) -> None:
        if s.floor:
            s.phase = "voting"
        else:
            # The privilege goes back to the bank; the SG must place one issue.
            s.privilege = False
            if s.keeper:
                s.bank += PRIVILEGE
            s.phase = "place_one"

    def _apply_ballot(self, s: Article27State, e: Event) -> None:
        votes = e["votes"]
        s.votes = list(votes)
        s.vetoers = [i for i, v in enumerate(votes) if v == VETO]
        if s.vetoers:
            s.outcome = VETOED
        elif votes.count(YES) >= YES_NEEDED[s.players]:
            assert s.sg is not None  # the game has started
            s.outcome = PASSED
            s.passed_as_sg.add(s.sg)
        else:
            s.outcome = FAILED
        if not s.keeper:
            self._finish_round(s)
        elif bribes.unconfirmed(s):
            s.phase = "settle_other"
        else:
            self._after_vote(s)

    def _apply_confirm_other(self, s: Article27State, e: Event) -> None:
        bribes.apply_confirm(s, e)
        if not bribes.unconfirmed(s):
            self._after_vote(s)

    def _after_vote(self, s: Article27State) -> None:
        """Keeper mode: bribes first, then vetoes, then the issue points (or
        the announcements of Lie, Cheat and Steal)."""
        bribes.settle(s)
        scoring.pay_vetoes(s)
        if s.outcome == PASSED and s.options["lie_cheat_steal"]:
            s.announcer = s.sg
            s.phase = "announce"
            return
        if s.outcome == PASSED:
            scoring.pay_issue_points(s)
        self._finish_round(s)

    def _apply_announce(self, s: Article27State, e: Event) -> None:
        s.announcements.append(
            {"seat": e["seat"], "score": e["score"], "challenger": None, "result": None}
        )
        s.passed = set()
        s.phase = "challenge"

    def _apply_challenge(self, s: Article27State, e: Event) -> None:
        entry = s.announcements[-1]
        entry.update(challenger=e["seat"], result=dict(e["result"]))
        assert s.announcer is not None  # someone announced what was challenged
        scoring.apply_challenge(s, s.announcer, e["seat"], e["result"])
        self._next_announcer(s)

    def _apply_pass(self, s: Article27State, e: Event) -> None:
        s.passed.add(e["seat"])
        if len(s.passed) == s.players - 1:
            self._unchallenged(s)

    def _apply_proceed(self, s: Article27State, e: Event) -> None:
        self._unchallenged(s)

    def _unchallenged(self, s: Article27State) -> None:
        assert s.announcer is not None
        scoring.collect(s, s.announcer, s.announcements[-1]["score"])
        self._next_announcer(s)

    def _next_announcer(self, s: Article27State) -> None:
        assert s.announcer is not None
        s.passed = set()
        s.announcer = (s.announcer + 1) % s.players
        if s.announcer == s.sg:
            s.announcer = None
            self._finish_round(s)
        else:
            s.phase = "announce"

    def _finish_round(self, s: Article27State) -> None:
        assert s.votes is not None  # the round ends after its ballot
        scoring.end_privilege(s)
        scoring.place_disks(s)
        s.history.append(
            {
                "round": s.round,
                "sg": s.sg,
                "outcome": s.outcome,
                "floor": list(s.floor),
                "votes": list(s.votes),
                "disks": dict(s.revealed),
            }
        )
        if s.round < s.rounds:
            s.phase = "scored"  # the round's result stays up until the next round
        elif s.keeper:
            s.results = scoring.final_entries(s)
            s.phase = "over"
        else:
            s.phase = "final"

    def _apply_next_round(self, s: Article27State, e: Event) -> None:
        self._begin_round(s)

    def _apply_final_tally(self, s: Article27State, e: Event) -> None:
        s.tally[e["seat"]] = {"influence": e["influence"], "agenda": e["agenda"]}
        if len(s.tally) == s.players:
            s.results = scoring.final_entries(s)
            s.phase = "over"

    # -- what may happen next ------------------------------------------------------------
    def waiting_for(self, s: Article27State) -> list[int]:
        phase = s.phase
        if phase in ("ready", "negotiation", "place_one"):
            assert s.sg is not None
            return [s.sg]
        if phase == "scored":
            assert s.sg is not None
            return [(s.sg + 1) % s.players]
        if phase == "voting":
            return list(range(s.players))
        if phase == "settle_other":
            return sorted(
                {
                    p
                    for b in bribes.unconfirmed(s)
                    for p in (b["from"], b["to"])
                    if p not in b["confirmed"]
                }
            )
        if phase == "announce":
            assert s.announcer is not None
            return [s.announcer]
        if phase == "challenge":
            return [i for i in range(s.players) if i != s.announcer and i not in s.passed]
        if phase == "final":
            return [i for i in range(s.players) if i not in s.tally]
        return []

    def legal_commands(self, s: Article27State) -> Sequence[Command]:
        """The commands the engine accepts now. Bribes are listed for the
        smallest amount, 1 influence; any amount the briber can cover is
        accepted. Votes go through the table's ballot."""
        phase = s.phase
        if phase == "negotiation":  # by far the most frequent
            # The menus are shared by every table and built once per
            # situation (a few hundred situations in all); the lookups are
            # spelled out here because random playouts ask at every step.
            moves = self._moves.get((s.sg, s.floor, s.timer_paused is not None))
            if moves is None:
                moves = self._sg_menu(s)
            if not s.keeper:
                return moves
            # Who may make an offer, a bit per seat: influence left behind the
            # screen, and no offer of theirs waiting for an answer.
            influence, able = s.influence, 0
            assert influence is not None  # keeper mode: the app holds the influence
            waiting, answers = bribes.bribe_menus(s)
            for seat in range(s.players):
                if influence[seat] >= 1 and seat not in waiting:
                    able |= 1 << seat
            offers = self._offers.get((s.players, s.sg, able))
            if offers is None:
                offers = self._offer_menu(s, able)
            return moves + offers + tuple(answers)
        out: list[Command] = []
        if phase == "unused":
            count = len(AGENDAS) - s.players
            out = [{"type": "unused", "agendas": list(c)} for c in combinations(AGENDAS, count)]
        elif phase == "reveal":
            issue = next(i for i in ISSUES if i not in s.revealed)
            out = [
                {"type": "reveal_disk", "issue": issue, "agenda": a}
                for a in sorted(set(s.areas[issue]))
                if self._third_allowed(s, s.revealed, a, s.areas[issue])
            ]
        elif phase == "ready":
            out = [{"type": "gavel", "seat": s.sg}]
        elif phase == "place_one":
            out = [
                {"type": "move", "seat": s.sg, "issue": issue, "to": "floor"} for issue in ISSUES
            ]
        elif phase == "scored":
            assert s.sg is not None
            out = [{"type": "next_round", "seat": (s.sg + 1) % s.players}]
        elif phase == "settle_other":
            out = [
                {"type": "confirm_other", "bribe": b["id"], "seat": p, "kept": kept}
                for b in bribes.unconfirmed(s)
                for p in (b["from"], b["to"])
                if p not in b["confirmed"]
                for kept in (True, False)
            ]
        elif phase == "announce":
            low, high = SCORE_RANGE
            out = [
                {"type": "announce", "seat": s.announcer, "score": n} for n in range(low, high + 1)
            ]
        elif phase == "challenge":
            for seat in self.waiting_for(s):
                if scoring.can_challenge(s, seat):
                    out.append({"type": "challenge", "seat": seat})
                out.append({"type": "pass", "seat": seat})
            out.append({"type": "proceed"})
        elif phase == "final":
            taken = {t["agenda"] for t in s.tally.values()}
            seat = self.waiting_for(s)[0]
            out = [
                {"type": "final_tally", "seat": seat, "influence": influence, "agenda": agenda}
                for agenda in s.in_play
                if agenda not in taken
                for influence in (0, START_INFLUENCE)
            ]
        return tuple(map(FrozenCommand, out))

    def _sg_menu(self, s: Article27State) -> tuple[Command, ...]:
        """During negotiation: the SG's moves, "Vote!" once the floor holds an
        issue, and the operator's pause or resume."""
        key = (s.sg, s.floor, s.timer_paused is not None)
        menu = self._moves.get(key)
        if menu is None:
            out = [
                {
                    "type": "move",
                    "seat": s.sg,
                    "issue": issue,
                    "to": "table" if issue in s.floor else "floor",
                }
                for issue in ISSUES
            ]
            if s.floor:
                out.append({"type": "gavel", "seat": s.sg})
            out.append({"type": "resume" if s.timer_paused is not None else "pause"})
            menu = self._moves[key] = tuple(map(FrozenCommand, out))
        return menu

    def _offer_menu(self, s: Article27State, able: int) -> tuple[Command, ...]:
        """Keeper mode: offers of 1 influence from every player who may make
        one (``able``, a bit per seat), to every other player, of every kind
        (the issue kinds only to the SG)."""
        key = (s.players, s.sg, able)
        menu = self._offers.get(key)
        if menu is None:
            out = []
            for seat in range(s.players):
                if not able >> seat & 1:
                    continue
                for to in range(s.players):
                    if to == seat:
                        continue
                    for kind in BRIBE_KINDS:
                        if kind not in (INCLUDE, EXCLUDE):
                            out.append(
                                {"type": "offer", "seat": seat, "to": to, "amount": 1, "kind": kind}
                            )
                        elif to == s.sg:
                            out.extend(
                                {
                                    "type": "offer",
                                    "seat": seat,
                                    "to": to,
                                    "amount": 1,
                                    "kind": kind,
                                    "issue": issue,
                                }
                                for issue in ISSUES
                            )
            menu = self._offers[key] = tuple(map(FrozenCommand, out))
        return menu

    # -- views ------------------------------------------------------------------------
    def public_view(self, s: Article27State) -> View:
        over = s.phase == "over"
        return {
            "game": self.name,
            "mode": "keeper" if s.keeper else "physical",
            "phase": s.phase,
            "round": s.round,
            "rounds": s.rounds,
            "sg": s.sg,
            "next_sg": None if s.sg is None else (s.sg + 1) % s.players,
            "waiting_for": self.waiting_for(s),
            "players": [
                {
                    "seat": i,
                    "passed_as_sg": i in s.passed_as_sg,
                    # Agendas stay hidden until the end of the game.
                    "agenda": s.agendas[i] if over and s.keeper else None,
                }
                for i in range(s.players)
            ],
            "variants": {
                "come_and_go": s.options["come_and_go"],
                "lie_cheat_steal": s.options["lie_cheat_steal"],
            },
            "issues": [
                {
                    "issue": issue,
                    "agenda": s.revealed.get(issue),
                    "place": (
                        "floor" if issue in s.floor else "table" if issue in s.revealed else None
                    ),
                    "disks_left": len(s.areas[issue]),
                }
                for issue in ISSUES
            ],
            "floor": list(s.floor),
            "privilege": s.privilege,
            "unused_agendas": list(s.unused),
            "track": scoring.track_view(s),
            "bribes": [bribes.public(b) for b in bribes.on_board(s)],
            "votes": s.votes,
            "outcome": s.outcome,
            "vetoers": list(s.vetoers),
            "announcements": [dict(a) for a in s.announcements],
            "announcer": s.announcer,
            "history": [dict(h) for h in s.history],
            "results": [dict(r) for r in s.results] if s.results else None,
        }

    def private_view(self, s: Article27State, seat: int) -> View:
        """Keeper mode: the seat's agenda and its row's value, its slots with
        what the current proposal would pay, its influence and its bribes."""
        view: View = {"seat": seat}
        if not s.keeper:
            return view
        agenda = s.agendas[seat]
        row = next(r for r in scoring.track_view(s) if r["agenda"] == agenda)
        view["agenda"] = {"agenda": agenda, "value": row["value"], "best": row["best"]}
        assert s.influence is not None  # keeper mode: the app holds the influence
        view["influence"] = s.influence[seat]
        if s.slots is not None:
            view["slots"] = [{"value": v, "issue": i} for v, i in zip(SLOT_VALUES, s.slots[seat])]
            view["if_passed"] = scoring.issue_score(s.slots[seat], s.floor)
        # "mine": what this seat's phone calls the bribe, its own 1, 2, ...
        # this round (one name per phone, whoever the other party is).
        view["bribes"] = [
            {
                "id": b["id"],
                "mine": n,
                **bribes.public(b),
                "awaiting": b["awaiting"],
                "held": b["held"],
            }
            for n, b in enumerate(
                (b for b in bribes.this_round(s) if seat in (b["from"], b["to"])), 1
            )
        ]
        return view

    def describe(self, event: Event) -> tuple[str, dict[str, Any]] | None:
        """A public log line: no slot, agenda holder, influence or open offer."""
        kind = event["type"]
        if kind == "started":
            return "a27.log.started", {"player": event["first"]}
        if kind == "unused":
            return "a27.log.unused", {"count": len(event["agendas"])}
        if kind == "round_started":
            return "a27.log.round_started", {}
        if kind == "reveal_disk":
            return "a27.log.reveal_disk", {"issue": event["issue"], "agenda": event["agenda"]}
        if kind in ("gavel", "vote_called"):
            return f"a27.log.{kind}", {"player": event["seat"]}
        if kind == "move":
            return f"a27.log.move_{event['to']}", {"issue": event["issue"]}
        if kind in ("pause", "resume", "timer_expired"):
            return f"a27.log.{kind}", {}
        if kind == "accept":
            return "a27.log.bribe_accepted", {"bribe": event["number"]}
        if kind in ("withdraw", "reclaim") and "number" in event:
            # By its public number; an offer withdrawn before it was
            # accepted stays between its two players.
            return f"a27.log.bribe_{kind}", {"bribe": event["number"]}
        if kind == "ballot":
            votes = event["votes"]
            return "a27.log.ballot", {
                "yes": votes.count(YES),
                "veto": votes.count(VETO),
                "abstain": votes.count(ABSTAIN),
            }
        if kind == "announce":
            return "a27.log.announce", {"player": event["seat"], "score": event["score"]}
        if kind == "challenge":
            result = event["result"]
            key = "a27.log.challenge_true" if result["truthful"] else "a27.log.challenge_false"
            return key, {"player": event["seat"], "penalty": result["penalty"]}
        if kind == "final_tally":
            return "a27.log.final_tally", {"player": event["seat"]}
        if kind == "next_round":
            return "a27.log.next_round", {"player": event["seat"]}
        return None


def _valid_slots(slots: Any, players: int) -> bool:
    """A scripted draw: five issues per player, no issue more than its tokens."""
    if not isinstance(slots, list) or len(slots) != players:
        return False
    drawn = []
    for row in slots:
        if not isinstance(row, list) or len(row) != len(SLOT_VALUES):
            return False
        drawn += row
    return all(d in ISSUES for d in drawn) and all(
        drawn.count(issue) <= TOKENS_PER_ISSUE for issue in ISSUES
    )


# Typed as the contract, so mypy checks the engine keeps it.
ENGINE: GavelEngine = Article27Engine()
