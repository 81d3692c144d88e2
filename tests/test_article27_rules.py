"""Article 27: the digest's cases T1-T26, the last-round exception, the
3-player double rotation, the timer at every point, and bad input."""

from __future__ import annotations

import pytest
from a27_helpers import (
    DI,
    FOUR,
    HU,
    NU,
    PK,
    SM,
    FakeClock,
    a27_table,
    bribe,
    influence,
    keeper4,
    next_round,
    propose,
    quiet_slots,
    reveal,
    view,
    vote,
)

from companion.games.article27 import scoring
from companion.games.article27.rules import TRACK_VALUES
from companion.games.base import RuleError
from companion.table import EventStore, Table

A, B, C, D, E, F = range(6)


def refused(table, command, key, **kw):
    before = view(table)
    with pytest.raises(RuleError) as err:
        table.execute(command, **kw)
    assert err.value.key == key
    assert view(table) == before
    return err.value


# -- T1, T26: issue scores -------------------------------------------------------


def test_t1_issue_score_counts_a_repeated_issue_twice():
    slots = [DI, PK, SM, HU, SM]  # PK at +3, SM at +1 and -4
    assert scoring.issue_score(slots, [PK]) == 3
    assert scoring.issue_score(slots, [SM]) == -3
    assert scoring.issue_score(slots, [PK, SM]) == 0
    assert scoring.issue_score(slots, []) == 0


def test_t1_through_a_real_round(store):
    slots = quiet_slots(4)
    slots[A] = [DI, PK, SM, HU, SM]
    table = keeper4(store, slots=slots)
    start = influence(table)
    propose(table, SM)
    assert table.private_view(A)["if_passed"] == -3
    assert table.private_view(B)["if_passed"] == 3
    vote(table, "YYYA")
    assert view(table)["outcome"] == "passed"
    after = influence(table)
    assert after[A] - start[A] == -3 + 5 and after[B] - start[B] == 3  # A is the SG


def test_t26_a_round_scores_between_minus_6_and_9():
    assert scoring.issue_score([PK, SM, DI, HU, NU], [PK, SM, DI]) == 9
    assert scoring.issue_score([PK, SM, DI, HU, NU], [HU, NU]) == -6


# -- T2-T6: the vote ---------------------------------------------------------------


@pytest.mark.parametrize(
    "votes, outcome",
    [("YYYA", "passed"), ("YYYV", "vetoed"), ("AAAV", "vetoed"), ("YYAA", "failed")],
)
def test_t2_t3_t4_outcomes(store, votes, outcome):
    table = keeper4(store)
    start = influence(table)
    propose(table, PK)
    vote(table, votes)
    v = view(table)
    assert v["outcome"] == outcome
    paid = influence(table)
    if outcome == "vetoed":
        assert v["vetoers"] == [D] and paid[D] == start[D] - 5  # T3
    if outcome == "failed":
        assert paid == start  # T4
    if outcome == "passed":
        assert paid == [start[A] + 5 + 5] + [x + 5 for x in start[1:]]  # T2, T12


@pytest.mark.parametrize("players, needed", [(3, 2), (4, 3), (5, 3), (6, 4)])
def test_t5_thresholds(store, players, needed):
    for yes, outcome in ((needed, "passed"), (needed - 1, "failed")):
        table = a27_table(EventStore(":memory:"), players)
        propose(table, PK)
        vote(table, "Y" * yes + "A" * (players - yes))
        assert view(table)["outcome"] == outcome


def test_t6_a_veto_needs_five_influence_behind_the_screen(store):
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    bribe(table, D, A, 8, "yes")  # 8 of D's 12 in escrow: 4 left
    table.execute({"type": "gavel"})
    with pytest.raises(RuleError) as err:
        table.execute({"type": "vote", "seat": D, "choice": "veto"})
    assert err.value.key == "a27.veto_needs"  # told why (only the voter hears it)
    assert view(table)["ballot"]["voted"] == []
    assert {c["choice"] for c in table.legal_commands() if c.get("seat") == D} == {"yes", "abstain"}


