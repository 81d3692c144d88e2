"""The digest's nineteen concrete cases (coup_rebellion_g54.md §10), each
played through a real table and store."""

from __future__ import annotations

from collections import Counter

from g54_helpers import coins, current, g54_table, lives, nobody_answers, reach, refused, run, view

from companion.games.base import Fate, Setup
from companion.games.g54 import ENGINE
from companion.games.g54.roles import BY_NAME
from companion.games.g54.sets import category_of

A, B, C, D = 0, 1, 2, 3


def test_1_a_random_set_is_one_two_three_and_two(store):
    for seed in range(200):
        for advanced in (False, True):
            setup = Setup(
                game="g54",
                seats=["A", "B", "C", "D"],
                mode="keeper",
                options={"advanced": advanced},
            )
            state = ENGINE.new_state(setup)
            ENGINE.apply(state, ENGINE.chance(state, Fate(seed=seed)))
            names = state.ruleset.characters
            assert Counter(category_of(n) for n in names) == {
                "finance": 1,
                "communications": 1,
                "force": 1,
                "special": 2,
            }
            assert advanced or not any(BY_NAME[n].advanced for n in names)
            cards = len(state.court) + sum(len(h) for h in state.hands)
            assert cards == 15 and len(state.court) == 7
    starter = g54_table(store, "starter", players=4)
    assert view(starter)["roles"] == [
        "banker",
        "director",
        "guerrilla",
        "peacekeeper",
        "politician",
    ]
    assert view(starter)["tokens"] == {"peacekeeping": None}
    assert view(starter)["court"] == 7


def test_1b_the_communist_can_be_drawn_as_a_force_character(store):
    seen = set()
    for seed in range(300):
        setup = Setup(
            game="g54",
            seats=["A", "B", "C"],
            mode="physical",
            options={"advanced": True, "communist": "force"},
        )
        state = ENGINE.new_state(setup)
        ENGINE.apply(state, ENGINE.chance(state, Fate(seed=seed)))
        force = [n for n in state.ruleset.characters if category_of(n, "force") == "force"]
        assert len(force) == 1
        seen |= set(force)
    assert "communist" in seen


SET = ["banker", "director", "guerrilla", "judge", "politician"]


def test_2_ten_coins_leave_only_a_coup(store):
    table = g54_table(store, SET)
    reach(table, A, p0=10)
    assert {c["type"] for c in table.legal_commands()} == {"coup"}
    refused(table, {"type": "banker", "seat": A}, "coup.must_coup")


def test_3_a_caught_bluff_loses_a_life_and_gains_nothing(store):
    table = g54_table(
        store, SET, hands=[["director", "guerrilla"], ["banker", "judge"], ["judge", "politician"]]
    )
    run(
        table,
        {"type": "banker", "seat": A},
        {"type": "challenge", "seat": B},
        {"type": "concede", "seat": A},
        {"type": "lose", "seat": A, "card": "guerrilla"},
    )
    assert coins(table)[A] == 2 and lives(table)[A] == 1


def test_4_a_blocked_guerrilla_keeps_its_price_in_the_treasury(store):
    table = g54_table(store, SET)
    reach(table, A, p0=7)
    treasury = view(table)["treasury"]
    run(table, {"type": "guerrilla", "seat": A, "target": B})
    nobody_answers(table)  # nobody challenges
    run(table, {"type": "block", "seat": B, "character": "guerrilla"})
    nobody_answers(table)  # nobody challenges the block
    assert coins(table)[A] == 3 and lives(table)[B] == 2
    assert view(table)["treasury"] == treasury + 4
    assert current(table) == B


def test_5_a_blocked_judge_leaves_the_three_with_the_target(store):
    table = g54_table(store, SET)
    reach(table, A, p0=6, p1=2)
    run(table, {"type": "judge", "seat": A, "target": B})
    nobody_answers(table)
    run(table, {"type": "block", "seat": B, "character": "judge"})
    nobody_answers(table)
    assert coins(table)[A] == 3 and coins(table)[B] == 5
    assert lives(table) == [2, 2, 2]


def test_6_the_politician_takes_what_there_is(store):
    table = g54_table(
        store,
        ["banker", "newscaster", "guerrilla", "politician", "priest"],
        hands=[["banker", "politician"], ["newscaster", "priest"], ["guerrilla", "priest"]],
    )
    run(
        table, {"type": "income", "seat": A}, {"type": "newscaster", "seat": B}
    )  # B pays 1 for the draw
    nobody_answers(table)
    run(
        table,
        {"type": "keep", "seat": B, "cards": ["newscaster", "priest"]},
        {"type": "income", "seat": C},
    )
    assert coins(table)[B] == 1
    run(table, {"type": "politician", "seat": A, "target": B})
    nobody_answers(table)  # no challenge
    nobody_answers(table)  # no block
    assert coins(table)[A] == 4 and coins(table)[B] == 0


