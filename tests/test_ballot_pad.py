"""Whole ballots through the serial pad: the real firmware logic as the MCU
on a pty, the real driver, the hand-over to the asyncio loop, Controls, the
table and its SQLite file, and the seats' LEDs back on the pad."""

from __future__ import annotations

import asyncio

import pytest
from a27_helpers import PK, a27_table, propose
from helpers import until
from sh_helpers import nominate, sh_table

from companion.devices.controls import Controls
from companion.devices.pad import SerialPad
from companion.devices.pad_sim import PadSimulator, PtyLink, wait_for
from companion.devices.press import loop_delivery
from companion.table import seat_source


@pytest.fixture
def link(tmp_path):
    link = PtyLink(tmp_path)
    yield link
    link.unplug()


async def ballot_on_the_pad(link, table, presses, seats):
    """Press ``presses`` [(seat, button)] on the pad, 3 ms apart with a
    bounce each; return the LED history the pad saw and the table."""
    loop = asyncio.get_running_loop()
    controls = Controls(table, loop=loop)
    pad = SerialPad(loop_delivery(loop, controls.handle), link.path, retry_interval=0.05)
    sim = PadSimulator(link, seats=seats)
    pad.start()
    sim.start()
    try:
        await until(lambda: pad.status()["online"], "the pad online")
        controls.add_output(pad)
        start = sim.now_ms + 20
        for n, (seat, button) in enumerate(presses):
            sim.press(start + 3 * n, seat, button, bounce_ms=(1, 2))
        await until(lambda: table.public_view()["ballot"] is None, "the reveal")
        await until(sim.script_done, "the pad's script")
        assert wait_for(lambda: sim.led_history and not any(sim.led_history[-1][1]), 5), (
            "the LEDs go out"
        )
        return sim.led_history, pad.status()
    finally:
        sim.stop()
        pad.stop()


def test_a_ten_seat_secret_hitler_ballot_through_the_pad(store, link):
    table = sh_table(store, 10)
    nominate(table, 2)
    votes = [0, 1, 1, 0, 0, 1, 0, 0, 1, 0]  # button 0 Ja, button 1 Nein
    history, status = asyncio.run(ballot_on_the_pad(link, table, list(enumerate(votes)), seats=10))
    revealed = [e for _, e in table.log if e["type"] == "ballot"][-1]["votes"]
    assert revealed == [("ja", "nein")[b] for b in votes]
    assert len([e for _, e in table.log if e["type"] == "vote"]) == 10, "each press once"
    assert status["presses"] == 10
    # The LEDs came on one by one as the votes arrived (the last vote came
    # with the reveal, so nine at most), then all went out.
    lit = [sum(levels) for _, levels in history]
    peak = lit.index(9)
    assert lit[: peak + 1] == sorted(lit[: peak + 1]) and lit[0] == 0
    assert lit[peak:] == sorted(lit[peak:], reverse=True) and lit[-1] == 0


def test_a_six_seat_article_27_ballot_through_the_pad(store, link):
    table = a27_table(store, 6)
    propose(table, PK)
    # Yes, Veto, Abstain; in keeper mode a Veto goes by phone (its refusal
    # would show who lacks the influence), so the pad says Yes or Abstain.
    buttons = [0, 2, 2, 0, 2, 0]
    asyncio.run(ballot_on_the_pad(link, table, list(enumerate(buttons)), seats=6))
    revealed = [e for _, e in table.log if e["type"] == "ballot"][-1]["votes"]
    assert revealed == [("yes", "veto", "abstain")[b] for b in buttons]
    assert [e["by"] for _, e in table.log if e["type"] == "vote"] == [
        seat_source(seat, "pad") for seat in range(6)
    ]


def test_unplugging_the_pad_mid_ballot_loses_no_vote(store, link):
    """Half the seats vote, the serial link drops (a flaky hub or cable: the
    pad keeps its power; a pad that loses power loses the presses it has not
    sent, see PROTOCOL.md), the rest press while it is down, it comes back:
    the pad resends, the driver reconnects, every vote counts once and the
    ballot closes."""
    table = sh_table(store, 8)
    nominate(table, 2)

    async def scenario():
        loop = asyncio.get_running_loop()
        controls = Controls(table, loop=loop)
        pad = SerialPad(loop_delivery(loop, controls.handle), link.path, retry_interval=0.05)
        sim = PadSimulator(link, seats=8)
        pad.start()
        sim.start()
        try:
            await until(lambda: pad.status()["online"], "the pad online")
            start = sim.now_ms + 20
            for seat in range(4):
                sim.press(start + 5 * seat, seat, 1)
            await until(lambda: len(table.public_view()["ballot"]["voted"]) == 4, "four votes")
            link.unplug()
            await until(lambda: not pad.status()["connected"], "the pad gone")
            start = sim.now_ms + 20
            for seat in range(4, 8):
                sim.press(start + 5 * seat, seat, 0)
            await until(sim.script_done, "presses while unplugged")
            assert len(table.public_view()["ballot"]["voted"]) == 4
            link.plug()
            await until(lambda: table.public_view()["ballot"] is None, "the reveal")
            return pad.status()
        finally:
            sim.stop()
            pad.stop()

    status = asyncio.run(scenario())
    assert status["reconnects"] >= 1
    revealed = [e for _, e in table.log if e["type"] == "ballot"][-1]["votes"]
    assert revealed == ["nein"] * 4 + ["ja"] * 4
    assert len([e for _, e in table.log if e["type"] == "vote"]) == 8