def test_a_keeper_veto_comes_only_from_the_voter_so_a_refusal_stays_private(store):
    from companion.table import OPERATOR, seat_source

    table = keeper4(store)
    propose(table, PK, call_vote=False)
    table.execute(
        {"type": "offer", "seat": D, "to": A, "amount": 8, "kind": "yes"}, source=seat_source(D)
    )  # a private offer: D has 4 left
    table.execute({"type": "gavel"})
    # The shared screen offers the same choices for every seat, and refuses a
    # veto for every seat alike, before looking at anyone's influence.
    for seat in (A, B, C, D):
        assert {c["choice"] for c in table.shared_commands() if c.get("seat") == seat} == {
            "yes",
            "abstain",
        }
        refused(
            table,
            {"type": "vote", "seat": seat, "choice": "veto"},
            "command.private_choice",
            source=OPERATOR,
        )
    # Only D's own phone or buttons hear why D cannot veto.
    refused(
        table,
        {"type": "vote", "seat": D, "choice": "veto"},
        "a27.veto_needs",
        source=seat_source(D),
    )
    table.execute({"type": "vote", "seat": A, "choice": "veto"}, source=seat_source(A))
    assert view(table)["ballot"]["voted"] == [A]


# -- T7-T10: bribes ----------------------------------------------------------------


def test_t7_an_include_promise_kept_even_when_vetoed(store):
    table = keeper4(store)
    propose(table, call_vote=False)
    bribe(table, B, A, 3, "include", issue=PK)
    table.execute({"type": "move", "issue": PK, "to": "floor"})
    assert view(table)["bribes"][0]["status"] == "accepted"  # public on the board
    start = influence(table)
    table.execute({"type": "gavel"})
    vote(table, "YYYV")
    assert view(table)["outcome"] == "vetoed"
    [paid] = view(table)["bribes"]
    assert paid["status"] == "paid"
    assert influence(table)[A] == start[A] + 3


def test_t8_an_other_bribe_whose_terms_failed_is_returned(store):
    table = keeper4(store)
    propose(table, call_vote=False)
    number = bribe(table, B, A, 4, "other", text="include peacekeeping AND it passes")
    table.execute({"type": "move", "issue": PK, "to": "floor"})
    table.execute({"type": "gavel"})
    vote(table, "YYYV")
    assert view(table)["phase"] == "settle_other"
    assert set(view(table)["waiting_for"]) == {A, B}
    table.execute({"type": "confirm_other", "seat": A, "bribe": number, "kept": True})
    table.execute({"type": "confirm_other", "seat": B, "bribe": number, "kept": False})
    [returned] = view(table)["bribes"]
    assert returned["status"] == "returned" and influence(table)[B] == 12


def test_t9_a_yes_bribe_broken_by_an_abstention_is_returned(store):
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    bribe(table, A, C, 2, "yes")
    table.execute({"type": "gavel"})
    vote(table, "YYAY")
    assert view(table)["bribes"][0]["status"] == "returned"
    assert influence(table)[C] == 12 + 5


def test_t10_a_conflicting_deal_lets_the_first_briber_take_it_back(store):
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    first = bribe(table, B, A, 3, "include", issue=PK)
    refused(table, {"type": "reclaim", "seat": B, "bribe": first}, "a27.cannot_reclaim")
    bribe(table, C, A, 2, "exclude", issue=PK)
    table.execute({"type": "move", "issue": PK, "to": "table"})
    assert [b["conflicted"] for b in view(table)["bribes"]] == [True, False]
    table.execute({"type": "reclaim", "seat": B, "bribe": first})
    assert influence(table)[B] == 12
    assert [b["status"] for b in view(table)["bribes"]] == ["reclaimed", "accepted"]


def test_t10_the_right_to_take_back_ends_with_the_conflicting_deal(store):
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    first = bribe(table, B, A, 3, "include", issue=PK)
    second = bribe(table, C, A, 2, "exclude", issue=PK)
    assert [b["conflicted"] for b in view(table)["bribes"]] == [True, False]
    table.execute({"type": "withdraw", "seat": A, "bribe": second})  # A backs out of it
    assert [b["conflicted"] for b in view(table)["bribes"]] == [False, False]
    refused(table, {"type": "reclaim", "seat": B, "bribe": first}, "a27.cannot_reclaim")
    assert not any(c["type"] == "reclaim" for c in table.legal_commands())


def test_t10_left_in_place_both_are_settled_by_the_floor(store):
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    bribe(table, B, A, 3, "include", issue=PK)
    bribe(table, C, A, 2, "exclude", issue=PK)
    table.execute({"type": "move", "issue": PK, "to": "table"})
    table.execute({"type": "move", "issue": SM, "to": "floor"})
    table.execute({"type": "gavel"})
    vote(table, "AAAA")
    statuses = {b["number"]: b["status"] for b in view(table)["bribes"]}
    assert statuses == {1: "returned", 2: "paid"}


