"""What the Coup family's table screen says, as plain data: labels for
commands and a status line for the public view (Coup and Coup: Rebellion
G54). No Kivy here and no rules: the engine says what is legal, this module
only words it."""
from __future__ import annotations

from typing import Any

from ..i18n import Messages

# Command fields as the catalog's texts name them.
_FIELD_ARGS = {"seat": "player", "card": "character"}


def command_label(command: dict[str, Any], view: dict[str, Any], t: Messages) -> str:
    kind = command["type"]
    if kind == "proceed":
        return t(f"cmd.proceed.{view['phase']}")
    if kind == "keep":
        cards = t.join(t(f"character.{c}") for c in command["cards"])
        if "give" in command:
            return t("cmd.keep_give", cards=cards, character=command["give"])
        return t("cmd.keep", cards=cards)
    if kind == "choose":
        choice = view["pending"]["choice"]["kind"]
        if choice == "producer":            # the option is the card handed over
            return t("cmd.choose.producer", player=command["seat"],
                     character=command["option"])
        return t(f"cmd.choose.{choice}.{command['option']}", player=command["seat"])
    if kind == "react" and "card" in command:
        return t("cmd.react_card", player=command["seat"], character=command["character"],
                 card=t(f"character.{command['card']}"))
    args = {_FIELD_ARGS.get(k, k): v for k, v in command.items() if k != "type"}
    if kind == "show":
        args["character"] = view["pending"]["claim"]["character"]
    return t(f"cmd.{kind}", **args)


def command_groups(commands: list[dict[str, Any]]) -> list[tuple[int | None, list[dict[str, Any]]]]:
    """Commands grouped by the seat that gives them, in seat order; commands
    for the whole table (no seat) come last."""
    by_seat: dict[int | None, list[dict[str, Any]]] = {}
    for command in commands:
        by_seat.setdefault(command.get("seat"), []).append(command)
    seats = sorted(k for k in by_seat if k is not None)
    groups = [(seat, by_seat[seat]) for seat in seats]
    if None in by_seat:
        groups.append((None, by_seat[None]))
    return groups


def status_line(view: dict[str, Any], t: Messages) -> str:
    """One sentence saying what the table is waiting for."""
    phase = view["phase"]
    if phase == "over":
        return t("status.winner", player=view["winner"])
    pending = view["pending"]
    current = view["current"]
    if phase == "action":
        return t("status.action", player=current)
    if phase == "lose":
        return t("status.lose", player=view["waiting_for"][0])
    claim = pending and pending["claim"]
    if phase == "challenge":
        if claim["kind"] == "block":
            return t("status.challenge_block", player=claim["seat"],
                     character=claim["character"], action=pending["action"])
        if claim["kind"] != "action":       # a join, a reaction, a Lawyer, a Mercenary
            return t("status.challenge_claim", player=claim["seat"],
                     character=claim["character"])
        return t("status.challenge_action", player=claim["seat"],
                 character=claim["character"], action=pending["action"],
                 target=pending["target"])
    if phase == "block":
        if pending["targets"]:
            return t("status.block_every_other", player=current, action=pending["action"])
        if pending["target"] is None:
            return t("status.block_anyone", player=current, action=pending["action"])
        return t("status.block_target", player=pending["target"],
                 action=pending["action"])
    if phase == "join":
        return t("status.join", player=current, action=pending["action"])
    if phase == "elimination":
        return t("status.elimination", character=pending["window"]["characters"][0])
    if phase == "disappear":
        return t("status.disappear", player=view["waiting_for"][0])
    if phase == "choice":
        return t(f"status.choice.{pending['choice']['kind']}", player=pending["choice"]["seat"])
    if phase == "prove":
        return t("status.prove", player=claim["seat"], character=claim["character"],
                 challenger=claim["challenger"])
    if phase == "exchange":
        return t("status.exchange", player=current)
    return t(f"status.{phase}")


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
