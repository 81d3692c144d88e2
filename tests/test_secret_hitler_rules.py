"""Secret Hitler: the digest's cases T1-T8, each power on each board size,
the night phase, and bad input. Seats A-J sit clockwise."""

from __future__ import annotations

import pytest
from sh_helpers import (
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    chaos,
    elect,
    enact,
    fail_round,
    five_fascists_then_executions,
    govern,
    nominate,
    pick_chancellor,
    rotate_to,
    sh_table,
    view,
    vote_all,
)

from companion.games.base import RuleError

L_, F_ = "liberal", "fascist"


def refused(table, command, key):
    before = view(table)
    with pytest.raises(RuleError) as err:
        table.execute(command)
    assert err.value.key == key
    assert view(table) == before
    return err.value


def eligible(table):
    """Who the candidate may nominate, as the engine and its refusals say."""
    v = view(table)
    allowed = set()
    for seat in range(len(v["players"])):
        try:
            table.engine.decide(
                table.state, {"type": "nominate", "seat": v["candidate"], "target": seat}
            )
        except RuleError:
            continue
        allowed.add(seat)
    listed = {c["target"] for c in table.legal_commands()}
    assert listed == allowed
    return allowed


# -- T1: nomination and term limits ----------------------------------------------


def test_t1a_five_alive_only_the_last_chancellor_is_term_limited(store):
    table = five_fascists_then_executions(store, [C, F])
    rotate_to(table, A, avoid={A, B})
    govern(table, L_, chancellor=B)
    fail_round(table)  # B's government fails; C is dead
    v = view(table)
    assert v["candidate"] == D and sum(p["alive"] for p in v["players"]) == 5
    assert eligible(table) == {A, E, G}
    refused(table, {"type": "nominate", "seat": D, "target": B}, "sh.term_limited")
    refused(table, {"type": "nominate", "seat": D, "target": C}, "sh.player_dead")


def test_t1b_six_alive_both_are_term_limited(store):
    table = five_fascists_then_executions(store, [C])
    rotate_to(table, A, avoid={A, B})
    govern(table, L_, chancellor=B)
    fail_round(table)
    assert view(table)["candidate"] == D
    assert eligible(table) == {E, F, G}


def test_t1c_a_five_player_game_limits_only_the_last_chancellor(store):
    table = sh_table(store, 5)
    govern(table, L_, chancellor=B)
    fail_round(table)
    assert view(table)["candidate"] == C
    assert eligible(table) == {A, D, E}
    assert view(table)["term_limited"] == {"president": None, "chancellor": B}


def test_failed_nominations_do_not_change_term_limits(store):
    table = sh_table(store, 7)
    govern(table, L_, chancellor=C)
    fail_round(table)
    fail_round(table)
    assert view(table)["term_limited"] == {"president": A, "chancellor": C}


# -- T2: chaos --------------------------------------------------------------------


def test_t2_chaos_enacts_the_top_tile_without_power_and_clears_term_limits(store):
    table = sh_table(store, 7)
    chaos(table, F_)
    chaos(table, F_)  # F = 2, no powers used
    assert view(table)["candidate"] == G and view(table)["fascist"] == 2
    govern(table, L_, chancellor=A)  # G / A
    govern(table, L_, chancellor=B)  # A / B: the last elected pair
    fail_round(table)  # B
    fail_round(table)  # C
    assert view(table)["tracker"] == 2 and view(table)["candidate"] == D
    nominate(table, E)
    vote_all(table, "nein")
    v = view(table)
    assert v["phase"] == "chaos" and v["tracker"] == 3
    assert v["last_election"] == {
        "president": D,
        "chancellor": E,
        "votes": ["nein"] * 7,
        "elected": False,
        "chaos": True,
        "tracker": 3,
    }
    table.execute({"type": "chaos", "policy": F_})  # the 3rd fascist: no special election
    v = view(table)
    assert v["last_election"]["chaos"], "the outcome stays as it was, the tracker reset or not"
    assert v["fascist"] == 3 and v["tracker"] == 0 and v["power"] is None
    assert v["phase"] == "nominate" and v["candidate"] == E
    assert v["term_limited"] == {"president": None, "chancellor": None}
    assert {A, B} <= eligible(table)
    nominate(table, A)
    vote_all(table, "ja")
    assert view(table)["phase"] == "hitler_reveal"  # the Hitler zone applies at once
    assert view(table)["last_election"] == {
        "president": E,
        "chancellor": A,
        "votes": ["ja"] * 7,
        "elected": True,
        "chaos": False,
        "tracker": 0,
    }


