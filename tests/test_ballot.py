"""The table's secret ballot, on a Secret Hitler election: nobody learns a
vote before the last one is in; then every vote is revealed in one event."""

from __future__ import annotations

import json

import pytest
from sh_helpers import A, B, C, D, E, nominate, sh_table, view

from companion.games.base import RuleError
from companion.i18n import Messages
from companion.table import LOCAL, OPERATOR, EventStore, Table, seat_source


def open_ballot(store, mode="keeper", **settings):
    table = sh_table(store, 5, mode=mode, table=settings)
    nominate(table, C)
    return table


def test_an_open_ballot_shows_who_voted_never_what(store):
    table = open_ballot(store)
    table.execute({"type": "vote", "seat": B, "choice": "nein"}, source=seat_source(B))
    table.execute({"type": "vote", "seat": D, "choice": "ja"}, source=seat_source(D))
    public = view(table)
    assert public["ballot"] == {
        "id": "election-1",
        "eligible": [A, B, C, D, E],
        "choices": ["ja", "nein"],
        "voted": [B, D],
    }
    text = json.dumps(public)
    assert "nein" not in text.replace('"choices": ["ja", "nein"]', "")
    assert public["last_votes"] is None
    # Each voter sees their own ballot, and nobody else's.
    assert table.private_view(B)["ballot_vote"] == "nein"
    assert table.private_view(D)["ballot_vote"] == "ja"
    for seat in (A, C, E):
        assert "ballot_vote" not in table.private_view(seat)
    t = Messages("en", table.names)
    lines = [t(key, **args) for key, args in table.log_lines()]
    assert lines[-2:] == ["B has voted.", "D has voted."]
    # The votes are stored (a power cut loses none) in the private store.
    assert [e for _, e in table.log[-2:]] == [
        {"type": "vote", "ballot": "election-1", "seat": B, "choice": "nein", "by": "seat:1"},
        {"type": "vote", "ballot": "election-1", "seat": D, "choice": "ja", "by": "seat:3"},
    ]


def test_the_last_vote_reveals_every_vote_at_once(store):
    table = open_ballot(store)
    for seat, choice in ((A, "ja"), (B, "nein"), (C, "ja"), (D, "nein")):
        table.execute({"type": "vote", "seat": seat, "choice": choice})
    events = table.execute({"type": "vote", "seat": E, "choice": "ja"})
    assert [e["type"] for e in events] == ["vote", "ballot"]
    assert events[1]["votes"] == ["ja", "nein", "ja", "nein", "ja"]
    v = view(table)
    assert v["ballot"] is None and v["last_votes"] == ["ja", "nein", "ja", "nein", "ja"]
    assert v["president"] == A and v["chancellor"] == C
    t = Messages("en", table.names)
    key, args = table.log_lines()[-1]
    assert t(key, **args) == "The votes are in: 3 Ja, 2 Nein."


def test_a_vote_may_change_until_the_last_arrives(store):
    table = open_ballot(store)
    table.execute({"type": "vote", "seat": A, "choice": "ja"})
    # The same choice again is taken like a change: from the seat's channel a
    # repeat and a change look alike, so nobody can probe a vote by pressing.
    table.execute({"type": "vote", "seat": A, "choice": "ja"})
    table.execute({"type": "vote", "seat": A, "choice": "nein"})
    assert view(table)["ballot"]["voted"] == [A]
    # One line for A: a second would tell the table that A changed its vote.
    assert [k for k, _ in table.log_lines()].count("log.vote") == 1
    for seat in (B, C, D):
        table.execute({"type": "vote", "seat": seat, "choice": "ja"})
    table.execute({"type": "vote", "seat": E, "choice": "nein"})
    assert view(table)["last_votes"] == ["nein", "ja", "ja", "ja", "nein"]


def test_each_ballot_logs_each_voter_once(store):
    table = sh_table(store, 5)
    for _ in range(2):  # two elections, each failed
        nominate(table)
        table.execute({"type": "vote", "seat": A, "choice": "ja"})  # then changed
        for seat in (A, B, C, D, E):
            table.execute({"type": "vote", "seat": seat, "choice": "nein"})
    assert [k for k, _ in table.log_lines()].count("log.vote") == 10


def test_a_table_that_locks_votes_counts_the_first_press(store):
    table = open_ballot(store, votes="locked")
    table.execute({"type": "vote", "seat": A, "choice": "ja"}, source=seat_source(A))
    for choice in ("ja", "nein"):  # one answer, whatever the choice
        with pytest.raises(RuleError) as err:
            table.execute({"type": "vote", "seat": A, "choice": choice}, source=seat_source(A))
        assert (err.value.key, err.value.args_) == ("ballot.already_voted", {"player": A})
    # The setting is part of the game: a restarted table still locks.
    table.store.close()
    resumed = Table.resume(EventStore(table.store.path))
    assert resumed.setup.table["votes"] == "locked"
    with pytest.raises(RuleError):
        resumed.execute({"type": "vote", "seat": A, "choice": "nein"}, source=seat_source(A))
    for seat in (B, C, D, E):
        resumed.execute({"type": "vote", "seat": seat, "choice": "nein"}, source=seat_source(seat))
    assert view(resumed)["last_votes"] == ["ja", "nein", "nein", "nein", "nein"]