def test_7_the_priest_collects_from_those_who_neither_block_nor_are_broke(store):
    table = g54_table(store, ["banker", "director", "guerrilla", "politician", "priest"], players=4)
    run(table, {"type": "politician", "seat": A, "target": B})
    nobody_answers(table)
    nobody_answers(table)
    assert coins(table)[:2] == [4, 0]
    reach(table, A)  # quiet turns round the table
    before = coins(table)
    run(table, {"type": "priest", "seat": A})
    nobody_answers(table)  # no challenge
    assert view(table)["phase"] == "block"
    assert view(table)["pending"]["targets"] == [B, C, D]
    run(
        table,
        {"type": "block", "seat": C, "character": "priest"},
        {"type": "pass", "seat": B},
        {"type": "pass", "seat": D},
    )
    nobody_answers(table)  # nobody challenges C's block
    after = coins(table)
    assert after[A] == before[A] + 1 and after[B] == 0
    assert after[C] == before[C] and after[D] == before[D] - 1


def test_8_the_speculator_doubles_up_to_five_then_coup_is_forced(store):
    table = g54_table(
        store, ["speculator", "director", "guerrilla", "politician", "priest"], advanced=True
    )
    reach(table, A, p0=7)
    run(table, {"type": "speculator", "seat": A})
    nobody_answers(table)
    assert coins(table)[A] == 12
    reach(table, A)
    assert {c["type"] for c in table.legal_commands()} == {"coup"}


def test_9_a_speculator_caught_bluffing_pays_the_challenger(store):
    table = g54_table(
        store,
        ["speculator", "director", "guerrilla", "politician", "priest"],
        hands=[["director", "priest"], ["guerrilla", "priest"], ["politician", "speculator"]],
    )
    reach(table, A, p0=3)
    before = coins(table)
    run(
        table,
        {"type": "speculator", "seat": A},
        {"type": "challenge", "seat": C},
        {"type": "concede", "seat": A},
        {"type": "lose", "seat": A, "card": "priest"},
    )
    assert lives(table)[A] == 1
    assert coins(table)[A] == 0 and coins(table)[C] == before[C] + 3


def test_10_the_farmer_shares_one_of_three(store):
    table = g54_table(store, ["farmer", "director", "guerrilla", "politician", "priest"])
    treasury = view(table)["treasury"]
    run(table, {"type": "farmer", "seat": A, "to": B})
    nobody_answers(table)
    assert coins(table)[:2] == [4, 3]
    assert view(table)["treasury"] == treasury - 3


def crime_boss_table(store):
    table = g54_table(
        store,
        ["banker", "director", "crime_boss", "politician", "priest"],
        hands=[["banker", "crime_boss"], ["director", "priest"], ["politician", "priest"]],
    )
    reach(table, A, p0=5, p1=3)
    run(table, {"type": "crime_boss", "seat": A, "target": B})
    nobody_answers(table)
    assert view(table)["phase"] == "choice"
    assert view(table)["pending"]["choice"] == {"seat": B, "kind": "extortion", "cards": False}
    return table


def test_11_the_crime_boss_is_paid_or_pays(store):
    paid = crime_boss_table(store)
    run(paid, {"type": "choose", "seat": B, "option": "pay"})
    assert coins(paid)[:2] == [7, 1] and lives(paid)[B] == 2


def test_11b_a_refusal_costs_the_crime_boss_five_and_the_target_a_life(tmp_path):
    from companion.table import EventStore

    refused_ = crime_boss_table(EventStore(tmp_path / "other.db"))
    run(refused_, {"type": "choose", "seat": B, "option": "refuse"})
    assert coins(refused_)[:2] == [0, 3]
    assert view(refused_)["phase"] == "lose" and view(refused_)["waiting_for"] == [B]
    run(refused_, {"type": "lose", "seat": B, "card": "priest"})
    assert lives(refused_)[B] == 1


def test_12_a_capitalist_who_joins_is_paid_one(store):
    table = g54_table(store, ["capitalist", "director", "guerrilla", "politician", "priest"])
    run(table, {"type": "capitalist", "seat": A})
    nobody_answers(table)  # nobody challenges A
    assert view(table)["phase"] == "join"
    run(table, {"type": "join", "seat": C})
    nobody_answers(table)  # nobody challenges C
    run(table, {"type": "pass", "seat": B})
    assert coins(table) == [5, 2, 3]


def test_13_a_disappear_token_takes_a_life_at_the_end_of_the_holders_next_turn(store):
    table = g54_table(
        store,
        ["banker", "director", "mercenary", "politician", "priest"],
        hands=[["banker", "mercenary"], ["director", "priest"], ["politician", "priest"]],
    )
    reach(table, A, p0=3)
    run(table, {"type": "mercenary", "seat": A, "target": B})
    nobody_answers(table)  # no challenge
    nobody_answers(table)  # B does not block now
    assert coins(table)[A] == 0
    assert view(table)["tokens"]["disappear"] == {"1": 1}
    reach(table, B)
    run(table, {"type": "income", "seat": B})  # B's turn ends: the token is due
    assert view(table)["phase"] == "disappear" and view(table)["waiting_for"] == [B]
    nobody_answers(table)  # B does not claim the Mercenary
    run(table, {"type": "lose", "seat": B, "card": "priest"})
    assert lives(table)[B] == 1
    assert view(table)["tokens"]["disappear"] == {}
    assert current(table) == C