def test_a_deal_between_two_others_does_not_exist_for_a_third(store):
    """Answering, withdrawing or reclaiming another pair's bribe is refused
    exactly as a bribe that was never made, open or accepted: probing tells
    a seat nothing about deals it is not part of."""
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    open_one = table.execute({"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"})
    accepted = table.execute({"type": "offer", "seat": A, "to": C, "amount": 1, "kind": "veto"})
    table.execute({"type": "accept", "seat": C, "bribe": accepted[0]["bribe"]})
    real = [open_one[0]["bribe"], accepted[0]["bribe"]]
    never = max(real) + 50
    for number in [*real, never]:
        for kind in ("refuse", "accept", "withdraw", "reclaim"):
            refused(table, {"type": kind, "seat": D, "bribe": number}, "a27.no_such_bribe")
        refused(
            table,
            {"type": "counter", "seat": D, "bribe": number, "amount": 2, "kind": "yes"},
            "a27.no_such_bribe",
        )
    # A party still hears why: B cannot answer its own offer.
    refused(table, {"type": "accept", "seat": B, "bribe": real[0]}, "a27.not_your_answer")


def test_a_bribes_number_counts_only_its_own_pairs_offers(store):
    """The first offer D receives says nothing of the deals A, B and C made
    among themselves; the second offer between the same two players is
    their second, and D's phone calls them #1 and #2."""
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    for briber, recipient in [(B, C), (C, B)]:  # one open offer per briber
        table.execute(
            {"type": "offer", "seat": briber, "to": recipient, "amount": 1, "kind": "yes"}
        )
    first = table.execute({"type": "offer", "seat": A, "to": D, "amount": 1, "kind": "yes"})
    quiet = keeper4(EventStore(":memory:"))
    propose(quiet, PK, call_vote=False)
    alone = quiet.execute({"type": "offer", "seat": A, "to": D, "amount": 1, "kind": "yes"})
    assert first[0]["bribe"] == alone[0]["bribe"], "the same number with or without other deals"
    table.execute({"type": "withdraw", "seat": A, "bribe": first[0]["bribe"]})
    second = table.execute({"type": "offer", "seat": A, "to": D, "amount": 2, "kind": "veto"})
    mine = table.private_view(D)["bribes"]
    assert [(b["id"], b["mine"]) for b in mine] == [
        (first[0]["bribe"], 1),
        (second[0]["bribe"], 2),
    ]


def test_offers_counter_offers_and_escrow(store):
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    number = table.execute({"type": "offer", "seat": B, "to": C, "amount": 5, "kind": "yes"})[0][
        "bribe"
    ]
    assert table.private_view(B)["influence"] == 7  # 5 in escrow
    assert view(table)["bribes"] == []  # an open offer is private
    assert [b["id"] for b in table.private_view(C)["bribes"]] == [number]
    assert table.private_view(D)["bribes"] == []
    refused(table, {"type": "accept", "seat": B, "bribe": number}, "a27.not_your_answer")
    table.execute({"type": "counter", "seat": C, "bribe": number, "amount": 9, "kind": "yes"})
    assert table.private_view(B)["influence"] == 7  # a request, not yet escrow
    refused(
        table,
        {"type": "counter", "seat": B, "bribe": number, "amount": 13, "kind": "yes"},
        "a27.not_enough_influence",
    )
    table.execute({"type": "accept", "seat": B, "bribe": number})
    assert table.private_view(B)["influence"] == 3
    assert view(table)["bribes"][0]["amount"] == 9
    table.execute({"type": "withdraw", "seat": C, "bribe": number})  # C backs out (N8)
    assert table.private_view(B)["influence"] == 12
    refused(
        table,
        {"type": "offer", "seat": B, "to": C, "amount": 13, "kind": "yes"},
        "a27.not_enough_influence",
    )
    refused(
        table,
        {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "include", "issue": PK},
        "a27.only_sg_moves_issues",
    )
    refused(
        table, {"type": "offer", "seat": B, "to": B, "amount": 1, "kind": "yes"}, "a27.bribe_self"
    )


def board_and_log(private_offers):
    """A round's public view (board and log) where B's bribe to A is
    accepted, then A backs out, then C's is accepted; with
    ``private_offers`` C and D also make two offers that are never
    accepted, one withdrawn and one refused."""
    from companion.table import seat_source

    table = keeper4(EventStore(":memory:"))
    propose(table, PK, call_vote=False)
    if private_offers:
        offer = {"type": "offer", "seat": C, "to": D, "amount": 3, "kind": "veto"}
        number = table.execute(offer, source=seat_source(C))[0]["bribe"]
        table.execute({"type": "withdraw", "seat": C, "bribe": number}, source=seat_source(C))
        offer = {"type": "offer", "seat": D, "to": C, "amount": 2, "kind": "yes"}
        number = table.execute(offer, source=seat_source(D))[0]["bribe"]
        table.execute({"type": "refuse", "seat": C, "bribe": number}, source=seat_source(C))
    first = bribe(table, B, A, 3, "include", issue=PK)
    table.execute({"type": "withdraw", "seat": A, "bribe": first})
    bribe(table, C, A, 2, "yes")
    return view(table)


