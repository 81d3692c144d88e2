"""The G54 mechanisms one by one: join windows, the Writer's paid draws, the
Producer's swap, the Spy's extra action, the Communist's richest and poorest,
reactions (Intellectual, Missionary, Lawyer) and every token's life cycle."""

from __future__ import annotations

from g54_helpers import coins, current, g54_table, lives, nobody_answers, reach, refused, run, view
from helpers import cards_on_table

from companion.table import OPERATOR

A, B, C, D = 0, 1, 2, 3


def bob_bluffs_away(table, card: str) -> None:
    """Ann takes Income; Bob claims the Banker, Cat challenges, Bob concedes
    and turns up ``card``: Bob is down to one life."""
    run(
        table,
        {"type": "income", "seat": A},
        {"type": "banker", "seat": B},
        {"type": "challenge", "seat": C},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": card},
    )


def legal_types(table) -> set[str]:
    return {c["type"] for c in table.legal_commands()}


# -- the Writer ------------------------------------------------------------------

WRITER = ["director", "writer", "guerrilla", "politician", "priest"]


def test_the_writer_pays_one_for_each_further_card_then_exchanges(store):
    table = g54_table(
        store,
        WRITER,
        hands=[["writer", "director"], ["priest", "priest"], ["guerrilla", "politician"]],
        draws=["director", "guerrilla", "politician"],
    )
    run(table, *({"type": "income", "seat": seat} for seat in (A, B, C)))
    court = view(table)["court"]
    run(table, {"type": "writer", "seat": A})
    nobody_answers(table)
    assert view(table)["pending"]["choice"] == {"seat": A, "kind": "writer", "cards": False}
    assert table.private_view(A)["drawn"] == ["director"]
    run(
        table,
        {"type": "choose", "seat": A, "option": "draw"},
        {"type": "choose", "seat": A, "option": "draw"},
    )
    assert coins(table)[A] == 1
    assert table.private_view(A)["drawn"] == ["director", "guerrilla", "politician"]
    run(table, {"type": "choose", "seat": A, "option": "stop"})
    assert view(table)["phase"] == "exchange"
    run(table, {"type": "keep", "seat": A, "cards": ["guerrilla", "politician"]})
    assert table.private_view(A)["hand"] == ["guerrilla", "politician"]
    assert view(table)["court"] == court and cards_on_table(table) == 15


def test_the_writer_without_a_coin_goes_straight_to_the_exchange(store):
    table = g54_table(
        store,
        WRITER,
        hands=[["writer", "director"], ["priest", "priest"], ["guerrilla", "politician"]],
    )
    run(table, {"type": "politician", "seat": A, "target": B})
    nobody_answers(table)
    nobody_answers(table)
    run(table, {"type": "writer", "seat": B})  # B has no coin left
    nobody_answers(table)
    assert view(table)["phase"] == "exchange"


def test_a_writer_at_the_table_pays_for_draws_the_app_only_counts(store):
    table = g54_table(store, WRITER, mode="physical")
    court = view(table)["court"]
    run(table, {"type": "writer", "seat": A})
    nobody_answers(table)
    run(
        table,
        {"type": "choose", "seat": A, "option": "draw"},
        {"type": "choose", "seat": A, "option": "stop"},
    )
    assert coins(table)[A] == 1 and view(table)["court"] == court
    assert current(table) == B


# -- the Producer ------------------------------------------------------------------

PRODUCER = ["banker", "producer", "director", "politician", "priest"]


