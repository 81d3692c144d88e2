"""What a seat's phone buzzes for (its state's ``cue``, from the game's
words): its turn, a ballot waiting for its vote, a choice of its own; and
never anything a secret decides. Two tables that differ only in their
secrets give every seat the same cue at every step, and over random
playouts of every game a cue follows the public view alone."""

from __future__ import annotations

import random

import pytest
from a27_helpers import FakeClock
from sh_helpers import nominate
from test_web_lengths import SH_COMMANDS, sh_tables, source

from companion.games import names, spec_for
from companion.games.base import Fate, Setup
from companion.games.words import BALLOT, CHOOSE, TURN
from companion.table import EventStore, Table, seat_source
from companion.web.server import TableServer


def cues(table: Table) -> list[str | None]:
    """Each seat's cue, as its phone is sent it."""
    server = TableServer(table)
    return [server._seat_state(seat, "en")["cue"] for seat in range(table.setup.players)]


def test_secret_hitler_buzzes_the_candidate_the_voters_and_the_president(store):
    setup = Setup(game="secret_hitler", seats=list("ABCDE"), mode="keeper", options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=5))
    assert cues(table) == [None] * 5  # the night: everyone at once, no buzz
    for seat in range(5):
        table.execute({"type": "confirm", "seat": seat}, source=seat_source(seat))
    candidate = table.public_view()["candidate"]
    assert cues(table) == [TURN if seat == candidate else None for seat in range(5)]
    nominate(table, (candidate + 1) % 5)
    assert cues(table) == [BALLOT] * 5
    table.execute({"type": "vote", "seat": 3, "choice": "ja"}, source=seat_source(3))
    assert cues(table) == [None if seat == 3 else BALLOT for seat in range(5)]
    for seat in (0, 1, 2, 4):
        table.execute({"type": "vote", "seat": seat, "choice": "ja"})
    president = table.public_view()["president"]
    assert cues(table) == [CHOOSE if seat == president else None for seat in range(5)]


def test_a_claim_game_buzzes_the_turn_and_the_loss(store):
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], mode="keeper", options={"first": 0})
    table = Table.start(store, setup, fate=Fate(seed=3))
    assert cues(table) == [TURN, None, None]
    table.execute({"type": "tax", "seat": 0})
    assert cues(table) == [None, None, None]  # anyone may challenge: no one is called
    table.execute({"type": "challenge", "seat": 1}, source=seat_source(1))
    assert cues(table) == [CHOOSE, None, None]  # Ann shows a Duke, or loses


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_seats_whose_secrets_differ_get_the_same_cues(lang):
    """Seat 0 a liberal at one table and a fascist at the other, the tiles
    dealt differently: every seat's cue is the same at every step."""
    first, second = sh_tables(lang)
    for command in [None, *SH_COMMANDS]:
        if command is not None:
            for table in (first, second):
                table.execute(dict(command), source=source(command))
        assert cues(first) == cues(second)


@pytest.mark.parametrize("game", names())
def test_a_cue_follows_the_public_view(game):
    """Random legal commands: a seat is cued to vote exactly while the open
    ballot waits for it, and to play or choose only while the table waits
    for it; no cue but the three."""
    spec = spec_for(game)
    for players in (3, 5):
        seats = [f"P{i}" for i in range(players + (2 if game == "secret_hitler" else 0))]
        setup = Setup(game=game, seats=seats, mode="keeper", options={"first": 0})
        table = Table.start(
            EventStore(":memory:"), setup, fate=Fate(seed=players), clock=FakeClock()
        )
        pick = random.Random(players)
        for _ in range(150):
            view = table.public_view()
            ballot = view["ballot"]
            for seat in range(len(seats)):
                cue = spec.words.phone_cue(view, seat)
                assert cue in (None, TURN, BALLOT, CHOOSE)
                waits = bool(ballot) and seat in ballot["eligible"] and seat not in ballot["voted"]
                assert (cue == BALLOT) == waits
                if cue in (TURN, CHOOSE):
                    assert seat in view["waiting_for"]
            commands = list(table.legal_commands())
            if table.is_over or not commands:
                break
            command = pick.choice(commands)
            table.execute(dict(command), source=source(command))
