"""Show of Hands, a game that exists only for the tests. Its spec is
declared from its own files, as a fifth game's would be, to prove that the
table, the phones, the devices and the kiosk take a game they have never
heard of. It is a distribution of its own (tests/show_of_hands/pyproject.toml,
whose entry point names this SPEC): tests/test_third_party_games.py installs
its wheel into a venv of its own and plays it there. The other tests import
it in place and register it (``companion.games.register``) for as long as it
plays, so no other test sees a fifth game."""

from pathlib import Path

from companion.games.spec import FIRST, GameSpec, Option

SPEC = GameSpec(
    name="show_of_hands",
    order=99,
    engine_path=f"{__name__}.engine:ENGINE",
    words_path=f"{__name__}.words:WORDS",
    min_players=2,
    max_players=6,
    options=(Option("rounds", 3, "hands.option.rounds", kind="int"), FIRST),
    variants=(("rounds", (3, 1, 5)),),
    catalogs=Path(__file__).with_name("i18n"),
)