@pytest.mark.parametrize(
    "settings, key",
    [
        ({"votes": "sometimes"}, "setup.bad_option"),
        ({"votes": None}, "setup.bad_option"),
        ({"loud": True}, "setup.unknown_option"),
    ],
)
def test_bad_table_settings_are_refused(store, settings, key):
    with pytest.raises(RuleError) as err:
        sh_table(store, 5, table=settings)
    assert err.value.key == key


@pytest.mark.parametrize("mode", ["keeper", "physical"])
def test_a_vote_is_changed_only_from_the_channel_that_cast_it(store, mode):
    table = open_ballot(store, mode)
    table.execute({"type": "vote", "seat": B, "choice": "nein"}, source=seat_source(B))
    # The shared screen and any other channel get one answer whatever they
    # choose: they can neither learn B's vote nor replace it.
    for source in (OPERATOR, LOCAL):
        for choice in ("ja", "nein"):
            with pytest.raises(RuleError) as err:
                table.execute({"type": "vote", "seat": B, "choice": choice}, source=source)
            assert (err.value.key, err.value.args_) == ("ballot.already_voted", {"player": B})
    assert table.private_view(B)["ballot_vote"] == "nein"
    table.execute({"type": "vote", "seat": B, "choice": "ja"}, source=seat_source(B))
    assert table.private_view(B)["ballot_vote"] == "ja"
    # A vote entered on the shared screen is final there too (anyone may stand
    # at it); the operator aborts the ballot to correct one.
    table.execute({"type": "vote", "seat": D, "choice": "ja"}, source=OPERATOR)
    for source in (OPERATOR, seat_source(D)):
        for choice in ("ja", "nein"):
            with pytest.raises(RuleError) as err:
                table.execute({"type": "vote", "seat": D, "choice": choice}, source=source)
            assert err.value.key == "ballot.already_voted"
    assert view(table)["ballot"]["voted"] == [B, D]
    table.execute({"type": "ballot_abort"}, source=OPERATOR)
    table.execute({"type": "vote", "seat": D, "choice": "nein"}, source=OPERATOR)
    assert table.private_view(D)["ballot_vote"] == "nein"


def test_votes_from_the_wrong_seat_or_nobody_are_refused(store):
    table = open_ballot(store)
    with pytest.raises(RuleError) as err:
        table.execute({"type": "vote", "seat": B, "choice": "ja"}, source=seat_source(A))
    assert err.value.key == "command.not_your_seat"
    for command, key in [
        ({"type": "vote", "seat": 7, "choice": "ja"}, "command.bad_seat"),
        ({"type": "vote", "seat": A, "choice": "yes"}, "ballot.bad_choice"),
        ({"type": "vote", "seat": A}, "ballot.bad_choice"),
    ]:
        with pytest.raises(RuleError) as err:
            table.execute(command)
        assert err.value.key == key
    assert view(table)["ballot"]["voted"] == []


def test_the_dead_do_not_vote(store):
    from sh_helpers import five_fascists_then_executions

    table = five_fascists_then_executions(store, [C])
    nominate(table)
    assert C not in view(table)["ballot"]["eligible"]
    with pytest.raises(RuleError) as err:
        table.execute({"type": "vote", "seat": C, "choice": "ja"})
    assert err.value.key == "ballot.not_eligible"


def test_an_aborted_ballot_runs_again_and_the_log_says_so(store):
    table = open_ballot(store)
    table.execute({"type": "vote", "seat": A, "choice": "ja"})
    table.execute({"type": "vote", "seat": B, "choice": "ja"})
    with pytest.raises(RuleError):
        table.execute({"type": "ballot_abort"}, source=seat_source(A))  # operator only
    table.execute({"type": "ballot_abort"})
    assert view(table)["ballot"]["voted"] == []
    assert "ballot_vote" not in table.private_view(A)
    assert table.log_lines()[-1][0] == "log.ballot_abort"
    for seat in (A, B, C, D, E):
        table.execute({"type": "vote", "seat": seat, "choice": "nein"})
    assert view(table)["last_votes"] == ["nein"] * 5 and view(table)["tracker"] == 1
    with pytest.raises(RuleError) as err:
        table.execute({"type": "ballot_abort"})
    assert err.value.key == "ballot.none_open"


