"""What the G54 table says beyond Coup's words: the tokens each seat holds."""

from __future__ import annotations

from typing import Any

from ...i18n import Messages
from ..coup.words import ClaimWords


class G54Words(ClaimWords):
    def seat_marks(self, view: dict[str, Any], seat: int, t: Messages) -> list[str]:
        return tokens_of(view.get("tokens", {}), seat, t)


def tokens_of(tokens: dict[str, Any], seat: int, t: Messages) -> list[str]:
    """The G54 tokens a seat holds, in words."""
    lines = []
    if tokens.get("peacekeeping") == seat:
        lines.append(t("ui.token.peacekeeping", player=seat))
    treaty = tokens.get("treaty")
    if treaty and seat in treaty:
        lines.append(t("ui.token.treaty", player=treaty[0], target=treaty[1]))
    tax = tokens.get("tax")
    if tax and tax["taxer"] == seat:
        lines.append(t("ui.token.tax", player=seat, character=tax["character"]))
    count = tokens.get("disappear", {}).get(str(seat))
    if count:
        lines.append(t("ui.token.disappear", player=seat, count=count))
    return lines


WORDS = G54Words()
