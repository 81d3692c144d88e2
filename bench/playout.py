"""The random-legal-command playout every engine benchmark runs: deal, then
pick uniformly among the legal commands until the game ends, counting the
commands the engine accepts. Votes belong to the table's ballot, so where the
engine opens one, ``vote`` draws every voter's choice and the closing
``ballot`` command counts as one action. Commands of the types in ``timed``
get the time stamp a table would give them."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from companion.games.base import Engine, Fate, Setup

Vote = Callable[[dict[str, Any], random.Random, int], dict[str, Any]]


def playouts(
    engine: Engine,
    game: str,
    players: int,
    games: int,
    seed: int,
    vote: Vote | None = None,
    timed: frozenset[str] = frozenset(),
    options: dict[str, Any] | None = None,
) -> tuple[int, float]:
    """Play ``games`` keeper-mode games; return (actions, seconds)."""
    pick = random.Random(seed)
    setup = Setup(
        game=game,
        seats=[f"P{i}" for i in range(players)],
        mode="keeper",
        options=dict(options or {}),
    )
    engine.check_setup(setup)
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        fate = Fate(seed=seed * 100003 + g)
        state = engine.new_state(setup)
        _settle(engine, state, fate)
        while not engine.is_over(state):
            commands = engine.legal_commands(state)
            if commands:
                command = pick.choice(commands)
                if timed and command["type"] in timed:
                    command = dict(command, at=0.0)
            else:  # the engine waits for a ballot
                command = vote(engine.ballot(state), pick, players)
            for event in engine.decide(state, command):
                engine.apply(state, event)
            event = engine.chance(state, fate)
            if event is not None:
                engine.apply(state, event)
                _settle(engine, state, fate)
            actions += 1
    return actions, time.perf_counter() - start


def _settle(engine: Engine, state: Any, fate: Fate) -> None:
    """Let the engine draw every random outcome it waits for."""
    event = engine.chance(state, fate)
    while event is not None:
        engine.apply(state, event)
        event = engine.chance(state, fate)


def best_rate(rounds: int, run: Callable[[int], tuple[int, float]]) -> tuple[float, float]:
    """The best (actions/s, seconds) of several rounds: this kind of machine's
    speed wanders, and the best round is the least disturbed."""
    best = max((run(r + 1) for r in range(rounds)), key=lambda x: x[0] / x[1])
    return best[0] / best[1], best[1]
