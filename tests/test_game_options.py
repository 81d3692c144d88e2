"""Every game declares its options and its player range on its spec, and
the command line is made from the specs: every option of every game can be
set (``--option key=value``, or the option's own flag), the old flags still
work, and an option a game does not take, or a value it cannot have, is
refused in the reader's language before any window opens. The engines take
their defaults and player range from the same declaration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from show_of_hands import SPEC as HANDS

from companion.cli import _open_table, _parser
from companion.games import register, spec_for, specs, unregister
from companion.games.base import RuleError, Setup
from companion.games.spec import GameSpec, Option
from companion.i18n import Messages
from companion.table.new_game import player_limits

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def every_game():
    """The built-in games and the tests' Show of Hands, a game the command
    line has never heard of."""
    register(HANDS)
    yield specs()
    unregister(HANDS.name)


def samples(option: Option) -> list[str]:
    """Texts that write each kind of value the option takes."""
    if option.kind == "int":
        texts = [str(option.default + 1)]
    else:
        by_kind = {"flag": ["true", "false"], "number": ["15", "2.5"], "seat": ["random", "1"]}
        texts = by_kind.get(option.kind, [str(choice) for choice in option.choices])
    return [*texts, "none"] if option.optional else texts


def seats(spec: GameSpec) -> str:
    return ",".join(f"P{i}" for i in range(spec.min_players))


def opened(tmp_path: Path, *argv: str):
    """The table ``companion run`` opens for ``argv`` (no window)."""
    args = _parser().parse_args(["run", "--db", str(tmp_path / "g.sqlite3"), "--new", *argv])
    result = _open_table(args)
    assert result is not None, argv
    store, table, _damage = result
    store.close()
    return table


def test_every_option_of_every_game_is_settable_from_the_command_line(every_game, tmp_path):
    settable = 0
    for spec in every_game:
        assert spec.options, f"{spec.name} declares no options"
        for option in spec.options:
            for text in samples(option):
                value = option.parse(text)
                flag = f"--{option.name.replace('_', '-')}"
                own = [flag] if option.kind == "flag" and value is True else [flag, text]
                for written in (["--option", f"{option.name}={text}"], own):
                    if option.kind == "flag" and value is False and written == own:
                        continue  # a flag's own switch only turns it on
                    table = opened(
                        tmp_path, "--game", spec.name, "--players", seats(spec), *written
                    )
                    assert table.setup.options[option.name] == value, (spec.name, written)
                    settable += 1
    assert settable > 40


def test_a_set_of_characters_is_written_as_names(tmp_path):
    names = "banker,director,guerrilla,politician,priest"
    for argv in (["--set", names], ["--option", f"set={names}"]):
        table = opened(tmp_path, "--game", "g54", *argv)
        assert table.setup.options["set"] == names.split(",")


def test_the_old_flags_set_what_they_set(tmp_path):
    table = opened(
        tmp_path,
        "--game",
        "g54",
        "--direction",
        "counterclockwise",
        "--set",
        "random",
        "--advanced",
        "--response-seconds",
        "5",
    )
    options = table.setup.options
    assert options["direction"] == "counterclockwise" and options["set"] == "random"
    assert options["advanced"] is True and options["response_seconds"] == 5.0
    coup = opened(tmp_path, "--game", "coup", "--direction", "clockwise")
    assert coup.setup.options["direction"] == "clockwise"


def test_options_combine_and_the_engine_fills_in_the_rest(tmp_path):
    table = opened(
        tmp_path,
        "--game",
        "article27",
        "--option",
        "come_and_go=yes",
        "--option",
        "timer_seconds=120",
        "--lie-cheat-steal",
        "--first",
        "2",
    )
    assert table.setup.options == {
        "first": 2,
        "come_and_go": True,
        "lie_cheat_steal": True,
        "timer_seconds": 120,
    }


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", "run", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize(
    "argv, key, fields",
    [
        (
            ["--game", "coup", "--option", "colour=red"],
            "setup.no_such_option",
            {
                "game": "coup",
                "option": "colour",
                "options": "direction, first, redraw, response_seconds",
            },
        ),
        (
            ["--game", "coup", "--set", "starter"],
            "setup.no_such_option",
            {
                "game": "coup",
                "option": "set",
                "options": "direction, first, redraw, response_seconds",
            },
        ),
        (["--game", "article27", "--option", "soon"], "cli.option_form", {"text": "soon"}),
        (
            ["--game", "article27", "--option", "timer_seconds=soon"],
            "setup.bad_option",
            {"option": "timer_seconds", "value": "soon"},
        ),
        (
            ["--game", "coup", "--response-seconds", "nan"],
            "setup.bad_option",
            {"option": "response_seconds", "value": "nan"},
        ),
        (
            ["--game", "g54", "--communist", "anarchist"],
            "setup.bad_option",
            {"option": "communist", "value": "anarchist"},
        ),
        (
            ["--game", "secret_hitler", "--players", "A,B,C,D,E", "--first", "-1"],
            "setup.bad_option",
            {"option": "first", "value": "-1"},
        ),
    ],
)
def test_a_bad_option_is_refused_in_the_readers_language(tmp_path, lang, argv, key, fields):
    done = run("--db", str(tmp_path / "g.sqlite3"), "--new", "--lang", lang, *argv)
    assert done.returncode == 2
    said = Messages(lang)(key, **fields)
    assert said != key and said in done.stderr
    assert "Traceback" not in done.stderr


def test_the_engine_still_judges_what_the_text_cannot(tmp_path):
    """A number the command line reads may still be out of the game's range."""
    done = run(
        "--db", str(tmp_path / "g.sqlite3"), "--new", "--game", "article27", "--timer-seconds", "5"
    )
    assert done.returncode == 2
    assert "“5” is not a valid value for the option “timer_seconds”." in done.stderr


