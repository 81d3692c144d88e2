"""Each game's texts live in its own package (``GameSpec.catalogs``); the
companion's catalogs (companion/i18n/) hold only what no single game owns."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import specs
from companion.i18n import LANGUAGES

ROOT = Path(__file__).parents[1]
CODE = ROOT / "companion"
SHARED = CODE / "i18n"
QUOTED = re.compile(r"[\"']([a-z0-9_]+(?:\.[a-z0-9_]+)+)[\"']")


def texts(directory: Path, lang: str) -> dict[str, object]:
    return json.loads((directory / f"{lang}.json").read_text(encoding="utf-8"))


def game_catalogs() -> dict[str, Path]:
    """The built-in games' catalogs, and their frameworks', by package."""
    return {
        directory.parent.name: directory
        for spec in specs()
        for directory in spec.catalog_dirs
        if directory.is_relative_to(CODE)
    }


def test_every_built_in_game_brings_its_own_catalogs_in_every_language():
    games = game_catalogs()
    assert sorted(games) == ["article27", "claims", "coup", "g54", "secret_hitler"]
    for name, directory in games.items():
        english = set(texts(directory, "en"))
        assert len(english) > 20, name
        for lang in LANGUAGES:
            assert set(texts(directory, lang)) == english, (name, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_is_kept_in_two_catalogs(lang):
    """A game's text in the companion's catalogs too would silently win."""
    owners: dict[str, list[str]] = {}
    for name, directory in {"companion": SHARED, **game_catalogs()}.items():
        for key in texts(directory, lang):
            owners.setdefault(key, []).append(name)
    assert {key: names for key, names in owners.items() if len(names) > 1} == {}


def test_no_shared_text_is_named_only_by_one_game():
    """A key the code names (whole) only inside one game's package belongs in
    that package's catalogs, not the companion's."""
    shared = set(texts(SHARED, "en"))
    places: dict[str, set[str]] = {}
    for path in CODE.rglob("*"):
        if path.suffix not in (".py", ".kv", ".js", ".html") or "catalogs" in path.parts:
            continue
        parts = path.relative_to(CODE).parts
        place = parts[1] if parts[0] == "games" and len(parts) > 2 else "shared"
        for key in QUOTED.findall(path.read_text(encoding="utf-8")):
            if key in shared:
                places.setdefault(key, set()).add(place)
    one_game = {key: where for key, where in places.items() if "shared" not in where}
    one_game = {key: where for key, where in one_game.items() if len(where) == 1}
    assert one_game == {}


def test_a_games_text_reads_whole_where_no_game_was_asked_for():
    """The café's console, or a log line at start-up, translates a game's
    text before anything has looked a game up: finding the catalogs must
    not wait for that."""
    script = (
        "from companion.i18n import translate\n"
        "print(translate('game.article27', 'el'))\n"
        "print(translate('character.duke', 'ru'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.split("\n")[:2] == [
        texts(CODE / "games/article27/catalogs", "el")["game.article27"],
        texts(CODE / "games/coup/catalogs", "ru")["character.duke"],
    ]