# -- T3: special election -----------------------------------------------------------


def special_election_table(store, pick):
    """8 players; two chaos fascists, liberals to rotate, then President C
    enacts the 3rd fascist and calls a special election on ``pick``."""
    table = sh_table(store, 8)
    chaos(table, F_)
    chaos(table, F_)
    while view(table)["candidate"] != C:
        govern(table, L_)
    govern(table, F_)
    assert view(table)["phase"] == "special_election"
    refused(table, {"type": "special_election", "seat": C, "target": C}, "sh.target_self")
    table.execute({"type": "special_election", "seat": C, "target": pick})
    return table


def candidates(table, rounds):
    seen = []
    for _ in range(rounds):
        seen.append(view(table)["candidate"])
        fail_round(table)
    return seen


def test_t3a_rotation_resumes_after_the_caller(store):
    table = special_election_table(store, F)
    assert view(table)["special_election"] == {"caller": C, "candidate": None}
    assert candidates(table, 2) == [F, D]
    # (T3c) F's government was rejected: the tracker moved, and D came next.
    assert view(table)["tracker"] == 2


def test_t3b_picking_the_next_in_rotation_makes_them_candidate_twice(store):
    table = special_election_table(store, D)
    assert candidates(table, 2) == [D, D]
    assert view(table)["candidate"] == E


def test_t3d_rotation_resumes_after_a_caller_who_was_executed(store):
    table = special_election_table(store, F)
    assert view(table)["candidate"] == F
    govern(table, F_)  # the 4th fascist: execution
    table.execute({"type": "execute", "seat": F, "target": C})
    table.execute({"type": "reveal", "seat": C, "hitler": False})
    assert view(table)["candidate"] == D


# -- T4: veto ------------------------------------------------------------------------


def veto_table(store, tracker=2):
    table = sh_table(store, 7)
    for _ in range(5):
        chaos(table, F_)
    govern(table, L_)
    govern(table, L_)
    for _ in range(tracker):
        fail_round(table)
    v = view(table)
    assert (v["fascist"], v["liberal"], v["tracker"], v["veto_unlocked"]) == (5, 2, tracker, True)
    elect(table)
    assert view(table)["tracker"] == tracker, "an election does not reset the tracker"
    return table


@pytest.mark.parametrize("top, result", [(F_, "fascists win"), (L_, "liberal")])
def test_t4a_an_agreed_veto_can_cause_chaos(store, top, result):
    table = veto_table(store)
    v = view(table)
    president, chancellor = v["president"], v["chancellor"]
    draw, discard = v["draw"], v["discard"]
    table.execute({"type": "veto", "seat": chancellor})
    assert view(table)["veto_requested"]
    refused(table, {"type": "enact", "seat": chancellor, "policy": L_}, "sh.not_now")
    table.execute({"type": "veto_response", "seat": president, "agree": True})
    v = view(table)
    assert v["draw"] == draw - 3 and v["discard"] == discard + 3  # (T5c)
    assert v["phase"] == "chaos"
    table.execute({"type": "chaos", "policy": top})
    v = view(table)
    if result == "fascists win":
        assert (v["phase"], v["winner"], v["reason"]) == ("over", "fascist", "policies")
    else:
        assert v["liberal"] == 3 and v["tracker"] == 0 and v["power"] is None
        assert v["term_limited"] == {"president": None, "chancellor": None}
        assert {president, chancellor} <= eligible(table) | {v["candidate"]}


def test_t4b_a_refused_veto_forces_an_enactment_and_cannot_be_asked_again(store):
    table = veto_table(store)
    v = view(table)
    table.execute({"type": "veto", "seat": v["chancellor"]})
    table.execute({"type": "veto_response", "seat": v["president"], "agree": False})
    assert view(table)["veto_refused"]
    refused(table, {"type": "veto", "seat": v["chancellor"]}, "sh.veto_refused")
    assert {c["type"] for c in table.legal_commands()} == {"enact"}
    table.execute({"type": "enact", "seat": v["chancellor"], "policy": L_})
    assert view(table)["tracker"] == 0 and view(table)["liberal"] == 3


