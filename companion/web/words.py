"""What a phone says besides its game's words: the seat's secrets as
readable lines, with the vote it has cast in the open ballot (the table's,
whatever the game). Computed on the server for one seat from that seat's own
private view, in the phone's language."""

from __future__ import annotations

from ..games.views import View
from ..games.words import Words
from ..i18n import Messages


def secret_lines(words: Words, private: View, t: Messages) -> list[str]:
    """The seat's private view in words (empty when the table plays with
    its own cards and tiles: then the app holds no secret)."""
    lines = words.secret_lines(private, t)
    if "ballot_vote" in private:
        lines.append(t("phone.your_vote", choice=t(f"choice.{private['ballot_vote']}")))
    return lines