def test_votes_survive_a_restart(tmp_path):
    path = tmp_path / "g.sqlite3"
    table = open_ballot(EventStore(path))
    table.execute({"type": "vote", "seat": A, "choice": "nein"})
    table.execute({"type": "vote", "seat": D, "choice": "ja"})
    table.store.close()
    resumed = Table.resume(EventStore(path))
    assert view(resumed)["ballot"]["voted"] == [A, D]
    assert resumed.private_view(A)["ballot_vote"] == "nein"
    for seat in (B, C, E):
        resumed.execute({"type": "vote", "seat": seat, "choice": "ja"})
    assert view(resumed)["last_votes"] == ["nein", "ja", "ja", "ja", "ja"]


@pytest.mark.parametrize("mode", ["keeper", "physical"])
def test_undo_takes_back_a_vote_but_never_a_reveal(store, mode):
    table = open_ballot(store, mode)
    table.execute({"type": "vote", "seat": A, "choice": "ja"})
    table.execute({"type": "undo"})
    assert view(table)["ballot"]["voted"] == []
    for seat in (A, B, C, D, E):
        table.execute({"type": "vote", "seat": seat, "choice": "ja"})
    with pytest.raises(RuleError) as err:
        table.execute({"type": "undo"})
    assert err.value.key == "undo.would_rehide"


def test_a_physical_ballot_typed_on_the_kiosk_may_take_back_its_last_vote(store):
    """Every vote typed in public: the reveal showed nothing new, so a
    mis-tapped last vote is undone and the ballot opens again with the
    others, before any government is seated."""
    table = open_ballot(store, "physical")
    for seat in (A, B, C, D):
        table.execute({"type": "vote", "seat": seat, "choice": "nein"}, source=OPERATOR)
    table.execute({"type": "vote", "seat": E, "choice": "ja"}, source=OPERATOR)
    assert view(table)["ballot"] is None and view(table)["can_undo"]
    table.execute({"type": "undo"}, source=OPERATOR)
    again = view(table)
    assert again["ballot"]["voted"] == [A, B, C, D] and again["last_votes"] is None
    assert again["phase"] == "election" and again["nominee"] == C
    table.execute({"type": "vote", "seat": E, "choice": "nein"}, source=OPERATOR)
    assert view(table)["last_votes"] == ["nein"] * 5


@pytest.mark.parametrize(
    "mode, secret_seat",
    [("keeper", None), ("keeper", B), ("physical", B)],
    ids=["keeper-all-on-kiosk", "keeper-one-by-phone", "physical-one-by-phone"],
)
def test_a_ballot_with_a_secret_vote_or_in_keeper_mode_is_never_taken_back(
    store, mode, secret_seat
):
    """Keeper mode's ballot is secret, and so is a vote from a seat's phone
    or buttons: once revealed, it cannot be hidden again."""
    table = open_ballot(store, mode)
    for seat in (A, B, C, D, E):
        source = seat_source(seat) if seat == secret_seat else OPERATOR
        table.execute({"type": "vote", "seat": seat, "choice": "ja"}, source=source)
    assert not view(table)["can_undo"]
    with pytest.raises(RuleError) as err:
        table.execute({"type": "undo"}, source=OPERATOR)
    assert err.value.key == "undo.would_rehide"


def test_the_kiosk_offers_a_vote_for_each_seat_still_to_vote(store):
    table = open_ballot(store, "physical")
    table.execute({"type": "vote", "seat": A, "choice": "ja"})
    votes = [c for c in table.shared_commands() if c["type"] == "vote"]
    assert {(c["seat"], c["choice"]) for c in votes} == {
        (s, c) for s in (B, C, D, E) for c in ("ja", "nein")
    }


def test_a_phone_that_voted_is_offered_its_vote_again_while_it_may_change_it(store, tmp_path):
    """The phone that cast a vote may change it while the ballot is open
    (the table's default): it is offered the ballot's choices again. A vote
    cast on another channel (the seat's buttons), a table that locks votes,
    and a closed ballot offer none."""

    def phone_votes(table, seat):
        return [c for c in table.phone_commands(seat) if c["type"] == "vote"]

    table = open_ballot(store)
    every = [{"type": "vote", "seat": A, "choice": c} for c in ("ja", "nein")]
    assert phone_votes(table, A) == every
    table.execute({"type": "vote", "seat": A, "choice": "ja"}, source=seat_source(A))
    assert phone_votes(table, A) == every
    table.execute({"type": "vote", "seat": A, "choice": "nein"}, source=seat_source(A))
    assert table.private_view(A)["ballot_vote"] == "nein"
    table.execute({"type": "vote", "seat": B, "choice": "ja"}, source=seat_source(B, "gpio"))
    assert phone_votes(table, B) == []
    for seat in (C, D, E):
        table.execute({"type": "vote", "seat": seat, "choice": "ja"}, source=seat_source(seat))
    assert phone_votes(table, A) == [] and view(table)["ballot"] is None

    locked = open_ballot(EventStore(tmp_path / "locked.sqlite3"), votes="locked")
    locked.execute({"type": "vote", "seat": A, "choice": "ja"}, source=seat_source(A))
    assert phone_votes(locked, A) == []