def test_the_producer_swaps_with_the_target_who_chooses_in_private(store):
    table = g54_table(
        store,
        PRODUCER,
        hands=[["producer", "banker"], ["priest", "director"], ["politician", "politician"]],
        draws=["banker"],
        advanced=True,
    )
    run(table, {"type": "producer", "seat": A, "target": B})
    nobody_answers(table)  # no challenge
    nobody_answers(table)  # B does not block
    assert view(table)["phase"] == "choice"
    assert view(table)["pending"]["choice"] == {"seat": B, "kind": "producer", "cards": True}
    choices = [c for c in table.legal_commands() if c["type"] == "choose"]
    assert {c["option"] for c in choices} == {"priest", "director"}
    assert all(table.engine.private_choice(table.state, c) for c in choices)
    assert not [c for c in table.shared_commands() if c["type"] == "choose"]
    run(table, {"type": "choose", "seat": B, "option": "director"})
    assert table.private_view(B)["hand"] == ["priest"]
    assert sorted(table.private_view(A)["drawn"]) == ["banker", "director"]
    refused(
        table,
        {"type": "keep", "seat": A, "cards": ["producer", "director"]},
        "coup.give_not_offered",
    )
    run(table, {"type": "keep", "seat": A, "cards": ["producer", "director"], "give": "banker"})
    assert table.private_view(A)["hand"] == ["director", "producer"]
    assert table.private_view(B)["hand"] == ["banker", "priest"]
    assert cards_on_table(table) == 15
    choices = [(key, args) for key, args in table.log_lines() if key.startswith("log.choose")]
    assert choices == [("log.choose.producer", {"player": B, "undone": False})]


def test_a_blocked_producer_still_takes_its_card_from_the_court(store):
    """A block cancels only the part it blocks (the Persian rulebook: "the
    other details of the main action are carried out"): Bob keeps his
    cards, and Ann still exchanges one with the court."""
    table = g54_table(
        store,
        PRODUCER,
        hands=[["producer", "banker"], ["priest", "director"], ["politician", "politician"]],
        draws=["director"],
        advanced=True,
    )
    court = len(table.state.court)
    run(table, {"type": "producer", "seat": A, "target": B})
    nobody_answers(table)  # no challenge
    run(table, {"type": "block", "seat": B, "character": "producer"})
    nobody_answers(table)  # nobody challenges the block
    assert view(table)["phase"] == "exchange", "the court's part of the action stands"
    assert sorted(table.private_view(A)["drawn"]) == ["director"]
    assert table.private_view(B)["hand"] == ["director", "priest"], "Bob's card is blocked"
    run(table, {"type": "keep", "seat": A, "cards": ["director", "producer"]})
    assert table.private_view(A)["hand"] == ["director", "producer"]
    assert table.private_view(B)["hand"] == ["director", "priest"]
    assert len(table.state.court) == court and cards_on_table(table) == 15
    assert current(table) == B


def test_the_producer_at_the_table_leaves_the_cards_to_the_players(store):
    table = g54_table(store, PRODUCER, mode="physical", advanced=True)
    run(table, {"type": "producer", "seat": A, "target": B})
    nobody_answers(table)
    nobody_answers(table)
    assert current(table) == B


# -- the Spy -------------------------------------------------------------------------

SPY = ["spy", "director", "mercenary", "politician", "priest"]


def test_the_spy_takes_another_action_but_not_the_spy_again(store):
    table = g54_table(store, SPY)
    run(table, {"type": "spy", "seat": A})
    nobody_answers(table)
    assert coins(table)[A] == 3 and current(table) == A
    assert view(table)["pending"] is None and view(table)["phase"] == "action"
    refused(table, {"type": "spy", "seat": A}, "coup.again_twice")
    assert "spy" not in legal_types(table)
    run(table, {"type": "income", "seat": A})
    assert coins(table)[A] == 4 and current(table) == B


def test_a_disappear_token_waits_for_the_spys_second_action(store):
    table = g54_table(
        store, SPY, hands=[["mercenary", "priest"], ["spy", "politician"], ["director", "priest"]]
    )
    reach(table, A, p0=3)
    run(table, {"type": "mercenary", "seat": A, "target": B})
    nobody_answers(table)
    nobody_answers(table)
    reach(table, B)
    run(table, {"type": "spy", "seat": B})
    nobody_answers(table)
    assert view(table)["phase"] == "action" and current(table) == B
    run(table, {"type": "income", "seat": B})
    assert view(table)["phase"] == "disappear"


# -- join windows -------------------------------------------------------------------

CAPITALIST = ["capitalist", "director", "guerrilla", "politician", "priest"]


