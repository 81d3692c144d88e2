"""Every Coup rule: the digest's concrete cases (coup.md §11), each block and
challenge combination, the two-influence cases, and the options."""

from __future__ import annotations

import pytest
from helpers import cards_on_table, coins, coins_in_game, influence, new_table, run

from companion.games.base import RuleError

A, B, C = 0, 1, 2
NAMES = ["Ann", "Bob", "Cat"]
# Keeper deals that make each claim true or false on purpose.
DEAL = {"hands": [["assassin", "duke"], ["captain", "contessa"], ["ambassador", "duke"]]}


def keeper(store, deal=DEAL, names=NAMES, **options):
    return new_table(store, names, mode="keeper", deal=deal, options=options)


def physical(store, names=NAMES, **options):
    return new_table(store, names, mode="physical", options=options)


def set_coins(table, seat, amount):
    """Build a position by playing Income turns for everybody (through the
    real engine) until ``seat`` holds ``amount`` coins."""
    while table.public_view()["players"][seat]["coins"] < amount:
        view = table.public_view()
        table.execute({"type": "income", "seat": view["current"]})
    while table.public_view()["current"] != seat:
        table.execute({"type": "income", "seat": table.public_view()["current"]})


def refused(table, command, key):
    before = table.public_view()
    events = len(table.log)
    with pytest.raises(RuleError) as err:
        table.execute(command)
    assert err.value.key == key
    assert table.public_view() == before, "a refused command changed the state"
    assert len(table.log) == events
    return err.value


# -- coup.md §11, cases 1-16 ---------------------------------------------------


def test_1_ten_coins_forces_a_coup(store):
    table = physical(store)
    set_coins(table, A, 10)
    err = refused(table, {"type": "income", "seat": A}, "coup.must_coup")
    assert err.args_ == {"coins": 10}
    assert {c["type"] for c in table.legal_commands()} == {"coup"}


def test_2_nine_plus_income_forces_coup_next_turn(store):
    table = physical(store)
    set_coins(table, A, 9)
    run(table, {"type": "income", "seat": A})
    assert coins(table.public_view())[A] == 10
    run(table, {"type": "income", "seat": B}, {"type": "income", "seat": C})
    refused(table, {"type": "tax", "seat": A}, "coup.must_coup")
    run(
        table, {"type": "coup", "seat": A, "target": B}, {"type": "lose", "seat": B, "card": "duke"}
    )
    assert coins(table.public_view())[A] == 3


def test_3_coup_needs_seven(store):
    table = physical(store)
    set_coins(table, A, 6)
    err = refused(table, {"type": "coup", "seat": A, "target": B}, "coup.cannot_afford")
    assert err.args_ == {"action": "coup", "count": 7, "coins": 6}
    from companion.i18n import Messages

    assert Messages("en").error(err) == "Coup costs 7 coins; there are only 6."


def test_4_assassinate_needs_three(store):
    table = physical(store)
    refused(table, {"type": "assassinate", "seat": A, "target": B}, "coup.cannot_afford")


def test_5_failed_assassin_claim_is_refunded(store):
    table = keeper(
        store, deal={"hands": [["duke", "duke"], ["captain", "contessa"], ["ambassador", "duke"]]}
    )
    set_coins(table, A, 3)
    view = run(table, {"type": "assassinate", "seat": A, "target": B})
    assert coins(view)[A] == 0
    refused(table, {"type": "show", "seat": A}, "coup.not_now")
    run(table, {"type": "challenge", "seat": C})
    refused(table, {"type": "show", "seat": A}, "coup.card_not_held")
    view = run(table, {"type": "concede", "seat": A}, {"type": "lose", "seat": A, "card": "duke"})
    assert coins(view)[A] == 3
    assert influence(view) == [1, 2, 2]
    assert view["current"] == B


def test_6_contessa_block_keeps_the_coins(store):
    table = physical(store)
    set_coins(table, A, 3)
    view = run(
        table,
        {"type": "assassinate", "seat": A, "target": B},
        {"type": "proceed"},
        {"type": "block", "seat": B, "character": "contessa"},
        {"type": "proceed"},
    )
    assert coins(view)[A] == 0
    assert influence(view) == [2, 2, 2]
    assert view["current"] == B


