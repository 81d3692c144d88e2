"""The table core on a real SQLite file: durability settings, resume after a
restart, history, undo recorded in the log, refused writes, seat sources."""

from __future__ import annotations

import sqlite3

import pytest
from helpers import coins, influence, new_table, run

from companion.games.base import RuleError
from companion.i18n import Messages
from companion.table import OPERATOR, EventStore, StoreError, Table, seat_source

A, B, C = 0, 1, 2
NAMES = ["Ann", "Bob", "Cat"]
DEAL = {"hands": [["assassin", "duke"], ["captain", "contessa"], ["ambassador", "duke"]]}


def test_every_connection_is_wal_and_synchronous_full(tmp_path):
    path = tmp_path / "g.sqlite3"
    first, second = EventStore(path), EventStore(path)
    for store in (first, second):
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    # A plain connection made by someone else does not get FULL for free:
    # that is why the store sets it on each of its own.
    other = sqlite3.connect(path)
    other.execute("PRAGMA synchronous=OFF")
    assert other.execute("PRAGMA synchronous").fetchone()[0] == 0
    assert EventStore(path).db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_unfinished_game_is_rebuilt_after_a_restart(tmp_path):
    path = tmp_path / "g.sqlite3"
    table = new_table(EventStore(path), NAMES, mode="keeper", deal=DEAL)
    run(
        table,
        {"type": "tax", "seat": A},
        {"type": "challenge", "seat": B},
        {"type": "show", "seat": A},
    )
    before = table.public_view()
    hands = [table.private_view(s) for s in range(3)]
    table.store.close()

    resumed = Table.resume(EventStore(path))
    assert resumed.game_id == table.game_id
    assert resumed.public_view() == before
    assert [resumed.private_view(s) for s in range(3)] == hands
    view = run(resumed, {"type": "lose", "seat": B, "card": "captain"})
    assert coins(view) == [5, 2, 2] and influence(view) == [2, 1, 2]


def test_no_unfinished_game_means_nothing_to_resume(store):
    assert Table.resume(store) is None


def test_history_keeps_finished_and_abandoned_games_with_their_logs(store):
    first = new_table(store, ["Ann", "Bob"])
    tax = [{"type": "tax", "seat": A}, {"type": "proceed"}]
    income = {"type": "income", "seat": B}
    run(
        first,
        *tax,
        income,
        *tax,
        income,
        {"type": "coup", "seat": A, "target": B},
        {"type": "lose", "seat": B, "card": "duke"},
        income,
        *tax,
        income,
        *tax,
        income,
        {"type": "coup", "seat": A, "target": B},
        {"type": "lose", "seat": B, "card": "duke"},
    )
    assert first.is_over
    second = new_table(store, NAMES)
    run(second, {"type": "income", "seat": A})
    third = new_table(store, NAMES)
    history = store.history()
    assert [(g.id, g.status) for g in history] == [
        (third.game_id, "active"),
        (second.game_id, "abandoned"),
        (first.game_id, "finished"),
    ]
    assert history[2].result == {"winner": A}
    assert Table.resume(store).game_id == third.game_id
    old = Table.resume(store, first.game_id)
    assert old.public_view()["winner"] == A
    assert len(store.commands(first.game_id)) == first.next_command
    t = Messages("en", old.names)
    lines = [t(key, **args) for key, args in old.log_lines()]
    assert lines[0] == "The game begins; Ann plays first."
    assert lines[-1] == "Bob turns up the Duke."


def test_undo_of_a_mistaken_entry_is_recorded_not_erased(tmp_path):
    path = tmp_path / "g.sqlite3"
    table = new_table(EventStore(path), NAMES)
    start = table.public_view()
    run(table, {"type": "tax", "seat": A})  # meant to be Income
    assert table.public_view()["can_undo"]
    view = run(table, {"type": "undo"})
    assert {k: v for k, v in view.items() if k not in ("can_undo", "log")} == {
        k: v for k, v in start.items() if k not in ("can_undo", "log")
    }
    assert [line["key"] for line in view["log"]] == ["log.started", "log.action.tax", "log.undo"]
    assert view["log"][1]["args"]["undone"] is True
    view = run(table, {"type": "income", "seat": A})
    assert coins(view) == [3, 2, 2]
    kinds = [c["command"]["type"] for c in table.store.commands(table.game_id)]
    assert kinds == ["start", "tax", "undo", "income"]
    lines = [key for key, _ in table.log_lines()]
    assert "log.undo" in lines
    assert ("log.action.tax", {"player": A, "target": None, "undone": True}) in table.log_lines()
    # Undo survives a restart.
    resumed = Table.resume(EventStore(path))
    assert resumed.public_view() == table.public_view()
    # Two undos walk back two entries.
    run(resumed, {"type": "income", "seat": B}, {"type": "undo"}, {"type": "undo"})
    assert coins(resumed.public_view()) == [2, 2, 2]
    with pytest.raises(RuleError) as err:
        resumed.execute({"type": "undo"})
    assert err.value.key == "undo.nothing"


