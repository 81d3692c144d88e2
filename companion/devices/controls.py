"""Presses in, table commands out: what a seat's buttons mean right now.

Runs on the asyncio loop only (devices hand their presses over with
:func:`~.press.loop_delivery`). A seat's button means:

- while a ballot is open, the ballot's choice with that index (button 0 is
  the first choice: Ja, Yes; button 1 the second: Nein, Veto; ...), sent as
  the seat's vote from the device's own channel (``seat:N:gpio``,
  ``seat:N:pad``; the seat's phone is another channel);
- while a claim waits for a challenge, in a game whose spec declares the
  challenge buzzer, "I challenge": presses that arrive within ``tie_window`` seconds of the
  first are collected, and the earliest press time wins (see
  docs/hardware.md for the rule);
- otherwise nothing: the press is refused.

A press made before the ballot or claim it would answer was open (a press the
pad still held when the kiosk restarted, say) is stale and refused.

A refused press blinks that seat's LED and is passed to ``on_refusal`` for
the seat's phone; the table is unchanged. Nothing a refusal shows may depend
on what the seat (or anyone) voted or holds: a repeated choice is taken like
a change (see ``BallotBox``), and a choice the game restricts by what only
the seat knows (Article 27's Veto behind the screen, keeper mode) is never
taken from buttons, for any seat: it belongs on the seat's phone.

The gavel input gives the table's gavel command, in a game whose spec
declares a gavel (Article 27: the Secretary-General strikes); a knock's
rebound (another press within ``GAVEL_LOCKOUT``) is ignored. The seat LEDs
follow the ballot: on once the seat has voted, whatever it chose, off when
the ballot closes. The buzzer sounds on a strike and when a timer runs
out. A failing LED or buzzer is logged and never stops the table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..games.base import Command, Event, RuleError
from ..games.views import BallotSpec, Claim
from ..table import CLOCK, OPERATOR, Session, Table, Update, seat_source
from ..table.store import StoreError
from .press import GAVEL, Press, SeatFeedback

log = logging.getLogger(__name__)

TIE_WINDOW = 0.05  # seconds: presses this close together race on their times
GAVEL_LOCKOUT = 1.0  # seconds: a strike plate's rebound is not a second strike

Refusal = Callable[[int | None, RuleError], None]


class Controls:
    def __init__(
        self,
        table: Session | Table,
        outputs: Sequence[SeatFeedback] = (),
        loop: asyncio.AbstractEventLoop | None = None,
        tie_window: float = TIE_WINDOW,
        on_refusal: Refusal | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.loop = loop or asyncio.get_event_loop()
        self.outputs = list(outputs)
        self.tie_window = tie_window
        self.on_refusal = on_refusal
        self.clock = clock  # the clock presses are timed on
        # The table's games in turn (a Table alone: a session of that game).
        self.session = table if isinstance(table, Session) else Session.around(table)
        self._race: list[Press] = []
        self._race_claim: tuple | None = None
        self._race_timer: asyncio.TimerHandle | None = None
        self._voted: dict[int, bool] = {}
        self._opened: tuple[Any, float] = (None, 0.0)  # what presses answer, since when
        self._last_gavel = float("-inf")
        self._aborts = 0
        # What a press answers now (the open ballot, else the open claim),
        # as the session's latest update says.
        self._answers: tuple[BallotSpec | None, Claim | None] = (None, None)
        self.session.subscribe(self._updated)
        self._follow_game()
        table = self.table
        ballot = table.ballot()
        self._follow((), table, ballot, table.voted() if ballot else (), table.open_claim())

    @property
    def table(self) -> Table:
        """The game the presses act on (the session's; it has one by the
        time devices are opened)."""
        assert self.session.table is not None
        return self.session.table

    def add_output(self, output: SeatFeedback) -> None:
        """Another device to show the seats and sound the buzzer; it is shown
        the current state at once."""
        self.outputs.append(output)
        for seat, voted in self._voted.items():
            self._output(output.show_voted, seat, voted)

    def _follow_game(self) -> None:
        """Follow the session's game afresh (a new game is a new table)."""
        self._end_race("device.window_closed")
        self._aborts = 0
        self._voted = {}

    # -- presses ------------------------------------------------------------------
    def handle(self, press: Press) -> None:
        if press.seat is None:
            if press.button == GAVEL:
                self._strike_gavel(press)
            return
        table = self.table
        if not 0 <= press.seat < table.setup.players:
            log.warning("a press from seat %s, which this table does not have", press.seat)
            return
        if press.at < self._opened[1]:
            self._refuse(press.seat, RuleError("device.stale_press"))
            return
        ballot, claim = self._answers
        if ballot is not None:
            self._vote(press, ballot)
            return
        if claim is not None:
            self._buzz(press, claim)
            return
        self._refuse(press.seat, RuleError("device.nothing_to_press"))

    def _vote(self, press: Press, spec: BallotSpec) -> None:
        assert press.seat is not None  # a seat's press: handle() took the table's
        choices = spec["choices"]
        if not isinstance(press.button, int) or not 0 <= press.button < len(choices):
            self._refuse(press.seat, RuleError("ballot.no_such_button", button=str(press.button)))
            return
        command = {"type": "vote", "seat": press.seat, "choice": choices[press.button]}
        if self.table.private_choice(command):
            # Refused alike for every seat, before anyone's hidden state is
            # looked at: a refusal here would show the table what it hides.
            self._refuse(press.seat, RuleError("device.choice_on_phone"))
            return
        self._send(command, press.seat, seat_source(press.seat, press.device))

    def _send(self, command: Command, seat: int | None, source: str) -> bool:
        try:
            self.table.execute(command, source=source)
        except RuleError as exc:
            self._refuse(seat, exc)
            return False
        except StoreError:
            log.exception("the store refused %s", command.get("type"))
            self._refuse(seat, RuleError("device.not_stored"))
            return False
        return True

    def _refuse(self, seat: int | None, error: RuleError) -> None:
        if seat is not None:
            for output in self.outputs:
                self._output(output.refuse, seat)
        if self.on_refusal is not None:
            self.on_refusal(seat, error)

    def _strike_gavel(self, press: Press) -> None:
        if press.at - self._last_gavel < GAVEL_LOCKOUT:
            return  # the plate's rebound, or a sensor ringing
        self._last_gavel = press.at
        command = self.table.gavel_command()
        if command is None:
            return  # no gavel in this game: a knock on the table
        if self._send(command, None, OPERATOR):
            self._sound("gavel")

    # -- the challenge buzzer ----------------------------------------------------------
    def _buzz(self, press: Press, claim: Claim) -> None:
        if self._race and self._race_claim == claim["key"]:
            self._race.append(press)
            return
        self._end_race("device.window_closed")  # a race for an earlier claim
        self._race, self._race_claim = [press], claim["key"]
        self._race_timer = self.loop.call_later(self.tie_window, self._settle_race)

    def _end_race(self, reason: str) -> None:
        """Drop the race under way, refusing its presses."""
        if self._race_timer is not None:
            self._race_timer.cancel()
        presses, self._race, self._race_claim, self._race_timer = self._race, [], None, None
        for press in presses:
            self._refuse(press.seat, RuleError(reason))

    def _settle_race(self) -> None:
        """The earliest press challenges; exact ties go to the seat nearest
        after the claimant in the direction of play. The others are refused
        (the claim has been challenged)."""
        presses, key = self._race, self._race_claim
        self._race, self._race_claim, self._race_timer = [], None, None
        claim = self._answers[1]
        if key is None or claim is None or claim["key"] != key:
            for press in presses:
                self._refuse(press.seat, RuleError("device.window_closed"))
            return
        claimant, step = claim["claimant"], claim["step"]
        players = self.table.setup.players

        def in_order(p: Press) -> tuple[float, int]:
            assert p.seat is not None  # only seats' presses race (handle, _buzz)
            return (p.at, ((p.seat - claimant) * step) % players)

        order = sorted(presses, key=in_order)
        winner = None
        for press in order:
            assert press.seat is not None  # only seats' presses race (handle, _buzz)
            if winner is None and self._send(
                {"type": "challenge", "seat": press.seat},
                press.seat,
                seat_source(press.seat, press.device),
            ):
                winner = press.seat
            elif winner is not None and press.seat != winner:
                self._refuse(press.seat, RuleError("device.challenged_first", player=winner))

    # -- following the table --------------------------------------------------------------
    def _updated(self, update: Update) -> None:
        if update.switched:
            self._follow_game()
        self._follow(update.events, update.table, update.ballot, update.voted, update.claim)
        if update.source == CLOCK:  # the table's time ran out
            self._sound("expiry")

    def _follow(
        self,
        events: Sequence[Event],
        table: Table,
        ballot: BallotSpec | None,
        voted: Sequence[int],
        claim: Claim | None,
    ) -> None:
        """Act on the events just committed: the LEDs and what presses now
        answer."""
        self._aborts += sum(1 for event in events if event["type"] == "ballot_abort")
        self._answers = (ballot, claim)
        self._show_votes(table, set(voted))
        self._note_opening(table, ballot, claim)

    def _note_opening(self, table: Table, ballot: BallotSpec | None, claim: Claim | None) -> None:
        """Remember when the ballot or claim presses answer opened (as far
        as this kiosk knows: after a restart, when it was seen again)."""
        # An aborted ballot runs again: a new opening.
        now = (
            ("ballot", table.game_id, ballot["id"], self._aborts)
            if ballot is not None
            else claim["key"]
            if claim is not None
            else None
        )
        if now != self._opened[0]:
            self._opened = (now, self.clock() if now is not None else 0.0)

    def _show_votes(self, table: Table, voted: set[int]) -> None:
        for seat in range(table.setup.players):
            now = seat in voted
            if self._voted.get(seat) != now:
                self._voted[seat] = now
                for output in self.outputs:
                    self._output(output.show_voted, seat, now)

    def _sound(self, pattern: str) -> None:
        for output in self.outputs:
            self._output(output.sound, pattern)

    @staticmethod
    def _output(call: Callable[..., None], *args: Any) -> None:
        """An LED or the buzzer: a failure is logged, never passed on to the
        table (its command is already stored)."""
        try:
            call(*args)
        except Exception:  # noqa: BLE001 - any device failure
            log.exception("a device output failed")