def test_7_failed_challenge_then_assassination_costs_two(store):
    table = keeper(store)
    set_coins(table, A, 3)
    run(
        table,
        {"type": "assassinate", "seat": A, "target": B},
        {"type": "challenge", "seat": B},
        {"type": "show", "seat": A},
    )
    view = run(table, {"type": "lose", "seat": B, "card": "captain"})
    # The challenge is settled; B may still block, but does not.
    assert view["phase"] == "block" and view["waiting_for"] == [B]
    view = run(table, {"type": "pass", "seat": B})
    # B's last card is turned up by itself: B is out, coins to the treasury.
    assert influence(view) == [2, 0, 2]
    assert view["players"][B]["out"] and coins(view)[B] == 0
    assert coins_in_game(table) == 50 and cards_on_table(table) == 15
    # A's shown Assassin went back to the court and A drew a replacement.
    assert len(table.private_view(A)["hand"]) == 2


def test_8_bluffed_contessa_challenged_costs_two(store):
    table = physical(store)
    set_coins(table, A, 3)
    view = run(
        table,
        {"type": "assassinate", "seat": A, "target": B},
        {"type": "proceed"},
        {"type": "block", "seat": B, "character": "contessa"},
        {"type": "challenge", "seat": A},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": "duke"},
        {"type": "lose", "seat": B, "card": "captain"},
    )
    assert influence(view) == [2, 0, 2]
    assert view["players"][B]["revealed"] == ["duke", "captain"]


def test_9_steal_from_one_coin_takes_one(store):
    table = physical(store, names=["Ann", "Bob"])
    # Bob is robbed of both coins, then takes Income: he has 1.
    run(table, {"type": "steal", "seat": A, "target": B}, {"type": "proceed"}, {"type": "proceed"})
    view = run(table, {"type": "income", "seat": B})
    assert coins(view) == [4, 1]
    view = run(
        table,
        {"type": "steal", "seat": A, "target": B},
        {"type": "proceed"},
        {"type": "pass", "seat": B},
    )
    assert coins(view) == [5, 0]


def test_steal_from_a_player_with_no_coins_gains_nothing(store):
    table = physical(store)
    run(table, {"type": "steal", "seat": A, "target": B}, {"type": "proceed"}, {"type": "proceed"})
    run(table, {"type": "steal", "seat": B, "target": C}, {"type": "proceed"}, {"type": "proceed"})
    view = run(table, {"type": "exchange", "seat": C}, {"type": "proceed"})
    assert coins(view) == [4, 2, 0]
    view = run(
        table, {"type": "steal", "seat": A, "target": C}, {"type": "proceed"}, {"type": "proceed"}
    )
    assert coins(view) == [4, 2, 0] and view["current"] == B


def test_10_only_the_target_blocks_a_steal(store):
    table = physical(store)
    run(table, {"type": "steal", "seat": A, "target": B}, {"type": "proceed"})
    refused(table, {"type": "block", "seat": C, "character": "captain"}, "coup.not_your_block")
    refused(table, {"type": "block", "seat": B, "character": "duke"}, "coup.cannot_block_with")
    view = run(table, {"type": "block", "seat": B, "character": "ambassador"}, {"type": "proceed"})
    assert coins(view) == [2, 2, 2] and view["current"] == B


def test_11_anyone_blocks_foreign_aid_with_the_duke(store):
    table = physical(store)
    view = run(
        table,
        {"type": "foreign_aid", "seat": A},
        {"type": "block", "seat": C, "character": "duke"},
        {"type": "proceed"},
    )
    assert coins(view) == [2, 2, 2]
    assert view["current"] == B


def test_12_foreign_aid_itself_cannot_be_challenged(store):
    table = physical(store)
    run(table, {"type": "foreign_aid", "seat": A})
    refused(table, {"type": "challenge", "seat": B}, "coup.nothing_to_challenge")
    view = run(table, {"type": "pass", "seat": B}, {"type": "pass", "seat": C})
    assert coins(view)[A] == 4