def test_the_help_names_every_option_in_the_readers_language():
    for lang in ("en", "ru"):
        help_text = subprocess.run(
            [sys.executable, "-m", "companion", "run", "--lang", lang, "--help"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        t = Messages(lang)
        for spec in specs():
            for option in spec.options:
                assert f"--{option.name.replace('_', '-')}" in help_text
                first_words = t(option.help).split()[:2]
                assert " ".join(first_words) in " ".join(help_text.split()), option.help


def test_each_option_is_worded_in_every_language(every_game):
    for spec in every_game:
        for option in spec.options:
            for lang in ("en", "el", "ru", "fa"):
                assert Messages(lang)(option.help) != option.help, (lang, option.help)


def test_the_engines_take_the_specs_defaults_and_player_ranges(every_game):
    for spec in every_game:
        engine = spec.engine
        assert player_limits(spec.name) == (spec.min_players, spec.max_players)
        low, high = spec.min_players, spec.max_players
        for count in (low, high):  # every declared option, at its default, is taken
            players = [f"P{i}" for i in range(count)]
            engine.check_setup(Setup(game=spec.name, seats=players, options=spec.defaults()))
        if spec is not HANDS:
            assert engine.default_options() == spec.defaults()
        for count in (low - 1, high + 1):
            with pytest.raises(RuleError) as refused:
                engine.check_setup(Setup(game=spec.name, seats=[f"P{i}" for i in range(count)]))
            assert refused.value.key == "setup.player_count"
            assert (refused.value.args_["low"], refused.value.args_["high"]) == (low, high)
        with pytest.raises(RuleError) as refused:
            engine.check_setup(Setup(game=spec.name, seats=["A"] * low, options={"no_such": 1}))
        assert refused.value.key == "setup.unknown_option"


def test_the_player_counts_the_specs_declare():
    assert {s.name: (s.min_players, s.max_players) for s in specs()} == {
        "article27": (3, 6),
        "secret_hitler": (5, 10),
        "coup": (2, 6),
        "g54": (2, 6),
    }
    assert (HANDS.min_players, HANDS.max_players) == (2, 6)


def test_every_seat_of_every_game_can_have_buttons(every_game):
    """The pin map and the button pad wire up to MAX_SEATS seats: no game
    seats more."""
    from companion.devices import pad, pinmap

    assert max(spec.max_players for spec in every_game) <= min(pinmap.MAX_SEATS, pad.MAX_SEATS)


def test_the_home_screens_variants_are_declared_options_the_engine_takes(every_game):
    for spec in every_game:
        declared = {option.name for option in spec.options}
        for name, values in spec.variants:
            assert name in declared, (spec.name, name)
            assert values[0] == spec.option(name).default, (spec.name, name)
            for value in values:
                setup = Setup(
                    game=spec.name,
                    seats=[f"P{i}" for i in range(spec.min_players)],
                    options={name: value},
                )
                spec.engine.check_setup(setup)


def test_the_command_line_names_no_game():
    """cli.py is made from the specs: no game's name, no option of one game
    (behaviour: the tests above)."""
    text = (ROOT / "companion" / "cli.py").read_text(encoding="utf-8")
    for spec in specs():
        assert spec.name not in text, spec.name
    for word in ("--direction", "--advanced", "--response-seconds", '"--set"', "banker"):
        assert word not in text, word


def test_an_unknown_option_names_what_the_game_takes():
    with pytest.raises(RuleError) as refused:
        spec_for("secret_hitler").parse_options([("direction", "clockwise")])
    assert Messages("en").error(refused.value) == (
        "Secret Hitler has no option “direction”; its options: first."
    )