def test_undo_of_a_wrong_card_in_physical_mode(store):
    table = new_table(store, NAMES)
    run(
        table,
        {"type": "tax", "seat": A},
        {"type": "challenge", "seat": B},
        {"type": "show", "seat": A},
        {"type": "lose", "seat": B, "card": "duke"},
    )
    run(table, {"type": "undo"})
    view = run(table, {"type": "lose", "seat": B, "card": "captain"})
    assert view["players"][B]["revealed"] == ["captain"]


def test_keeper_undo_never_rehides_a_seen_card(store):
    table = new_table(store, NAMES, mode="keeper", deal={**DEAL, "draws": ["contessa"]})
    run(table, {"type": "tax", "seat": A})
    run(table, {"type": "challenge", "seat": B})
    run(table, {"type": "undo"})  # nothing seen yet: allowed
    run(table, {"type": "challenge", "seat": B}, {"type": "show", "seat": A})
    assert not table.public_view()["can_undo"]
    with pytest.raises(RuleError) as err:
        table.execute({"type": "undo"})  # A drew a new card
    assert err.value.key == "undo.would_rehide"
    run(table, {"type": "lose", "seat": B, "card": "captain"})
    with pytest.raises(RuleError) as err:
        table.execute({"type": "undo"})  # the table saw the Captain
    assert err.value.key == "undo.would_rehide"
    assert table.private_view(A)["hand"] == ["assassin", "contessa"]


def test_a_refused_write_changes_nothing_and_can_be_retried(store):
    table = new_table(store, NAMES)
    before = table.public_view()
    store.db.execute("PRAGMA query_only=ON")  # the store cannot write
    with pytest.raises(StoreError):
        table.execute({"type": "tax", "seat": A})
    assert table.public_view() == before
    store.db.execute("PRAGMA query_only=OFF")
    run(table, {"type": "tax", "seat": A})
    claimed = table.public_view()
    store.db.execute("PRAGMA query_only=ON")
    with pytest.raises(StoreError):
        table.execute({"type": "undo"})
    assert table.public_view() == claimed
    store.db.execute("PRAGMA query_only=OFF")
    view = run(table, {"type": "proceed"})
    assert coins(view) == [5, 2, 2]
    assert Table.resume(store).public_view() == table.public_view()


def test_a_seat_source_acts_only_for_its_seat(store):
    table = new_table(store, NAMES)
    with pytest.raises(RuleError) as err:
        table.execute({"type": "income", "seat": A}, source=seat_source(B))
    assert err.value.key == "command.not_your_seat"
    run(table, {"type": "tax", "seat": A})
    # Nothing for the table as a whole, whatever seat the command claims.
    for command in (
        {"type": "proceed"},
        {"type": "proceed", "seat": B},
        {"type": "undo"},
        {"type": "undo", "seat": B},
    ):
        with pytest.raises(RuleError) as err:
            table.execute(command, source=seat_source(B))
        assert err.value.key == "command.not_your_seat"
    with pytest.raises(RuleError):
        table.execute({"type": "pass", "seat": B}, source="seat:x")
    table.execute({"type": "challenge", "seat": B}, source=seat_source(B))
    assert table.public_view()["phase"] == "prove"
    sources = [c["source"] for c in store.commands(table.game_id)]
    assert sources == ["local", "local", "seat:1"]


def test_no_source_can_probe_a_hidden_hand(store):
    table = new_table(store, NAMES, mode="keeper", deal=DEAL)
    run(
        table,
        {"type": "tax", "seat": A},
        {"type": "challenge", "seat": B},
        {"type": "show", "seat": A, "redraw": False},
    )
    # Bob loses an influence. Another seat's phone cannot ask about his cards,
    # and the shared screen gets the same answer whatever card it names.
    for card in ("duke", "captain"):
        with pytest.raises(RuleError) as err:
            table.execute({"type": "lose", "seat": B, "card": card}, source=seat_source(C))
        assert err.value.key == "command.not_your_seat"
        with pytest.raises(RuleError) as err:
            table.execute({"type": "lose", "seat": B, "card": card}, source=OPERATOR)
        assert err.value.key == "command.private_choice"
    table.execute({"type": "lose", "seat": B, "card": "captain"}, source=seat_source(B))
    assert table.public_view()["players"][B]["revealed"] == ["captain"]


