"""From the last press of a ballot to its reveal committed: the time a table
waits between the last seat pressing and every vote being safe on disk.

The path is the real one, through either input:

- gpio: a seat's button (gpiozero MockFactory pins driven from another
  thread, as lgpio's callback thread would) and our debouncer;
- pad: the vote pad's firmware logic on a pty pair (the simulated twin) and
  the host driver's reader thread; the clock starts when the pad writes the
  press frame (on the hardware its debounce holds the frame 10 ms first);

then the hand-over to the asyncio loop, ``Controls``, ``Table.execute`` and
the SQLite commit (WAL, synchronous=FULL) of the vote and the reveal; the
clock stops in the table's listener, which runs after the commit. Six seats
vote Nein in Secret Hitler elections (physical mode); every election fails,
so the presidency moves on and another ballot opens.
"""

from __future__ import annotations

import asyncio
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.devices.controls import Controls
from companion.devices.gpio import GpioTable
from companion.devices.pad import SerialPad
from companion.devices.pad_sim import PadSimulator, PtyLink
from companion.devices.pinmap import load_pinmap
from companion.devices.press import loop_delivery
from companion.games.base import Fate, Setup
from companion.table import Committed, EventStore, Table

from .report import latency_figures

BALLOTS = 300
SEATS = 6
NEIN = 1  # the second button
# How long the first presses of a ballot may take to reach the table, and
# its reveal to follow the last: on an idle machine some milliseconds, on a
# loaded one (two cores, a callgrind run beside) the pad's thread, the
# driver's reader and the loop wait their turns for seconds. None is lost on
# the way (the pad resends a frame until the host acknowledges it), so the
# wait is long, not a measure: only a link that stopped should end the run.
ARRIVAL_SECONDS = 60.0


def _new_table(store: EventStore) -> Table:
    setup = Setup(
        game="secret_hitler",
        seats=[f"P{i}" for i in range(SEATS)],
        mode="physical",
        options={"first": 0},
    )
    return Table.start(store, setup, fate=Fate(seed=1))


def _open_ballot(table: Table) -> bool:
    """Nominate a chancellor if the game waits for one; True once a ballot is open."""
    view = table.public_view()
    if view["phase"] == "election":
        return True
    for command in table.legal_commands():
        if command["type"] == "nominate":
            table.execute(command)
            return table.public_view()["phase"] == "election"
    return False


async def gpio_latencies(directory: Path) -> list[float]:
    from gpiozero.pins.mock import MockFactory

    loop = asyncio.get_running_loop()
    factory = MockFactory()
    store = EventStore(directory / "gpio.sqlite3")
    table = _new_table(store)
    closed = asyncio.Event()
    stamps: dict[str, float] = {}

    def committed(changed: Committed) -> None:
        if changed.events and changed.events[-1]["type"] == "ballot" and "pressed" in stamps:
            stamps["revealed"] = time.perf_counter()
            closed.set()

    table.subscribe(committed)
    controls = Controls(table, [], loop=loop)
    pinmap = load_pinmap()
    latencies: list[float] = []
    with GpioTable(pinmap, loop_delivery(loop, controls.handle), factory=factory):
        pins = {seat.seat: factory.pin(seat.buttons[NEIN]) for seat in pinmap.seats}
        while len(latencies) < BALLOTS:
            if not _open_ballot(table):
                table = _new_table(store)  # the game ended: the next one
                table.subscribe(committed)
                controls.session.switch(table)
                continue
            for seat in range(SEATS - 1):
                pins[seat].drive_low()
            await _settled(table, SEATS - 1)
            stamps.clear()
            closed.clear()
            last = pins[SEATS - 1]

            def press_last(last=last) -> None:
                stamps["pressed"] = time.perf_counter()
                last.drive_low()

            threading.Thread(target=press_last).start()
            await asyncio.wait_for(closed.wait(), ARRIVAL_SECONDS)
            latencies.append(stamps["revealed"] - stamps["pressed"])
            await asyncio.sleep(0.03)  # past the debounce settle time
            for pin in pins.values():
                pin.drive_high()
            await asyncio.sleep(0.03)
    store.close()
    return latencies


async def pad_latencies(
    directory: Path,
    ballots: int = BALLOTS,
    between_steps: Callable[[PadSimulator], None] | None = None,
) -> list[float]:
    """``between_steps``: run by the simulator's thread after each of its
    steps (tests/test_bench_press_latency.py holds it up, as a loaded
    machine does)."""
    loop = asyncio.get_running_loop()
    store = EventStore(directory / "pad.sqlite3")
    table = _new_table(store)
    closed = asyncio.Event()
    revealed: list[float] = []

    def committed(changed: Committed) -> None:
        if changed.events and changed.events[-1]["type"] == "ballot":
            revealed.append(time.monotonic())
            closed.set()

    table.subscribe(committed)
    controls = Controls(table, [], loop=loop)
    link = PtyLink(directory)
    pad = SerialPad(loop_delivery(loop, controls.handle), link.path)
    sim = PadSimulator(link, seats=SEATS)
    sim.between_steps = between_steps
    pad.start()
    sim.start()
    latencies: list[float] = []
    try:
        while not pad.status()["online"]:
            await asyncio.sleep(0.01)
        while len(latencies) < ballots:
            if not _open_ballot(table):
                table = _new_table(store)
                table.subscribe(committed)
                controls.session.switch(table)
                continue
            start = _pad_now_ms(sim, pad) + 5
            for seat in range(SEATS - 1):
                sim.press(start + 2 * seat, seat, NEIN)
            await _settled(table, SEATS - 1)
            closed.clear()
            revealed.clear()
            sim.sent_frames.clear()
            sim.record_sends = True
            sim.press(_pad_now_ms(sim, pad) + 2, SEATS - 1, NEIN)
            await asyncio.wait_for(closed.wait(), ARRIVAL_SECONDS)
            sim.record_sends = False
            sent = [at for at, frame in sim.sent_frames if frame.startswith(b"$P")]
            latencies.append(revealed[0] - sent[0])
            while not sim.script_done():
                await asyncio.sleep(0.005)
    finally:
        sim.stop()
        pad.stop()
        link.unplug()
        store.close()
    return latencies


def _pad_now_ms(sim: PadSimulator, pad: SerialPad) -> int:
    """The pad's clock now, as the host maps it to its own: when the presses
    are scheduled. The simulator's thread keeps its clock to real time, but
    on a loaded machine it runs late, and a press due at its ``now_ms`` was
    then mapped to before the ballot opened and refused as stale (the run
    stopped with "the presses did not reach the table")."""
    offset = pad.status()["clock_offset"]
    if offset is None:
        return sim.now_ms
    return max(sim.now_ms, round((time.monotonic() - offset) * 1000))


async def _settled(table: Table, voters: int) -> None:
    """Wait until ``voters`` votes of the open ballot are in."""
    deadline = time.monotonic() + ARRIVAL_SECONDS
    while time.monotonic() < deadline:
        ballot = table.public_view()["ballot"]
        if ballot is not None and len(ballot["voted"]) >= voters:
            return
        await asyncio.sleep(0.001)
    raise RuntimeError(f"the presses did not reach the table in {ARRIVAL_SECONDS:.0f} s")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        latency_figures("ballot.last_press_to_reveal.gpio", asyncio.run(gpio_latencies(Path(tmp))))
        latency_figures("ballot.last_press_to_reveal.pad", asyncio.run(pad_latencies(Path(tmp))))


if __name__ == "__main__":
    main()
