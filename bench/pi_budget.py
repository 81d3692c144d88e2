"""The Pi's budget: the instructions the kiosk's CPU runs for what a player
does, counted by callgrind (bench/callgrind.py says why not perf), and the
time that makes on a Raspberry Pi 4 and 5 (bench/pi_rate.py: the
conversion and its sources).

What is counted, in a real kiosk (Kivy window at 800×480, off-screen
through Mesa), a real table on SQLite, the phone server and the seats'
LEDs on gpiozero's mock pins:

1. ``<step>.execute``: ``Table.execute`` of the busiest step of each game
   and every listener it calls (the kiosk screen's refresh, the phone
   server, the LEDs); ``<step>.phones``: the state each phone is sent
   (every seat's, in the seats' languages, and ``/table``'s), as the
   sockets' feeds make them; ``<step>.frame``: the kiosk's next frame (its
   clock, layout and text rendering, and the drawing calls). ``<step>``
   is their sum: the whole answer to one command. The steps:
   a Secret Hitler ballot reveal at 10 seats, an Article 27 vote settled
   with bribes on the table at 6, a G54 turn whose Disappear token comes
   due at 6, a Coup challenge at 6. Each is found by a seeded random
   playout (the first such step), replayed uncounted, then counted, once
   with the kiosk in each language (``<step>.<lang>.<part>``; the phones'
   languages stay mixed).
2. ``reveal_frame``: each frame of the 10-seat ballot reveal's animation
   (stretched in time as valgrind slows the process: _count_reveal).
3. ``language_switch.<from>_to_<to>`` (the table screen in another
   language put in sight, as the kiosk kept it, and its frame) for the 12
   ordered pairs of languages,
   ``screen_change`` (home, then back to the table, each with its frame)
   and ``cold_start`` (a new process, from its first instruction to the
   first frame of a resumed 10-seat table, its cache prepared beforehand).

Every count leaves out the instructions of Mesa's GL driver (llvmpipe's
rasterisation, which a Pi's GPU does); the rest of a frame's drawing (Kivy
walking its canvas and calling GL) is counted. Not counted: the time the
SD card takes to read files at a cold start, and sockets' sending (a
write per phone).

Run: ``python -m bench.pi_budget`` (under ``./scripts/bench``). The counts
of (1) are kept in ``bench/instructions.json`` (``python -m
bench.pi_budget --record`` writes them, in CREEP_LANGS); tests/test_pi_budget.py
fails a run in which one grows by more than 20%. Each step starts after a
garbage collection, so that its count does not depend on when the last one
ran, and after the narrator's rendering thread is done (_quiet).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import callgrind, pi_rate
from .report import figure

RECORDED = Path(__file__).with_name("instructions.json")
GROWTH = 1.2  # a count more than 20% over its recorded one fails the creep test
RECORD_RUNS = 2  # --record keeps the highest count of this many runs
LANGS = ("en", "el", "ru", "fa")  # the phones' languages, seat by seat in turn
# The kiosk's languages each step is counted in: all four in the full run,
# English and Persian (the reference, and the costliest text: right to left,
# shaped) in the creep test, which runs in CI and must stay short.
KIOSK_LANGS = LANGS
CREEP_LANGS = ("en", "fa")
# The language switches counted: a circuit through all 12 ordered pairs of
# LANGS, each switch from the language the one before switched to. It starts
# where the 10-seat reveal was last counted (KIOSK_LANGS[-1]), after every
# language's lines were spoken once (see _quiet).
SWITCHES = ("fa", "en", "ru", "el", "fa", "ru", "en", "fa", "el", "en", "el", "ru", "fa")
TIME_PASSES = 0.15  # how often the playout lets a running timer run out instead of acting
MAX_COMMANDS = 3000
SEEDS = 40
FRAMES_TO_SETTLE = 6
VALGRIND_SLOWDOWN = 50  # about how much slower a process runs under callgrind
PARTS = ("execute", "phones", "frame")  # of a step, counted one by one


@dataclass(frozen=True)
class Scenario:
    """A game's busiest step: the first command of a seeded playout that
    ``wanted(command, before, after)`` says is it (views before and after)."""

    name: str
    game: str
    players: int
    mode: str
    wanted: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], bool]
    options: dict[str, Any] = field(default_factory=dict)
    prefer: frozenset[str] = frozenset()  # command types the playout picks when it can


def _reveals(command, before, after) -> bool:
    return command["type"] == "vote" and before.get("ballot") and not after.get("ballot")


def _settles_with_bribes(command, before, after) -> bool:
    return _reveals(command, before, after) and len(before.get("bribes", [])) >= 2


def _token_due(command, before, after) -> bool:
    return after["phase"] == "disappear" and before["phase"] != "disappear"


def _challenge(command, before, after) -> bool:
    return command["type"] == "challenge"


SCENARIOS = (
    Scenario("secret_hitler.ballot_reveal", "secret_hitler", 10, "physical", _reveals),
    Scenario(
        "article27.vote_with_bribes",
        "article27",
        6,
        "keeper",
        _settles_with_bribes,
        prefer=frozenset({"offer", "accept"}),
    ),
    Scenario(
        "g54.token_due",
        "g54",
        6,
        "keeper",
        _token_due,
        options={"set": "mercenary"},  # the five of ROLES that hold it (_g54_set)
        prefer=frozenset({"act"}),
    ),
    Scenario("coup.challenge", "coup", 6, "keeper", _challenge),
)


class HandClock:
    """The table's clock, moved by the playout (a timer let run out)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _setup(scenario: Scenario):
    from companion.games.base import Setup

    options = dict(scenario.options)
    if scenario.game == "g54":
        options["set"] = _g54_set(options["set"])
    return Setup(
        game=scenario.game,
        seats=[f"Player {i + 1}" for i in range(scenario.players)],
        mode=scenario.mode,
        options={"first": 0, **options},
    )