def test_a_joiner_caught_bluffing_loses_a_life_and_is_not_paid(store):
    table = g54_table(
        store,
        CAPITALIST,
        players=4,
        hands=[
            ["capitalist", "priest"],
            ["capitalist", "director"],
            ["guerrilla", "politician"],
            ["priest", "director"],
        ],
        advanced=True,
    )
    run(table, {"type": "capitalist", "seat": A})
    nobody_answers(table)
    run(
        table,
        {"type": "join", "seat": C},
        {"type": "challenge", "seat": A},
        {"type": "concede", "seat": C},
        {"type": "lose", "seat": C, "card": "guerrilla"},
    )
    assert view(table)["phase"] == "join"
    run(table, {"type": "join", "seat": B})
    nobody_answers(table)
    run(table, {"type": "pass", "seat": D})
    assert coins(table) == [5, 3, 2, 2]


PROTESTOR = ["banker", "director", "guerrilla", "politician", "protestor"]


def test_a_riot_nobody_pays_for_costs_the_protestor_two(store):
    table = g54_table(store, PROTESTOR, advanced=True)
    run(table, {"type": "protestor", "seat": A, "target": B})
    nobody_answers(table)
    assert view(table)["phase"] == "join" and view(table)["waiting_for"] == [C]
    refused(table, {"type": "join", "seat": B}, "coup.not_your_block")
    nobody_answers(table)
    assert coins(table) == [0, 2, 2] and lives(table) == [2, 2, 2]
    assert current(table) == B


def test_a_paid_riot_takes_a_life_and_a_blocked_one_keeps_the_fee(store):
    table = g54_table(store, PROTESTOR, players=4, advanced=True)
    reach(table, A, p2=3)
    run(table, {"type": "protestor", "seat": A, "target": B})
    nobody_answers(table)
    run(table, {"type": "join", "seat": C})
    assert coins(table)[C] == 0 and view(table)["phase"] == "block"
    run(table, {"type": "pass", "seat": B})
    assert view(table)["phase"] == "lose" and view(table)["waiting_for"] == [B]


# -- the Communist ------------------------------------------------------------------

COMMUNIST = ["banker", "director", "guerrilla", "politician", "communist"]


def test_the_communist_moves_coins_from_the_richest_to_the_poorest(store):
    table = g54_table(store, COMMUNIST, advanced=True)
    run(table, {"type": "banker", "seat": A})
    nobody_answers(table)  # A 5, B 2, C 2
    reach(table, C)
    refused(table, {"type": "communist", "seat": C, "target": B, "to": C}, "g54.not_richest")
    refused(table, {"type": "communist", "seat": C, "target": A, "to": A}, "g54.not_poorest")
    commands = [c for c in table.legal_commands() if c["type"] == "communist"]
    assert {(c["target"], c["to"]) for c in commands} == {(A, B), (A, C)}
    run(table, {"type": "communist", "seat": C, "target": A, "to": C})
    nobody_answers(table)
    assert view(table)["waiting_for"] == [A]  # only the richest may block
    nobody_answers(table)
    assert coins(table) == [2, 2, 5]


def test_the_communist_may_be_the_richest_and_then_nobody_blocks(store):
    table = g54_table(store, COMMUNIST, advanced=True)
    run(table, {"type": "banker", "seat": A})
    nobody_answers(table)
    reach(table, A)
    run(table, {"type": "communist", "seat": A, "target": A, "to": B})
    nobody_answers(table)
    assert coins(table)[:2] == [2, 5] and current(table) == B


# -- reactions -----------------------------------------------------------------------

REACT = ["banker", "director", "guerrilla", "intellectual", "missionary"]


def guerrilla_on_b(store, hands, mode="keeper"):
    table = g54_table(store, REACT, hands=hands, mode=mode, advanced=True)
    reach(table, A, p0=4)
    run(table, {"type": "guerrilla", "seat": A, "target": B})
    nobody_answers(table)
    nobody_answers(table)
    assert view(table)["phase"] == "lose"
    return table


