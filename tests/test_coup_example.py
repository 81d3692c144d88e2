"""The Greek rulebook's 3-player example (Natassa, Stelios, Giorgos), step by
step, with coins, influence and the treasury checked after every step, in
keeper mode (the app holds the cards) and physical mode (the table does)."""

from __future__ import annotations

import pytest
from helpers import cards_on_table, coins, coins_in_game, influence, new_table, run

N, S, G = 0, 1, 2
NAMES = ["Natassa", "Stelios", "Giorgos"]
DEAL = {
    "hands": [["contessa", "duke"], ["captain", "contessa"], ["assassin", "duke"]],
    # Stelios's exchange draws Assassin and Duke; Giorgos's redraw is a Contessa.
    "draws": ["assassin", "duke", "contessa"],
}


def steps(keeper: bool):
    """(description, commands, coins, influence, treasury) for each step."""
    return [
        (
            "Natassa claims the Duke: Tax; nobody challenges",
            [{"type": "tax", "seat": N}, {"type": "proceed"}],
            [5, 2, 2],
            [2, 2, 2],
            41,
        ),
        (
            "Stelios bluffs the Ambassador; nobody challenges; keeps Assassin + Captain",
            [{"type": "exchange", "seat": S}, {"type": "proceed"}]
            + ([{"type": "keep", "seat": S, "cards": ["assassin", "captain"]}] if keeper else []),
            [5, 2, 2],
            [2, 2, 2],
            41,
        ),
        (
            "Giorgos claims the Duke; Stelios challenges; Giorgos shows it and redraws; "
            "Stelios turns up the Assassin",
            [
                {"type": "tax", "seat": G},
                {"type": "challenge", "seat": S},
                {"type": "show", "seat": G},
                {"type": "lose", "seat": S, "card": "assassin"},
            ],
            [5, 2, 5],
            [2, 1, 2],
            38,
        ),
        (
            "Natassa claims the Duke again; nobody challenges",
            [{"type": "tax", "seat": N}, {"type": "proceed"}],
            [8, 2, 5],
            [2, 1, 2],
            35,
        ),
        ("Stelios takes Income", [{"type": "income", "seat": S}], [8, 3, 5], [2, 1, 2], 34),
        (
            "Giorgos pays 3 to assassinate Natassa; she blocks with the Contessa; "
            "nobody challenges; no refund",
            [
                {"type": "assassinate", "seat": G, "target": N},
                {"type": "proceed"},
                {"type": "block", "seat": N, "character": "contessa"},
                {"type": "proceed"},
            ],
            [8, 3, 2],
            [2, 1, 2],
            37,
        ),
        (
            "Natassa pays 7 for a Coup on Giorgos, who turns up the Contessa",
            [
                {"type": "coup", "seat": N, "target": G},
                {"type": "lose", "seat": G, "card": "contessa"},
            ],
            [1, 3, 2],
            [2, 1, 1],
            44,
        ),
        (
            "Stelios steals from Giorgos; Giorgos blocks with a bluffed Ambassador; "
            "Stelios challenges; Giorgos loses his last card; the steal goes ahead",
            [
                {"type": "steal", "seat": S, "target": G},
                {"type": "proceed"},
                {"type": "block", "seat": G, "character": "ambassador"},
                {"type": "challenge", "seat": S},
                {"type": "concede", "seat": G},
            ]
            # Keeper mode turns up Giorgos's only card by itself.
            + ([] if keeper else [{"type": "lose", "seat": G, "card": "assassin"}]),
            [1, 5, 0],
            [2, 1, 0],
            44,
        ),
    ]


@pytest.mark.parametrize("mode", ["keeper", "physical"])
def test_rulebook_example_step_by_step(store, mode):
    keeper = mode == "keeper"
    table = new_table(store, NAMES, mode=mode, deal=DEAL if keeper else None)
    view = table.public_view()
    assert (coins(view), influence(view), view["treasury"], view["court"]) == (
        [2, 2, 2],
        [2, 2, 2],
        44,
        9,
    )
    for description, commands, want_coins, want_influence, treasury in steps(keeper):
        view = run(table, *commands)
        assert coins(view) == want_coins, description
        assert influence(view) == want_influence, description
        assert view["treasury"] == treasury, description
        assert coins_in_game(table) == 50, description
        assert cards_on_table(table) == 15, description
        assert view["court"] == 9, description
        if keeper and description.startswith("Stelios bluffs"):
            assert table.private_view(S)["hand"] == ["assassin", "captain"]
        if keeper and description.startswith("Giorgos claims the Duke"):
            assert table.private_view(G)["hand"] == ["assassin", "contessa"]
    assert view["players"][S]["revealed"] == ["assassin"]
    assert view["players"][G]["revealed"] == ["contessa", "assassin"]
    assert view["players"][G]["out"] is True
    # Play goes on with Giorgos skipped: Natassa, then Stelios.
    assert view["phase"] == "action" and view["current"] == N
    view = run(table, {"type": "income", "seat": N})
    assert view["current"] == S
    # The public claim history of the example.
    g_claims = [(c["character"], c["result"]) for c in view["players"][G]["claims"]]
    assert g_claims == [("duke", "upheld"), ("assassin", "unchallenged"), ("ambassador", "failed")]
    n_claims = [(c["character"], c["result"]) for c in view["players"][N]["claims"]]
    assert n_claims == [
        ("duke", "unchallenged"),
        ("duke", "unchallenged"),
        ("contessa", "unchallenged"),
    ]