def test_nothing_public_shows_an_offer_that_was_never_accepted():
    public = board_and_log(private_offers=True)
    assert public == board_and_log(private_offers=False)
    assert [(b["number"], b["from"], b["status"]) for b in public["bribes"]] == [
        (1, B, "withdrawn"),
        (2, C, "accepted"),
    ]
    assert [
        (line["key"], line["args"]["bribe"]) for line in public["log"] if "bribe" in line["key"]
    ] == [
        ("a27.log.bribe_accepted", 1),
        ("a27.log.bribe_withdraw", 1),
        ("a27.log.bribe_accepted", 2),
    ]


@pytest.mark.parametrize(
    "private",
    [
        [],
        [{"type": "offer", "seat": C, "to": D, "amount": 3, "kind": "veto"}],
        [
            {"type": "offer", "seat": C, "to": D, "amount": 3, "kind": "veto"},
            {"type": "withdraw", "seat": C, "bribe": 123},  # C's first offer to D
        ],
    ],
)
def test_undo_never_shows_whether_a_private_deal_was_made(private):
    """Keeper mode: nothing is undone during negotiation (the latest entry may
    be a private deal; every public step there is reversed by another
    command), so the kiosk's undo button and its answer are the same whatever
    the players did on their phones."""
    from companion.table import OPERATOR, seat_source

    table = keeper4(EventStore(":memory:"))
    propose(table, PK, call_vote=False)
    for command in private:
        table.execute(command, source=seat_source(command["seat"]))
    assert view(table)["can_undo"] is False
    refused(table, {"type": "undo"}, "undo.would_rehide", source=OPERATOR)
    table.execute({"type": "gavel"})  # Vote!: the deals are closed
    table.execute({"type": "undo"})
    assert view(table)["phase"] == "negotiation"


