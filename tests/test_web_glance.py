"""What a glance at a phone shows, through the real server: the same
buttons for every seat in the same situation, and a choice among one's own
cards named by number, never by card."""

from __future__ import annotations

import asyncio

from a27_helpers import PK, keeper4, propose
from web_helpers import join, served, state

from companion.games.base import Fate, Setup
from companion.table import Table, seat_source

A, B, C, D = range(4)


async def _seat_states(server, phone, seats):
    """A phone on each seat, and its first state."""
    phones, states = {}, {}
    for seat in seats:
        phones[seat] = await phone()
        await join(phones[seat], server.links.token(server.table.game_id, seat))
        states[seat] = await state(phones[seat])
    return phones, states


def test_a_producers_target_hands_over_a_card_by_its_number(store):
    setup = Setup(
        game="g54",
        seats=["Ann", "Bob", "Cat"],
        mode="keeper",
        options={"first": 0, "set": ["banker", "director", "producer", "guerrilla", "politician"]},
    )
    deal = {"hands": [["banker", "producer"], ["guerrilla", "politician"], ["director", "banker"]]}
    table = Table.start(store, setup, fate=Fate(seed=3, script=deal))
    table.execute({"type": "producer", "seat": 0, "target": 1})
    table.execute({"type": "proceed"})  # nobody challenges
    table.execute({"type": "proceed"})  # Bob does not block
    assert table.public_view()["pending"]["choice"] == {
        "seat": 1,
        "kind": "producer",
        "cards": True,
    }

    async def scenario():
        async with served(table) as (server, phone):
            _, states = await _seat_states(server, phone, [1])
            return states[1]

    bob = asyncio.run(scenario())
    labels = [action["label"] for action in bob["actions"]]
    assert labels == ["Hand over card 1", "Hand over card 2"]
    assert bob["secrets"] == ["Your cards: 1. Guerrilla, 2. Politician"]


def test_a_seat_that_cannot_veto_has_the_same_vote_buttons_as_the_others(store):
    table = keeper4(store)
    propose(table, PK, call_vote=False)
    offer = table.execute(
        {"type": "offer", "seat": B, "to": C, "amount": 8, "kind": "yes"}, source=seat_source(B)
    )
    table.execute({"type": "accept", "seat": C, "bribe": offer[0]["bribe"]}, source=seat_source(C))
    table.execute({"type": "gavel"})  # Vote!: B has 4 influence behind its screen
    assert table.private_view(B)["influence"] < 5 <= table.private_view(A)["influence"]

    async def scenario():
        async with served(table) as (server, phone):
            phones, states = await _seat_states(server, phone, [A, B])
            csrf = states[B]["csrf"]
            veto = await phones[B].post(
                "/api/command",
                json={"type": "vote", "choice": "veto"},
                headers={"X-Companion-CSRF": csrf},
            )
            return states, veto.status, await veto.json()

    states, status, refusal = asyncio.run(scenario())
    buttons = {seat: [a["label"] for a in s["actions"]] for seat, s in states.items()}
    assert buttons[A] == buttons[B] and len(buttons[A]) == 3, buttons
    assert (status, refusal["error"]) == (400, "a27.veto_needs"), "told why, on its own phone"
    assert refusal["message"] == "A veto needs 5 influence behind your screen."
