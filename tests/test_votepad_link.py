"""The vote pad's firmware logic and the host driver, end to end over a real
pty pair: rounds of presses, noise, unplugging, heartbeats and LEDs."""

from __future__ import annotations

import random

import pytest
from votepad import pad as firmware

from companion.devices.pad import SerialPad
from companion.devices.pad_sim import Noise, PadSimulator, PtyLink, wait_for


class Recorder:
    def __init__(self):
        self.presses = []

    def __call__(self, press):
        self.presses.append(press)

    def keys(self):
        return [(press.seat, press.button) for press in self.presses]


@pytest.fixture
def link(tmp_path):
    link = PtyLink(tmp_path)
    yield link
    link.unplug()


@pytest.fixture
def recorder():
    return Recorder()


@pytest.fixture
def driver(link, recorder):
    driver = SerialPad(recorder, link.path, retry_interval=0.05)
    driver.start()
    yield driver
    driver.stop()


def start_sim(link, **options):
    sim = PadSimulator(link, **options)
    sim.start()
    return sim


@pytest.fixture
def sim(link, driver):
    sim = start_sim(link)
    assert wait_for(lambda: driver.status()["online"])
    yield sim
    sim.stop()


def test_a_ten_seat_yes_no_round_arrives_once_each_in_the_pads_order(sim, driver, recorder):
    rng = random.Random(10)
    start = sim.now_ms + 50
    expected = []
    for seat in rng.sample(range(10), 10):  # near-simultaneous, 3 ms apart
        button = rng.randrange(2)
        sim.press(start + 3 * len(expected), seat, button, hold_ms=80, bounce_ms=(1, 2, 3, 4))
        expected.append((seat, button))
    assert wait_for(lambda: len(recorder.presses) >= 10)
    assert wait_for(sim.script_done)
    assert recorder.keys() == expected
    times = [press.at for press in recorder.presses]
    assert times == sorted(times) and len(set(times)) == 10
    assert all(press.device == "pad" for press in recorder.presses)
    assert driver.status()["presses"] == 10


def test_six_seats_press_all_three_buttons_each_exactly_once(sim, driver, recorder):
    start = sim.now_ms + 50
    expected = set()
    for seat in range(6):
        for button in range(3):
            sim.press(start + 60 * button + seat, seat, button, hold_ms=30, bounce_ms=(1, 3))
            expected.add((seat, button))
    assert wait_for(lambda: len(recorder.presses) >= 18)
    assert wait_for(sim.script_done)
    assert wait_for(lambda: sim.pad.link_counters()["unacked"] == 0)
    assert sorted(recorder.keys()) == sorted(expected)
    assert driver.status()["presses"] == 18


def test_noise_in_both_directions_loses_no_press_and_invents_none(link, driver, recorder):
    """Over a megabyte of seeded random bytes between the pad's frames, a bit
    flipped in one frame in 20, and noise before what the pad hears, while the
    pad sends presses."""
    noise_out = Noise(seed=1, mean_chunk=1000, corrupt_one_in=20)
    noise_in = Noise(seed=2, mean_chunk=8)
    sim = PadSimulator(link, noise_out=noise_out, noise_in=noise_in)
    issued = []

    def press_now(sim):
        # Noise, not overload, is under test: keep the pad's queue from filling.
        if len(issued) < 1000 and sim.pad.link_counters()["unacked"] < 32:
            key = (len(issued) % 10, len(issued) % 3)
            sim.pad.press(*key, sim.now_ms)
            issued.append(key)

    sim.between_steps = press_now
    sim.start()
    try:
        assert wait_for(
            lambda: (
                len(issued) == 1000
                and noise_out.sent >= 1_000_000
                and sim.pad.link_counters()["unacked"] == 0
            ),
            timeout=60,
        )
    finally:
        sim.stop()
    link.write(sim.pad.heartbeat(sim.now_ms))  # ends any noise the reader holds
    # Every noise byte and every damaged frame the pty took is counted, once
    # the driver has read them all.
    assert wait_for(
        lambda: (
            driver.status()["garbage_bytes"] >= noise_out.sent
            and driver.status()["bad_checksum"] >= noise_out.corrupted > 0
        )
    )
    assert recorder.keys() == issued
    assert driver.status()["presses"] == 1000
    assert sim.pad.link_counters()["garbage_bytes"] > 0
    assert sim.pad.dropped == 0