def _g54_set(character: str) -> list[str]:
    """Five characters that include ``character``: its five in the rulebook's order."""
    from companion.games.g54.roles import ROLES

    names = [role.name for role in ROLES]
    start = names.index(character) // 5 * 5
    return names[start : start + 5]


def _new_table(store, scenario: Scenario, seed: int):
    from companion.games.base import Fate
    from companion.table import Table

    clock = HandClock()
    table = Table.start(store, _setup(scenario), fate=Fate(seed=seed), clock=clock)
    return table, clock


Step = tuple[str, Any]  # ("command", command) or ("wait", seconds)


def find_steps(scenario: Scenario, directory: Path) -> tuple[int, list[Step]]:
    """(seed, steps): a playout whose last step is the one wanted."""
    from companion.table import EventStore

    for seed in range(SEEDS):
        store = EventStore(directory / f"find-{scenario.name}-{seed}.sqlite3")
        try:
            steps = _play_to(scenario, *_new_table(store, scenario, seed), random.Random(seed))
        finally:
            store.close()
        if steps is not None:
            return seed, steps
    raise RuntimeError(f"no playout of {SEEDS} reached {scenario.name}")


def _play_to(scenario: Scenario, table, clock: HandClock, rng: random.Random) -> list[Step] | None:
    steps: list[Step] = []
    for _ in range(MAX_COMMANDS):
        if table.is_over:
            return None
        timer = table.timer()
        if timer and timer.get("running") and rng.random() < TIME_PASSES:
            steps.append(("wait", timer["remaining"] + 1))
            clock.now += timer["remaining"] + 1
            table.tick()
            continue
        commands = table.legal_commands()
        preferred = [c for c in commands if c["type"] in scenario.prefer]
        command = dict(rng.choice(preferred if preferred and rng.random() < 0.5 else commands))
        before = table.public_view()
        table.execute(command)
        steps.append(("command", command))
        if scenario.wanted(command, before, table.public_view()):
            return steps
    return None


def _replay(table, clock: HandClock, steps: list[Step]) -> None:
    for kind, value in steps:
        if kind == "wait":
            clock.now += value
            table.tick()
        else:
            table.execute(dict(value))


def _gpio_leds(players: int):
    """A pin map with a button and a "voted" LED at every seat (on mock pins)."""
    from gpiozero.pins.mock import MockFactory

    from companion.devices.gpio import GpioTable
    from companion.devices.pinmap import parse_pinmap

    pins = iter([4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27])
    text = "buzzer = 12\n" + "".join(
        f"[seats.{seat + 1}]\nbuttons = [{next(pins)}]\nled = {next(pins)}\n"
        for seat in range(players)
    )
    return GpioTable(parse_pinmap(text), lambda press: None, factory=MockFactory())