def test_12b_a_claim_that_stood_is_too_late_to_challenge_and_is_not_called_general(store):
    from companion.i18n import Messages

    table = physical(store)
    run(table, {"type": "steal", "seat": A, "target": B}, {"type": "proceed"})
    assert table.public_view()["phase"] == "block", "nobody challenged: now Bob may block"
    err = refused(table, {"type": "challenge", "seat": C}, "coup.claim_answered")
    assert Messages("en").error(err) == (
        "The claim of the Captain has been answered: it can no longer be challenged."
    )


def test_12c_a_refusal_for_the_wrong_moment_says_what_the_table_waits_for(store):
    from companion.i18n import Messages

    table = physical(store)
    set_coins(table, A, 7)
    run(table, {"type": "coup", "seat": A, "target": B})
    err = refused(table, {"type": "income", "seat": C}, "coup.not_now")
    words, view = table.spec.words, table.public_view()
    assert words.refusal(err, view, Messages("en", table.names)) == (
        "Not now. Bob loses an influence: which card is turned face up?"
    )
    assert words.refusal(err, view, Messages("el", table.names)).startswith("Όχι τώρα. ")


def test_13_defended_claim_reshuffles_and_redraws(store):
    table = keeper(store, deal={**DEAL, "draws": ["captain"]})
    run(table, {"type": "tax", "seat": A}, {"type": "challenge", "seat": B})
    court_before = table.public_view()["court"]
    view = run(table, {"type": "show", "seat": A})
    assert view["court"] == court_before
    assert table.private_view(A)["hand"] == ["assassin", "captain"]
    view = run(table, {"type": "lose", "seat": B, "card": "contessa"})
    assert coins(view)[A] == 5 and influence(view) == [2, 1, 2]
    assert cards_on_table(table) == 15


def test_14_exchange_with_one_influence_keeps_one(store):
    table = keeper(store, deal={**DEAL, "draws": ["assassin", "captain"]})
    # Cat loses one influence to a failed challenge first.
    run(
        table,
        {"type": "tax", "seat": A},
        {"type": "challenge", "seat": C},
        {"type": "show", "seat": A, "redraw": False},
        {"type": "lose", "seat": C, "card": "duke"},
        {"type": "income", "seat": B},
    )
    court = table.public_view()["court"]
    view = run(table, {"type": "exchange", "seat": C}, {"type": "proceed"})
    assert view["phase"] == "exchange"
    private = table.private_view(C)
    assert private["hand"] == ["ambassador"] and private["drawn"] == ["assassin", "captain"]
    assert "drawn" not in table.private_view(A)
    refused(table, {"type": "keep", "seat": C, "cards": ["assassin", "captain"]}, "coup.keep_count")
    refused(table, {"type": "keep", "seat": C, "cards": ["contessa"]}, "coup.keep_not_offered")
    view = run(table, {"type": "keep", "seat": C, "cards": ["captain"]})
    assert table.private_view(C)["hand"] == ["captain"]
    assert view["court"] == court and influence(view) == [2, 2, 1]
    assert cards_on_table(table) == 15


def test_15_coup_offers_no_block_or_challenge(store):
    table = physical(store)
    set_coins(table, A, 7)
    view = run(table, {"type": "coup", "seat": A, "target": B})
    assert view["phase"] == "lose" and view["waiting_for"] == [B]
    assert {c["type"] for c in table.legal_commands()} == {"lose"}
    refused(table, {"type": "challenge", "seat": B}, "coup.nothing_to_challenge")
    refused(table, {"type": "block", "seat": B, "character": "contessa"}, "coup.cannot_block_now")
    view = run(table, {"type": "lose", "seat": B, "card": "captain"})
    assert coins(view)[A] == 0 and influence(view)[B] == 1


def test_16_last_player_standing_wins(store):
    table = physical(store, names=["Ann", "Bob"])
    tax = [{"type": "tax", "seat": A}, {"type": "proceed"}]
    bob_income = {"type": "income", "seat": B}
    run(table, *tax, bob_income, *tax, bob_income)
    run(
        table, {"type": "coup", "seat": A, "target": B}, {"type": "lose", "seat": B, "card": "duke"}
    )
    run(table, bob_income, *tax, bob_income, *tax, bob_income)
    view = run(
        table,
        {"type": "coup", "seat": A, "target": B},
        {"type": "lose", "seat": B, "card": "captain"},
    )
    assert view["phase"] == "over" and view["winner"] == A
    assert coins(view) == [0, 0] and view["treasury"] == 50
    assert table.is_over
    assert store.game(table.game_id).status == "finished"
    assert store.game(table.game_id).result == {"winner": A}
    refused(table, {"type": "income", "seat": A}, "game.over")