def test_t4c_no_veto_before_the_fifth_fascist(store):
    table = sh_table(store, 7)
    for _ in range(4):
        chaos(table, F_)
    elect(table)
    v = view(table)
    assert not v["veto_unlocked"]
    assert "veto" not in {c["type"] for c in table.legal_commands()}
    refused(table, {"type": "veto", "seat": v["chancellor"]}, "sh.veto_locked")


def test_t4d_a_fifth_fascist_by_chaos_grants_no_power_but_unlocks_the_veto(store):
    table = sh_table(store, 7)
    for _ in range(5):
        chaos(table, F_)
    v = view(table)
    assert v["fascist"] == 5 and v["power"] is None and v["phase"] == "nominate"
    assert v["veto_unlocked"]
    elect(table)
    assert "veto" in {c["type"] for c in table.legal_commands()}


def test_t4e_a_keeper_veto_that_reshuffled_cannot_be_undone(store):
    """The new order is chance: undoing the veto and agreeing again would
    shuffle again (and lose a scripted order)."""
    deck = [F_] * 5 + [F_, F_, L_] * 2 + [L_] * 3 + [F_, F_, L_]
    table = keeper7(store, deck=deck)
    for _ in range(5):
        chaos(table)  # the app turns five fascist tiles

    def agreed_veto():
        chancellor = elect(table, chancellor=pick_chancellor(table, avoid={E}))
        president = view(table)["president"]
        hand = table.private_view(president)["hand"]
        table.execute({"type": "discard", "seat": president, "policy": hand[0]})
        table.execute({"type": "veto", "seat": chancellor})
        table.execute({"type": "veto_response", "seat": president, "agree": True})

    agreed_veto()
    assert view(table)["can_undo"]  # nothing drawn by chance: a slip is undone
    table.execute({"type": "undo"})
    table.execute({"type": "veto_response", "seat": view(table)["president"], "agree": True})
    agreed_veto()
    govern(table, L_, chancellor=pick_chancellor(table, avoid={E}))
    agreed_veto()  # the last three tiles: a reshuffle
    v = view(table)
    assert (v["draw"], v["discard"], v["tracker"]) == (17 - 6, 0, 1)
    assert not v["can_undo"]
    refused(table, {"type": "undo"}, "undo.would_rehide")


# -- T5: the deck -------------------------------------------------------------------

KEEPER_DECK = [
    "liberal",
    "liberal",
    "fascist",  # session 1: enact liberal
    "fascist",
    "liberal",
    "fascist",  # session 2: enact fascist
    "liberal",
    "liberal",
    "fascist",  # session 3: enact liberal
    "fascist",
    "fascist",
    "liberal",  # session 4: enact fascist
    "fascist",
    "fascist",
    "fascist",  # session 5: enact the 3rd fascist
    "fascist",
    "fascist",
]
KEEPER_ROLES = ["liberal", "liberal", "liberal", "fascist", "hitler"]


def test_t5a_reshuffle_before_the_power_and_a_peek_sees_the_new_top(store):
    table = sh_table(store, 5, mode="keeper", deal={"roles": KEEPER_ROLES, "deck": KEEPER_DECK})
    for policy in (L_, F_, L_, F_, F_):
        govern(table, policy)
        s = table.state
        assert s.liberal + s.fascist + len(s.deck) + len(s.discard) + len(s.hand) == 17
    v = view(table)
    assert (v["liberal"], v["fascist"]) == (2, 3)
    assert v["phase"] == "peek" and v["draw"] == 12 and v["discard"] == 0
    president = v["president"]
    peek = table.private_view(president)["peek"]
    assert peek == table.state.deck[:3]
    assert all("peek" not in table.private_view(s) for s in range(5) if s != president)
    table.execute({"type": "peek", "seat": president})
    assert table.private_view(president)["knowledge"] == [{"kind": "peek", "tiles": peek}]
    assert view(table)["draw"] == 12, "a peek leaves the order and the pile alone"