class Kiosk:
    """A real kiosk in an off-screen window, frame by frame."""

    def __init__(self, directory: Path) -> None:
        os.environ.update(KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON", LP_NUM_THREADS="0")
        os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
        from companion.ui.app import configure_kivy

        configure_kivy((800, 480))
        from kivy.base import EventLoop
        from kivy.config import Config

        Config.set("graphics", "maxfps", "0")
        from companion.table import EventStore
        from companion.ui.kiosk import Kiosk as KioskScreens
        from companion.ui.system.kiosk_settings import KioskSettings
        from companion.ui.text.fonts import use_dejavu

        EventLoop.ensure_window()
        self.loop = EventLoop
        use_dejavu()
        self.store = EventStore(directory / "kiosk.sqlite3")
        self.screens = KioskScreens(
            self.store,
            None,
            settings=KioskSettings(directory / "kiosk.ini"),
            sounds_dir=directory / "sounds",
        )
        EventLoop.window.add_widget(self.screens)
        self.screens.sounds.prepare()  # once per install, never in a step
        self.settle()

    def frame(self) -> None:
        """One frame: Kivy's clock, input, layout and text, then the drawing."""
        self.loop.idle()

    def settle(self) -> None:
        for _ in range(FRAMES_TO_SETTLE):
            self.frame()


class Listeners:
    """Everything that follows a table at a kiosk with phones and LEDs."""

    def __init__(self, kiosk: Kiosk, table) -> None:
        from companion.devices.controls import Controls
        from companion.web.server import TableServer

        self.table = table
        kiosk.screens.show_table(table)
        self.server = TableServer(table)
        self._sent: dict[int, Any] = {}  # by seat: the state its phone was sent
        self.leds = _gpio_leds(table.setup.players)
        self.loop = asyncio.new_event_loop()
        self.controls = Controls(table, outputs=[self.leds], loop=self.loop)

    def phones(self) -> None:
        """What every seat's phone and a /table page are sent now (a seat's
        frame is deflated after the state its phone was sent before)."""
        for seat in range(self.table.setup.players):
            message = self.server.seat_message(seat, LANGS[seat % len(LANGS)])
            self.server.seat_frame(message, self._sent.get(seat))
            self._sent[seat] = message
        self.server.table_text("en")

    def close(self) -> None:
        """The pins and the loop (the table is done with: nothing follows it)."""
        self.leds.close()
        self.loop.close()


def count_steps(
    directory: Path, meter: callgrind.Meter, reveal: bool, langs: tuple[str, ...]
) -> None:
    """Child: (1) for every scenario with the kiosk in each of ``langs``
    (the phones' languages stay mixed), then (2) and the switches on the
    10-seat reveal."""
    kiosk = Kiosk(directory)
    found = [(scenario, *find_steps(scenario, directory)) for scenario in SCENARIOS]
    if reveal and meter.counting:
        _stretch_reveal()
    for scenario, seed, steps in found:
        for lang in langs:
            _set_language(kiosk.screens, lang)
            table, clock = _new_table(kiosk.store, scenario, seed)
            _replay(table, clock, steps[:-1])
            listeners = Listeners(kiosk, table)
            kiosk.settle()
            _quiet()
            listeners.phones()  # the state before: the phones have it already
            last = dict(steps[-1][1])
            name = f"{scenario.name}.{lang}"
            gc.collect()  # each step starts from the same collector's state
            with meter.stretch(f"{name}.execute"):
                table.execute(last)
            with meter.stretch(f"{name}.phones"):
                listeners.phones()
            with meter.stretch(f"{name}.frame"):
                kiosk.frame()
            if reveal and scenario.game == "secret_hitler":
                _count_reveal(kiosk, meter)
                if lang == SWITCHES[0]:
                    _count_switches(kiosk, meter)
            listeners.close()


def _set_language(screens: Any, lang: str) -> None:
    """The kiosk in ``lang`` before the next table is shown: from home, so
    that the last table's screen is not built in ``lang`` for nothing (a
    table screen in sight is built again in the new language)."""
    screens.go_home()
    screens.set_language(lang)


def _quiet() -> None:
    """Wait for the narrator's rendering thread. A table screen, built,
    has the lines its game may say rendered in the background (espeak-ng
    into the speech cache, or found there), narration on or off; callgrind
    counts every thread, so that work, landing in whichever stretch it
    overlapped, made a step's count depend on the machine's timing (the
    creep test once failed on a Coup challenge 51% over its count)."""
    for thread in threading.enumerate():
        if thread.name == "narrator-render":
            thread.join()


def _count_reveal(kiosk: Kiosk, meter: callgrind.Meter) -> None:
    ballot = kiosk.screens.table_screen.ids.ballot
    while ballot.revealing:
        with meter.stretch("reveal_frame"):
            kiosk.frame()
    kiosk.settle()


def _stretch_reveal() -> None:
    """The reveal's animation runs on Kivy's clock, which reads the wall
    clock, and valgrind runs the process some 50 times slower: as it is, the
    animation would be over in a frame or two, each turning the chips
    further than a real frame does. So it is stretched by as much."""
    from companion.ui.widgets import ballot_view

    ballot_view.REVEAL_SECONDS *= VALGRIND_SLOWDOWN


def _count_switches(kiosk: Kiosk, meter: callgrind.Meter) -> None:
    """Each ordered pair of languages in SWITCHES: the table screen in the
    next language put in sight, and its frame; then home and back. The
    app's kiosk builds the table screen in its other languages while
    nothing happens (Kiosk.prepare_language, some 15 s of a quiet table);
    here they are built first, uncounted, as a table that has been quiet
    for that long has them. A switch sooner builds the screen: about twice
    what a kept one costs (docs/benchmarks.md, the language switch)."""
    for lang in KIOSK_LANGS:
        kiosk.screens.prepare_language(lang)
    kiosk.settle()
    _quiet()
    for source, target in zip(SWITCHES, SWITCHES[1:]):
        with meter.stretch(f"language_switch.{source}_to_{target}"):
            kiosk.screens.set_language(target)
            _quiet()  # its lines, already rendered: found in the cache
            kiosk.frame()
        kiosk.settle()
    with meter.stretch("screen_change.home"):
        kiosk.screens.go_home()
        kiosk.frame()
    kiosk.settle()
    with meter.stretch("screen_change.table"):
        kiosk.screens.resume()
        kiosk.frame()
    kiosk.settle()


def cold_start(directory: Path, meter: callgrind.Meter) -> None:
    """Child: a resumed 10-seat table, counted from the process's start
    (valgrind instruments from the first instruction) to its first frame."""
    from companion.ui.app import configure_kivy

    configure_kivy((800, 480))
    from kivy.app import App
    from kivy.clock import Clock

    from companion.table import EventStore, Table
    from companion.ui.kiosk import Kiosk as KioskScreens
    from companion.ui.text.fonts import use_dejavu

    class Started(App):
        def build(self):
            use_dejavu()
            store = EventStore(directory / "start.sqlite3")
            return KioskScreens(store, Table.resume(store))

        def on_start(self):
            Clock.schedule_once(self._drawn, 0)

        def _drawn(self, _dt):
            meter.mark("cold_start")
            self.stop()

    Started().run()


def _prepare_cold_start(directory: Path, env: dict[str, str]) -> None:
    """The resumed table's store, and the cache (``env``'s) as a kiosk has
    it after its first start: the sounds synthesised and the game's spoken
    lines rendered, uncounted. The child's cache is never the machine's
    ``~/.cache``: there the first run on a machine synthesised the sounds
    within the count (+1.35 G instructions), and later runs found them."""
    from companion.games.base import Fate, Setup
    from companion.i18n import Messages
    from companion.paths import APP_DIR
    from companion.speech.cache import SpeechCache
    from companion.speech.voices import VoiceError, find_voice
    from companion.table import EventStore, Table
    from companion.ui.system.sounds import write_sounds

    cache = Path(env["XDG_CACHE_HOME"]) / APP_DIR
    write_sounds(cache / "sounds")
    store = EventStore(directory / "start.sqlite3")
    setup = Setup(game="secret_hitler", seats=[f"P{i}" for i in range(10)], options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=1))
    voice = find_voice("en", Path(env["XDG_DATA_HOME"]) / APP_DIR / "voices")
    if voice is not None:
        speech = SpeechCache(cache / "speech", voice)
        for line in table.spec.words.spoken_lines(Messages("en", table.names)):
            try:
                speech.render(line)
            except (OSError, VoiceError):
                pass  # the kiosk tries again, in the background, as it would
    store.close()