# -- every block and challenge combination --------------------------------------


@pytest.mark.parametrize("holds, outcome", [(True, "blocked"), (False, "goes_ahead")])
@pytest.mark.parametrize(
    "action, blocker, character",
    [
        ("foreign_aid", C, "duke"),
        ("steal", B, "captain"),
        ("steal", B, "ambassador"),
        ("assassinate", B, "contessa"),
    ],
)
def test_challenged_block(store, action, blocker, character, holds, outcome):
    hands = {
        True: {
            "duke": ["duke", "captain"],
            "captain": ["captain", "duke"],
            "ambassador": ["ambassador", "duke"],
            "contessa": ["contessa", "duke"],
        },
        False: {c: ["assassin", "assassin"] for c in ("duke", "captain", "ambassador", "contessa")},
    }[holds][character]
    others = [["duke", "assassin"], ["captain", "ambassador"], ["contessa", "ambassador"]]
    deal = [others[0], others[1], others[2]]
    deal[blocker] = hands
    # Keep the deal within 3 copies of each character.
    table = keeper(store, deal={"hands": _fit(deal, blocker)})
    set_coins(table, A, 3)
    before = table.public_view()
    command = {"type": action, "seat": A}
    if action != "foreign_aid":
        command["target"] = B
    run(table, command)
    if action != "foreign_aid":
        run(table, {"type": "proceed"})
    run(
        table,
        {"type": "block", "seat": blocker, "character": character},
        {"type": "challenge", "seat": A},
    )
    if holds:
        run(table, {"type": "show", "seat": blocker})
        view = table.public_view()
        assert view["phase"] == "lose" and view["waiting_for"] == [A]
        view = run(table, {"type": "lose", "seat": A, "card": table.private_view(A)["hand"][0]})
        assert influence(view)[A] == 1 and influence(view)[blocker] == 2
        gained = coins(view)[A] - coins(before)[A]
        assert gained == (-3 if action == "assassinate" else 0)
    else:
        run(
            table,
            {"type": "concede", "seat": blocker},
            {"type": "lose", "seat": blocker, "card": "assassin"},
        )
        view = table.public_view()
        if action == "assassinate":
            # The failed bluff and then the assassination: two influence lost.
            assert influence(view)[blocker] == 0
        else:
            assert influence(view)[blocker] == 1
        assert (
            coins(view)[A] - coins(before)[A]
            == {"foreign_aid": 2, "steal": 2, "assassinate": -3}[action]
        )
    next_seat = B if view["players"][B]["influence"] else C
    assert view["current"] == next_seat
    assert coins_in_game(table) == 50 and cards_on_table(table) == 15


def _fit(deal, fixed):
    """Replace cards of the other seats so no character is dealt 4 times."""
    from collections import Counter

    pool = Counter({c: 3 for c in ("duke", "assassin", "captain", "ambassador", "contessa")})
    pool.subtract(deal[fixed])
    out = [list(h) for h in deal]
    for seat, hand in enumerate(out):
        if seat == fixed:
            continue
        for i, card in enumerate(hand):
            if pool[card] <= 0:
                card = next(c for c, n in pool.items() if n > 0)
                hand[i] = card
            pool[card] -= 1
    return out