def test_14_peacekeeping_stops_all_but_a_coup(store):
    table = g54_table(store, ["banker", "director", "guerrilla", "politician", "peacekeeper"])
    run(table, {"type": "peacekeeper", "seat": A})
    nobody_answers(table)
    assert view(table)["tokens"]["peacekeeping"] == A
    reach(table, B, p1=7)
    refused(table, {"type": "guerrilla", "seat": B, "target": A}, "g54.peacekept")
    assert all(c.get("target") != A for c in table.legal_commands() if c["type"] != "coup")
    run(table, {"type": "coup", "seat": B, "target": A})
    assert view(table)["phase"] == "lose"


def test_15_a_treaty_forbids_even_a_coup_with_three_players_left(store):
    table = g54_table(store, ["banker", "director", "guerrilla", "politician", "foreign_consular"])
    run(table, {"type": "foreign_consular", "seat": A, "to": B})
    nobody_answers(table)
    assert view(table)["tokens"]["treaty"] == [A, B]
    reach(table, A, p0=7)
    refused(table, {"type": "coup", "seat": A, "target": B}, "g54.treaty")
    assert {c["target"] for c in table.legal_commands() if c["type"] == "coup"} == {C}


def test_16_the_tax_is_paid_to_the_taxer_before_the_claim(store):
    table = g54_table(store, ["banker", "director", "guerrilla", "politician", "customs_officer"])
    reach(table, C)
    run(table, {"type": "customs_officer", "seat": C, "role": "banker"})
    nobody_answers(table)
    assert view(table)["tokens"]["tax"] == {"taxer": C, "character": "banker"}
    reach(table, B)
    before = coins(table)
    run(table, {"type": "banker", "seat": B})
    assert coins(table)[B] == before[B] - 1 and coins(table)[C] == before[C] + 1
    nobody_answers(table)
    assert coins(table)[B] == before[B] + 2
    reach(table, C)
    before = coins(table)
    run(table, {"type": "banker", "seat": C})
    nobody_answers(table)
    assert coins(table)[C] == before[C] + 3


def test_17_a_lawyer_takes_the_coins_of_the_eliminated(store):
    table = g54_table(
        store,
        ["banker", "director", "guerrilla", "politician", "lawyer"],
        hands=[["banker", "guerrilla"], ["guerrilla", "politician"], ["lawyer", "politician"]],
    )
    run(
        table,
        {"type": "income", "seat": A},
        {"type": "director", "seat": B},
        {"type": "challenge", "seat": A},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": "guerrilla"},
    )
    reach(table, A, p0=7, p1=4)
    treasury = view(table)["treasury"]
    run(table, {"type": "coup", "seat": A, "target": B})
    assert view(table)["phase"] == "elimination"  # B's last card went face up
    run(table, {"type": "react", "seat": C, "character": "lawyer"})
    nobody_answers(table)  # nobody challenges the Lawyer
    nobody_answers(table)  # nobody else claims
    assert coins(table) == [0, 0, coins(table)[C]]
    assert coins(table)[C] >= 4 + 2
    assert view(table)["treasury"] == treasury + 7  # the Coup only
    assert view(table)["players"][B]["out"]


def test_18_the_intellectual_answers_a_coup_the_missionary_does_not(store):
    table = g54_table(
        store,
        ["banker", "director", "guerrilla", "intellectual", "missionary"],
        hands=[["banker", "guerrilla"], ["intellectual", "missionary"], ["banker", "director"]],
        advanced=True,
    )
    reach(table, A, p0=7)
    before = coins(table)[B]
    run(table, {"type": "coup", "seat": A, "target": B})
    refused(
        table,
        {"type": "react", "seat": B, "character": "missionary", "card": "missionary"},
        "coup.not_a_reaction",
    )
    run(table, {"type": "react", "seat": B, "character": "intellectual", "card": "intellectual"})
    nobody_answers(table)  # nobody challenges
    assert coins(table)[B] == before + 5
    assert view(table)["players"][B]["revealed"] == ["intellectual"]
    assert lives(table)[B] == 1


def test_19_blocks_on_a_purge_settle_clockwise_from_the_next_player(store):
    table = g54_table(store, ["banker", "director", "general", "politician", "priest"], players=4)
    reach(table, A, p0=5)
    run(table, {"type": "general", "seat": A})
    nobody_answers(table)
    assert view(table)["pending"]["targets"] == [B, C, D]
    run(
        table,
        {"type": "block", "seat": D, "character": "general"},
        {"type": "block", "seat": B, "character": "general"},
        {"type": "pass", "seat": C},
    )
    assert view(table)["pending"]["claim"]["seat"] == B  # B's block is settled first
    nobody_answers(table)
    assert view(table)["pending"]["claim"]["seat"] == D
    nobody_answers(table)
    assert view(table)["phase"] == "lose" and view(table)["waiting_for"] == [C]
    assert coins(table)[A] == 0
