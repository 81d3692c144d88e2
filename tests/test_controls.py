"""Presses become table commands on the asyncio loop: ballots by buttons, the
challenge buzzer with near-ties, the response countdown, the gavel and the
expiry buzzer, refusals on the seat's own channel. Real tables on real
SQLite files; presses handed over from other threads as devices do."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from a27_helpers import FakeClock, a27_table
from sh_helpers import A, B, C, D, E, nominate, sh_table

from companion.devices.controls import Controls
from companion.devices.press import GAVEL, Press, loop_delivery
from companion.games.base import Fate, Setup
from companion.i18n import Messages
from companion.table import OPERATOR, EventStore, Table, seat_source


class Panel:
    """The hardware outputs as a table would observe them: each seat's LED
    and the buzzer, in the order they changed."""

    def __init__(self) -> None:
        self.changes: list[tuple] = []
        self.lit: dict[int, bool] = {}

    def show_voted(self, seat: int, voted: bool) -> None:
        self.lit[seat] = voted
        self.changes.append(("led", seat, voted))

    def refuse(self, seat: int) -> None:
        self.changes.append(("blink", seat))

    def sound(self, pattern: str) -> None:
        self.changes.append(("sound", pattern))


ABORTED = "The ballot was stopped; it runs again from the start."


def run(coroutine):
    return asyncio.run(coroutine)


async def settle(seconds: float = 0.0) -> None:
    await asyncio.sleep(seconds)
    for _ in range(3):
        await asyncio.sleep(0)


def press(seat, button, at=None):
    """A press now (or at ``at`` on the monotonic clock presses are timed on)."""
    return Press(seat=seat, button=button, at=time.monotonic() if at is None else at, device="test")


def by(seat):
    """The channel a test press votes from."""
    return seat_source(seat, "test")


def election(store, **settings):
    table = sh_table(store, 5, mode="keeper", table=settings)
    nominate(table, C)
    return table


# -- the ballot ------------------------------------------------------------------------


def test_a_ballot_by_buttons_reveals_all_at_once_and_the_leds_say_only_who(store):
    async def scenario():
        table = election(store)
        panel = Panel()
        refusals = []
        controls = Controls(table, [panel], on_refusal=lambda s, e: refusals.append((s, e.key)))
        assert panel.lit == {seat: False for seat in range(5)}
        for seat, button in ((A, 0), (B, 1), (C, 0), (D, 1)):
            controls.handle(press(seat, button))
            public = json.dumps(table.public_view())
            assert '"last_votes": null' in public
            assert public.count('"nein"') == 1, "only the list of choices names a choice"
        assert panel.lit == {A: True, B: True, C: True, D: True, E: False}
        controls.handle(press(E, 0))
        assert table.public_view()["last_votes"] == ["ja", "nein", "ja", "nein", "ja"]
        assert panel.lit == {seat: False for seat in range(5)}, "a closed ballot turns them off"
        assert refusals == []
        # Each vote came from the seat's own channel.
        assert [e["by"] for _, e in table.log if e["type"] == "vote"] == [
            by(s) for s in (A, B, C, D, E)
        ]

    run(scenario())


def test_the_leds_and_the_log_are_the_same_whatever_the_votes(tmp_path):
    """Secrecy: two ballots with opposite votes look the same to the table
    until the reveal: LED changes, public views and log lines."""

    async def ballot(path, buttons):
        table = election(EventStore(path))
        panel = Panel()
        controls = Controls(table, [panel])
        seen = []
        for seat, button in zip((A, B, C, D), buttons):
            controls.handle(press(seat, button))
            view = table.public_view()
            t = Messages("en", table.names)
            seen.append(
                (
                    json.dumps(view["ballot"]),
                    view["last_votes"],
                    [t(k, **a) for k, a in table.log_lines()],
                )
            )
        return panel.changes, seen

    first = run(ballot(tmp_path / "a.sqlite3", (0, 0, 0, 0)))
    second = run(ballot(tmp_path / "b.sqlite3", (1, 1, 0, 1)))
    assert first == second


def test_presses_from_device_threads_change_the_table_on_the_loop_only(store):
    async def scenario():
        table = election(store)
        loop = asyncio.get_running_loop()
        applied_on = []
        controls = Controls(table, [Panel()])
        table.subscribe(lambda _committed: applied_on.append(threading.get_ident()))
        deliver = loop_delivery(loop, controls.handle)
        threads = [
            threading.Thread(target=deliver, args=(press(seat, 0),)) for seat in (A, B, C, D, E)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        await settle()
        assert table.public_view()["last_votes"] == ["ja"] * 5
        assert set(applied_on) == {threading.get_ident()}

    run(scenario())


def test_votes_change_by_default_and_lock_when_the_table_says_so(tmp_path):
    async def scenario(path, **settings):
        table = election(EventStore(path), **settings)
        panel = Panel()
        refusals = []
        controls = Controls(table, [panel], on_refusal=lambda s, e: refusals.append((s, e.key)))
        controls.handle(press(A, 0))
        controls.handle(press(A, 1))  # a change of mind
        controls.handle(press(A, 1))  # the same again: taken like a change
        votes = [e["choice"] for _, e in table.log if e["type"] == "vote"]
        return table.private_view(A)["ballot_vote"], votes, refusals, panel.changes

    vote, votes, refusals, changes = run(scenario(tmp_path / "a.sqlite3"))
    assert (vote, votes, refusals) == ("nein", ["ja", "nein", "nein"], [])
    assert ("blink", A) not in changes
    vote, votes, refusals, changes = run(scenario(tmp_path / "b.sqlite3", votes="locked"))
    assert (vote, votes) == ("ja", ["ja"])
    assert refusals == [(A, "ballot.already_voted")] * 2
    assert changes.count(("blink", A)) == 2


def test_pressing_a_seats_buttons_tells_nothing_about_its_vote(tmp_path):
    """A neighbour presses seat A's Ja after A voted: what the table sees
    (LEDs, blinks, the public log) is the same whether A had voted Ja or Nein."""

    async def probe(path, secret):
        table = election(EventStore(path))
        panel = Panel()
        controls = Controls(table, [panel])
        controls.handle(press(A, secret))
        controls.handle(press(B, 0))
        seen_before = len(panel.changes)
        controls.handle(press(A, 0))  # the probe
        t = Messages("en", table.names)
        return (
            panel.changes[seen_before:],
            [t(k, **a) for k, a in table.log_lines()],
            table.public_view()["ballot"],
        )

    assert run(probe(tmp_path / "ja.sqlite3", 0)) == run(probe(tmp_path / "nein.sqlite3", 1))


def test_mixed_inputs_buttons_and_phones_share_one_ballot(store):
    async def scenario():
        table = election(store)
        panel = Panel()
        controls = Controls(table, [panel])
        controls.handle(press(A, 1))
        table.execute({"type": "vote", "seat": D, "choice": "ja"}, source=seat_source(D))
        assert panel.lit[D], "a phone's vote lights the seat's LED too"
        controls.handle(press(B, 0))
        table.execute({"type": "vote", "seat": E, "choice": "nein"}, source=seat_source(E))
        controls.handle(press(C, 0))
        assert table.public_view()["last_votes"] == ["nein", "ja", "ja", "ja", "nein"]

    run(scenario())


def test_refused_presses_blink_and_change_nothing(store):
    async def scenario():
        table = election(store)
        panel = Panel()
        refusals = []
        controls = Controls(table, [panel], on_refusal=lambda s, e: refusals.append((s, e.key)))
        before = len(table.log)
        controls.handle(press(B, 2))  # Secret Hitler has two choices
        controls.handle(press(9, 0))  # no such seat: ignored
        controls.handle(press(C, 0, at=time.monotonic() - 60))  # before the ballot opened
        assert refusals == [(B, "ballot.no_such_button"), (C, "device.stale_press")]
        assert panel.changes[-2:] == [("blink", B), ("blink", C)]
        assert len(table.log) == before
        table.execute({"type": "ballot_abort"}, source=OPERATOR)
        controls.handle(press(B, 0))
        assert table.public_view()["ballot"]["voted"] == [B]

    run(scenario())


def test_an_aborted_ballot_turns_the_leds_off_and_runs_again(store):
    async def scenario():
        table = election(store)
        panel = Panel()
        controls = Controls(table, [panel])
        for seat in (A, B, C):
            controls.handle(press(seat, 0))
        table.execute({"type": "ballot_abort"}, source=OPERATOR)
        assert panel.lit == {seat: False for seat in range(5)}
        t = Messages("en", table.names)
        key, args = table.log_lines()[-1]
        assert t(key, **args) == ABORTED
        for seat in (A, B, C, D, E):
            controls.handle(press(seat, 1))
        assert table.public_view()["last_votes"] == ["nein"] * 5

    run(scenario())


# -- the challenge buzzer ----------------------------------------------------------------


def coup_table(store, players=4, clock=None, **options):
    setup = Setup(
        game="coup",
        seats=["Ann", "Bob", "Cat", "Dan"][:players],
        mode="physical",
        options={"first": 0, "direction": "clockwise", **options},
    )
    return Table.start(store, setup, fate=Fate(seed=3), clock=clock or time.time)


def test_the_earliest_press_challenges_and_exact_ties_go_clockwise(store):
    async def scenario():
        table = coup_table(store)
        panel = Panel()
        refusals = []
        controls = Controls(
            table, [panel], tie_window=0.05, on_refusal=lambda s, e: refusals.append((s, e.key))
        )
        table.execute({"type": "tax", "seat": 0})
        # They arrive in the order Cat, Dan, Bob; Bob and Dan pressed at the
        # same instant, before Cat.
        base = time.monotonic()
        controls.handle(press(2, 0, at=base + 0.003))
        controls.handle(press(3, 1, at=base + 0.001))
        controls.handle(press(1, 2, at=base + 0.001))
        assert table.public_view()["phase"] == "challenge", "the race is still open"
        await settle(0.2)
        view = table.public_view()
        assert view["pending"]["claim"]["challenger"] == 1
        assert sorted(refusals) == [(2, "device.challenged_first"), (3, "device.challenged_first")]
        controls.handle(press(2, 0))  # the window has gone
        assert refusals[-1] == (2, "device.nothing_to_press")

    run(scenario())


def test_the_claimant_cannot_challenge_and_the_next_press_wins(store):
    async def scenario():
        table = coup_table(store)
        controls = Controls(table, [Panel()], tie_window=0.05)
        table.execute({"type": "tax", "seat": 0})
        base = time.monotonic()
        controls.handle(press(0, 0, at=base))
        controls.handle(press(3, 0, at=base + 0.01))
        await settle(0.2)
        assert table.public_view()["pending"]["claim"]["challenger"] == 3

    run(scenario())


def test_a_claim_nobody_challenges_stands_when_the_countdown_ends(tmp_path):
    clock = FakeClock()
    path = tmp_path / "g.sqlite3"
    table = coup_table(EventStore(path), clock=clock, response_seconds=10)
    table.execute({"type": "tax", "seat": 0})
    assert table.public_view()["timer"] == {
        "kind": "response",
        "running": True,
        "remaining": 10,
        "seconds": 10,
    }
    clock.advance(6)
    assert table.tick() == []
    # A restart keeps the countdown: it is the table's, in its events.
    table.store.close()
    table = Table.resume(EventStore(path), clock=clock)
    assert table.public_view()["timer"]["remaining"] == 4
    clock.advance(4)
    assert [e["type"] for e in table.tick()] == ["proceed"]
    view = table.public_view()
    assert view["phase"] == "action" and view["current"] == 1
    assert view["players"][0]["coins"] == 5 and view["timer"] is None


def test_a_challenge_stops_the_countdown(store):
    clock = FakeClock()
    table = coup_table(store, clock=clock, response_seconds=10)
    table.execute({"type": "tax", "seat": 0})
    table.execute({"type": "challenge", "seat": 2})
    clock.advance(30)
    assert table.tick() == []
    assert table.public_view()["phase"] == "prove"


def test_a_response_countdown_must_be_sensible(store):
    from companion.games.base import RuleError

    for seconds in (0, 121, "10"):
        with pytest.raises(RuleError) as err:
            coup_table(store, response_seconds=seconds)
        assert err.value.key == "setup.bad_option"


# -- the gavel and the buzzer ----------------------------------------------------------


def test_the_gavel_input_strikes_for_the_sg_and_expiry_sounds_the_buzzer(store):
    async def scenario():
        clock = FakeClock()
        table = a27_table(store, 4, clock=clock)
        panel = Panel()
        controls = Controls(table, [panel])
        controls.handle(press(None, GAVEL))
        controls.handle(press(None, GAVEL))  # the plate's rebound: not a second strike
        view = table.public_view()
        assert view["phase"] == "negotiation" and view["timer"]["running"]
        assert panel.changes.count(("sound", "gavel")) == 1
        clock.advance(view["timer"]["remaining"])
        table.tick()
        assert panel.changes[-1] == ("sound", "expiry")

    run(scenario())


def test_a_gavel_knock_outside_article_27_does_nothing(store):
    async def scenario():
        table = coup_table(store)
        panel = Panel()
        controls = Controls(table, [panel])
        before = len(table.log)
        controls.handle(press(None, GAVEL))
        assert len(table.log) == before and ("sound", "gavel") not in panel.changes

    run(scenario())


def test_a_veto_is_never_taken_from_buttons_when_it_depends_on_hidden_influence(store):
    """Article 27, keeper mode: D has 4 influence behind the screen, A has
    more. Both Veto buttons are refused alike (the table must not learn who
    could veto): the veto belongs on the seat's phone."""
    from a27_helpers import PK, bribe, keeper4, propose

    async def scenario():
        table = keeper4(store)
        propose(table, PK, call_vote=False)
        bribe(table, 3, 0, 8, "yes")
        table.execute({"type": "gavel"})
        panel = Panel()
        refusals = []
        controls = Controls(table, [panel], on_refusal=lambda s, e: refusals.append((s, e.key)))
        before = table.public_view()["ballot"]
        controls.handle(press(3, 1))  # Yes, Veto, Abstain: Veto
        controls.handle(press(0, 1))
        assert refusals == [(3, "device.choice_on_phone"), (0, "device.choice_on_phone")]
        assert panel.changes[-2:] == [("blink", 3), ("blink", 0)]
        assert table.public_view()["ballot"] == before
        table.execute({"type": "vote", "seat": 0, "choice": "veto"}, source=seat_source(0))
        for seat, button in ((1, 2), (2, 0), (3, 0)):
            controls.handle(press(seat, button))
        assert table.public_view()["ballot"] is None
        assert len(refusals) == 2

    run(scenario())


