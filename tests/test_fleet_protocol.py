"""The console's actions as a table reads them: signed, for this table, fresh."""

import json

import pytest

from companion.fleet.protocol import (
    END_GAME,
    FORGED,
    GARBLED,
    OTHER_TABLE,
    STALE,
    UNKNOWN,
    WINDOW,
    ActionRefused,
    action_id,
    make_action,
    make_reply,
    read_action,
    read_action_key,
)
from companion.fleet.topics import Topics, table_of

KEY = b"k" * 32
NOW = 1_800_000_000.0


def encoded(action):
    return json.dumps(action).encode()


def refusal(payload, key=KEY, table="table-7", now=NOW):
    with pytest.raises(ActionRefused) as caught:
        read_action(payload, key, table, now)
    return caught.value.key


def test_a_signed_action_reads_back_as_it_was_made():
    sent = make_action(KEY, "table-7", END_GAME, 12, {}, now=NOW)
    action = read_action(encoded(sent), KEY, "table-7", now=NOW + 1)
    assert (action.id, action.action, action.game_id, action.args) == (sent["id"], END_GAME, 12, {})
    assert make_action(KEY, "table-7", END_GAME, 12, now=NOW)["id"] != sent["id"]


def test_a_changed_field_or_another_key_is_forged():
    sent = make_action(KEY, "table-7", "repair_seat", 12, {"seat": 1}, now=NOW)
    for name, value in (("game_id", 13), ("args", {"seat": 2}), ("action", "end_game")):
        assert refusal(encoded({**sent, name: value})) == FORGED
    assert refusal(encoded(sent), key=b"x" * 32) == FORGED


def test_an_action_for_another_table_or_out_of_its_window_is_refused():
    sent = make_action(KEY, "table-3", END_GAME, 1, now=NOW)
    assert refusal(encoded(sent)) == OTHER_TABLE
    old = make_action(KEY, "table-7", END_GAME, 1, now=NOW - WINDOW - 1)
    assert refusal(encoded(old)) == STALE
    ahead = make_action(KEY, "table-7", END_GAME, 1, now=NOW + WINDOW + 1)
    assert refusal(encoded(ahead)) == STALE


def test_garbled_and_unknown_actions_are_refused_in_words():
    sent = make_action(KEY, "table-7", "dance", 1, now=NOW)
    assert refusal(encoded(sent)) == UNKNOWN
    for payload in (b"", b"\xff", b"[]", b"{}", encoded({**sent, "game_id": "1"}), b"x" * 5000):
        assert refusal(payload) == GARBLED
    no_sig = {k: v for k, v in sent.items() if k != "sig"}
    assert refusal(encoded(no_sig)) == GARBLED


def test_a_payload_too_deep_to_be_an_action_is_garbled_unread():
    for payload in (b"[" * 100_000, b"[" * 1500, b'{"id": "a", "args": ' + b"[" * 1500):
        assert refusal(payload) == GARBLED
        assert action_id(payload) is None
    # Brackets inside a message's text are words, not nesting.
    sent = make_action(KEY, "table-7", END_GAME, 1, {"text": "[[[[{{{{" * 20}, now=NOW)
    assert read_action(encoded(sent), KEY, "table-7", now=NOW).args["text"].startswith("[[[[")


def test_a_reply_names_its_action_and_says_why_it_was_refused():
    assert action_id(b'{"id": "abc"}') == "abc"
    assert action_id(b"nonsense") is None and action_id(b'{"id": 5}') is None
    done = make_reply("abc", "table-7", result={"game_id": 13})
    assert done["ok"] and done["result"] == {"game_id": 13} and done["key"] is None
    refused = make_reply("abc", "table-7", ActionRefused(STALE, seconds=400))
    assert (refused["ok"], refused["key"], refused["args"]) == (False, STALE, {"seconds": 400})


def test_the_action_key_is_a_long_first_line(tmp_path):
    path = tmp_path / "key"
    path.write_text("0123456789abcdef0123\nignored\n")
    assert read_action_key(path) == b"0123456789abcdef0123"
    path.write_text("short\n")
    with pytest.raises(ValueError, match="at least 16"):
        read_action_key(path)


def test_topics_name_one_table_each():
    topics = Topics("table-7")
    assert (topics.command, topics.reply) == (
        "companion/table-7/command",
        "companion/table-7/reply",
    )
    assert table_of("companion/table-7/status") == ("table-7", "status")
    assert table_of("companion/a/b/status") is None and table_of("other/t/status") is None
