"""The kiosk's status line for a public view in each language, worded from
that view alone: what a fleet status must carry (the tests' oracle; the
reporter takes the table's own, worded once per commit)."""

from __future__ import annotations

from companion.games.views import View
from companion.i18n import LANGUAGES, Messages
from companion.table import Table


def status_lines(table: Table, view: View, names: list[str]) -> dict[str, str]:
    """``view``'s status line in each language ("Anna, nominate a
    Chancellor."): the game's own words, from the public view alone."""
    words = table.spec.words
    return {lang: words.status_line(view, Messages(lang, names)) for lang in LANGUAGES}
