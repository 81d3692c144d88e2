"""The instructions each game's busiest step costs the kiosk's CPU
(bench/pi_budget.py, counted by valgrind's callgrind, with the kiosk in
English and in Persian: pi_budget.CREEP_LANGS) stay within 20% of the
counts recorded in bench/instructions.json: a change that makes a step
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


def test_a_cost_written_unsigned_below_zero_is_read_as_negative(tmp_path):
    """A call under way when a stretch zeroed the counts ends below where it
    began, and callgrind writes that negative cost as unsigned: read as such
    it would leave the CPU's count 2**64 short."""
    dump = tmp_path / "cg.out.1"
    dump.write_text(
        "events: Ir\n"
        "ob=(1) /usr/lib/libpython3.11.so.1.0\nfn=(1) run\n0 1000\n"
        "ob=(2) /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so\nfn=(2) rasterise\n0 300\n"
        "cob=(3) ???\ncfn=(3) 0x1234\ncalls=1 0\n"
        f"0 {2**64 - 50}\n"
        "ob=(3)\nfn=(3)\n0 200\n"
    )
    # 1500 in all; the driver's 300 and its call's -50 are the GL's.
    assert callgrind.split_costs(dump) == (1250, 250)


def test_the_next_scenarios_language_builds_no_screen_for_the_last_table(window, tmp_path):
    """Between scenarios the kiosk takes the next language from home: the
    table screen of the scenario just counted is not built again in that
    language (under valgrind, some 16 builds a run for nothing); the next
    table's is built in it."""
    from ui_helpers import frames, show

    from companion.games.base import Fate, Setup
    from companion.table import EventStore, Table
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import KioskSettings

    store = EventStore(tmp_path / "g.sqlite3")
    setup = Setup(game="coup", seats=["A", "B", "C"], options={"first": 0})
    kiosk = Kiosk(
        store,
        Table.start(store, setup, fate=Fate(seed=1)),
        lang="en",
        settings=KioskSettings(tmp_path / "k.ini"),
    )
    show(window, kiosk, (800, 480))
    pi_budget._set_language(kiosk, "fa")
    frames(2)
    assert kiosk.lang == "fa" and list(kiosk.kept) == ["en"]
    kiosk.show_table(Table.start(store, setup, fate=Fate(seed=2)))
    frames(2)
    assert list(kiosk.kept) == ["fa"] and kiosk.table_screen.lang == "fa"