@pytest.mark.parametrize(
    "character_action, claim",
    [
        ("tax", "duke"),
        ("steal", "captain"),
        ("exchange", "ambassador"),
        ("assassinate", "assassin"),
    ],
)
@pytest.mark.parametrize("true_claim", [True, False])
def test_challenged_action(store, character_action, claim, true_claim):
    hand = [claim, "contessa"] if true_claim else ["contessa", "contessa"]
    others = [
        [c for c in ("duke", "captain", "ambassador", "assassin") if c != claim][:2],
        [c for c in ("duke", "captain", "ambassador", "assassin") if c != claim][1:3],
    ]
    table = keeper(store, deal={"hands": [hand, others[0], others[1]]})
    set_coins(table, A, 3)
    before = table.public_view()
    command = {"type": character_action, "seat": A}
    if character_action in ("steal", "assassinate"):
        command["target"] = B
    run(table, command, {"type": "challenge", "seat": C})
    if true_claim:
        run(table, {"type": "show", "seat": A})
        run(table, {"type": "lose", "seat": C, "card": table.private_view(C)["hand"][0]})
        view = table.public_view()
        assert influence(view)[C] == 1 and influence(view)[A] == 2
        # The action goes ahead: blockable ones open the block window.
        if character_action in ("steal", "assassinate"):
            assert view["phase"] == "block" and view["waiting_for"] == [B]
            view = run(table, {"type": "pass", "seat": B})
        if character_action == "exchange":
            assert view["phase"] == "exchange"
    else:
        run(table, {"type": "concede", "seat": A})
        view = run(table, {"type": "lose", "seat": A, "card": "contessa"})
        assert influence(view)[A] == 1
        assert coins(view)[A] == coins(before)[A], "a failed action claim is refunded"
        assert view["current"] == B
    assert coins_in_game(table) == 50 and cards_on_table(table) == 15


def test_challenger_must_be_alive_and_not_the_claimant(store):
    table = physical(store)
    run(table, {"type": "tax", "seat": A})
    refused(table, {"type": "challenge", "seat": A}, "coup.own_claim")
    run(table, {"type": "pass", "seat": B})
    refused(table, {"type": "challenge", "seat": B}, "coup.already_passed")
    refused(table, {"type": "challenge", "seat": 7}, "command.bad_seat")
    view = run(table, {"type": "pass", "seat": C})
    assert coins(view)[A] == 5 and view["players"][A]["claims"][-1]["result"] == "unchallenged"


def test_eliminated_players_cannot_act(store):
    table = physical(store)
    for card in ("duke", "captain"):
        run(
            table,
            {"type": "tax", "seat": A},
            {"type": "challenge", "seat": B},
            {"type": "show", "seat": A},
            {"type": "lose", "seat": B, "card": card},
        )
        if card == "duke":
            run(table, {"type": "income", "seat": B}, {"type": "income", "seat": C})
    view = table.public_view()
    assert view["players"][B]["out"] and view["current"] == C
    assert coins(view)[B] == 0, "an eliminated player's coins go to the treasury"
    run(table, {"type": "tax", "seat": C})
    refused(table, {"type": "challenge", "seat": B}, "coup.player_out")
    refused(table, {"type": "income", "seat": B}, "coup.not_now")
    run(table, {"type": "proceed"})
    refused(table, {"type": "steal", "seat": A, "target": B}, "coup.player_out")


def test_physical_mode_refuses_a_fourth_copy(store):
    D = 3
    table = physical(store, names=["Ann", "Bob", "Cat", "Dan"])
    for claimant, challenger in ((A, B), (C, D), (A, C)):
        view = table.public_view()
        while view["current"] != claimant:
            view = run(table, {"type": "income", "seat": view["current"]})
        run(
            table,
            {"type": "tax", "seat": claimant},
            {"type": "challenge", "seat": challenger},
            {"type": "show", "seat": claimant},
            {"type": "lose", "seat": challenger, "card": "duke"},
        )
    view = table.public_view()
    while view["current"] != A:
        view = run(table, {"type": "income", "seat": view["current"]})
    run(table, {"type": "tax", "seat": A}, {"type": "challenge", "seat": B})
    refused(table, {"type": "show", "seat": A}, "coup.all_copies_face_up")
    assert {c["type"] for c in table.legal_commands()} == {"concede"}
    run(table, {"type": "concede", "seat": A})
    refused(table, {"type": "lose", "seat": A, "card": "duke"}, "coup.all_copies_face_up")
    refused(table, {"type": "lose", "seat": A, "card": "joker"}, "coup.unknown_character")


def test_turn_direction_is_configurable(store):
    cw = physical(store, names=["Ann", "Bob", "Cat", "Dan"])
    assert [run(cw, {"type": "income", "seat": s})["current"] for s in (0, 1, 2)] == [1, 2, 3]
    ccw = physical(store, names=["Ann", "Bob", "Cat", "Dan"], direction="counterclockwise")
    assert [run(ccw, {"type": "income", "seat": s})["current"] for s in (0, 3, 2)] == [3, 2, 1]


