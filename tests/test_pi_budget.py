"""The instructions each game's busiest step costs the kiosk's CPU
(bench/pi_budget.py, counted by valgrind's callgrind) stay within 20% of
the counts recorded in bench/instructions.json: a change that makes a step
cost more shows here, on any machine, however busy (instruction counts do
not wait on the machine's load as times do). A change that makes one cost
less is recorded with ``python -m bench.pi_budget --record``."""

from __future__ import annotations

import pytest

from bench import callgrind, pi_budget

pytest.importorskip("kivy")


def test_no_step_costs_more_than_a_fifth_over_its_recorded_count(tmp_path):
    reason = callgrind.available()
    # Not a skip: a run without valgrind would pass with nothing checked
    # (scripts/system-packages.sh installs it where it can).
    assert reason is None, f"the instructions cannot be counted here: {reason}"
    counted = pi_budget.step_counts(tmp_path)
    recorded = pi_budget.recorded()
    assert sorted(counted) == sorted(recorded), "the steps counted are not those recorded"
    grown = {
        name: f"{counted[name]:,} > {recorded[name]:,} × {pi_budget.GROWTH}"
        for name in recorded
        if counted[name] > recorded[name] * pi_budget.GROWTH
    }
    assert grown == {}, grown
