"""bench/press_latency.py's pad part keeps measuring on a loaded machine,
where the simulated pad's thread runs late: its presses are scheduled on the
pad's clock as the host maps it, so none is taken for a press made before
its ballot opened (stale, refused: the run stopped with "the presses did not
reach the table")."""

from __future__ import annotations

import asyncio
import time

import pytest

from bench.press_latency import pad_latencies
from companion.devices.pad_sim import PadSimulator


def _held_up(every: int, seconds: float):
    """A simulator's thread that loses ``seconds`` every ``every`` steps, as
    one waiting its turn for a busy CPU does (it catches up after)."""

    def hold(sim: PadSimulator) -> None:
        if sim.now_ms % every == 0:
            time.sleep(seconds)

    return hold


@pytest.mark.slow
def test_the_pad_part_measures_every_ballot_with_the_pad_running_late(tmp_path):
    latencies = asyncio.run(pad_latencies(tmp_path, ballots=12, between_steps=_held_up(100, 0.05)))
    assert len(latencies) == 12
    assert all(0 < latency < 5 for latency in latencies)
