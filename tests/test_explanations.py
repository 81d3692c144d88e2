"""Rules at hand: each game's words explain the moment (``Words.explain``)
and give a quick reference (``Words.quick_reference``). Over random playouts
through a real table, in both secrecy modes and every language, the first
states of every phase a table shows read whole: no field left unformatted,
no catalog key showing, every seat the table waits for named. They are worked
out from the public view alone: dealing again what nobody may see changes
no word of them."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from a27_helpers import FakeClock
from claim_playouts import shuffled_hidden
from test_article27_properties import _perturbed
from test_secret_hitler_properties import _reshuffled

from companion.games import spec_for
from companion.games.base import Fate, Setup
from companion.i18n import LANGUAGES, Messages
from companion.table import EventStore, Table

# The phases a table shows (its public view's), by game and mode: the
# passing ones (dealing, drawing, reshuffling) the table goes through on
# its own and never shows.
PHASES = {
    "coup": {
        "physical": {"action", "challenge", "block", "prove", "lose", "over"},
        "keeper": {"action", "challenge", "block", "prove", "lose", "exchange", "over"},
    },
    "g54": {
        "physical": {
            *("action", "challenge", "block", "prove", "lose", "over"),
            *("join", "elimination", "choice", "disappear"),
        },
        "keeper": {
            *("action", "challenge", "block", "prove", "lose", "exchange", "over"),
            *("join", "elimination", "choice", "disappear"),
        },
    },
    "secret_hitler": {
        "physical": {
            *("nominate", "election", "legislative", "veto", "chaos", "hitler_reveal"),
            *("investigate", "special_election", "peek", "execute", "execution_reveal", "over"),
        },
        "keeper": {
            *("night", "nominate", "election", "president_discard", "chancellor_enact", "veto"),
            *("investigate", "special_election", "peek", "execute", "over"),
        },
    },
    "article27": {
        "physical": {
            *("unused", "reveal", "ready", "negotiation", "place_one", "voting"),
            *("scored", "final", "over"),
        },
        "keeper": {
            *("ready", "negotiation", "place_one", "voting", "settle_other"),
            *("announce", "challenge", "scored", "over"),
        },
    },
}
PLAYERS = {"coup": (2, 6), "g54": (2, 6), "secret_hitler": (5, 10), "article27": (3, 6)}
# Sets of G54 characters between them holding every kind of step: joining an
# action (by a claim, or by paying), a reaction to a loss or an elimination,
# each choice an action asks for, a Disappear token coming due.
G54_SETS = (
    ["capitalist", "writer", "mercenary", "lawyer", "missionary"],
    ["speculator", "producer", "crime_boss", "protestor", "intellectual"],
)
# Names that are no words of any catalog, one of them written right to left.
NAMES = ["Anna", "Bozhidar", "Chiara", "Dimitris", "ناتاشا"]
NAMES += ["Farida", "Gwen", "Hiro", "Ilse", "Jonas"]
SAMPLES = 2  # states checked per phase and kind of step
MAX_GAMES = 200  # playouts before a phase not yet reached fails the test
MAX_COMMANDS = 20000
# A catalog key left showing: dotted lower-case words ("explain.claim.lose").
RAW_KEY = re.compile(r"\b[a-z][a-z0-9_]*(\.[a-z0-9_]+)+\b")


def start(game: str, mode: str, seed: int, clock: FakeClock) -> Table:
    low, high = PLAYERS[game]
    players = low + seed % (high - low + 1)
    options: dict[str, Any] = {}
    if game == "g54":
        options = {"set": G54_SETS[seed % 2] if seed % 3 else "random", "advanced": True}
    if game == "article27":
        options = {"lie_cheat_steal": seed % 2 == 0}
    setup = Setup(game=game, seats=NAMES[:players], mode=mode, options=options)
    return Table.start(EventStore(":memory:"), setup, fate=Fate(seed=seed), clock=clock)


def step(table: Table, rng: random.Random, clock: FakeClock) -> None:
    """One random legal command; in a negotiation, now and then the timer
    runs out instead (an empty floor then asks for one issue)."""
    if table.public_view()["timer"] is not None and rng.random() < 0.03:
        clock.advance(400)
        if table.tick():
            return
    table.execute(rng.choice(table.legal_commands()))


def situation(view: dict[str, Any]) -> tuple[Any, ...]:
    """A phase, and for the claim games the kind of claim, window or choice."""
    pending = view.get("pending") or {}
    kinds = (pending.get(part) or {} for part in ("claim", "window", "choice"))
    return (view["phase"], *(kind.get("kind") for kind in kinds))


def playouts(game: str, mode: str) -> Iterator[tuple[Table, dict[str, Any]]]:
    """The first states of each situation random playouts reach (with their
    tables), until every phase of the game in this mode has been reached."""
    seen: dict[tuple[Any, ...], int] = {}
    for seed in range(MAX_GAMES):
        clock = FakeClock()
        table, rng = start(game, mode, seed, clock), random.Random(seed)
        for _ in range(MAX_COMMANDS):
            view = table.public_view()
            key = situation(view)
            if seen.get(key, 0) < SAMPLES:
                seen[key] = seen.get(key, 0) + 1
                yield table, view
            if table.is_over:
                break
            step(table, rng, clock)
        if {key[0] for key in seen} >= PHASES[game][mode]:
            return


def reads_whole(text: str) -> None:
    assert text.strip(), "an empty text"
    assert "{" not in text and "}" not in text, text
    assert not RAW_KEY.search(text), text


def awaited(view: dict[str, Any]) -> list[int]:
    """The seats the table waits for (in an open ballot, those yet to vote)."""
    ballot = view.get("ballot")
    voted = set(ballot["voted"]) if ballot else set()
    return [seat for seat in view["waiting_for"] if seat not in voted]


def checked(table: Table, view: dict[str, Any]) -> None:
    words = spec_for(view["game"]).words
    for lang in LANGUAGES:
        t = Messages(lang, table.names)
        reads_whole(words.status_line(view, t))  # what the explanation goes with
        lines = words.explain(view, t)
        assert 1 <= len(lines) <= 4, lines
        for line in lines:
            reads_whole(line)
        said = " ".join(lines)
        for seat in awaited(view):
            assert table.names[seat] in said, (lang, view["phase"], table.names[seat], said)
        reference = words.quick_reference(view, t)
        assert reference
        for heading, text in reference:
            reads_whole(heading)
            reads_whole(text)


GAME_MODES = [(game, mode) for game in PHASES for mode in ("physical", "keeper")]


@pytest.mark.parametrize("game, mode", GAME_MODES)
def test_every_phase_is_explained_whole_in_every_language(game, mode):
    phases = set()
    for table, view in playouts(game, mode):
        checked(table, view)
        phases.add(view["phase"])
    assert phases == PHASES[game][mode]


def _hidden_dealt_again(table: Table, rng: random.Random) -> Any:
    """A copy of the table's state with everything no reader of the public
    view may know dealt again (cards, roles and tiles, agendas, slots and
    influence)."""
    again: dict[str, Callable[[], Any]] = {
        "coup": lambda: shuffled_hidden(table, None, rng),
        "g54": lambda: shuffled_hidden(table, None, rng),
        "secret_hitler": lambda: _reshuffled(table, rng, None),
        "article27": lambda: _perturbed(table, rng, None),
    }
    return again[table.setup.game]()


@pytest.mark.parametrize("game, mode", [(g, "keeper") for g in PHASES])
def test_explanations_are_the_same_however_the_hidden_pieces_are_dealt(game, mode):
    """Tables alike in all but their hidden deal explain alike: every word
    comes from what the whole table sees."""
    rng = random.Random(21)
    for table, view in playouts(game, mode):
        if view["phase"] == "over":
            continue  # the end shows what was hidden
        twin = copy.copy(table)
        twin.state = _hidden_dealt_again(table, rng)
        words = spec_for(game).words
        for lang in LANGUAGES:
            t = Messages(lang, table.names)
            assert words.explain(twin.public_view(), t) == words.explain(view, t)
            assert words.quick_reference(twin.public_view(), t) == words.quick_reference(view, t)
