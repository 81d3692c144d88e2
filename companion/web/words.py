"""What a phone says, as plain data: a seat's secrets as readable lines and
its private actions as labelled buttons. Computed on the server for one seat
from that seat's own private view, in the phone's language."""
from __future__ import annotations

from typing import Any

from ..i18n import Messages
from ..ui.present import command_label

CLAIM_GAMES = ("coup", "g54")


def secret_lines(game: str, private: dict[str, Any], t: Messages) -> list[str]:
    """The seat's private view, in words (empty when the table plays with
    its own cards and tiles: then the app holds no secret)."""
    lines: list[str] = []
    if game in CLAIM_GAMES:
        if "hand" in private:
            lines.append(t("phone.hand_numbered", cards=_numbered(private, t))
                         if private["hand"] else t("phone.hand_empty"))
    elif game == "secret_hitler":
        if "role" in private:
            lines.append(t(f"phone.role.{private['role']}"))
            for mate in private.get("teammates", []):
                lines.append(t(f"phone.teammate.{mate['role']}", player=mate["seat"]))
        if "hand" in private:
            lines.append(t("phone.tiles", tiles=t.join(
                t("phone.tile_numbered", number=n, policy=tile)
                for n, tile in enumerate(private["hand"], 1))))
        if "peek" in private:
            lines.append(t("phone.peek", tiles=_policies(private["peek"], t)))
        for known in private.get("knowledge", []):      # what your powers showed you
            if "party" in known:
                lines.append(t(f"phone.investigated.{known['party']}", player=known["target"]))
            elif "tiles" in known:
                lines.append(t("phone.peeked", tiles=_policies(known["tiles"], t)))
    elif game == "article27" and "agenda" in private:
        agenda = private["agenda"]
        lines.append(t("phone.agenda", agenda=agenda["agenda"], value=agenda["value"],
                       best=agenda["best"]))
        lines.append(t("phone.influence", count=private["influence"]))
        if "slots" in private:
            lines.append(t("phone.slots", slots=t.join(
                t("phone.slot", value=f"{slot['value']:+d}", issue=slot["issue"])
                for slot in private["slots"])))
        if "if_passed" in private:
            lines.append(t("phone.if_passed", count=private["if_passed"]))
        for bribe in private.get("bribes", []):
            lines.append(t("phone.bribe", id=bribe["id"], player=bribe["from"],
                           target=bribe["to"], amount=bribe["amount"],
                           kind=t(f"phone.bribe_kind.{bribe['kind']}"),
                           state=t(f"phone.bribe_state.{bribe['status']}")))
    if "ballot_vote" in private:
        lines.append(t("phone.your_vote", choice=t(f"choice.{private['ballot_vote']}")))
    return lines


def _cards(private: dict[str, Any]) -> list[str]:
    """The cards a seat holds, then those it has drawn, in the order the
    phone numbers them."""
    return list(private.get("hand", [])) + list(private.get("drawn", []))


def _numbered(private: dict[str, Any], t: Messages) -> str:
    return t.join(t("phone.card_numbered", number=n, character=card)
                     for n, card in enumerate(_cards(private), 1))


def _number_of(private: dict[str, Any], card: str, taken: list[int] = ()) -> int:
    cards = _cards(private)
    return next(n for n, c in enumerate(cards, 1) if c == card and n not in taken)


def _policies(tiles: list[str], t: Messages) -> str:
    return t.join(t(f"policy.{tile}") for tile in tiles)


def action_label(command: dict[str, Any], game: str, view: dict[str, Any],
                 t: Messages, private: dict[str, Any]) -> str:
    kind = command["type"]
    if kind == "vote":
        return t(f"choice.{command['choice']}")
    if game in CLAIM_GAMES:
        if "hand" in private and kind in ("lose", "react", "keep") and (
                kind != "react" or "card" in command):
            return _by_number(command, t, private)
        return command_label(command, view, t)
    return t(f"phone.{kind}", **{k: v for k, v in command.items() if k not in ("type", "seat")})


def _by_number(command: dict[str, Any], t: Messages, private: dict[str, Any]) -> str:
    """A choice among the seat's own cards, named by their numbers on the
    phone (its secrets show which is which), so a glance at the buttons
    shows no card."""
    kind = command["type"]
    if kind == "lose":
        return t("phone.lose", number=_number_of(private, command["card"]))
    if kind == "react":
        return t("phone.react", character=command["character"],
                 number=_number_of(private, command["card"]))
    numbers: list[int] = []
    for card in command["cards"]:
        numbers.append(_number_of(private, card, numbers))
    kept = t.join(t.number(n) for n in sorted(numbers))
    if "give" in command:
        return t("phone.keep_give", numbers=kept,
                 number=_number_of(private, command["give"], numbers))
    return t("phone.keep", numbers=kept)


# Not secret, but the seat's own to say, and where the table waits for it:
# "I have seen my role" (Secret Hitler's night, keeper mode).
ACKNOWLEDGEMENTS = frozenset(("confirm",))


def phone_actions(commands: list[dict[str, Any]], game: str, view: dict[str, Any],
                  t: Messages, private: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's private actions with their labels. A27 bribe offers take a
    form of their own (amounts are open-ended); they are not listed here.

    A challenged player's phone always offers both "show" and "concede",
    holding the card or not: a missing button would tell a glancing
    neighbour the claim was a bluff (showing a card one lacks is refused on
    the phone itself)."""
    commands = [c for c in commands if c["type"] != "offer"]
    types = {c["type"] for c in commands}
    tiles = types & {"discard", "enact"}
    if game == "secret_hitler" and tiles and "hand" in private:
        # One button per tile in the hand, by its number: the same buttons
        # whatever the tiles are (the held secrets say which is which).
        kind, seat = tiles.pop(), commands[0]["seat"]
        others = [c for c in commands if c["type"] != kind]
        return [{"command": {"type": kind, "seat": seat, "policy": tile},
                 "label": t(f"phone.{kind}_tile", number=n)}
                for n, tile in enumerate(private["hand"], 1)] + [
            {"command": dict(c), "label": action_label(c, game, view, t, private)}
            for c in others]
    if game in CLAIM_GAMES and "concede" in types and "show" not in types:
        seat = next(c["seat"] for c in commands if c["type"] == "concede")
        commands.insert(0, {"type": "show", "seat": seat, "redraw": True})
    return [{"command": dict(c), "label": action_label(c, game, view, t, private)}
            for c in commands]


def offer_form(commands: list[dict[str, Any]], private: dict[str, Any],
               t: Messages) -> dict[str, Any] | None:
    """Article 27: what the seat's bribe form offers, from the legal offers
    (to whom, which kinds; any amount up to its free influence), or None."""
    offers = [c for c in commands if c["type"] == "offer"]
    if not offers:
        return None
    to = sorted({c["to"] for c in offers})
    kinds = list(dict.fromkeys(c["kind"] for c in offers if "issue" not in c))
    return {"to": [{"seat": seat, "label": t("phone.offer_to", player=seat)} for seat in to],
            "kinds": [{"kind": kind, "label": t(f"phone.bribe_kind.{kind}")} for kind in kinds],
            "max": private.get("influence", 1)}