def test_an_intellectual_proved_costs_the_challenger_a_life(store):
    table = guerrilla_on_b(
        store, [["guerrilla", "banker"], ["intellectual", "director"], ["banker", "director"]]
    )
    run(
        table,
        {"type": "react", "seat": B, "character": "intellectual", "card": "intellectual"},
        {"type": "challenge", "seat": C},
        {"type": "show", "seat": B, "redraw": True},
    )
    assert view(table)["waiting_for"] == [C]
    run(table, {"type": "lose", "seat": C, "card": "banker"})
    assert coins(table)[B] == 7
    assert view(table)["players"][B]["revealed"] == ["intellectual"]
    assert table.private_view(B)["hand"] == ["director"]
    assert lives(table) == [2, 1, 1]


def test_an_intellectual_bluff_loses_the_card_set_aside_and_one_more(store):
    table = guerrilla_on_b(
        store, [["guerrilla", "banker"], ["banker", "director"], ["banker", "director"]]
    )
    run(
        table,
        {"type": "react", "seat": B, "character": "intellectual", "card": "director"},
        {"type": "challenge", "seat": C},
        {"type": "concede", "seat": B},
    )
    assert view(table)["players"][B]["revealed"] == ["director"]
    assert view(table)["phase"] == "lose" and view(table)["waiting_for"] == [B]
    run(table, {"type": "lose", "seat": B, "card": "banker"})
    assert view(table)["players"][B]["out"]
    assert coins(table)[B] == 0


def test_an_unchallenged_reaction_turns_up_the_card_it_named(store):
    table = guerrilla_on_b(
        store, [["guerrilla", "banker"], ["intellectual", "director"], ["banker", "director"]]
    )
    run(table, {"type": "react", "seat": B, "character": "intellectual", "card": "director"})
    nobody_answers(table)
    assert view(table)["players"][B]["revealed"] == ["director"]
    assert table.private_view(B)["hand"] == ["intellectual"]
    assert coins(table)[B] == 7
    assert (
        "log.react_card",
        {"player": B, "character": "intellectual", "undone": False},
    ) in table.log_lines()


def test_a_missionary_on_the_last_life_survives_with_a_new_card(store):
    table = g54_table(
        store,
        REACT,
        hands=[["guerrilla", "banker"], ["missionary", "director"], ["banker", "director"]],
        advanced=True,
    )
    bob_bluffs_away(table, "director")
    reach(table, A, p0=4)
    run(table, {"type": "guerrilla", "seat": A, "target": B})
    nobody_answers(table)
    nobody_answers(table)
    run(
        table,
        {"type": "react", "seat": B, "character": "missionary", "card": "missionary"},
        {"type": "challenge", "seat": C},
        {"type": "show", "seat": B, "redraw": True},
        {"type": "lose", "seat": C, "card": "banker"},
    )
    assert not view(table)["players"][B]["out"]
    assert len(table.private_view(B)["hand"]) == 1
    assert view(table)["players"][B]["revealed"] == ["director", "missionary"]
    assert cards_on_table(table) == 15


def test_reactions_at_the_table_name_no_card_until_it_is_shown(store):
    table = guerrilla_on_b(store, None, mode="physical")
    commands = [c for c in table.legal_commands() if c["type"] == "react"]
    assert {c["character"] for c in commands} == {"intellectual", "missionary"}
    assert all("card" not in c for c in commands)
    run(
        table,
        {"type": "react", "seat": B, "character": "missionary"},
        {"type": "challenge", "seat": A},
        {"type": "show", "seat": B, "redraw": False},
    )
    run(table, {"type": "lose", "seat": A, "card": "banker"})
    assert view(table)["players"][B]["revealed"] == ["missionary"]
    assert lives(table)[B] == 2  # a new card replaced the lost one


LAWYER = ["banker", "director", "guerrilla", "politician", "lawyer"]