def test_t5b_chaos_that_leaves_two_tiles_reshuffles_at_once(store):
    table = sh_table(store, 7)
    for policy in (L_, L_, L_, L_):
        govern(table, policy)
    assert view(table)["draw"] == 5
    chaos(table, F_)
    chaos(table, F_)
    assert view(table)["draw"] == 3
    fail_round(table)
    fail_round(table)
    nominate(table)
    vote_all(table, "nein")
    table.execute({"type": "chaos", "policy": F_})
    v = view(table)
    assert v["draw"] == 17 - 7 and v["discard"] == 0
    assert "sh.log.reshuffled" in [key for key, _ in table.log_lines()]


# -- T6: the Hitler zone ------------------------------------------------------------

HITLER_AT_E = ["liberal", "liberal", "fascist", "liberal", "hitler", "fascist", "liberal"]
FASCIST_DECK = ["fascist"] * 11 + ["liberal"] * 6


def keeper7(store, deck=FASCIST_DECK):
    return sh_table(store, 7, mode="keeper", deal={"roles": HITLER_AT_E, "deck": deck})


def test_t6a_hitler_chancellor_before_the_zone_does_not_win(store):
    table = keeper7(store)
    chaos(table)
    chaos(table)  # F = 2, keeper turns the tiles
    while view(table)["candidate"] in (E,):
        fail_round(table)
    elect(table, chancellor=E)
    v = view(table)
    assert v["winner"] is None and v["chancellor"] == E and v["phase"] == "president_discard"
    enact(table, F_)  # the 3rd fascist, a power slot
    assert view(table)["phase"] == "special_election"


def test_t6b_hitler_elected_in_the_zone_wins_before_any_draw(store):
    table = keeper7(store)
    for _ in range(3):
        chaos(table)
    v = view(table)
    assert v["fascist"] == 3 and v["hitler_zone"]
    draw = v["draw"]
    nominate(table, E)
    vote_all(table, "ja")
    v = view(table)
    assert (v["phase"], v["winner"], v["reason"]) == ("over", "fascist", "hitler_elected")
    assert v["draw"] == draw
    assert [p["role"] for p in v["players"]] == HITLER_AT_E  # roles shown at the end


def test_t6c_hitler_president_in_the_zone_does_not_win(store):
    table = keeper7(store)
    for _ in range(3):
        chaos(table)
    rotate_to(table, E)
    chancellor = elect(table, chancellor=A)
    v = view(table)
    assert v["winner"] is None and v["president"] == E and v["phase"] == "president_discard"
    assert v["players"][chancellor]["not_hitler"]


def test_t6d_a_tie_fails_even_for_hitler(store):
    table = sh_table(store, 8)
    for _ in range(3):
        chaos(table, F_)
    nominate(table)
    vote_all(table, {s: ("ja" if s < 4 else "nein") for s in range(8)})
    v = view(table)
    assert v["tracker"] == 1 and v["president"] is None
    assert v["last_votes"].count("ja") == 4


# -- T7: execution -------------------------------------------------------------------


def test_t7a_executing_hitler_wins_for_the_liberals(store):
    table = keeper7(store)
    for _ in range(3):
        chaos(table)
    elect(table, chancellor=next(s for s in (A, B, C, D, F, G) if s != view(table)["candidate"]))
    enact(table, F_)  # the 4th fascist: execution
    president = view(table)["president"]
    table.execute({"type": "execute", "seat": president, "target": E})
    v = view(table)
    assert (v["winner"], v["reason"]) == ("liberal", "hitler_executed")


@pytest.mark.parametrize("hitler", [True, False])
def test_t7_a_keeper_execution_cannot_be_undone(store, hitler):
    """The game ends (every role shown) or goes on (the target was not
    Hitler): either way the table has learnt something, so the president may
    not take the execution back and choose again."""
    table = keeper7(store)
    for _ in range(3):
        chaos(table)
    elect(table, chancellor=next(s for s in (A, B, C, D, F, G) if s != view(table)["candidate"]))
    enact(table, F_)
    president = view(table)["president"]
    target = E if hitler else next(s for s in (A, B, C, D, F, G) if s != president)
    table.execute({"type": "execute", "seat": president, "target": target})
    v = view(table)
    assert (v["phase"] == "over") is hitler
    assert not v["can_undo"]
    refused(table, {"type": "undo"}, "undo.would_rehide")


