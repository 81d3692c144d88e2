"""The seams between layers, read from the source: game knowledge lives in
its game's package, and the claim framework names nothing of Coup's or
G54's."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games import names
from companion.games.coup.rules import COUP
from companion.games.g54.roles import ROLES

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
SOURCES = ("*.py", "*.kv", "*.js", "*.html", "*.css")


def _files(root: Path) -> list[Path]:
    return sorted(p for pattern in SOURCES for p in root.rglob(pattern))


def _hits(files: list[Path], pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_no_layer_outside_the_games_names_a_game():
    games = PACKAGE / "games"
    files = [p for p in _files(PACKAGE) if games not in p.parents]
    assert len(files) > 50, "the layers' sources were found"
    game_names = names()
    assert {"coup", "g54", "secret_hitler", "article27"} <= set(game_names)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, game_names)) + r")\b", re.IGNORECASE)
    assert _hits(files, pattern) == []


def test_the_claim_framework_names_no_character_token_or_key_of_its_games():
    machinery = _files(PACKAGE / "games" / "claims")
    assert len(machinery) > 10, "the framework's sources were found"
    # "General" is also the Coup rulebook's word for an action no character
    # claims ("a general action").
    words = ({role.name for role in ROLES} | set(COUP.characters)) - {"general"}
    words |= {"disappear", "peacekeep", "treaty", "tax_on", "g54"}  # Coup's "tax" is the Duke's
    words |= {name.replace("_", " ") for name in words}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(words))) + r")", re.IGNORECASE)
    assert _hits([p for p in machinery if p.suffix in (".py", ".kv")], pattern) == []
