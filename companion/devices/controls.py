"""Presses in, table commands out: what a seat's buttons mean right now.

Runs on the asyncio loop only (devices hand their presses over with
:func:`~.press.loop_delivery`). A seat's button means:

- while a ballot is open, the ballot's choice with that index (button 0 is
  the first choice: Ja, Yes; button 1 the second: Nein, Veto; ...), sent as
  the seat's own vote from the seat's own channel;
- while a Coup-family claim waits for a challenge, "I challenge" (the
  challenge buzzer): presses that arrive within ``tie_window`` seconds of the
  first are collected, and the earliest press time wins (see
  docs/hardware.md for the rule);
- otherwise nothing: the press is refused.

A refused press (a double vote with votes locked, a vote from a seat that
may not vote, a buzzer press after the window closed) blinks that seat's LED
and is passed to ``on_refusal`` for its phone; the table is unchanged. The
gavel input strikes the Article 27 gavel for the Secretary-General.

The seat LEDs follow the ballot: on once the seat has voted, whatever it
chose, off when the ballot closes. The buzzer sounds when a timer runs out.
With ``response_seconds`` set at the table, a claim nobody challenges stands
after that many seconds.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Callable

from ..games.base import RuleError
from ..table import CLOCK, OPERATOR, Table, seat_source
from ..table.store import StoreError
from .press import GAVEL, Press, SeatFeedback

log = logging.getLogger(__name__)

TIE_WINDOW = 0.05          # seconds: presses this close together race on their times
CLAIM_GAMES = ("coup", "g54")

Refusal = Callable[[int | None, RuleError], None]


class Controls:
    def __init__(self, table: Table, outputs: Sequence[SeatFeedback] = (),
                 loop: asyncio.AbstractEventLoop | None = None,
                 tie_window: float = TIE_WINDOW,
                 on_refusal: Refusal | None = None) -> None:
        self.loop = loop or asyncio.get_event_loop()
        self.outputs = list(outputs)
        self.tie_window = tie_window
        self.on_refusal = on_refusal
        self.table: Table = table
        self.deadline: float | None = None     # loop time the open claim stands at
        self._race: list[Press] | None = None
        self._race_claim: tuple | None = None
        self._countdown: asyncio.TimerHandle | None = None
        self._countdown_claim: tuple | None = None
        self._voted: dict[int, bool] = {}
        self._seen = 0
        self.attach(table)

    def add_output(self, output: SeatFeedback) -> None:
        """Another device to show the seats and sound the buzzer; it is shown
        the current state at once."""
        self.outputs.append(output)
        for seat, voted in self._voted.items():
            output.show_voted(seat, voted)

    def attach(self, table: Table) -> None:
        """Follow ``table`` (a new game at the kiosk is a new table)."""
        self.table = table
        self._seen = len(table.log)
        self._voted = {}
        self._race = None
        table.subscribe(self._changed)
        self._changed(table)

    # -- presses ------------------------------------------------------------------
    def handle(self, press: Press) -> None:
        if press.seat is None:
            if press.button == GAVEL:
                self._strike_gavel()
            return
        table = self.table
        if not 0 <= press.seat < table.setup.players:
            log.warning("a press from seat %s, which this table does not have", press.seat)
            return
        spec = table.engine.ballot(table.state)
        if spec is not None:
            choices = spec["choices"]
            if not isinstance(press.button, int) or not 0 <= press.button < len(choices):
                self._refuse(press.seat, RuleError("ballot.no_such_button",
                                                   button=str(press.button)))
                return
            self._send({"type": "vote", "seat": press.seat, "choice": choices[press.button]},
                       press.seat)
            return
        claim = self._open_claim()
        if claim is not None:
            self._buzz(press, claim)
            return
        self._refuse(press.seat, RuleError("device.nothing_to_press"))

    def _send(self, command: dict[str, Any], seat: int | None, source: str | None = None
              ) -> bool:
        try:
            self.table.execute(command, source=source or (
                OPERATOR if seat is None else seat_source(seat)))
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
                output.refuse(seat)
        if self.on_refusal is not None:
            self.on_refusal(seat, error)

    def _strike_gavel(self) -> None:
        view = self.table.public_view()
        if view.get("game") != "article27" or view.get("sg") is None:
            return                          # no gavel in this game: a knock on the table
        if self._send({"type": "gavel", "seat": view["sg"]}, None):
            self._sound("gavel")

    # -- the challenge buzzer ----------------------------------------------------------
    def _open_claim(self) -> tuple | None:
        """The claim waiting for a challenge now, as a key, or None."""
        table = self.table
        if table.setup.game not in CLAIM_GAMES:
            return None
        view = table.engine.public_view(table.state)
        pending = view.get("pending") or {}
        claim = pending.get("claim")
        if view["phase"] != "challenge" or claim is None:
            return None
        return (table.game_id, view["turn"], claim["seat"], claim["character"], claim["kind"])

    def _buzz(self, press: Press, claim: tuple) -> None:
        if self._race is not None and self._race_claim == claim:
            self._race.append(press)
            return
        self._race, self._race_claim = [press], claim
        self.loop.call_later(self.tie_window, self._settle_race)

    def _settle_race(self) -> None:
        """The earliest press challenges; exact ties go to the seat nearest
        after the claimant in the direction of play. The others are refused
        (the claim has been challenged)."""
        presses, claim = self._race or [], self._race_claim
        self._race = self._race_claim = None
        if claim is None or self._open_claim() != claim:
            for press in presses:
                self._refuse(press.seat, RuleError("device.window_closed"))
            return
        claimant = claim[2]
        players = self.table.setup.players
        step = -1 if self.table.state.options.get("direction") == "counterclockwise" else 1
        order = sorted(presses, key=lambda p: (p.at, ((p.seat - claimant) * step) % players))
        winner = None
        for press in order:
            if winner is None and self._send({"type": "challenge", "seat": press.seat},
                                             press.seat):
                winner = press.seat
            elif winner is not None and press.seat != winner:
                self._refuse(press.seat, RuleError("device.challenged_first", player=winner))

    # -- following the table --------------------------------------------------------------
    def _changed(self, table: Table) -> None:
        if table is not self.table:
            return                          # an earlier game at this kiosk
        new = [event for _, event in table.log[self._seen:]]
        self._seen = len(table.log)
        if any(event["type"] == "timer_expired" for event in new):
            self._sound("expiry")
        self._show_votes()
        self._follow_claim()

    def _show_votes(self) -> None:
        table = self.table
        public = table.box.public(table.engine.ballot(table.state))
        voted = set(public["voted"]) if public else set()
        for seat in range(table.setup.players):
            now = seat in voted
            if self._voted.get(seat) != now:
                self._voted[seat] = now
                for output in self.outputs:
                    output.show_voted(seat, now)

    def _follow_claim(self) -> None:
        """Start, keep or stop the response countdown for the open claim."""
        seconds = self.table.setup.table.get("response_seconds")
        claim = self._open_claim() if seconds else None
        if claim == self._countdown_claim:
            return
        if self._countdown is not None:
            self._countdown.cancel()
        self._countdown_claim, self._countdown, self.deadline = claim, None, None
        if claim is not None:
            self.deadline = self.loop.time() + seconds
            self._countdown = self.loop.call_at(self.deadline, self._time_up, claim)

    def _time_up(self, claim: tuple) -> None:
        if self._open_claim() == claim:
            self._send({"type": "proceed"}, None, source=CLOCK)

    def _sound(self, pattern: str) -> None:
        for output in self.outputs:
            output.sound(pattern)