def test_unplug_and_replug_reconnects_and_drops_retransmitted_presses(link, driver, recorder):
    sim = start_sim(link)
    try:
        assert wait_for(lambda: driver.status()["online"])
        sim.deaf = True  # the host's ACKs never arrive
        start = sim.now_ms + 20
        for seat in range(4):
            sim.press(start + 10 * seat, seat, 0)
        assert wait_for(lambda: len(recorder.presses) == 4)
        link.unplug()
        assert wait_for(lambda: not driver.status()["connected"])
        start = sim.now_ms + 20
        for seat in range(4, 8):  # pressed while unplugged
            sim.press(start + 10 * seat, seat, 1)
        assert wait_for(sim.script_done)
        sim.deaf = False
        link.plug()
        assert wait_for(lambda: sim.pad.link_counters()["unacked"] == 0)
        assert wait_for(lambda: len(recorder.presses) >= 8)
    finally:
        sim.stop()
    assert recorder.keys() == [(seat, 0) for seat in range(4)] + [(seat, 1) for seat in range(4, 8)]
    status = driver.status()
    assert status["reconnects"] >= 1 and status["connected"]
    assert status["duplicates"] >= 4


def test_missing_heartbeats_make_the_pad_offline_until_they_resume(sim, driver):
    sim.pause()
    assert wait_for(lambda: not driver.status()["online"])
    status = driver.status()
    assert status["connected"] and status["last_heartbeat_age"] >= 1.5
    sim.resume()
    assert wait_for(lambda: driver.status()["online"])


def test_a_rebooted_pad_numbers_its_presses_from_one_again(link, sim, driver, recorder):
    sim.press(sim.now_ms + 20, 2, 1)
    assert wait_for(lambda: len(recorder.presses) == 1)
    sim.stop()
    rebooted = start_sim(link, session="0A0A", start_ms=0)
    try:
        rebooted.press(rebooted.now_ms + 20, 3, 2)
        assert wait_for(lambda: len(recorder.presses) == 2)
    finally:
        rebooted.stop()
    assert recorder.keys() == [(2, 1), (3, 2)]
    assert driver.status()["session"] == "0A0A"


def test_a_restarted_driver_gets_the_presses_the_pad_still_holds(link, recorder):
    sim = start_sim(link)
    try:
        sim.press(sim.now_ms + 20, 5, 0)  # nobody listens yet
        assert wait_for(lambda: sim.pad.link_counters()["unacked"] == 1)
        driver = SerialPad(recorder, link.path)
        driver.start()
        try:
            assert wait_for(lambda: len(recorder.presses) == 1)
            assert wait_for(lambda: sim.pad.link_counters()["unacked"] == 0)
        finally:
            driver.stop()
    finally:
        sim.stop()
    assert recorder.keys() == [(5, 0)]


def test_voted_leds_follow_the_host(sim, driver):
    driver.show_voted(3, True)
    driver.show_voted(7, True)
    assert wait_for(lambda: sim.pad.led_levels(sim.now_ms)[3] and sim.pad.voted == 0b10001000)
    driver.show_voted(3, False)
    assert wait_for(lambda: sim.pad.voted == 0b10000000)
    driver.show_voted(12, True)  # a seat the pad lacks: ignored
    assert driver.status()["online"]


def test_a_lost_led_command_is_repaired_from_the_heartbeat(sim, driver):
    sim.deaf = True
    driver.show_voted(1, True)
    sim.deaf = False
    assert wait_for(lambda: sim.pad.voted == 0b10)


def test_a_refusal_blinks_the_seats_led_then_restores_it(sim, driver):
    driver.show_voted(4, True)
    assert wait_for(lambda: sim.pad.voted == 1 << 4)
    start = sim.now_ms
    driver.refuse(4)
    assert wait_for(lambda: sim.now_ms > start + 200 + firmware.BLINK_MS * firmware.BLINK_PHASES)
    seat_four = [levels[4] for ms, levels in sim.led_history if ms > start]
    assert seat_four == [False, True, False, True, False, True]
    assert sim.pad.led_levels(sim.now_ms)[4]
