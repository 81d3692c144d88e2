"""Garbage commands — wrong types, unknown fields, seats out of range, junk
cards — are refused with a translatable rule error and change nothing, in
every phase a random game passes through."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Fate, RuleError, Setup
from companion.games.g54.roles import ROLES
from companion.i18n import Messages, catalog
from companion.table import EventStore, Table

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from(
        [
            "duke",
            "assassin",
            "captain",
            "ambassador",
            "contessa",
            "joker",
            "Duke",
            "banker",
            "lawyer",
            "mercenary",
            "writer",
            "draw",
            "pay",
            "from_target",
            "more",
        ]
    ),
)
types = st.sampled_from(
    [
        "income",
        "foreign_aid",
        "coup",
        "tax",
        "assassinate",
        "steal",
        "exchange",
        "challenge",
        "pass",
        "proceed",
        "block",
        "show",
        "concede",
        "lose",
        "keep",
        "undo",
        "fly",
    ]
)
commands = st.fixed_dictionaries(
    {"type": st.one_of(types, junk)},
    optional={
        "seat": junk,
        "target": junk,
        "character": junk,
        "card": junk,
        "cards": st.one_of(junk, st.lists(junk, max_size=3)),
        "redraw": junk,
    },
)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    mode=st.sampled_from(["keeper", "physical"]),
    steps=st.integers(0, 60),
    command=commands,
)
def test_any_command_is_either_legal_or_refused_cleanly(seed, players, mode, steps, command):
    table = Table.start(
        EventStore(":memory:"),
        Setup(game="coup", seats=[f"P{i}" for i in range(players)], mode=mode),
        fate=Fate(seed=seed),
    )
    rng = random.Random(seed)
    for _ in range(steps):
        if table.is_over:
            break
        table.execute(rng.choice(table.legal_commands()))
    carried_out_or_refused_cleanly(table, command)


def carried_out_or_refused_cleanly(table, command):
    """The command is refused with a translatable rule error and changes
    nothing, or it is carried out and a restart rebuilds the same table."""
    seats = range(table.setup.players)
    before = table.public_view()
    privates = [table.private_view(s) for s in seats]
    log = len(table.log)
    try:
        table.execute(command)
    except RuleError as exc:
        assert exc.key in catalog("en"), exc.key
        message = Messages("en", table.names).error(exc)
        assert not re.search(r"\{[a-z_]+\}", message), message  # no unfilled field
        assert table.public_view() == before
        assert [table.private_view(s) for s in seats] == privates
        assert len(table.log) == log
    else:
        assert len(table.log) > log
        resumed = Table.resume(table.store, table.game_id, clock=table.clock)
        assert resumed.public_view() == table.public_view()


# Secret Hitler, Article 27 and G54 (with its advanced characters): their
# command types and fields, junk in any of them (votes through the table's
# ballot included), in every phase a random keeper or physical game passes
# through.
GAME_COMMANDS = {
    "g54": (
        2,
        [
            "income",
            "coup",
            *(r.name for r in ROLES),
            "challenge",
            "pass",
            "proceed",
            "block",
            "show",
            "concede",
            "lose",
            "keep",
            "join",
            "react",
            "choose",
        ],
        ["seat", "target", "to", "role", "character", "card", "cards", "give", "option", "redraw"],
    ),
    "secret_hitler": (
        5,
        [
            "confirm",
            "nominate",
            "vote",
            "reveal",
            "discard",
            "enact",
            "veto",
            "veto_response",
            "chaos",
            "investigate",
            "special_election",
            "peek",
            "execute",
            "ballot",
        ],
        ["seat", "target", "choice", "hitler", "policy", "agree", "votes"],
    ),
    "article27": (
        3,
        [
            "unused",
            "reveal_disk",
            "gavel",
            "move",
            "pause",
            "resume",
            "timer_expired",
            "vote",
            "offer",
            "counter",
            "accept",
            "refuse",
            "withdraw",
            "reclaim",
            "confirm_other",
            "announce",
            "challenge",
            "pass",
            "proceed",
            "next_round",
            "final_tally",
            "ballot",
        ],
        [
            "seat",
            "issue",
            "to",
            "agenda",
            "agendas",
            "choice",
            "amount",
            "kind",
            "text",
            "bribe",
            "kept",
            "score",
            "influence",
            "votes",
        ],
    ),
}


def game_command(game):
    _, kinds, fields = GAME_COMMANDS[game]
    return st.fixed_dictionaries(
        {"type": st.sampled_from(kinds)}, optional={field: junk for field in fields}
    )


@pytest.mark.parametrize("game", sorted(GAME_COMMANDS))
@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    seed=st.integers(0, 10**6),
    extra=st.integers(0, 3),
    mode=st.sampled_from(["keeper", "physical"]),
    steps=st.integers(0, 40),
)
def test_any_game_command_is_either_legal_or_refused_cleanly(game, data, seed, extra, mode, steps):
    players = GAME_COMMANDS[game][0] + extra
    options = {"advanced": True} if game == "g54" else {}
    table = Table.start(
        EventStore(":memory:"),
        Setup(game=game, seats=[f"P{i}" for i in range(players)], mode=mode, options=options),
        fate=Fate(seed=seed),
        clock=lambda: 1000.0,
    )
    rng = random.Random(seed)
    for _ in range(steps):
        legal = table.legal_commands()
        if table.is_over or not legal:
            break
        table.execute(rng.choice(legal))
    for command in data.draw(st.lists(game_command(game), min_size=1, max_size=8)):
        carried_out_or_refused_cleanly(table, command)


@pytest.mark.parametrize(
    "setup, deal",
    [
        ({"game": ["article27"], "seats": ["A", "B", "C"]}, None),
        (
            {"game": "article27", "seats": ["A", "B", "C"], "mode": "keeper"},
            {"agendas": [["wealth"], ["peace"], ["power"]]},
        ),
        (
            {"game": "article27", "seats": ["A", "B", "C"], "mode": "keeper"},
            {"agendas": [{"a": 1}, "peace", "power"]},
        ),
        ({"game": "g54", "seats": ["A", "B"], "options": {"set": ["banker"] * 5}}, None),
        (
            {
                "game": "g54",
                "seats": ["A", "B"],
                "options": {"set": [["banker"], "spy", "judge", "priest", "lawyer"]},
            },
            None,
        ),
        ({"game": "g54", "seats": ["A", "B"], "options": {"set": "all"}}, None),
        ({"game": "g54", "seats": ["A", "B"], "options": {"advanced": 1}}, None),
        ({"game": "g54", "seats": ["A", "B"], "mode": "keeper"}, {"set": ["spy"]}),
        ({"game": "g54", "seats": ["A", "B"], "mode": "keeper"}, {"set": {"a": 1}}),
    ],
)
def test_a_junk_setup_or_deal_is_refused_cleanly(setup, deal):
    with pytest.raises(RuleError) as err:
        Table.start(EventStore(":memory:"), Setup(**setup), fate=Fate(seed=1, script=deal))
    assert err.value.key in catalog("en")
