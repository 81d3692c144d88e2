"""What the G54 table says beyond Coup's words: the tokens each seat holds,
a Disappear token coming due, and the five characters' reference cards."""

from __future__ import annotations

from typing import Any

from ...i18n import Messages
from ..coup.words import ClaimWords


class G54Words(ClaimWords):
    def status_line(self, view: dict[str, Any], t: Messages) -> str:
        if view["phase"] == "disappear":  # a Disappear token comes due
            return t("status.disappear", player=view["waiting_for"][0])
        return super().status_line(view, t)

    def seat_marks(self, view: dict[str, Any], seat: int, t: Messages) -> list[str]:
        return tokens_of(view.get("tokens", {}), seat, t)

    def bar_items(self, view: dict[str, Any], t: Messages) -> list[str]:
        """No treasury: G54's has no limit (digest C2)."""
        return [t("ui.turn", count=view["turn"]), t("ui.court", count=view["court"])]

    def reference_cards(self, view: dict[str, Any], t: Messages) -> list[tuple[str, str]]:
        """The game's five characters, and the two general actions."""
        return [(t(f"character.{role}"), t(f"g54.card.{role}")) for role in view["roles"]] + [
            (t("action.income") + " · " + t("action.coup"), t("ui.general_actions"))
        ]


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