def test_two_lawyers_share_the_coins_and_the_odd_one_goes_back(store):
    table = g54_table(
        store,
        LAWYER,
        players=4,
        hands=[
            ["guerrilla", "banker"],
            ["banker", "director"],
            ["lawyer", "politician"],
            ["lawyer", "politician"],
        ],
    )
    run(
        table,
        {"type": "income", "seat": A},
        {"type": "director", "seat": B},
        {"type": "challenge", "seat": A},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": "director"},
    )
    reach(table, A, p0=7, p1=5)
    treasury = view(table)["treasury"]
    before = coins(table)
    run(table, {"type": "coup", "seat": A, "target": B})
    assert view(table)["phase"] == "elimination"
    run(table, {"type": "react", "seat": C, "character": "lawyer"})
    nobody_answers(table)
    run(table, {"type": "react", "seat": D, "character": "lawyer"})
    nobody_answers(table)  # nobody challenges D
    nobody_answers(table)  # A does not claim
    assert coins(table)[C] == before[C] + 2 and coins(table)[D] == before[D] + 2
    assert view(table)["treasury"] == treasury + 7 + 1


def test_a_lawyer_caught_bluffing_loses_a_life(store):
    table = g54_table(
        store,
        LAWYER,
        players=4,
        hands=[
            ["guerrilla", "banker"],
            ["banker", "director"],
            ["politician", "politician"],
            ["lawyer", "director"],
        ],
    )
    run(
        table,
        {"type": "income", "seat": A},
        {"type": "director", "seat": B},
        {"type": "challenge", "seat": A},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": "director"},
    )
    reach(table, A, p0=7)
    run(
        table,
        {"type": "coup", "seat": A, "target": B},
        {"type": "react", "seat": C, "character": "lawyer"},
        {"type": "challenge", "seat": D},
        {"type": "concede", "seat": C},
        {"type": "lose", "seat": C, "card": "politician"},
    )
    assert lives(table)[C] == 1
    assert view(table)["phase"] == "elimination"  # D may still claim
    nobody_answers(table)
    assert current(table) == C


# -- tokens ----------------------------------------------------------------------------

MERC = ["banker", "director", "mercenary", "politician", "priest"]


def placed_token(store, hands, players=3):
    table = g54_table(store, MERC, hands=hands, players=players, advanced=True)
    reach(table, A, p0=3)
    run(table, {"type": "mercenary", "seat": A, "target": B})
    nobody_answers(table)
    return table


def test_a_disappear_token_blocked_at_once_is_never_placed(store):
    table = placed_token(
        store, [["mercenary", "banker"], ["mercenary", "priest"], ["director", "priest"]]
    )
    run(table, {"type": "block", "seat": B, "character": "mercenary"})
    nobody_answers(table)
    assert view(table)["tokens"]["disappear"] == {} and coins(table)[A] == 0


def token_holders_turn(store, holds_mercenary: bool):
    """A placed a Disappear token on B, and B's turn has come. B holds a
    Mercenary or bluffs one."""
    second = "mercenary" if holds_mercenary else "director"
    table = placed_token(
        store, [["mercenary", "banker"], [second, "priest"], ["director", "priest"]]
    )
    nobody_answers(table)
    reach(table, B)
    return table


def test_a_due_token_stopped_by_a_true_mercenary_costs_the_challenger(store):
    table = token_holders_turn(store, holds_mercenary=True)
    run(
        table,
        {"type": "income", "seat": B},
        {"type": "block", "seat": B, "character": "mercenary"},
        {"type": "challenge", "seat": A},
        {"type": "show", "seat": B, "redraw": True},
        {"type": "lose", "seat": A, "card": "banker"},
    )
    assert lives(table) == [1, 2, 2]
    assert view(table)["tokens"]["disappear"] == {} and current(table) == C


def test_the_holder_may_stop_its_token_at_the_start_of_its_own_turn(store):
    """U1: the Mercenary may be claimed when the token is placed, at the
    start of the holder's turn, or when it comes due at the turn's end."""
    table = token_holders_turn(store, holds_mercenary=True)
    early = {"type": "block", "seat": B, "character": "mercenary"}
    assert early in table.legal_commands()
    refused(table, {"type": "block", "seat": C, "character": "mercenary"}, "coup.cannot_block_now")
    run(table, early)
    assert view(table)["phase"] == "challenge"
    nobody_answers(table)
    assert view(table)["tokens"]["disappear"] == {}, "the token goes back to the pool"
    assert view(table)["phase"] == "action" and current(table) == B, "B's turn goes on"
    assert early not in table.legal_commands()
    run(table, {"type": "income", "seat": B})
    assert lives(table) == [2, 2, 2] and current(table) == C


