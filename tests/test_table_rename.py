"""A player's new name, at the table: from their own seat (a phone) or from
the kiosk, on a real SQLite file. It is public, kept across a restart and in
the history, never taken back by Undo; a bad or borrowed name is refused
with a translatable reason, and one seat cannot rename another."""

from __future__ import annotations

import pytest
from helpers import new_table, run

from companion.games.base import RuleError
from companion.i18n import Messages
from companion.table import OPERATOR, EventStore, Table, seat_source
from companion.table.table import RENAMES_PER_SEAT

NAMES = ["Ann", "Bob", "Cat"]


def rename(table, seat, name, source=None):
    return table.execute(
        {"type": "rename", "seat": seat, "name": name},
        source=seat_source(seat) if source is None else source,
    )


def test_a_seat_renames_itself_and_every_view_and_the_history_follow(tmp_path):
    path = tmp_path / "g.sqlite3"
    table = new_table(EventStore(path), NAMES)
    seen = []
    table.subscribe(lambda done: seen.append(list(done.table.names)))
    run(table, {"type": "income", "seat": 0})
    [event] = rename(table, 1, "  Наташа   Ивановна ")
    assert event == {"type": "rename", "seat": 1, "name": "Наташа Ивановна", "was": "Bob"}
    assert table.names == ["Ann", "Наташа Ивановна", "Cat"]
    assert seen[-1] == table.names, "listeners are told"
    assert table.public_view()["players"][1]["name"] == "Наташа Ивановна"
    assert table.private_view(1)["name"] == "Наташа Ивановна"
    t = Messages("en", table.names)
    assert t.log_line(*table.log_lines()[-1]) == "Bob is now called Наташа Ивановна."
    assert rename(table, 1, "Наташа Ивановна") == [], "the same name again changes nothing"

    # Undo takes back the last move, not the new name.
    table.execute({"type": "undo"})
    assert table.public_view()["players"][0]["coins"] == 2
    assert table.names[1] == "Наташа Ивановна"

    table.store.close()
    store = EventStore(path)
    again = Table.resume(store)
    assert again.names == ["Ann", "Наташа Ивановна", "Cat"]
    assert [s["name"] for s in store.active_game().setup["seats"]] == again.names
    assert again.next_game().names == again.names, "the next game keeps the new name"


@pytest.mark.parametrize(
    "name, key",
    [
        ("", "setup.bad_name"),
        ("   ", "setup.bad_name"),
        ("x" * 25, "setup.bad_name"),
        ("Ann\u202eevil", "setup.bad_name"),  # a right-to-left override
        ("Ann\x00", "setup.bad_name"),
        (42, "setup.bad_name"),
        ("ann", "setup.duplicate_name"),
        ("CAT", "setup.duplicate_name"),
    ],
)
def test_a_bad_or_borrowed_name_is_refused_and_changes_nothing(store, name, key):
    table = new_table(store, NAMES)
    events = len(table.log)
    with pytest.raises(RuleError) as refused:
        rename(table, 1, name)
    assert refused.value.key == key
    assert Messages("en").error(refused.value) != key, "the reason reads as words"
    assert table.names == NAMES and len(table.log) == events


def test_persian_joiners_are_kept_and_the_kiosk_renames_any_seat(store):
    table = new_table(store, NAMES)
    rename(table, 2, "می\u200cنا", source=OPERATOR)
    assert table.names[2] == "می\u200cنا"
    with pytest.raises(RuleError) as refused:
        rename(table, 2, "Zed", source=seat_source(1))
    assert refused.value.key == "command.not_your_seat"
    with pytest.raises(RuleError):
        rename(table, 5, "Zed", source=OPERATOR)
    assert table.names == ["Ann", "Bob", "می\u200cنا"]


def test_a_phone_cannot_flood_the_log_with_names_but_the_kiosk_still_can(store):
    table = new_table(store, NAMES)
    for n in range(RENAMES_PER_SEAT):
        rename(table, 0, f"Ann {n}")
    with pytest.raises(RuleError) as refused:
        rename(table, 0, "Ann again")
    assert refused.value.key == "rename.too_many"
    rename(table, 0, "Annette", source=OPERATOR)
    assert table.names[0] == "Annette"
