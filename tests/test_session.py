"""The session: one update per commit, with its events and the facts every
listener would otherwise ask the table for again; listeners that follow
every game in turn; an old game that tells no one anything more."""

from __future__ import annotations

import dataclasses

import pytest
from sh_helpers import nominate, sh_table

from companion.games.base import Fate, Setup
from companion.table import OPERATOR, EventStore, Session, Table, Update, seat_source


@pytest.fixture
def store(tmp_path):
    store = EventStore(tmp_path / "g.sqlite3")
    yield store
    store.close()


def heard(session: Session) -> list[Update]:
    updates: list[Update] = []
    session.subscribe(updates.append)
    return updates


def test_one_update_per_commit_with_its_events_and_the_facts(store):
    table = sh_table(store, 5)
    session = Session.around(table)
    updates = heard(session)
    nominate(table)
    assert len(updates) == 1
    update = updates[0]
    assert update.table is table and update.source == "local" and not update.switched
    assert list(update.events) == [e for _, e in table.log[-len(update.events) :]]
    assert [e["type"] for e in update.events] == ["nominate"]
    assert update.ballot == table.ballot() is not None
    assert update.voted == () and update.claim is None
    assert update.view == table.public_view() and update.timer == table.timer()

    events = table.execute({"type": "vote", "seat": 2, "choice": "ja"}, source=seat_source(2))
    assert len(updates) == 2
    assert list(updates[1].events) == events
    assert updates[1].source == seat_source(2) and updates[1].voted == (2,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        updates[1].voted = ()  # type: ignore[misc]


def test_a_refused_command_publishes_nothing(store):
    table = sh_table(store, 5)
    updates = heard(Session.around(table))
    with pytest.raises(Exception):  # noqa: B017 - RuleError: no ballot is open
        table.execute({"type": "vote", "seat": 2, "choice": "ja"})
    assert updates == []


def test_listeners_follow_the_next_game_and_a_switch(store):
    first = sh_table(store, 5)
    session = Session.around(first)
    updates = heard(session)
    second = session.next_game(source=OPERATOR)
    assert session.table is second is not first
    assert len(updates) == 1 and updates[0].switched and updates[0].table is second
    assert updates[0].events == () and updates[0].source == OPERATOR
    assert updates[0].view == second.public_view()

    nominate(second)
    assert len(updates) == 2 and updates[1].table is second and not updates[1].switched

    third = Table.start(store, Setup("coup", ["Anna", "Ben", "Chloé"]), fate=Fate(seed=3))
    session.switch(third)
    assert updates[2].switched and updates[2].table is third
    session.switch(third)  # the game already followed: no news
    assert len(updates) == 3


def test_an_old_game_tells_no_one_anything_more(store, tmp_path):
    first = sh_table(store, 5)
    session = Session.around(first)
    updates = heard(session)
    other = EventStore(tmp_path / "other.sqlite3")  # the first game stays open in its own
    second = session.switch(sh_table(other, 5))
    nominate(first)  # it still takes commands
    assert [u.table for u in updates] == [second]
    nominate(second)
    assert [u.table for u in updates] == [second, second]
    other.close()


def test_a_listener_unsubscribed_by_an_earlier_one_is_not_told(store):
    """The kiosk drops its old table screen when it hears of a new game:
    that screen hears nothing of it."""
    session = Session.around(sh_table(store, 5))
    told: list[str] = []

    def kiosk(_update: Update) -> None:
        told.append("kiosk")
        session.unsubscribe(old_screen)

    def old_screen(_update: Update) -> None:
        told.append("old screen")

    session.subscribe(kiosk)
    session.subscribe(old_screen)
    session.next_game()
    assert told == ["kiosk"]


def test_start_and_resume_switch_the_session(store):
    session = Session(store)
    assert session.table is None and session.resume() is None
    updates = heard(session)
    session.tick()  # no game: time has nothing to act on
    table = session.start(Setup("coup", ["Anna", "Ben", "Chloé"]), fate=Fate(seed=3))
    assert session.table is table and updates[-1].switched

    again = Session(store)
    resumed = again.resume()
    assert resumed is not None and resumed.game_id == table.game_id
    assert again.table is resumed
    session.end()
    assert table.ended


def test_a_listener_that_fails_is_logged_and_the_others_are_told(store, caplog):
    """A screen that cannot draw a stored command must not keep the phones,
    the seats' lights or the fleet from hearing of it, nor turn the stored
    command, or an Undo, into a refused one that leaves the table's memory
    apart from its store."""
    table = sh_table(store, 5)
    session = Session.around(table)
    before = heard(session)

    def broken(_update: Update) -> None:
        raise ValueError("cannot draw this")

    session.subscribe(broken)
    after = heard(session)
    nominate(table)
    events = table.execute({"type": "undo"})
    assert [e["type"] for e in events] == ["undo"]
    assert len(before) == len(after) == 2
    failed = [r for r in caplog.records if "a listener of the table failed" in r.getMessage()]
    assert len(failed) == 2 and all(r.exc_info for r in failed)
    again = Table.resume(store)
    assert again is not None
    assert again.public_view() == table.public_view()
    assert again.legal_commands() == table.legal_commands()