def test_a_token_stopped_early_by_a_caught_bluff_strikes_at_once(store):
    table = token_holders_turn(store, holds_mercenary=False)
    run(
        table,
        {"type": "block", "seat": B, "character": "mercenary"},
        {"type": "challenge", "seat": C},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": "priest"},
    )
    assert view(table)["players"][B]["out"], "the bluff and the token: two lives"
    assert view(table)["tokens"]["disappear"] == {}
    assert view(table)["phase"] == "action" and current(table) == C


def test_a_due_token_with_a_caught_bluff_costs_two_lives(store):
    table = token_holders_turn(store, holds_mercenary=False)
    run(
        table,
        {"type": "income", "seat": B},
        {"type": "block", "seat": B, "character": "mercenary"},
        {"type": "challenge", "seat": C},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": "priest"},
    )
    assert view(table)["players"][B]["out"]
    assert view(table)["tokens"]["disappear"] == {}


def test_only_three_disappear_tokens_exist(store):
    table = g54_table(store, MERC, players=5, advanced=True)
    reach(table, A, p0=3, p1=3, p2=3, p3=3)
    # Each token waits for its holder's next turn: E, then A, then B play
    # only after D, so three are in play when D's turn comes.
    for actor, target in ((A, 4), (B, A), (C, B)):
        run(table, {"type": "mercenary", "seat": actor, "target": target})
        nobody_answers(table)
        nobody_answers(table)
    assert view(table)["tokens"]["disappear"] == {"4": 1, "0": 1, "1": 1}
    assert current(table) == D
    refused(table, {"type": "mercenary", "seat": D, "target": C}, "g54.no_disappear_token")
    assert "mercenary" not in legal_types(table)


def test_a_token_lapses_when_its_holder_is_out_first(store):
    table = g54_table(
        store,
        MERC,
        hands=[["mercenary", "banker"], ["director", "priest"], ["politician", "priest"]],
        advanced=True,
    )
    bob_bluffs_away(table, "priest")
    reach(table, A, p0=3)
    run(table, {"type": "mercenary", "seat": A, "target": B})
    nobody_answers(table)
    nobody_answers(table)
    reach(table, B)
    run(
        table,
        {"type": "banker", "seat": B},
        {"type": "challenge", "seat": A},
        {"type": "concede", "seat": B},
    )
    assert view(table)["players"][B]["out"]
    assert view(table)["tokens"]["disappear"] == {}
    assert view(table)["phase"] == "action" and current(table) == C


PEACE = ["banker", "director", "general", "politician", "peacekeeper"]


def test_peacekeeping_spares_its_holder_from_a_purge_and_moves_and_lapses(store):
    table = g54_table(store, PEACE, players=4)
    run(table, {"type": "peacekeeper", "seat": A})
    nobody_answers(table)
    reach(table, B, p1=5)
    run(table, {"type": "general", "seat": B})
    nobody_answers(table)
    assert view(table)["pending"]["targets"] == [C, D]
    nobody_answers(table)
    run(
        table,
        {"type": "lose", "seat": C, "card": table.private_view(C)["hand"][0]},
        {"type": "lose", "seat": D, "card": table.private_view(D)["hand"][0]},
    )
    reach(table, C)
    run(table, {"type": "peacekeeper", "seat": C})
    nobody_answers(table)
    assert view(table)["tokens"]["peacekeeping"] == C
    reach(table, A, p0=7)
    run(table, {"type": "coup", "seat": A, "target": C})
    assert view(table)["players"][C]["out"]
    assert view(table)["tokens"]["peacekeeping"] is None


