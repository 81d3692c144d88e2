"""Completeness: a rule the table accepts is one somebody can play. In
states reached by random legal playouts of every game, with the app keeping
the secrets and without, every command the engine says it accepts now
(``legal_commands``, which lists an open-ended command, such as a bribe of
any amount, by one of its kind) is accepted by the engine, and is offered:
on the shared screen (``shared_commands``), or on its seat's phone, as a
button (the game's ``phone_actions``) or by a form its words declare
(``phone_forms``) that can send it."""

from __future__ import annotations

import copy
import random
from typing import Any

from a27_helpers import FakeClock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import engine_for, spec_for
from companion.games.base import Fate, Setup
from companion.games.forms import produces
from companion.i18n import Messages
from companion.table import EventStore, Table
from companion.table.table import VOTE

GAMES = ("article27", "coup", "g54", "secret_hitler")
MODES = ("keeper", "physical")
STEPS = 400
playouts = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def phone_offers(table: Table, seat: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What the seat's phone offers now, as the phone server words it: its
    buttons' commands and its forms."""
    words = table.spec.words
    t = Messages("en", table.names)
    public, private = table.public_view(), table.private_view(seat)
    mine = table.phone_commands(seat)
    buttons = [a["command"] for a in words.phone_actions(mine, public, t, private)]
    return buttons, words.phone_forms(mine, public, t, private)


def unoffered(table: Table) -> list[dict[str, Any]]:
    """The commands the table accepts now that no screen or phone offers."""
    shared = [dict(c) for c in table.shared_commands()]
    phones = {seat: phone_offers(table, seat) for seat in range(table.setup.players)}
    state = copy.deepcopy(table.state)
    missing = []
    for command in map(dict, table.legal_commands()):
        if command["type"] != VOTE:  # a vote is the ballot box's, not the engine's
            table.engine.decide(state, {**command, "at": table.clock()})  # accepted, or raises
        if command in shared:
            continue
        seat = command.get("seat")
        buttons, forms = phones.get(seat, ([], []))
        if command in buttons or any(produces(form, command) for form in forms):
            continue
        missing.append(command)
    return missing


@playouts
@given(
    game=st.sampled_from(GAMES),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(0, 10),
    variant=st.integers(0, 59),
)
def test_every_command_the_table_accepts_is_offered_somewhere(game, mode, seed, size, variant):
    """``variant`` picks a value of each of the game's variants (Lie, Cheat
    and Steal, G54's advanced characters, a response window...)."""
    engine = engine_for(game)
    players = engine.min_players + size % (engine.max_players - engine.min_players + 1)
    options = {name: values[variant % len(values)] for name, values in spec_for(game).variants}
    seats = [f"P{i}" for i in range(players)]
    setup = Setup(game=game, seats=seats, mode=mode, options=options)
    clock = FakeClock()
    table = Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed), clock=clock)
    rng = random.Random(seed)
    for _ in range(STEPS):
        missing = unoffered(table)
        assert not missing, f"{spec_for(game).name} ({mode}): no way to send {missing[:3]}"
        commands = table.legal_commands()
        if table.is_over or not commands:
            break
        if rng.random() < 0.02:
            clock.advance(rng.choice((30, 120, 400)))
            table.tick()
        else:
            table.execute(dict(rng.choice(commands)))


def test_keeper_article_27_s_issue_bribes_are_offered_on_the_phone():
    """The case that was missed: in keeper mode the engine takes a bribe
    to the Secretary-General (seat 0) to put an issue on the floor or keep
    it off, and only the briber's phone may send it: its form sends one to
    the SG, of any amount it holds, for any issue, and to nobody else."""
    from a27_helpers import PK, a27_table, propose

    table = a27_table(EventStore(":memory:"), 4)
    propose(table, PK, call_vote=False)
    listed = [dict(c) for c in table.legal_commands() if c["type"] == "offer" and c["seat"] == 1]
    assert {
        "type": "offer",
        "seat": 1,
        "to": 0,
        "amount": 1,
        "kind": "include",
        "issue": PK,
    } in listed
    assert unoffered(table) == []
    _, forms = phone_offers(table, 1)
    include = {"type": "offer", "seat": 1, "to": 0, "amount": 12, "kind": "include"}
    assert any(produces(f, {**include, "issue": "nuclear"}) for f in forms)
    assert any(produces(f, {**include, "kind": "exclude", "issue": PK}) for f in forms)
    assert not any(produces(f, {**include, "issue": "nuclear", "to": 2}) for f in forms)
    assert not any(produces(f, {**include, "issue": "nuclear", "amount": 13}) for f in forms)
    assert not any(produces(f, include) for f in forms), "an issue bribe names its issue"
