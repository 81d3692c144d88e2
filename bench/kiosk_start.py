"""The kiosk's cold start and its frames, in a real Kivy window (off-screen
through Mesa here, as in the tests).

- ``kiosk.cold_start_ratio``: a fresh process, from its start to the first
  frame after the kiosk has built its screens (a Secret Hitler table resumed
  from its store, the home screen behind it), divided by the same for a bare
  Kivy hello world started the same way. Medians of ``RUNS`` each,
  alternating. Target: ≤ 1.5.
- ``kiosk.cold_start_ms`` and ``kiosk.hello_world_ms``: the two medians.
- ``kiosk.reveal_frame.{p50,p99}``: the time to draw each frame while a
  10-seat Secret Hitler election is revealed on the table screen at
  800×480 (the animation running, frames uncapped, each one timed until the
  GL has finished drawing it: Mesa's llvmpipe, on the CPU here). Target:
  median ≤ 16.7 ms.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.ui.app import configure_kivy

from .report import figure, latency_figures

RUNS = 7
REVEALS = 8  # elections revealed
READY = "first-frame"


def _child_environment() -> dict[str, str]:
    env = dict(
        os.environ,
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_LOG_MODE="PYTHON",
    )
    env.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    return env


def _time_start(kind: str, db: Path) -> float:
    """Seconds from spawning a child to its first frame. Both processes read
    the same system-wide monotonic clock, so the child's exit is not counted."""
    start = time.monotonic()
    child = subprocess.run(
        [sys.executable, "-m", "bench.kiosk_start", kind, str(db)],
        capture_output=True,
        text=True,
        env=_child_environment(),
        timeout=120,
    )
    if READY not in child.stdout:
        raise RuntimeError(f"{kind} never drew a frame: {child.stderr[-2000:]}")
    return float(child.stdout.split(READY)[1].split()[0]) - start


def _prepare_store(db: Path) -> None:
    from companion.games.base import Fate, Setup
    from companion.table import EventStore, Table

    store = EventStore(db)
    setup = Setup(game="secret_hitler", seats=[f"P{i}" for i in range(10)], options={"first": 0})
    Table.start(store, setup, fate=Fate(seed=1))
    store.close()


def _child(kind: str, db: str) -> None:
    """Run one app until its first frame is drawn; say when that was. Both
    apps open the kiosk's window (its size, no multisampling)."""
    configure_kivy((1280, 720))
    from kivy.app import App
    from kivy.clock import Clock

    class Timed(App):
        def build(self):
            if kind == "hello":
                from kivy.uix.label import Label

                return Label(text="Hello")
            from companion.table import EventStore, Table
            from companion.ui.kiosk import Kiosk
            from companion.ui.text.fonts import use_dejavu

            use_dejavu()
            store = EventStore(db)
            return Kiosk(store, Table.resume(store))

        def on_start(self):
            Clock.schedule_once(self._drawn, 0)

        def _drawn(self, _dt):
            self.drawn_at = time.monotonic()
            self.stop()

    app = Timed()
    app.run()
    print(READY, app.drawn_at, flush=True)


def cold_starts() -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "start.sqlite3"
        _prepare_store(db)
        _time_start("hello", db)  # warm the file cache once for both
        kiosk, hello = [], []
        for _ in range(RUNS):
            hello.append(_time_start("hello", db))
            kiosk.append(_time_start("kiosk", db))
    return kiosk, hello


def reveal_frames(directory: Path) -> list[float]:
    """Draw the table screen while a 10-seat election's votes turn, frame
    by frame as fast as the GPU allows, and time each frame's work."""
    os.environ.update(KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON")
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    configure_kivy((800, 480))
    from kivy.base import EventLoop
    from kivy.config import Config
    from kivy.graphics.opengl import glFinish

    Config.set("graphics", "maxfps", "0")
    from companion.games.base import Fate, Setup
    from companion.table import EventStore, Table, seat_source
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import KioskSettings
    from companion.ui.text.fonts import use_dejavu

    EventLoop.ensure_window()
    window = EventLoop.window
    use_dejavu()
    store = EventStore(directory / "reveal.sqlite3")
    setup = Setup(
        game="secret_hitler", seats=[f"Player {i + 1}" for i in range(10)], options={"first": 0}
    )
    kiosk = Kiosk(
        store,
        None,
        settings=KioskSettings(directory / "kiosk.ini"),
        sounds_dir=directory / "sounds",
    )
    window.add_widget(kiosk)
    kiosk.sounds.prepare()  # once per install: the sounds' files, made before timing
    times: list[float] = []
    for game in range(REVEALS):  # a new game each time: the first election
        table = Table.start(store, setup, fate=Fate(seed=game))
        kiosk.show_table(table)
        ballot = kiosk.table_screen.ids.ballot
        nominee = next(c for c in table.legal_commands() if c["type"] == "nominate")
        table.execute(dict(nominee))
        for _ in range(5):
            EventLoop.idle()
        for seat in range(10):
            table.execute(
                {"type": "vote", "seat": seat, "choice": "nein"}, source=seat_source(seat)
            )
        glFinish()
        while ballot.revealing:  # the animation runs on Kivy's clock
            start = time.perf_counter()
            EventLoop.idle()
            glFinish()  # the frame counts once it is drawn, not queued
            times.append(time.perf_counter() - start)
    window.remove_widget(kiosk)
    store.close()
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        latency_figures("kiosk.reveal_frame", reveal_frames(Path(tmp)))
    kiosk, hello = cold_starts()
    figure("kiosk.cold_start_ms", statistics.median(kiosk) * 1000, "ms", "lower")
    figure("kiosk.hello_world_ms", statistics.median(hello) * 1000, "ms", "lower")
    figure(
        "kiosk.cold_start_ratio",
        statistics.median(kiosk) / statistics.median(hello),
        "ratio",
        "lower",
    )


if __name__ == "__main__":
    if len(sys.argv) == 3:
        _child(sys.argv[1], sys.argv[2])
    else:
        main()
