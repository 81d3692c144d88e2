"""Every G54 character's claim and block through the shared engine: a true
claim that is challenged (the challenger loses a life, the action goes on),
a bluff that is caught (the claimant loses a life, gets the cost back, and
nothing happens), and for every character that blocks, a true block and a
caught bluff."""

from __future__ import annotations

import pytest
from g54_helpers import coins, current, g54_table, lives, reach, run, view

from companion.games.g54.roles import ROLES

A, B, C = 0, 1, 2
FILLERS = ["banker", "director", "politician", "priest", "judge", "farmer"]
ACTIONS = [r for r in ROLES if r.action is not None]
BLOCKABLE = [r for r in ACTIONS if r.action.blockers]


def fillers(role: str) -> list[str]:
    return [f for f in FILLERS if f != role][:4]


def declaration(role: str, others: list[str]) -> dict:
    """The command declaring ``role``'s action by A, aimed at B where it aims."""
    action = next(r.action for r in ROLES if r.name == role)
    command = {"type": role, "seat": A}
    if action.targeted:
        command["target"] = B
    if "to" in action.extra:
        command["to"] = C if role == "communist" else B
    if "role" in action.extra:
        command["role"] = others[0]
    return command


def table_for(store, role: str, holds: bool, **options):
    f = fillers(role)
    hands = [[role, f[0]] if holds else [f[0], f[1]], [f[1], f[2]], [f[2], f[3]]]
    table = g54_table(store, [role] + f, hands=hands, advanced=True, **options)
    price = next(r.action for r in ROLES if r.name == role).price
    if price > 2:
        reach(table, A, p0=price)
    return table, f


def ready(table, role: str) -> None:
    """Coins for A's action (and for C to join a Protestor's riot)."""
    price = next(r.action for r in ROLES if r.name == role).price
    if role == "protestor":
        reach(table, A, p0=price, p2=3)
    elif price > 2:
        reach(table, A, p0=price)


def finish_turn(table, actor: int) -> None:
    """Answer everything the turn still asks, as plainly as possible, until
    the next player's turn."""
    for _ in range(100):
        v = view(table)
        if v["phase"] in ("action", "over") and (v["current"] != actor or v["phase"] == "over"):
            return
        if v["phase"] == "action" and v["pending"] is None and v["current"] == actor:
            return
        legal = table.legal_commands()
        kinds = [c["type"] for c in legal]
        for preferred in ("proceed", "show", "choose", "keep", "lose"):
            if preferred in kinds:
                table.execute(legal[kinds.index(preferred)])
                break
        else:
            table.execute(legal[0])
    raise AssertionError("the turn did not end")


@pytest.mark.parametrize("role", [r.name for r in ACTIONS])
def test_a_true_claim_survives_a_challenge(store, role):
    table, others = table_for(store, role, holds=True)
    run(table, declaration(role, others), {"type": "challenge", "seat": B})
    assert view(table)["phase"] == "prove"
    run(table, {"type": "show", "seat": A, "redraw": True})
    assert view(table)["phase"] == "lose" and view(table)["waiting_for"] == [B]
    run(table, {"type": "lose", "seat": B, "card": others[1]})
    claim = view(table)["players"][A]["claims"][-1]
    assert claim["result"] == "upheld" and claim["challenger"] == B
    finish_turn(table, A)
    assert lives(table)[A] == 2 and lives(table)[B] <= 1
    assert len(table.state.hands[A]) == 2  # the shown card was replaced


@pytest.mark.parametrize("role", [r.name for r in ACTIONS])
def test_a_caught_bluff_costs_a_life_and_does_nothing(store, role):
    table, others = table_for(store, role, holds=False)
    before = view(table)
    run(table, declaration(role, others), {"type": "challenge", "seat": B})
    run(table, {"type": "concede", "seat": A})
    run(table, {"type": "lose", "seat": A, "card": others[1]})
    after = view(table)
    assert lives(table) == [1, 2, 2]
    assert after["players"][A]["claims"][-1]["result"] == "failed"
    if role == "speculator":  # caught bluffing: the coins go to the challenger
        assert coins(table)[A] == 0
        assert coins(table)[B] == before["players"][B]["coins"] + before["players"][A]["coins"]
    else:
        assert coins(table) == [p["coins"] for p in before["players"]]
    assert after.get("tokens") == before.get("tokens")
    assert current(table) == B


@pytest.mark.parametrize("role", [r.name for r in BLOCKABLE])
def test_a_true_block_survives_a_challenge_and_stops_the_action(store, role):
    f = fillers(role)
    hands = [[role, f[0]], [role, f[1]], [f[2], f[3]]]
    table = g54_table(store, [role] + f, hands=hands, advanced=True)
    ready(table, role)
    run(table, declaration(role, f))
    run(table, {"type": "proceed"})  # nobody challenges A
    before = view(table)
    if before["phase"] == "join":  # the Protestor: C pays to join
        run(table, {"type": "join", "seat": C})
        before = view(table)
    assert before["phase"] == "block" and B in before["waiting_for"]
    run(table, {"type": "block", "seat": B, "character": role})
    if view(table)["phase"] == "block":  # every other player: C passes
        run(table, {"type": "pass", "seat": C})
    run(table, {"type": "challenge", "seat": A}, {"type": "show", "seat": B, "redraw": True})
    assert view(table)["waiting_for"] == [A]  # the challenger loses a life
    run(table, {"type": "lose", "seat": A, "card": f[0]})
    finish_turn(table, A)
    after = view(table)
    assert lives(table)[B] == 2 and lives(table)[A] == 1
    assert after["players"][B]["claims"][-1]["kind"] == "block"
    assert after["players"][B]["claims"][-1]["result"] == "upheld"
    if role in ("politician", "priest", "communist"):  # no coins moved from B
        assert coins(table)[B] == before["players"][B]["coins"]
    if role == "mercenary":
        assert after["tokens"]["disappear"] == {}


@pytest.mark.parametrize("role", [r.name for r in BLOCKABLE])
def test_a_caught_block_bluff_costs_a_life_and_the_action_goes_on(store, role):
    f = fillers(role)
    hands = [[role, f[0]], [f[1], f[2]], [f[2], f[3]]]
    table = g54_table(store, [role] + f, hands=hands, advanced=True)
    ready(table, role)
    run(table, declaration(role, f))
    run(table, {"type": "proceed"})
    if view(table)["phase"] == "join":
        run(table, {"type": "join", "seat": C})
    run(table, {"type": "block", "seat": B, "character": role})
    if view(table)["phase"] == "block":
        run(table, {"type": "pass", "seat": C})
    run(
        table,
        {"type": "challenge", "seat": A},
        {"type": "concede", "seat": B},
        {"type": "lose", "seat": B, "card": f[1]},
    )
    claims = view(table)["players"][B]["claims"]
    assert claims[-1]["kind"] == "block" and claims[-1]["result"] == "failed"
    finish_turn(table, A)
    assert lives(table)[A] == 2
    if role in ("guerrilla", "judge", "general", "protestor", "crime_boss"):
        assert lives(table)[B] == 0  # the action took the second life
    if role == "mercenary":
        assert view(table)["tokens"]["disappear"] == {"1": 1}