CONSUL = ["banker", "director", "general", "politician", "foreign_consular"]


def test_a_treaty_binds_both_ways_spares_the_partner_and_moves(store):
    table = g54_table(store, CONSUL, players=4, advanced=True)
    run(table, {"type": "foreign_consular", "seat": A, "to": B})
    nobody_answers(table)
    reach(table, B, p1=5)
    refused(table, {"type": "politician", "seat": B, "target": A}, "g54.treaty")
    run(table, {"type": "general", "seat": B})
    nobody_answers(table)
    assert view(table)["pending"]["targets"] == [C, D]
    nobody_answers(table)
    run(
        table,
        {"type": "lose", "seat": C, "card": table.private_view(C)["hand"][0]},
        {"type": "lose", "seat": D, "card": table.private_view(D)["hand"][0]},
    )
    reach(table, C)
    run(table, {"type": "foreign_consular", "seat": C, "to": D})
    nobody_answers(table)
    assert view(table)["tokens"]["treaty"] == [C, D]


def two_left_with_a_treaty(store, **options):
    table = g54_table(
        store,
        CONSUL,
        advanced=True,
        hands=[["banker", "banker"], ["politician", "director"], ["general", "director"]],
        **options,
    )
    run(table, {"type": "foreign_consular", "seat": A, "to": B})
    nobody_answers(table)
    run(
        table,
        {"type": "banker", "seat": B},
        {"type": "challenge", "seat": C},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": "politician"},
    )
    reach(table, C, p2=7)
    run(table, {"type": "coup", "seat": C, "target": B})  # B is out; A and C are left
    reach(table, A, p0=7)
    return table


def test_a_treaty_lapses_when_a_partner_is_out(store):
    table = two_left_with_a_treaty(store)
    assert view(table)["tokens"]["treaty"] is None
    run(table, {"type": "coup", "seat": A, "target": C})


def test_a_treaty_binding_to_the_end_when_the_table_says_so(store):
    table = g54_table(store, CONSUL, players=2, advanced=True, treaty_two_players="binding")
    run(table, {"type": "foreign_consular", "seat": A, "to": B})
    nobody_answers(table)
    reach(table, A, p0=7)
    refused(table, {"type": "coup", "seat": A, "target": B}, "g54.treaty")
    assert "coup" not in legal_types(table)


def test_a_treaty_between_two_players_alone_is_lifted_by_default(store):
    table = g54_table(store, CONSUL, players=2, advanced=True)
    run(table, {"type": "foreign_consular", "seat": A, "to": B})
    nobody_answers(table)
    reach(table, A, p0=7)
    run(table, {"type": "coup", "seat": A, "target": B})


CUSTOMS = ["banker", "director", "guerrilla", "politician", "customs_officer"]


def taxed_guerrilla(store, players=3, **options):
    table = g54_table(store, CUSTOMS, players=players, advanced=True, **options)
    run(table, {"type": "customs_officer", "seat": A, "role": "guerrilla"})
    nobody_answers(table)
    return table


def test_a_taxed_block_pays_the_taxer_unless_the_table_taxes_actions_only(store, tmp_path):
    from companion.table import EventStore

    for tax_on, paid in (("every_claim", 1), ("actions", 0)):
        table = taxed_guerrilla(EventStore(tmp_path / f"{tax_on}.db"), tax_on=tax_on)
        reach(table, C, p2=5)
        before = coins(table)
        run(table, {"type": "guerrilla", "seat": C, "target": B})
        assert coins(table)[C] == before[C] - 4 - 1  # an action always pays
        nobody_answers(table)
        run(table, {"type": "block", "seat": B, "character": "guerrilla"})
        assert coins(table)[B] == before[B] - paid
        assert coins(table)[A] == before[A] + 1 + paid