def test_bribes_close_when_the_vote_is_called(store):
    table = keeper4(store)
    propose(table, PK)
    refused(table, {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"}, "a27.not_now")


def test_physical_mode_has_no_bribes(store):
    table = a27_table(store, 4, mode="physical")
    table.execute({"type": "unused", "agendas": ["innovation", "justice"]})
    reveal(table, FOUR + ["wealth"])
    table.execute({"type": "gavel"})
    refused(
        table, {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"}, "a27.keeper_only"
    )


def test_the_kiosk_never_makes_a_keeper_bribe(store):
    from companion.table import OPERATOR, seat_source

    table = keeper4(store)
    propose(table, PK, call_vote=False)
    refused(
        table,
        {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"},
        "command.private_choice",
        source=OPERATOR,
    )
    table.execute(
        {"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"}, source=seat_source(B)
    )
    assert all(c["type"] not in ("offer", "accept") for c in table.shared_commands())


# -- T11-T14: payouts, privilege, timer ------------------------------------------------


def test_t11_a_negative_score_never_takes_more_than_a_player_holds(store):
    table = keeper4(store, slots=[[PK, SM, DI, HU, NU]] * 3 + [[PK, SM, DI, HU, NU]])
    propose(table, HU, NU, call_vote=False)  # -2 and -4 for everyone
    bribe(table, B, C, 10, "yes")  # B keeps 2 behind the screen
    table.execute({"type": "gavel"})
    vote(table, "YYYA")
    assert view(table)["outcome"] == "passed"
    assert influence(table)[B] == 0  # paid 2 of the 6 owed
    assert influence(table)[C] == 12 + 10 - 6


def test_t12_the_sg_takes_the_privilege_and_abstainers_score(store):
    table = keeper4(store)
    propose(table, PK)
    vote(table, "YYYA")
    assert influence(table) == [12 + 5 + 5, 17, 17, 17]
    assert view(table)["phase"] == "scored" and view(table)["privilege"] is False
    table.execute({"type": "next_round"})
    assert view(table)["privilege"] is True and view(table)["sg"] == B


def test_t13_time_up_with_an_empty_floor(store):
    clock = FakeClock()
    table = keeper4(store, clock=clock)
    table.execute({"type": "gavel"})
    clock.advance(299)
    assert table.tick() == [] and view(table)["timer"]["remaining"] == 1
    clock.advance(1)
    assert [e["type"] for e in table.tick()] == ["timer_expired"]
    v = view(table)
    assert v["phase"] == "place_one" and v["privilege"] is False
    refused(table, {"type": "gavel"}, "a27.not_now")
    table.execute({"type": "move", "issue": PK, "to": "floor"})
    assert view(table)["phase"] == "voting"
    vote(table, "YYYA")
    assert influence(table) == [17, 17, 17, 17]  # no +5 for the SG


def test_t14_vote_needs_an_issue_on_the_floor(store):
    table = keeper4(store)
    table.execute({"type": "gavel"})
    refused(table, {"type": "gavel"}, "a27.empty_floor")


def test_time_up_comes_before_any_command_even_before_the_tick(store):
    """The kiosk ticks every second; a command that arrives after time ran
    out, before the tick, is judged after the expiry (N12)."""
    clock = FakeClock()
    table = keeper4(store, clock=clock)
    table.execute({"type": "gavel"})
    clock.advance(330)
    with pytest.raises(RuleError) as err:  # negotiation is over
        table.execute({"type": "offer", "seat": B, "to": C, "amount": 1, "kind": "yes"})
    assert err.value.key == "a27.not_now"
    v = view(table)
    assert v["phase"] == "place_one" and v["privilege"] is False
    table.execute({"type": "move", "issue": PK, "to": "floor"})
    assert view(table)["phase"] == "voting"  # the one issue; no "Vote!"
    refused(table, {"type": "gavel"}, "a27.not_now")
    assert [key for key, _ in table.log_lines()[-3:]] == [
        "a27.log.gavel",
        "a27.log.timer_expired",
        "a27.log.move_floor",
    ]
    assert [c["source"] for c in store.commands(table.game_id)][-2:] == ["clock", "local"]


def test_time_up_with_issues_on_the_floor_freezes_the_proposal(store):
    clock = FakeClock()
    table = keeper4(store, clock=clock)
    propose(table, PK, SM, call_vote=False)
    clock.advance(300)
    table.tick()
    v = view(table)
    assert v["phase"] == "voting" and v["floor"] == [PK, SM] and v["privilege"]
    refused(table, {"type": "move", "issue": PK, "to": "table"}, "a27.not_now")


def test_after_vote_the_timer_no_longer_matters(store):
    clock = FakeClock()
    table = keeper4(store, clock=clock)
    propose(table, PK)
    clock.advance(1000)
    assert table.tick() == []
    refused(table, {"type": "timer_expired"}, "a27.not_now")
    assert view(table)["timer"] is None


def test_the_timer_pauses_and_cannot_be_forced_early(store):
    clock = FakeClock()
    table = keeper4(store, clock=clock)
    table.execute({"type": "gavel"})
    clock.advance(100)
    table.execute({"type": "pause"})
    clock.advance(500)
    assert view(table)["timer"] == {
        "duration": 300,
        "remaining": 200.0,
        "running": False,
        "paused": True,
    }
    assert table.tick() == []
    table.execute({"type": "resume"})
    refused(table, {"type": "timer_expired"}, "a27.timer_running")
    clock.advance(199)
    assert view(table)["timer"]["remaining"] == 1.0
    clock.advance(1)
    assert table.tick()[0]["type"] == "timer_expired"


def test_a_restarted_table_has_the_right_time_left(tmp_path):
    clock = FakeClock()
    path = tmp_path / "g.sqlite3"
    table = keeper4(EventStore(path), clock=clock)
    table.execute({"type": "gavel"})
    for _ in range(120):  # the kiosk's ticks, which save a running timer's time
        clock.advance(1)
        table.tick()
    table.store.close()
    clock.advance(30)  # the restart takes 30 seconds: downtime does not count
    resumed = Table.resume(EventStore(path), clock=clock)
    assert view(resumed)["timer"]["remaining"] == 180.0
    clock.advance(179.9)
    assert resumed.tick() == []
    clock.advance(0.1)
    assert resumed.tick()[0]["type"] == "timer_expired"


def test_a_forged_time_is_ignored(store):
    clock = FakeClock()
    table = keeper4(store, clock=clock)
    table.execute({"type": "gavel"})
    refused(table, {"type": "timer_expired", "at": clock.now + 10_000}, "a27.timer_running")


# -- T15-T18: disks and the agenda track --------------------------------------------------


def test_t15_a_third_disk_of_one_agenda_is_replaced(store):
    deal = {
        "agendas": FOUR,
        "slots": [quiet_slots(4)],
        "disks": ["wealth", "wealth", "wealth", "peace", "power", "prestige"],
    }
    table = a27_table(store, 4, deal=deal)
    disks = [i["agenda"] for i in view(table)["issues"]]
    assert disks == ["wealth", "wealth", "peace", "power", "prestige"]
    assert table.state.areas[DI].count("wealth") == 1  # shuffled back in


def test_t15_physical_entry_of_a_third_disk_is_refused(store):
    table = a27_table(store, 4, mode="physical")
    table.execute({"type": "unused", "agendas": ["innovation", "justice"]})
    table.execute({"type": "reveal_disk", "issue": PK, "agenda": "wealth"})
    table.execute({"type": "reveal_disk", "issue": SM, "agenda": "wealth"})
    refused(table, {"type": "reveal_disk", "issue": DI, "agenda": "wealth"}, "a27.third_agenda")
    refused(table, {"type": "reveal_disk", "issue": DI, "agenda": "justice"}, "a27.no_such_disk")


def test_t16_the_last_round_keeps_a_third_disk(store):
    table = a27_table(store, 4, mode="physical")
    table.execute({"type": "unused", "agendas": ["innovation", "justice"]})
    rounds = [
        ["wealth", "peace", "prestige", "power", "wealth"],
        ["peace", "prestige", "power", "wealth", "peace"],
        ["prestige", "power", "wealth", "peace", "prestige"],
        ["power", "wealth", "peace", "prestige", "power"],
    ]
    for disks in rounds[:3]:
        reveal(table, disks)
        propose(table, PK)
        vote(table, "AAAA")
    # The last round: what is left in each area is what must be turned.
    last = [table.state.areas[i][0] for i in (PK, SM, DI, HU, NU)]
    assert last == rounds[3] and last.count("power") == 2
    reveal(table, last)
    assert view(table)["phase"] == "ready"


def test_t16_keeper_last_round_allows_three_of_a_kind(store):
    """Six players, six rounds: the last disks are whatever is left, and three
    of one agenda may show together."""
    table = a27_table(store, 6)
    for _ in range(5):
        propose(table, PK)
        vote(table, "AAAAAA")
    next_round(table)
    assert view(table)["round"] == 6
    counts = [i["agenda"] for i in view(table)["issues"]]
    assert all(len(table.state.areas[i]) == 0 for i in (PK, SM, DI, HU, NU))
    assert len(counts) == 5


def test_t17_track_values():
    assert TRACK_VALUES == (0, 1, 3, 6, 10, 15)
    from companion.games.article27.rules import track_value

    assert track_value(4) == 10 and track_value(5) == 15


def test_t18_the_best_reachable_value_of_each_agenda(store):
    table = a27_table(store, 6, mode="physical")
    rounds = [
        (["power", "power", "wealth", "wealth", "prestige"], (PK, SM, DI), "YYYYAA"),
        (["wealth", "justice", "power", "peace", "innovation"], (PK, SM, DI, HU), "YYYYAA"),
        (["prestige", "peace", "justice", "innovation", "wealth"], (PK,), "YYYYAA"),
        (["justice", "prestige", "peace", "justice", "peace"], (PK,), "YYYYYV"),
    ]
    for disks, floor, votes in rounds:
        reveal(table, disks)
        propose(table, *floor)
        vote(table, votes)
    track = {row["agenda"]: (row["value"], row["best"]) for row in view(table)["track"]}
    assert {a: v for a, (v, _) in track.items()} == {
        "wealth": 3,
        "peace": 1,
        "prestige": 1,
        "innovation": 0,
        "justice": 1,
        "power": 6,
    }
    assert [a for a, (_, best) in track.items() if best == 15] == ["power"]


# -- T19-T22: Lie, Cheat and Steal -----------------------------------------------------


def lcs_table(store, announcer_slots):
    """Four players, keeper, the variant on; B's slots as given; a passed
    proposal of PK (+5 slot for everyone else)."""
    slots = quiet_slots(4)
    slots[B] = announcer_slots
    table = keeper4(store, slots=slots, lie_cheat_steal=True)
    propose(table, PK)
    vote(table, "YYYA")
    table.execute({"type": "announce", "seat": A, "score": 5})
    table.execute({"type": "proceed"})
    return table


def test_t19_a_caught_lie_pays_the_difference_capped_at_5(store):
    table = lcs_table(store, [SM, DI, HU, PK, NU])  # PK at -2: B's true score -2
    assert view(table)["announcer"] == B
    before = influence(table)
    table.execute({"type": "announce", "seat": B, "score": 7})
    table.execute({"type": "challenge", "seat": C})
    result = view(table)["announcements"][-1]["result"]
    assert result["truthful"] is False and result["penalty"] == 5
    after = influence(table)
    assert after[C] == before[C] + 5
    assert after[B] == before[B] - 5 - 2  # the penalty, then the real -2


def test_t20_an_honest_announcement_costs_the_challenger_3(store):
    table = lcs_table(store, [PK, SM, DI, HU, NU])  # true score 5
    before = influence(table)
    table.execute({"type": "announce", "seat": B, "score": 5})
    table.execute({"type": "challenge", "seat": D})
    after = influence(table)
    assert after[D] == before[D] - 3 and after[B] == before[B] + 3 + 5


def test_t21_a_challenger_needs_3(store):
    table = keeper4(store, lie_cheat_steal=True)
    propose(table, PK, call_vote=False)
    bribe(table, C, D, 10, "yes")  # C keeps 2 behind the screen
    table.execute({"type": "gavel"})
    vote(table, "YYYY")
    table.execute({"type": "announce", "seat": A, "score": 5})
    table.execute({"type": "proceed"})
    table.execute({"type": "announce", "seat": B, "score": 9})
    assert table.private_view(C)["influence"] == 2
    with pytest.raises(RuleError) as err:
        table.execute({"type": "challenge", "seat": C})
    assert err.value.key == "a27.challenge_needs"
    assert {"type": "challenge", "seat": C} not in table.legal_commands()
    assert {"type": "challenge", "seat": D} in table.legal_commands()


def test_t22_the_bank_covers_a_bankrupt_liar(store):
    slots = quiet_slots(4)
    slots[B] = [SM, DI, HU, NU, PK]  # B's PK at -4
    table = keeper4(store, slots=slots, lie_cheat_steal=True)
    propose(table, PK, call_vote=False)
    bribe(table, B, C, 10, "yes")  # B keeps 2
    table.execute({"type": "gavel"})
    vote(table, "YYYA")
    table.execute({"type": "announce", "seat": A, "score": 5})
    table.execute({"type": "proceed"})
    before = influence(table)
    assert before[B] == 2
    bank = table.state.bank
    table.execute({"type": "announce", "seat": B, "score": 3})
    table.execute({"type": "challenge", "seat": D})
    result = view(table)["announcements"][-1]["result"]
    assert (result["penalty"], result["from_announcer"], result["from_bank"]) == (5, 2, 3)
    assert influence(table)[D] == before[D] + 5 and influence(table)[B] == 0
    assert table.state.bank == bank - 3


def test_unchallenged_lies_pay(store):
    table = lcs_table(store, [SM, DI, HU, NU, PK])  # true score -4
    before = influence(table)
    table.execute({"type": "announce", "seat": B, "score": 9})
    for seat in (A, C, D):
        table.execute({"type": "pass", "seat": seat})
    assert influence(table)[B] == before[B] + 9
    refused(table, {"type": "announce", "seat": C, "score": 12}, "a27.impossible_score")


# -- T23-T25: setup, rotation, ranking ---------------------------------------------------


def test_t23_four_players_box_two_agendas(store):
    table = a27_table(store, 4)
    v = view(table)
    assert len(v["unused_agendas"]) == 2 and v["rounds"] == 4
    assert sum(len(disks) for disks in table.state.areas.values()) + 5 == 20
    assert all(len(table.state.areas[i]) == 3 for i in (PK, SM, DI, HU, NU))
    assert {r["agenda"] for r in v["track"] if not r["in_play"]} == set(v["unused_agendas"])


def test_t24_three_players_keep_every_disk_and_lead_twice(store):
    table = a27_table(store, 3)
    assert view(table)["unused_agendas"] == [] and view(table)["rounds"] == 6
    sgs = []
    for _ in range(6):
        next_round(table)
        sgs.append(view(table)["sg"])
        propose(table, PK)
        vote(table, "AAA")
    assert sgs == [A, B, C, A, B, C]
    assert view(table)["phase"] == "over"


def test_t25_a_tie_goes_to_fewer_agenda_points():
    ranked = scoring.rank(
        [
            {"seat": 0, "total": 40, "points": 6, "passed_as_sg": False},
            {"seat": 1, "total": 40, "points": 10, "passed_as_sg": True},
            {"seat": 2, "total": 41, "points": 0, "passed_as_sg": False},
            {"seat": 3, "total": 30, "points": 3, "passed_as_sg": True},
            {"seat": 4, "total": 30, "points": 3, "passed_as_sg": False},
            {"seat": 5, "total": 20, "points": 1, "passed_as_sg": False},
            {"seat": 6, "total": 20, "points": 1, "passed_as_sg": False},
        ]
    )
    assert [(e["seat"], e["rank"], e["tie_break"]) for e in ranked] == [
        (2, 1, None),
        (0, 2, "fewer_agenda_points"),
        (1, 3, "fewer_agenda_points"),
        (3, 4, "passed_as_sg"),
        (4, 5, "passed_as_sg"),
        (5, 6, "shared"),
        (6, 6, "shared"),
    ]


def test_a_whole_keeper_game_ends_with_a_ranking(store):
    table = a27_table(store, 3)
    for _ in range(6):
        propose(table, PK, SM)
        vote(table, "YYA")
    v = view(table)
    assert v["phase"] == "over" and len(v["history"]) == 6
    assert [p["agenda"] for p in v["players"]] == table.state.agendas
    results = v["results"]
    assert sorted(r["rank"] for r in results) in ([1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1])
    for r in results:
        assert r["total"] == r["influence"] + r["points"]
    assert table.store.game(table.game_id).status == "finished"


def test_physical_mode_ends_with_everyone_entering_their_result(store):
    table = a27_table(store, 3, mode="physical")
    for _round in range(6):
        next_round(table)
        while view(table)["phase"] == "reveal":
            table.execute(table.legal_commands()[0])
        propose(table, PK)
        vote(table, "YYA")
    assert view(table)["phase"] == "final"
    table.execute({"type": "final_tally", "seat": A, "influence": 20, "agenda": "wealth"})
    refused(
        table,
        {"type": "final_tally", "seat": B, "influence": 20, "agenda": "wealth"},
        "a27.bad_agenda",
    )
    table.execute({"type": "final_tally", "seat": B, "influence": 25, "agenda": "peace"})
    table.execute({"type": "final_tally", "seat": C, "influence": 18, "agenda": "power"})
    v = view(table)
    assert v["phase"] == "over"
    assert [r["seat"] for r in v["results"]][0] in (A, B, C)
    # The app held nothing the end shows: the last entry can be corrected.
    assert v["can_undo"]
    table.execute({"type": "undo"})
    assert view(table)["phase"] == "final"


def test_the_end_of_a_keeper_game_cannot_be_undone(store):
    """With Lie, Cheat and Steal the last proceed ends the game, and the end
    shows every agenda: undo may not hide them again."""
    table = a27_table(store, 3, lie_cheat_steal=True)
    while not table.is_over:
        propose(table, PK)
        vote(table, "YYY")
        while view(table)["phase"] in ("announce", "challenge"):
            v = view(table)
            if v["phase"] == "announce":
                table.execute({"type": "announce", "seat": v["announcer"], "score": 0})
            else:
                table.execute({"type": "proceed"})
    assert [e["type"] for _, e in table.log[-1:]] == ["proceed"]
    v = view(table)
    assert [p["agenda"] for p in v["players"]] == table.state.agendas
    assert not v["can_undo"]
    refused(table, {"type": "undo"}, "undo.would_rehide")


def test_come_and_go_starts_with_20(store):
    table = a27_table(store, 4, come_and_go=True)
    assert influence(table) == [20] * 4
    assert view(table)["variants"]["come_and_go"] is True


def test_only_the_sg_moves_issues(store):
    from companion.table import seat_source

    table = keeper4(store)
    table.execute({"type": "gavel"})
    refused(table, {"type": "move", "seat": B, "issue": PK, "to": "floor"}, "a27.not_sg")
    refused(
        table,
        {"type": "move", "seat": B, "issue": PK, "to": "floor"},
        "a27.not_sg",
        source=seat_source(B),
    )
    refused(
        table,
        {"type": "move", "issue": PK, "to": "floor"},
        "command.not_your_seat",
        source=seat_source(B),
    )
    table.execute({"type": "move", "seat": A, "issue": PK, "to": "floor"}, source=seat_source(A))
    refused(table, {"type": "move", "issue": PK, "to": "floor"}, "a27.already_there")
    assert view(table)["floor"] == [PK]


@pytest.mark.parametrize("issue", [[PK], {"issue": PK}, None, "floor"])
def test_a_move_of_no_issue_is_refused(store, issue):
    table = keeper4(store)
    table.execute({"type": "gavel"})
    refused(table, {"type": "move", "issue": issue, "to": "floor"}, "a27.unknown_issue")


def test_private_views_show_own_agenda_slots_and_influence_only(store):
    table = keeper4(store)
    mine = table.private_view(B)
    assert mine["agenda"] == {"agenda": "peace", "value": 0, "best": 15}
    assert mine["influence"] == 12
    assert [s["value"] for s in mine["slots"]] == [5, 3, 1, -2, -4]
    assert mine["if_passed"] == 0
    public = view(table)
    assert all(p["agenda"] is None for p in public["players"])
    assert "influence" not in str(public)