def test_t7b_a_non_hitler_execution_reveals_nothing(store):
    table = sh_table(
        store,
        6,
        mode="keeper",
        deal={
            "roles": ["liberal", "fascist", "liberal", "liberal", "hitler", "liberal"],
            "deck": FASCIST_DECK,
        },
    )
    for _ in range(3):
        chaos(table)
    elect(table)
    enact(table, F_)
    president = view(table)["president"]
    table.execute({"type": "execute", "seat": president, "target": B})
    v = view(table)
    assert v["winner"] is None and v["players"][B]["role"] is None
    assert not v["players"][B]["alive"] and v["executed"] == [B]
    assert "role" not in str(table.log_lines())
    # Five alive now: only the last chancellor is term-limited.
    assert v["term_limited"]["president"] is None
    refused(table, {"type": "nominate", "seat": v["candidate"], "target": B}, "sh.player_dead")


def test_t7d_a_player_confirmed_not_hitler_is_not_asked_again_when_executed(store):
    table = sh_table(store, 5)
    for _ in range(3):
        govern(table, F_)
    table.execute({"type": "peek", "seat": view(table)["president"]})
    chancellor = govern(table, F_)  # elected in the Hitler zone: not Hitler
    v = view(table)
    assert v["players"][chancellor]["not_hitler"] and v["phase"] == "execute"
    table.execute({"type": "execute", "seat": v["president"], "target": chancellor})
    v = view(table)
    assert v["phase"] == "nominate" and v["executed"] == [chancellor]
    assert not any(c["type"] == "reveal" for c in table.legal_commands())


# -- T8: investigation ----------------------------------------------------------------


def test_t8_investigation_shows_the_party_once_and_only_to_the_president(store):
    roles = [
        "liberal",
        "liberal",
        "fascist",
        "hitler",
        "liberal",
        "fascist",
        "fascist",
        "liberal",
        "liberal",
    ]
    table = sh_table(store, 9, mode="keeper", deal={"roles": roles, "deck": FASCIST_DECK})
    elect(table, chancellor=B)
    enact(table, F_)  # 9-10 board: slot 1 investigates
    assert view(table)["phase"] == "investigate"
    refused(table, {"type": "investigate", "seat": A, "target": A}, "sh.target_self")
    table.execute({"type": "investigate", "seat": A, "target": D})
    assert table.private_view(A)["knowledge"] == [
        {"kind": "investigate", "target": D, "party": "fascist"}
    ]  # Hitler shows fascist
    assert all(table.private_view(s)["knowledge"] == [] for s in range(1, 9))
    assert view(table)["investigations"] == [{"by": A, "target": D}]
    elect(table)
    enact(table, F_)  # slot 2 investigates again
    president = view(table)["president"]
    refused(
        table, {"type": "investigate", "seat": president, "target": D}, "sh.already_investigated"
    )
    assert D not in {c["target"] for c in table.legal_commands()}


# -- each power on each board ---------------------------------------------------------


@pytest.mark.parametrize(
    "players, powers",
    [
        (5, [None, None, "peek", "execute", "execute"]),
        (6, [None, None, "peek", "execute", "execute"]),
        (7, [None, "investigate", "special_election", "execute", "execute"]),
        (8, [None, "investigate", "special_election", "execute", "execute"]),
        (9, ["investigate", "investigate", "special_election", "execute", "execute"]),
        (10, ["investigate", "investigate", "special_election", "execute", "execute"]),
    ],
)
def test_each_power_on_each_board(store, players, powers):
    table = sh_table(store, players)
    assert view(table)["powers"] == powers
    for slot, power in enumerate(powers, start=1):
        assert view(table)["next_power"] == power
        govern(table, F_)
        v = view(table)
        assert v["fascist"] == slot
        assert v["phase"] == (power or "nominate")
        president = v["president"]
        others = [
            p["seat"]
            for p in v["players"]
            if p["alive"] and p["seat"] != president and not p["investigated"]
        ]
        if power in ("investigate", "special_election", "execute"):
            table.execute({"type": power, "seat": president, "target": others[-1]})
            if power == "execute":
                table.execute({"type": "reveal", "seat": others[-1], "hitler": False})
                assert not view(table)["players"][others[-1]]["alive"]
        elif power == "peek":
            table.execute({"type": "peek", "seat": president})
        assert view(table)["phase"] == "nominate"
    govern(table, F_)
    assert (view(table)["winner"], view(table)["reason"]) == ("fascist", "policies")


