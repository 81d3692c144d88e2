"""The replay contract through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.jsonl"))
HEADER = {
    "game": "coup",
    "seats": ["Ann", "Bob"],
    "mode": "physical",
    "options": {"first": 0, "direction": "clockwise"},
}


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def script(*lines: dict) -> str:
    return "\n".join(json.dumps(line) for line in (HEADER, *lines)) + "\n"


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.stem for e in EXAMPLES])
def test_every_documented_example_plays_to_the_end(example):
    done = companion("replay", str(example))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["public"]["phase"] == "over"
    assert len(result["private"]) == len(result["public"]["players"])


def test_coup_example_final_views():
    result = json.loads(companion("replay", str(ROOT / "docs/examples/coup.jsonl")).stdout)
    public = result["public"]
    assert public["winner"] == 0
    assert [(p["name"], p["coins"], p["influence"]) for p in public["players"]] == [
        ("Natassa", 2, 2),
        ("Stelios", 0, 0),
        ("Giorgos", 0, 0),
    ]
    assert public["treasury"] == 48 and public["court"] == 9
    # Natassa never lost a card: her private view holds the dealt Contessa and Duke.
    assert result["private"][0] == {"seat": 0, "hand": ["contessa", "duke"], "name": "Natassa"}
    assert result["private"][1]["hand"] == []


def test_g54_example_final_views():
    result = json.loads(companion("replay", str(ROOT / "docs/examples/g54.jsonl")).stdout)
    public = result["public"]
    assert public["roles"] == [
        "capitalist",
        "director",
        "mercenary",
        "foreign_consular",
        "intellectual",
    ]
    assert public["winner"] == 0 and public["turn"] == 10
    assert [(p["coins"], p["revealed"]) for p in public["players"]] == [
        (8, ["mercenary"]),
        (0, ["intellectual", "intellectual"]),
        (0, ["capitalist", "foreign_consular"]),
    ]
    kinds = [(c["kind"], c["character"], c["result"]) for c in public["players"][1]["claims"]]
    assert kinds == [
        ("join", "capitalist", "failed"),
        ("react", "intellectual", "unchallenged"),
        ("action", "director", "unchallenged"),
        ("disappear", "mercenary", "failed"),
    ]
    assert result["private"][0]["hand"] == ["capitalist"]


def test_an_illegal_command_stops_with_the_line_and_the_rule():
    text = script({"seat": "Ann", "type": "income"}, {"seat": "Ann", "type": "income"})
    done = companion("replay", "-", stdin=text)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "line 3" in done.stderr
    assert "It is not Ann's turn." in done.stderr and "[coup.not_your_turn]" in done.stderr


def test_garbage_and_bad_headers_are_reported_by_line():
    done = companion("replay", "-", stdin=script() + "{not json\n")
    assert done.returncode == 1 and "line 2: not valid JSON" in done.stderr
    bad = json.dumps({**HEADER, "seats": ["Solo"]})
    done = companion("replay", "-", stdin=bad + "\n")
    assert done.returncode == 1
    assert "line 1: Coup is for 2 to 6 players, not 1." in done.stderr
    done = companion("replay", "-", stdin="# only a comment\n")
    assert done.returncode == 1 and "empty" in done.stderr
    done = companion("replay", str(ROOT / "no-such-script.jsonl"))
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_a_seed_makes_a_keeper_replay_reproducible():
    header = {**HEADER, "mode": "keeper", "seed": 42}
    text = json.dumps(header) + "\n" + json.dumps({"seat": 0, "type": "income"}) + "\n"
    first = companion("replay", "-", stdin=text)
    second = companion("replay", "-", stdin=text)
    assert first.returncode == 0 and first.stdout == second.stdout
    other = companion("replay", "-", stdin=text.replace('"seed": 42', '"seed": 43'))
    hands = [json.loads(out)["private"] for out in (first.stdout, other.stdout)]
    assert all(len(p["hand"]) == 2 for p in hands[0])
    assert hands[0] != hands[1]


@pytest.mark.parametrize(
    "header",
    [
        {"game": ["coup"], "seats": ["A", "B"]},
        {"game": "coup", "seats": ["A", "B"], "seed": [1]},
        {"game": "coup", "seats": ["A", "B"], "seed": True},  # JSON's true: once taken for 1
        {"game": "coup", "seats": ["A", "B"], "deal": [1]},
        {"game": "coup", "seats": ["A", "B"], "options": "x"},
        {"game": "coup", "seats": "AB"},
    ],
)
def test_a_malformed_header_is_a_clear_error(header):
    done = companion("replay", "-", stdin=json.dumps(header) + "\n")
    assert done.returncode == 1 and "line 1:" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_list_for_an_issue_is_a_clear_error():
    header = {"game": "article27", "seats": ["A", "B", "C"], "options": {"first": 0}}
    lines = [
        json.dumps(header),
        json.dumps({"type": "gavel"}),
        json.dumps({"type": "move", "issue": ["nuclear"], "to": "floor"}),
    ]
    for issue, agenda in zip(
        ("peacekeeping", "smuggling", "diplomatic", "humanitarian", "nuclear"),
        ("wealth", "peace", "prestige", "justice", "power"),
    ):
        lines.insert(-2, json.dumps({"type": "reveal_disk", "issue": issue, "agenda": agenda}))
    done = companion("replay", "-", stdin="\n".join(lines) + "\n")
    assert done.returncode == 1 and "line 8:" in done.stderr
    assert "[a27.unknown_issue]" in done.stderr and "Traceback" not in done.stderr


def test_malformed_scripted_draws_and_text_are_clear_errors(tmp_path):
    header = {**HEADER, "mode": "keeper", "deal": {"draws": "duke"}}
    text = script().replace(json.dumps(HEADER), json.dumps(header))
    text += json.dumps({"seat": 0, "type": "exchange"}) + "\n" + '{"type": "proceed"}\n'
    done = companion("replay", "-", stdin=text)
    assert done.returncode == 1 and "line 3:" in done.stderr and "[setup.bad_deal]" in done.stderr
    binary = tmp_path / "bad.jsonl"
    binary.write_bytes(b"\xff\xfe")
    done = companion("replay", str(binary))
    assert done.returncode == 2 and "not UTF-8" in done.stderr
    deep = script() + "[" * 100000 + "\n"
    done = companion("replay", "-", stdin=deep)
    assert done.returncode == 1 and "line 2: not valid JSON" in done.stderr
    assert "Traceback" not in done.stderr


def test_wait_lines_move_the_clock_and_let_time_act():
    header = {
        "game": "article27",
        "seats": ["A", "B", "C"],
        "mode": "physical",
        "options": {"first": 0, "timer_seconds": 60},
    }
    lines = [json.dumps(header)]
    for issue, agenda in zip(
        ("peacekeeping", "smuggling", "diplomatic", "humanitarian", "nuclear"),
        ("wealth", "peace", "power", "justice", "prestige"),
    ):
        lines.append(json.dumps({"type": "reveal_disk", "issue": issue, "agenda": agenda}))
    lines += [json.dumps({"type": "gavel"}), json.dumps({"wait": 59})]
    done = companion("replay", "-", stdin="\n".join(lines) + "\n")
    assert json.loads(done.stdout)["public"]["timer"]["remaining"] == 1.0
    done = companion("replay", "-", stdin="\n".join(lines + [json.dumps({"wait": 1})]) + "\n")
    public = json.loads(done.stdout)["public"]
    assert public["phase"] == "place_one" and public["privilege"] is False
    done = companion("replay", "-", stdin="\n".join(lines + ['{"wait": "soon"}']) + "\n")
    assert done.returncode == 1 and "wait needs a number of seconds" in done.stderr


def test_a_response_countdown_replays_with_waits():
    header = {**HEADER, "options": {**HEADER["options"], "response_seconds": 5}}
    lines = [
        json.dumps(header),
        json.dumps({"seat": "Ann", "type": "tax"}),
        json.dumps({"wait": 4.9}),
    ]
    done = companion("replay", "-", stdin="\n".join(lines) + "\n")
    assert json.loads(done.stdout)["public"]["phase"] == "challenge"
    done = companion("replay", "-", stdin="\n".join(lines + [json.dumps({"wait": 0.1})]) + "\n")
    public = json.loads(done.stdout)["public"]
    assert public["phase"] == "action" and public["players"][0]["coins"] == 5


@pytest.mark.parametrize(
    "args, stdin, code, says",
    [
        (
            ["replay", "-"],
            '{"game": "coup", "seats": ["A", "B"], "seed": ' + "1" * 5000 + "}\n",
            1,
            "line 1: not valid JSON",
        ),
        (
            ["replay", "-"],
            '{"game": "coup", "seats": ["A", "B"]}\n'
            '{"type": "income", "seat": 0, "x": "\\ud800"}\n',
            1,
            "line 2: The command holds something that is not plain JSON.",
        ),
    ],
    ids=["integer-of-5000-digits", "lone-surrogate-in-a-command"],
)
def test_what_python_cannot_read_is_a_clear_error_not_a_traceback(args, stdin, code, says):
    done = companion(*args, stdin=stdin)
    assert done.returncode == code and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_zero_length_store_or_a_pin_map_nested_past_reading_is_a_clear_error(tmp_path):
    empty = tmp_path / "companion.sqlite3"
    empty.touch()
    status = companion("status", "--db", str(empty))
    assert status.returncode == 2 and "holds no game store" in status.stderr, status.stderr
    deep = tmp_path / "pins.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    doctor = companion("doctor", "--pins", str(deep))
    assert doctor.returncode != 0 and "nested too deeply" in doctor.stderr, doctor.stderr
    assert "Traceback" not in status.stderr + doctor.stderr
