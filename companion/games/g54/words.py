"""What the G54 table says beyond the claim games' words
(``..claims.words``): the tokens each seat holds, a Disappear token coming
due, the five characters' reference cards, and the explanations of what
only G54 has (joining an action, reactions to a loss or an elimination, a
choice an action asks for)."""

from __future__ import annotations

from typing import Any

from ...i18n import Messages
from ..claims.words import COIN, ClaimWords
from ..words import ReferenceCard, waiting_line
from .roles import BY_NAME

# The choices an action asks for that handle cards (the real ones in physical
# mode, the phone's in keeper mode).
_CARD_CHOICES = frozenset(("writer", "producer"))


class G54Words(ClaimWords):
    def status_line(self, view: dict[str, Any], t: Messages) -> str:
        if view["phase"] == "disappear":  # a Disappear token comes due
            return t("status.disappear", player=view["waiting_for"][0])
        return super().status_line(view, t)

    def explain(self, view: dict[str, Any], t: Messages) -> list[str]:
        explainer = {
            "disappear": self._explain_disappear,
            "join": self._explain_join,
            "elimination": self._explain_elimination,
            "choice": self._explain_choice,
        }.get(view["phase"])
        return super().explain(view, t) if explainer is None else explainer(view, t)

    def turn_line(self, view: dict[str, Any], t: Messages) -> str:
        return t("explain.g54.turn", player=view["current"], characters=view["roles"])

    def character_claim_line(self, view: dict[str, Any], claim: dict[str, Any], t: Messages) -> str:
        """A claim of one of the game's characters, with its card's words."""
        kind, character = claim["kind"], claim["character"]
        if kind in ("join", "disappear"):
            return t(f"explain.g54.claim_{kind}", player=claim["seat"], character=character)
        args = {"player": claim["seat"], "character": character, "card": t(f"g54.card.{character}")}
        target = view["pending"]["target"] if kind == "action" else None
        if target is not None:
            return t("explain.g54.claim_target", target=target, **args)
        return t("explain.g54.claim", **args)

    def blocked_line(self, t: Messages) -> str:
        return t("explain.g54.blocked")

    def explain_lose(self, view: dict[str, Any], t: Messages) -> list[str]:
        """A loss, and the reactions to it this game's characters allow
        (not to a Coup: the Missionary's)."""
        losing = view["losing"]
        coup = losing["reason"] == "coup"
        reactions = [
            role
            for role in view["roles"]
            if (reaction := BY_NAME[role].reaction) is not None
            and reaction.when != "elimination"
            and not (coup and reaction.when == "life_not_coup")
        ]
        lines = super().explain_lose(view, t)
        if reactions:
            lines.append(t("explain.g54.lose_react", player=losing["seat"], characters=reactions))
        return lines

    def _explain_disappear(self, view: dict[str, Any], t: Messages) -> list[str]:
        window = view["pending"]["window"]
        return [
            t(
                "explain.g54.disappear",
                player=view["waiting_for"][0],
                characters=window["characters"],
            )
        ]

    def _explain_join(self, view: dict[str, Any], t: Messages) -> list[str]:
        pending = view["pending"]
        action = pending["action"]
        return [
            t(
                "explain.g54.join",
                player=pending["actor"],
                action=action,
                character=action,
                card=t(f"g54.card.{action}"),
            ),
            *waiting_line(view["waiting_for"], t),
        ]

    def _explain_elimination(self, view: dict[str, Any], t: Messages) -> list[str]:
        characters = view["pending"]["window"]["characters"]
        return [
            t(
                "explain.g54.elimination",
                characters=characters,
                card=" ".join(t(f"g54.card.{c}") for c in characters),
            ),
            *waiting_line(view["waiting_for"], t),
        ]

    def _explain_choice(self, view: dict[str, Any], t: Messages) -> list[str]:
        pending = view["pending"]
        choice = pending["choice"]
        kind = choice["kind"]
        key = f"explain.g54.choice.{kind}"
        if kind in _CARD_CHOICES:  # cards in hand, or on the phone
            key += f".{view['mode']}"
        return [
            t(
                key,
                player=choice["seat"],
                target=pending["actor"],
                character=pending["action"],
            )
        ]

    def quick_reference(self, view: dict[str, Any], t: Messages) -> list[tuple[str, str]]:
        """The game's five characters (action, block, cost: their cards'
        words), the general actions, challenges and blocks."""
        return [
            *(
                (t("reference.g54.role", character=role, action=role), t(f"g54.card.{role}"))
                for role in view["roles"]
            ),
            (t("action.income") + " · " + t("action.coup"), t("ui.general_actions")),
            self.challenge_reference(t),
            (t("reference.g54.blocks_title"), t("reference.g54.blocks")),
        ]

    def seat_marks(self, view: dict[str, Any], seat: int, t: Messages) -> list[str]:
        return tokens_of(view.get("tokens", {}), seat, t)

    def bar_items(self, view: dict[str, Any], t: Messages) -> list[str]:
        """No treasury: G54's has no limit (digest C2)."""
        return [t("ui.turn", count=view["turn"]), t("ui.court", count=view["court"])]

    def reference_cards(self, view: dict[str, Any], t: Messages) -> list[ReferenceCard]:
        """The game's five characters, each with its icon, and the two
        general actions (with the coin: income takes one, a coup costs)."""
        return [
            ReferenceCard(t(f"character.{role}"), t(f"g54.card.{role}"), role)
            for role in view["roles"]
        ] + [
            ReferenceCard(
                t("action.income") + " · " + t("action.coup"), t("ui.general_actions"), COIN
            )
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