def test_five_liberal_policies_win(store):
    table = sh_table(store, 5)
    for _ in range(5):
        govern(table, L_)
    v = view(table)
    assert (v["winner"], v["reason"], v["phase"]) == ("liberal", "policies", "over")
    refused(table, {"type": "nominate", "seat": v["candidate"], "target": B}, "game.over")


# -- the night phase and private views --------------------------------------------------


def test_night_views_by_player_count(store):
    small = sh_table(
        store,
        6,
        mode="keeper",
        deal={"roles": ["liberal", "fascist", "liberal", "hitler", "liberal", "liberal"]},
    )
    assert small.private_view(B)["teammates"] == [{"seat": D, "role": "hitler"}]
    assert small.private_view(D)["teammates"] == [{"seat": B, "role": "fascist"}]
    assert small.private_view(A)["teammates"] == []
    assert small.private_view(D)["party"] == "fascist"
    big = sh_table(store, 7, mode="keeper", deal={"roles": HITLER_AT_E})
    assert big.private_view(C)["teammates"] == [
        {"seat": E, "role": "hitler"},
        {"seat": F, "role": "fascist"},
    ]
    assert big.private_view(E)["teammates"] == []  # Hitler knows nobody
    assert big.private_view(A) == {
        "seat": A,
        "name": "A",
        "role": "liberal",
        "party": "liberal",
        "teammates": [],
        "knowledge": [],
    }


def test_play_starts_when_everyone_has_seen_their_role(store):
    from companion.games.base import Fate, Setup
    from companion.table import Table

    setup = Setup(game="secret_hitler", seats=list("ABCDE"), mode="keeper", options={"first": 2})
    table = Table.start(store, setup, fate=Fate(seed=1))
    assert view(table)["phase"] == "night" and view(table)["waiting_for"] == [0, 1, 2, 3, 4]
    refused(table, {"type": "nominate", "seat": C, "target": D}, "sh.not_now")
    for seat in (A, B, C, D):
        table.execute({"type": "confirm", "seat": seat})
    refused(table, {"type": "confirm", "seat": A}, "sh.already_confirmed")
    assert view(table)["phase"] == "night"
    table.execute({"type": "confirm", "seat": E})
    assert view(table)["phase"] == "nominate" and view(table)["candidate"] == C


def test_the_first_candidate_is_random_by_default(store):
    from companion.games.base import Fate, Setup
    from companion.table import Table

    firsts = set()
    for seed in range(30):
        setup = Setup(game="secret_hitler", seats=list("ABCDE"), mode="physical")
        firsts.add(view(Table.start(store, setup, fate=Fate(seed=seed)))["candidate"])
    assert firsts == {A, B, C, D, E}


def test_bad_commands_are_refused(store):
    table = sh_table(store, 5)
    refused(table, {"type": "nominate", "seat": B, "target": C}, "sh.not_candidate")
    refused(table, {"type": "nominate", "seat": A, "target": A}, "sh.target_self")
    refused(table, {"type": "nominate", "seat": A, "target": 9}, "command.bad_seat")
    refused(table, {"type": "enact", "seat": A, "policy": L_}, "sh.not_now")
    refused(table, {"type": "chaos", "policy": L_}, "sh.not_now")
    refused(table, {"type": "ballot", "votes": ["ja"] * 5}, "command.unknown")
    refused(table, {"type": "vote", "seat": A, "choice": "ja"}, "ballot.none_open")
    nominate(table, B)
    refused(table, {"type": "vote", "seat": A, "choice": "maybe"}, "ballot.bad_choice")
    vote_all(table, "ja")
    refused(table, {"type": "enact", "seat": B, "policy": "communist"}, "sh.unknown_policy")
    refused(table, {"type": "enact", "seat": A, "policy": L_}, "sh.not_chancellor")
    enact(table, L_)
    assert view(table)["liberal"] == 1