def test_commands_the_store_cannot_keep_are_refused(store):
    table = new_table(store, NAMES)
    for command, key in [
        ({"type": "income", "seat": A, "note": {1, 2}}, "command.not_json"),
        ({"type": "income", "seat": A, (1, 2): 0}, "command.not_json"),
        ({"type": "income", "seat": float("inf")}, "command.not_json"),
        ({"type": "proceed", "seat": float("nan")}, "command.not_json"),
        ({"type": "income", "seat": A, "pad": "x" * 5000}, "command.too_large"),
        ("income", "command.not_an_object"),
    ]:
        with pytest.raises(RuleError) as err:
            table.execute(command)
        assert err.value.key == key
    assert len(table.log) == 1


def test_private_views_exist_only_for_real_seats(store):
    table = new_table(store, NAMES, mode="keeper", deal=DEAL)
    for seat in (-1, 3, "0", None):
        with pytest.raises(RuleError) as err:
            table.private_view(seat)
        assert err.value.key == "command.bad_seat"


def test_a_finished_game_cannot_be_undone_once_a_newer_one_started(store):
    table = new_table(store, ["Ann", "Bob"])
    tax = [{"type": "tax", "seat": A}, {"type": "proceed"}]
    income = {"type": "income", "seat": B}
    run(
        table,
        *tax,
        income,
        *tax,
        income,
        {"type": "coup", "seat": A, "target": B},
        {"type": "lose", "seat": B, "card": "duke"},
        income,
        *tax,
        income,
        *tax,
        income,
        {"type": "coup", "seat": A, "target": B},
    )
    run(table, {"type": "lose", "seat": B, "card": "duke"})
    assert table.is_over
    run(table, {"type": "undo"})  # a mistaken last entry: fine
    assert not table.is_over and store.game(table.game_id).status == "active"
    run(table, {"type": "lose", "seat": B, "card": "captain"})
    table.next_game()
    with pytest.raises(RuleError) as err:
        table.execute({"type": "undo"})
    assert err.value.key == "undo.newer_game"
    assert [g.status for g in store.history()] == ["active", "finished"]


def test_listeners_hear_only_committed_changes(store):
    table = new_table(store, NAMES)
    heard = []
    table.subscribe(lambda done: heard.append(len(store.events(done.table.game_id))))
    run(table, {"type": "income", "seat": A})
    with pytest.raises(RuleError):
        table.execute({"type": "income", "seat": A})
    assert heard == [len(table.log)]


def test_every_listener_is_told_the_events_and_one_public_view(store):
    table = new_table(store, NAMES)
    told: list[tuple[str, object]] = []
    table.subscribe(lambda done: told.append(("screen", done)))
    table.subscribe(lambda done: told.append(("phones", done)))
    events = table.execute({"type": "income", "seat": A})
    (first, one), (second, other) = told
    assert (first, second) == ("screen", "phones")
    assert one is other, "one notice for all: the view is computed once per commit"
    assert one.table is table and one.source == "local"
    assert list(one.events) == events
    assert one.view == table.public_view()
    assert one.view["players"][A]["coins"] == 3


def test_public_log_never_names_a_hidden_card(store):
    table = new_table(store, NAMES, mode="keeper", deal={**DEAL, "draws": ["captain"]})
    run(
        table,
        {"type": "tax", "seat": A},
        {"type": "challenge", "seat": B},
        {"type": "show", "seat": A},
        {"type": "lose", "seat": B, "card": "contessa"},
        {"type": "exchange", "seat": B},
        {"type": "proceed"},
    )
    t = Messages("en", table.names)
    text = " ".join(t(key, **args) for key, args in table.log_lines())
    assert "Ann draws a new card from the court." in text
    assert "Captain" not in text  # the redrawn Captain and Bob's hidden Captain


def test_the_winner_plays_first_in_the_next_game(store):
    table = new_table(store, NAMES)
    for card in ("duke", "captain"):  # Bob challenges Ann's true Duke twice
        run(
            table,
            {"type": "tax", "seat": A},
            {"type": "challenge", "seat": B},
            {"type": "show", "seat": A},
            {"type": "lose", "seat": B, "card": card},
        )
        if card == "duke":
            run(table, {"type": "income", "seat": B}, {"type": "income", "seat": C})
    run(table, {"type": "income", "seat": C})
    # Ann challenges Cat's true Ambassador twice and is out too.
    for card in ("duke", "captain"):
        view = table.public_view()
        while view["current"] != C:
            view = run(table, {"type": "income", "seat": view["current"]})
        run(
            table,
            {"type": "exchange", "seat": C},
            {"type": "challenge", "seat": A},
            {"type": "show", "seat": C},
            {"type": "lose", "seat": A, "card": card},
        )
    assert table.public_view()["winner"] == C
    following = table.next_game()
    view = following.public_view()
    assert view["current"] == C and following.names == table.names
    assert following.setup.options["direction"] == "clockwise"
    assert store.game(table.game_id).status == "finished"