def test_redraw_can_be_made_mandatory(store):
    table = keeper(store, redraw="mandatory")
    run(table, {"type": "tax", "seat": A}, {"type": "challenge", "seat": B})
    refused(table, {"type": "show", "seat": A, "redraw": False}, "coup.redraw_mandatory")
    # The Greek rulebook's default: the defender may keep the shown card.
    table = keeper(store)
    run(
        table,
        {"type": "tax", "seat": A},
        {"type": "challenge", "seat": B},
        {"type": "show", "seat": A, "redraw": False},
    )
    assert table.private_view(A)["hand"] == ["assassin", "duke"]


def test_treasury_running_short_pays_what_it_has(store):
    table = physical(store, names=["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"])
    for _ in range(2):
        for seat in range(6):
            run(table, {"type": "tax", "seat": seat}, {"type": "proceed"})
    view = table.public_view()
    assert coins(view) == [8] * 6 and view["treasury"] == 2
    view = run(table, {"type": "tax", "seat": A}, {"type": "proceed"})
    assert coins(view)[A] == 10 and view["treasury"] == 0
    view = run(table, {"type": "income", "seat": B})
    assert coins(view)[B] == 8 and coins_in_game(table) == 50


def test_options_are_validated(store):
    for options, key in [
        ({"direction": "sideways"}, "setup.bad_option"),
        ({"first": 9}, "setup.bad_option"),
        ({"colour": "red"}, "setup.unknown_option"),
        ({"redraw": "never"}, "setup.bad_option"),
    ]:
        with pytest.raises(RuleError) as err:
            physical(store, **options)
        assert err.value.key == key
    with pytest.raises(RuleError) as err:
        physical(store, names=["Solo"])
    assert err.value.key == "setup.player_count"
    with pytest.raises(RuleError) as err:
        physical(store, names=["Ann", "ann"])
    assert err.value.key == "setup.duplicate_name"


def test_unknown_and_malformed_commands_change_nothing(store):
    table = physical(store)
    refused(table, {"type": "fly", "seat": A}, "command.unknown")
    refused(table, {"type": "income"}, "command.bad_seat")
    refused(table, {"type": "income", "seat": "A"}, "command.bad_seat")
    refused(table, {"type": "income", "seat": B}, "coup.not_your_turn")
    refused(table, {"type": "steal", "seat": A, "target": A}, "coup.target_self")
    refused(table, {"type": "steal", "seat": A}, "command.bad_seat")
    refused(table, {"type": "pass", "seat": B}, "coup.not_now")
    with pytest.raises(RuleError) as err:
        table.execute(["income"])
    assert err.value.key == "command.not_an_object"


def test_a_ruleset_that_charges_a_fee_has_it_refused_in_words():
    """The claim machinery's own refusal for a fee a ruleset charges but does
    not name: a claim its seat cannot pay for is refused, and nothing moves."""
    from dataclasses import replace

    from companion.games.base import Fate, Setup
    from companion.games.claims.engine import ClaimEngine
    from companion.games.claims.rules import Hooks
    from companion.games.coup.rules import COUP

    class DukeFee(Hooks):
        def fee_key(self, s):
            return "duke"

        def fee(self, s, seat, character, counter):
            return 9 if character == "duke" else 0

    rules = replace(COUP, hooks=DukeFee())
    engine = ClaimEngine(
        "coup", rules, lambda options: rules, defaults={"first": 0}, players=(2, 6)
    )
    setup = Setup(game="coup", seats=["A", "B"], mode="keeper", options={"first": 0})
    state = engine.new_state(setup)
    engine.apply(state, engine.chance(state, Fate(seed=1)))
    with pytest.raises(RuleError) as err:
        engine.decide(state, {"type": "tax", "seat": 0})
    assert (err.value.key, err.value.args_) == ("coup.fee_unpaid", {"character": "duke"})
    assert {"type": "tax", "seat": 0} not in engine.legal_commands(state)
    assert state.coins == [2, 2]