def test_without_the_coin_for_the_tax_a_claim_or_block_is_refused(store):
    table = taxed_guerrilla(store)
    reach(table, B, p1=4)
    # Bob holds the Guerrilla's 4 but not the tax's 1 more: the refusal says so.
    err = refused(table, {"type": "guerrilla", "seat": B, "target": C}, "g54.tax_unpaid")
    from companion.i18n import Messages

    assert Messages("en").error(err) == "Claiming the Guerrilla costs 1 coin of tax first."
    assert "guerrilla" not in legal_types(table)
    run(table, {"type": "politician", "seat": B, "target": C})
    nobody_answers(table)
    nobody_answers(table)
    assert coins(table)[C] == 0
    reach(table, A, p0=4)
    run(table, {"type": "guerrilla", "seat": A, "target": C})  # the taxer pays no tax
    nobody_answers(table)
    refused(table, {"type": "block", "seat": C, "character": "guerrilla"}, "g54.tax_unpaid")
    assert [c["type"] for c in table.legal_commands()] == ["pass", "proceed"]


def test_a_taxed_lawyer_pays_before_claiming(store):
    table = g54_table(
        store, ["banker", "director", "guerrilla", "lawyer", "customs_officer"], advanced=True
    )
    run(table, {"type": "customs_officer", "seat": A, "role": "lawyer"})
    nobody_answers(table)
    run(table, {"type": "banker", "seat": B}, {"type": "challenge", "seat": A})
    if view(table)["phase"] == "prove":
        run(table, {"type": "concede", "seat": B})
    if view(table)["phase"] == "lose" and view(table)["waiting_for"] == [B]:
        run(table, {"type": "lose", "seat": B, "card": table.private_view(B)["hand"][0]})
    reach(table, A, p0=7)
    if lives(table)[B] == 1:
        run(table, {"type": "coup", "seat": A, "target": B})
        before = coins(table)
        run(table, {"type": "react", "seat": C, "character": "lawyer"})
        assert coins(table)[C] == before[C] - 1 and coins(table)[A] == before[A] + 1


def test_the_tax_moves_with_a_new_customs_officer_and_lapses_with_the_taxer(store):
    table = taxed_guerrilla(store)
    reach(table, B)
    run(table, {"type": "customs_officer", "seat": B, "role": "banker"})
    nobody_answers(table)
    assert view(table)["tokens"]["tax"] == {"taxer": B, "character": "banker"}
    reach(table, C, p2=7)
    run(table, {"type": "coup", "seat": C, "target": B})
    run(table, {"type": "lose", "seat": B, "card": table.private_view(B)["hand"][0]})
    reach(table, C, p2=7)
    run(table, {"type": "coup", "seat": C, "target": B})
    assert view(table)["players"][B]["out"]
    assert view(table)["tokens"]["tax"] is None


def test_the_kiosk_never_offers_a_reaction_that_names_a_hidden_card(store):
    table = guerrilla_on_b(
        store, [["guerrilla", "banker"], ["intellectual", "director"], ["banker", "director"]]
    )
    assert not [c for c in table.shared_commands() if c["type"] in ("react", "lose")]
    refused_from_kiosk = {
        "type": "react",
        "seat": B,
        "character": "intellectual",
        "card": "intellectual",
    }
    before = view(table)
    try:
        table.execute(refused_from_kiosk, source=OPERATOR)
    except Exception as exc:  # refused: it belongs on B's phone
        assert getattr(exc, "key", "") == "command.private_choice"
    assert view(table) == before


def test_a_cost_of_one_coin_is_said_in_the_singular_in_every_language(store):
    from companion.i18n import Messages

    table = g54_table(store, ["newscaster", "banker", "guerrilla", "politician", "priest"])
    run(table, {"type": "politician", "seat": A, "target": B})  # Bob: 2 → 0 coins
    nobody_answers(table)
    nobody_answers(table)
    assert coins(table)[B] == 0
    err = refused(table, {"type": "newscaster", "seat": B}, "coup.cannot_afford")
    assert err.args_ == {"action": "newscaster", "count": 1, "coins": 0}
    said = {lang: Messages(lang).error(err) for lang in ("en", "el", "ru", "fa")}
    assert said["en"] == "Propaganda costs 1 coin; there are only 0."
    assert "1 νόμισμα·" in said["el"] and "1 монету" in said["ru"]
