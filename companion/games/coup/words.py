"""What Coup says beyond the claim games' words (``..claims.words``): the
turn, its characters' claims and a block in its own terms, and its quick
reference."""

from __future__ import annotations

from typing import Any

from ...i18n import Messages
from ..claims.words import ClaimWords
from .rules import COUP


class CoupWords(ClaimWords):
    forced_coup_at = COUP.forced_coup_at

    def turn_line(self, view: dict[str, Any], t: Messages) -> str:
        return t("explain.coup.turn", player=view["current"])

    def character_claim_line(self, view: dict[str, Any], claim: dict[str, Any], t: Messages) -> str:
        pending = view["pending"]
        return t(
            f"explain.coup.claim.{pending['action']}",
            player=claim["seat"],
            character=claim["character"],
            target=pending["target"],
        )

    def blocked_line(self, t: Messages) -> str:
        return t("explain.coup.blocked")

    def quick_reference(self, view: dict[str, Any], t: Messages) -> list[tuple[str, str]]:
        """Coup's five characters (action, block, cost), the general actions
        and how a challenge goes."""
        general = (COUP.actions[a] for a in COUP.action_order if COUP.actions[a].character is None)
        return [
            *((t(f"character.{c}"), t(f"reference.coup.{c}")) for c in COUP.characters),
            (" · ".join(t(f"action.{a.name}") for a in general), t("reference.coup.general")),
            self.challenge_reference(t),
        ]


WORDS = CoupWords()
