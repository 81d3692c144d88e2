"""The serial vote pad's link: the real firmware logic (votepad.pad.Pad, in
the simulated twin) on one end of a pty pair and the real host driver on the
other, as in the tests.

- presses per second the link sustains without loss: the pad's queue is kept
  full and every press must arrive exactly once, in order;
- latency from a press frame written to the pty to its Press delivered, with
  presses 5 ms apart (p50, p99).

Each figure is the best of several rounds. A real pad scans and reads USB
once a millisecond, so on the hardware the window (8 presses per round trip)
and that loop bound the rate; this measures the host's side and the logic."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from votepad import pad as firmware
from votepad import protocol

from companion.devices.pad import SerialPad
from companion.devices.pad_sim import PadSimulator, PtyLink, wait_for

from .report import figure

ROUNDS = 3
THROUGHPUT_PRESSES = 20_000
LATENCY_PRESSES = 400
LATENCY_SPACING_MS = 5


def _link(directory: Path, deliver, step_wait: float):
    link = PtyLink(directory)
    driver = SerialPad(deliver, link.path)
    driver.start()
    sim = PadSimulator(link, step_wait=step_wait)
    return link, driver, sim


def _close(link, driver, sim) -> None:
    sim.stop()
    driver.stop()
    link.unplug()


def throughput(directory: Path) -> float:
    delivered = []
    link, driver, sim = _link(directory, delivered.append, step_wait=0.0002)
    issued = []

    def keep_queue_full(sim: PadSimulator) -> None:
        room = firmware.QUEUE_MAX - sim.pad.link_counters()["unacked"]
        for _ in range(min(room, THROUGHPUT_PRESSES - len(issued))):
            key = (len(issued) % 10, len(issued) % 3)
            sim.pad.press(*key, sim.now_ms)
            issued.append(key)

    sim.start()
    try:
        assert wait_for(lambda: driver.status()["online"])
        start = time.perf_counter()
        sim.between_steps = keep_queue_full
        assert wait_for(lambda: len(delivered) >= THROUGHPUT_PRESSES, timeout=300)
        seconds = time.perf_counter() - start
    finally:
        _close(link, driver, sim)
    assert [(press.seat, press.button) for press in delivered] == issued, "lost or doubled"
    return THROUGHPUT_PRESSES / seconds


def latencies(directory: Path) -> list[float]:
    arrivals = []
    link, driver, sim = _link(
        directory, lambda press: arrivals.append(time.monotonic()), step_wait=0.001
    )
    sim.record_sends = True
    sim.start()
    try:
        assert wait_for(lambda: driver.status()["online"])
        first = sim.now_ms + 20
        for index in range(LATENCY_PRESSES):
            sim.press(first + LATENCY_SPACING_MS * index, index % 10, 0, hold_ms=20)
        assert wait_for(lambda: len(arrivals) >= LATENCY_PRESSES, timeout=300)
    finally:
        _close(link, driver, sim)
    written = {}
    for moment, frame in sim.sent_frames:
        (parsed,) = protocol.LineReader().feed(frame)
        if parsed.kind == protocol.PRESS:
            written.setdefault(parsed.seq, moment)
    # Presses arrive exactly once and in order: the k-th is sequence number k.
    return [(arrival - written[seq]) * 1000 for seq, arrival in enumerate(arrivals, 1)]


def main() -> None:
    best_rate, best_p50, best_p99 = 0.0, float("inf"), float("inf")
    for _ in range(ROUNDS):
        with tempfile.TemporaryDirectory(prefix="pad-link-") as directory:
            best_rate = max(best_rate, throughput(Path(directory)))
        with tempfile.TemporaryDirectory(prefix="pad-link-") as directory:
            cuts = statistics.quantiles(latencies(Path(directory)), n=100)
            best_p50, best_p99 = min(best_p50, cuts[49]), min(best_p99, cuts[98])
    figure("pad_link.presses_per_s", best_rate, "presses/s", "higher")
    figure("pad_link.latency_p50", best_p50, "ms", "lower")
    figure("pad_link.latency_p99", best_p99, "ms", "lower")


if __name__ == "__main__":
    main()