def child_env(directory: Path, what: str) -> dict[str, str]:
    """The environment a child ``what`` is counted in, prepared in
    ``directory`` (for a cold start: its store and cache)."""
    env = {"KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1"}
    env["PYTHONHASHSEED"] = "0"  # the same hashes, the same dicts' work, run after run
    # The child's cache and data are its own, not the machine's (whatever
    # sounds, spoken lines or voices an earlier run or a person left there).
    env["XDG_CACHE_HOME"] = str(directory / "cache")
    env["XDG_DATA_HOME"] = str(directory / "data")
    if what == "cold_start":
        _prepare_cold_start(directory, env)
    return env


def counts(directory: Path, what: str) -> dict[str, list[callgrind.Count]]:
    """Run a child under callgrind; its counts by stretch name."""
    env = child_env(directory, what)
    found = callgrind.run(
        ["-m", "bench.pi_budget", what, str(directory)],
        directory / f"callgrind-{what}",
        env=env,
        from_start=what == "cold_start",
    )
    named: dict[str, list[callgrind.Count]] = {}
    for count in found:
        named.setdefault(count.name, []).append(count)
    return named


def step_counts(directory: Path) -> dict[str, int]:
    """(1): each scenario's parts with the kiosk in CREEP_LANGS, in CPU
    instructions."""
    named = counts(directory, "steps")
    return {name: found[0].cpu for name, found in named.items()}