def test_a_failing_led_never_stops_the_table(store):
    class BrokenLeds(Panel):
        def show_voted(self, seat, voted):
            raise OSError("the LED driver is gone")

    async def scenario():
        table = election(store)
        controls = Controls(table, [BrokenLeds()])
        controls.handle(press(A, 0))
        assert table.public_view()["ballot"]["voted"] == [A]

    run(scenario())


def test_a_dead_seat_pressing_is_refused_and_does_not_count(store):
    from sh_helpers import five_fascists_then_executions

    async def scenario():
        table = five_fascists_then_executions(store, [C])
        nominate(table)
        panel = Panel()
        refusals = []
        controls = Controls(table, [panel], on_refusal=lambda s, e: refusals.append((s, e.key)))
        assert C not in table.public_view()["ballot"]["eligible"]
        controls.handle(press(C, 0))
        assert refusals == [(C, "ballot.not_eligible")]
        assert panel.changes[-1] == ("blink", C)
        assert table.public_view()["ballot"]["voted"] == []
        for seat in table.public_view()["ballot"]["eligible"]:
            controls.handle(press(seat, 1))
        assert table.public_view()["last_votes"][C] is None
        assert refusals == [(C, "ballot.not_eligible")]

    run(scenario())


def test_a_device_that_cannot_be_opened_leaves_the_table_playing(store, caplog):
    from gpiozero import LED
    from gpiozero.pins.mock import MockFactory

    from companion.devices.gpio import GpioTable
    from companion.devices.pinmap import parse_pinmap
    from companion.host.host import open_devices

    async def scenario():
        factory = MockFactory()
        busy = LED(17, pin_factory=factory)  # something else holds the pin
        table = election(store)
        controls = Controls(table)
        deliver = loop_delivery(asyncio.get_running_loop(), controls.handle)
        good = parse_pinmap("[seats.1]\nbuttons = [22, 23]\nled = 20\n")
        bad = parse_pinmap("[seats.2]\nbuttons = [17]\n")
        devices = open_devices(
            [
                lambda d: GpioTable(bad, d, factory=factory),
                lambda d: GpioTable(good, d, factory=factory),
            ],
            deliver,
            controls,
        )
        assert len(devices) == 1 and controls.outputs == devices
        factory.pin(23).drive_low()  # seat A votes Nein on the good one
        await settle(0.05)
        assert table.public_view()["ballot"]["voted"] == [A]
        assert [s.state for s in factory.pin(20).states] == [False, True]
        for device in devices:
            device.close()
        busy.close()
        factory.reset()

    run(scenario())
    assert "a device could not be opened" in caplog.text


def test_a_race_for_a_claim_that_has_passed_is_dropped_for_the_new_one(store):
    async def scenario():
        table = coup_table(store)
        refusals = []
        controls = Controls(
            table, [Panel()], tie_window=0.05, on_refusal=lambda s, e: refusals.append((s, e.key))
        )
        table.execute({"type": "tax", "seat": 0})
        controls.handle(press(2, 0))  # racing for Ann's claim...
        table.execute({"type": "proceed"})  # ...which the table lets stand
        table.execute({"type": "tax", "seat": 1})  # Bob's claim opens
        controls.handle(press(3, 0))
        assert refusals == [(2, "device.window_closed")]
        await settle(0.2)
        view = table.public_view()
        assert view["pending"]["claim"]["seat"] == 1
        assert view["pending"]["claim"]["challenger"] == 3
        assert refusals == [(2, "device.window_closed")]

    run(scenario())
