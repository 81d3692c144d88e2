"""No seat's secret ever reaches the broker: random keeper-mode playouts of
every game through a real Mosquitto, every payload under ``companion/#``
recorded (as tests/test_web_secrecy.py records what phones receive).

Each status must be made of public things only: its fields are the ones
docs/cafe.md lists, every word in it is one the public table shows (a name,
a phase, the game, ...), and its progress, players and timer are those of a
public view the table had. And no word that only a private view ever held
(a hidden role, a hand, an agenda, a vote not yet revealed) is in any."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest
from a27_helpers import FakeClock
from mqtt_helpers import Mosquitto, Publishing, Recorder
from status_lines import status_lines

from companion import __version__
from companion.fleet.status import PROGRESS, progress, public_timer
from companion.games.base import Fate, Setup
from companion.table import LOCAL, Table, seat_source

GAMES = [
    ("coup", 4, {"direction": "clockwise", "response_seconds": 30}),
    ("g54", 4, {"advanced": True}),
    ("secret_hitler", 5, {}),
    ("article27", 4, {}),
]
STEPS = 120
FIELDS = {"table", "version", "state", "game", "mode", "game_id", "started_at", "players", "line"}
FIELDS |= {"timer", "screen", "health", *PROGRESS}
HEALTH = {"phones", "disk_free", "cpu_temp", "throttled", "pad", "gpio", "last_error"}


def words(value: Any) -> set[str]:
    """Every string in a JSON value, keys aside."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(words, value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*map(words, value)) if value else set()
    return set()


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def public_part(table: Table, view: dict[str, Any]) -> str:
    """What a status takes from a public view: its progress, names and timer,
    and the game's status line, worded from that view alone."""
    names = [p["name"] for p in view["players"]]
    timer = public_timer(view.get("timer"))
    line = status_lines(table, view, names)
    return canonical({**progress(view), "names": names, "timer": timer, "line": line})


def status_part(status: dict[str, Any]) -> str:
    """The same, as a status carries it."""
    names = status["players"]["names"]
    part = {**progress(status), "names": names, "timer": status["timer"], "line": status["line"]}
    return canonical(part)


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    mosquitto = Mosquitto(tmp_path_factory.mktemp("broker"))
    mosquitto.start()
    yield mosquitto
    mosquitto.stop()


@pytest.mark.parametrize("game, players, options", GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_published_status_holds_a_secret(store, broker, game, players, options, seed):
    clock = FakeClock()
    setup = Setup(
        game=game,
        seats=[f"P{i}" for i in range(players)],
        mode="keeper",
        options={"first": 0, **options},
    )
    table = Table.start(store, setup, fate=Fate(seed=seed), clock=clock)
    pick = random.Random(seed)
    name = f"{game}-{seed}"
    recorder = Recorder(broker.port)
    # Each moment's public part, its public words, and its secrets: the
    # words of the seats' private views that its public view does not hold.
    moments: dict[str, list[tuple[set[str], set[str]]]] = defaultdict(list)
    hidden: set[str] = set()  # what private views held that no public view had

    def note() -> None:
        view = table.public_view()
        public = words(view)
        privates = [table.private_view(seat) for seat in range(players)]
        moments[public_part(table, view)].append(
            (public, set().union(*map(words, privates)) - public)
        )
        hidden.update(k for p in privates for k, v in p.items() if v and k not in view)

    try:
        with Publishing(table, broker, name=name, clock=clock, min_interval=0) as fleet:
            note()
            for _ in range(STEPS):
                if table.is_over:
                    break
                command = dict(pick.choice(list(table.legal_commands())))
                seat = command.get("seat")
                table.execute(command, source=seat_source(seat) if isinstance(seat, int) else LOCAL)
                note()
                clock.advance(pick.choice([0, 0, 1.5]))
                fleet.reporter.tick()
                note()
                fleet.settle()
        recorder.wait_for(f"companion/{name}/online", lambda s: s == {"online": False})
    finally:
        recorder.close()

    mine = [(t, p) for t, p, _r in recorder.messages if t.startswith(f"companion/{name}/")]
    assert {t for t, _p in mine} == {f"companion/{name}/status", f"companion/{name}/online"}
    statuses = [json.loads(p) for t, p in mine if t.endswith("/status")]
    assert len(statuses) > 10
    assert hidden - {"seat", "name"}, "the seats held what the table did not see"
    fixed = {name, __version__, "playing", "finished", game, "keeper"}
    for status in statuses:
        assert set(status) <= FIELDS and set(status["health"]) <= HEALTH
        # The line is the kiosk's, worded from a public view (status_part).
        said = words({**status, "line": None}) - fixed - {status["started_at"]}
        seen = moments.get(status_part(status), [])
        assert seen, "its progress, players and timer are a public view's"
        assert any(said <= public and not said & secrets for public, secrets in seen), said