def recorded() -> dict[str, int]:
    """The counts of (1) kept in the repository (``--record`` writes them)."""
    return json.loads(RECORDED.read_text())["instructions"]


def record(runs: int = RECORD_RUNS) -> None:
    """Write each step's count, the highest of ``runs`` runs: a count moves
    a little from run to run (a collection, a clock event due in the frame
    or not; under 5% since the scroll bars stopped fading), and the creep
    test should fail a change, not a run."""
    found: dict[str, int] = {}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            for name, count in step_counts(Path(tmp)).items():
                found[name] = max(found.get(name, 0), count)
    text = {
        "about": "CPU instructions (x86-64, callgrind) of each step's parts: bench/pi_budget.py",
        "instructions": dict(sorted(found.items())),
    }
    RECORDED.write_text(json.dumps(text, indent=2) + "\n")


def _figures(name: str, instructions: float) -> None:
    figure(f"pi.{name}.instructions", instructions, "instructions", "lower")
    figure(f"pi.{name}.pi4_ms", pi_rate.pi4_ms(instructions), "ms", "lower")
    figure(f"pi.{name}.pi4_1500_ms", pi_rate.pi4_1500_ms(instructions), "ms", "lower")
    figure(f"pi.{name}.pi5_ms", pi_rate.pi5_ms(instructions), "ms", "lower")


def main() -> None:
    reason = callgrind.available()
    if reason is not None:
        print(f"pi_budget: skipped: {reason}", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        named = counts(Path(tmp), "all")
        for scenario in SCENARIOS:
            for lang in KIOSK_LANGS:
                name = f"{scenario.name}.{lang}"
                parts = [named[f"{name}.{part}"][0].cpu for part in PARTS]
                for part, value in zip(PARTS, parts):
                    _figures(f"{name}.{part}", value)
                _figures(name, sum(parts))
                # What the frame's count leaves out: Mesa's rasterising, a Pi's GPU's work.
                drawn = named[f"{name}.frame"][0].gl
                figure(f"pi.{name}.frame.gl_left_out", drawn, "instructions", "lower")
        frames = sorted(count.cpu for count in named["reveal_frame"])
        _figures("reveal_frame.p50", frames[len(frames) // 2])
        _figures("reveal_frame.max", frames[-1])
        switches = [
            named[f"language_switch.{source}_to_{target}"][0].cpu
            for source, target in zip(SWITCHES, SWITCHES[1:])
        ]
        for (source, target), value in zip(zip(SWITCHES, SWITCHES[1:]), switches):
            _figures(f"language_switch.{source}_to_{target}", value)
        _figures("language_switch", max(switches))  # the worst pair
        for name in ("screen_change.home", "screen_change.table"):
            _figures(name, named[name][0].cpu)
    with tempfile.TemporaryDirectory() as tmp:
        _figures("cold_start", counts(Path(tmp), "cold_start")["cold_start"][0].cpu)


def _child(what: str, directory: Path) -> None:
    meter = callgrind.Meter()
    if what == "cold_start":
        cold_start(directory, meter)
    else:
        every = what == "all"
        count_steps(directory, meter, reveal=every, langs=KIOSK_LANGS if every else CREEP_LANGS)


if __name__ == "__main__":
    if len(sys.argv) == 3:
        _child(sys.argv[1], Path(sys.argv[2]))
    elif sys.argv[1:] == ["--record"]:
        record()
    else:
        main()
