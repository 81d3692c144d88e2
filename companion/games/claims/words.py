"""What the claim games say, as plain data, on the kiosk and the phones
alike (each game adds words of its own, in its package): labels for
commands, a status line for the public view, a seat's hand on its phone and
the chart of coins. No Kivy here and no rules: the engine says what is
legal, this module only words it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...i18n import Messages
from .. import board as parts
from ..board import Part, Seat
from ..words import CHOOSE, TURN, Chart, ReferenceCard, Words, last_per, waiting_line
from .rules import FORCED_COUP_AT

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
        choice = view["pending"]["choice"]
        if choice["cards"]:  # the option is a card of the chooser's hand
            return t(
                f"cmd.choose.{choice['kind']}", player=command["seat"], character=command["option"]
            )
        return t(f"cmd.choose.{choice['kind']}.{command['option']}", player=command["seat"])
    if kind == "react" and "card" in command:
        return t(
            "cmd.react_card",
            player=command["seat"],
            character=command["character"],
            card=t(f"character.{command['card']}"),
        )
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
    groups: list[tuple[int | None, list[dict[str, Any]]]] = [
        (seat, by_seat[seat]) for seat in seats
    ]
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
        proven = proven_claim(view)
        if proven is not None:  # the prover's card goes back before the loss
            return t(
                "status.lose_proven",
                player=proven["seat"],
                character=proven["character"],
                challenger=view["waiting_for"][0],
            )
        return t("status.lose", player=view["waiting_for"][0])
    if phase == "challenge":
        claim = awaited_claim(view)
        if claim["kind"] == "block":
            return t(
                "status.challenge_block",
                player=claim["seat"],
                character=claim["character"],
                action=pending["action"],
            )
        if claim["kind"] != "action":  # a join, a reaction, a block of what came due
            return t("status.challenge_claim", player=claim["seat"], character=claim["character"])
        # An action aimed at a player names them ("... to steal from Ann").
        key = "status.challenge_action" if pending["target"] is None else "status.challenge_target"
        return t(
            key,
            player=claim["seat"],
            character=claim["character"],
            action=pending["action"],
            target=pending["target"],
        )
    if phase == "block":
        if pending["targets"]:
            return t("status.block_every_other", player=current, action=pending["action"])
        if pending["target"] is None:
            return t("status.block_anyone", player=current, action=pending["action"])
        return t("status.block_target", player=pending["target"], action=pending["action"])
    if phase == "join":
        return t("status.join", player=current, action=pending["action"])
    if phase == "elimination":
        return t("status.elimination", character=pending["window"]["characters"][0])
    if phase == "choice":
        return t(f"status.choice.{pending['choice']['kind']}", player=pending["choice"]["seat"])
    if phase == "prove":
        claim = awaited_claim(view)
        return t(
            "status.prove",
            player=claim["seat"],
            character=claim["character"],
            challenger=claim["challenger"],
        )
    if phase == "exchange":
        return t("status.exchange", player=current)
    return t(f"status.{phase}")


def proven_claim(view: dict[str, Any]) -> dict[str, Any] | None:
    """In physical mode, while a challenger loses an influence for a claim
    its claimant proved, that claim (``seat``, ``character``): its card is
    on the table, to be shuffled into the court deck for a new one (the
    rules' CH4; keeper mode's app redraws it itself). None otherwise, or
    for a reaction, whose card shown is the life lost."""
    losing = view["losing"]
    if view["mode"] != "physical" or losing is None or losing["reason"] != "challenge":
        return None
    loser = losing["seat"]
    pending = view["pending"]
    claim = None if pending is None else pending["claim"]
    if claim is not None and claim["challenger"] == loser and claim["kind"] != "react":
        return claim  # the turn's own claim, still the one being settled
    proved = [  # an interrupting claim, already settled: its record says
        {"seat": player["seat"], **record}
        for player in view["players"]
        for record in player["claims"]
        if record["result"] == "upheld"
        and record.get("challenger") == loser
        and record["turn"] == view["turn"]
        and record["kind"] != "react"
    ]
    return proved[-1] if proved else None


def awaited_claim(view: dict[str, Any]) -> dict[str, Any]:
    """The claim the table is settling: the pending action's, or one made
    before the turn's action (what came due at its start, blocked), which
    only its claimant's list of claims shows."""
    pending = view["pending"]
    if pending is not None and pending["claim"] is not None:
        return pending["claim"]
    return next(
        {"seat": player["seat"], "challenger": claim.get("challenger"), **claim}
        for player in view["players"]
        for claim in player["claims"]
        if claim["result"] in ("open", "challenged")
    )


COIN = "coin"  # the coins' piece, drawn beside a seat's coins
CHALLENGE_CUE = 5  # seconds left to challenge when the narration says so
RECENT_CLAIMS = 4  # the claims a seat's panel lists, the latest last


class ClaimWords(Words):
    """The words of the claim games. A game's own words say its turn
    (:meth:`turn_line`), what its characters' claims claim
    (:meth:`character_claim_line`) and what a block that stands does
    (:meth:`blocked_line`)."""

    # With this many coins at the start of a turn, a Coup is the only action.
    forced_coup_at = FORCED_COUP_AT

    # A seat's turn; then what only it may settle: the card it shows when
    # challenged, the influence it loses, the cards it keeps, its choice.
    cue_phases = {"action": TURN} | {
        phase: CHOOSE for phase in ("prove", "lose", "exchange", "choice")
    }

    def spoken_lines(self, t: Messages) -> list[str]:
        return (
            super().spoken_lines(t)
            + [t("speech.claim.turn", player=seat) for seat in range(len(t.names))]
            + [t("speech.claim.challenge_left", count=CHALLENGE_CUE)]
        )

    def status_line(self, view: dict[str, Any], t: Messages) -> str:
        return status_line(view, t)

    def command_label(self, command: dict[str, Any], view: dict[str, Any], t: Messages) -> str:
        return command_label(command, view, t)

    def explain(self, view: dict[str, Any], t: Messages) -> list[str]:
        """The turn, a claim open to challenge, a challenge to answer, a
        window to block in, a loss to choose, an exchange: what it means and
        who may do what (the other phases said the plain way)."""
        explainer = {
            "action": self.explain_turn,
            "challenge": self.explain_challenge,
            "block": self.explain_block,
            "prove": self.explain_prove,
            "lose": self.explain_lose,
            "exchange": self.explain_exchange,
        }.get(view["phase"])
        return super().explain(view, t) if explainer is None else explainer(view, t)

    def explain_turn(self, view: dict[str, Any], t: Messages) -> list[str]:
        """The turn's choices: a Coup alone with 10 coins at its start (not
        before an extra action an action gave)."""
        seat = view["current"]
        coins = view["players"][seat]["coins"]
        again = view["pending"] is not None and view["pending"]["again"]
        if coins >= self.forced_coup_at and not again:
            first = t("explain.claim.forced", player=seat, coins=coins)
        else:
            first = self.turn_line(view, t)
        return [first, t(f"explain.claim.cards.{view['mode']}")]

    def turn_line(self, view: dict[str, Any], t: Messages) -> str:
        """The actions open to the player whose turn it is."""
        raise NotImplementedError

    def explain_challenge(self, view: dict[str, Any], t: Messages) -> list[str]:
        claim = awaited_claim(view)
        return [
            self.claim_line(view, claim, t),
            t("explain.claim.challenge", player=claim["seat"], character=claim["character"]),
            t(f"explain.claim.redraw.{view['mode']}"),
            *waiting_line(view["waiting_for"], t),
        ]

    def claim_line(self, view: dict[str, Any], claim: dict[str, Any], t: Messages) -> str:
        """What the open claim claims: a block, or a character's claim in
        the game's words."""
        pending = view["pending"]
        if claim["kind"] == "block":
            return t(
                "explain.claim.block_claim",
                blocker=claim["seat"],
                player=pending["actor"],
                action=pending["action"],
                character=claim["character"],
            )
        return self.character_claim_line(view, claim, t)

    def character_claim_line(self, view: dict[str, Any], claim: dict[str, Any], t: Messages) -> str:
        """What an open claim other than a block claims."""
        raise NotImplementedError

    def explain_block(self, view: dict[str, Any], t: Messages) -> list[str]:
        pending = view["pending"]
        args = {
            "player": pending["actor"],
            "action": pending["action"],
            "characters": pending["window"]["characters"],
        }
        if pending["targets"]:
            line = t("explain.claim.block_every_other", **args)
        elif pending["target"] is None:
            line = t("explain.claim.block_anyone", **args)
        else:
            line = t("explain.claim.block_target", target=pending["target"], **args)
        return [line, self.blocked_line(t), *waiting_line(view["waiting_for"], t)]

    def blocked_line(self, t: Messages) -> str:
        """What a block that stands does to the action."""
        raise NotImplementedError

    def explain_prove(self, view: dict[str, Any], t: Messages) -> list[str]:
        claim = awaited_claim(view)
        args = {"player": claim["seat"], "character": claim["character"]}
        return [
            t("explain.claim.prove", challenger=claim["challenger"], **args),
            t(f"explain.claim.prove.{view['mode']}", **args),
        ]

    def explain_lose(self, view: dict[str, Any], t: Messages) -> list[str]:
        seat = view["losing"]["seat"]
        lines = [t("explain.claim.lose", player=seat), t(f"explain.claim.lose.{view['mode']}")]
        if view["players"][seat]["influence"] == 1:
            lines.append(t("explain.claim.last", player=seat))
        return lines

    def explain_exchange(self, view: dict[str, Any], t: Messages) -> list[str]:
        return [t("explain.claim.exchange", player=view["current"])]

    @staticmethod
    def challenge_reference(t: Messages) -> tuple[str, str]:
        return t("reference.claim.challenge_title"), t("reference.claim.challenge")

    def variant_value(self, option: str, value: Any, t: Messages) -> str:
        if option == "response_seconds" and isinstance(value, int):
            return t("home.value.seconds", count=value)
        return super().variant_value(option, value, t)

    def seat_marks(self, view: dict[str, Any], seat: int, t: Messages) -> list[str]:
        """What the game's tokens say of a seat (none unless it says)."""
        return []

    def bar_items(self, view: dict[str, Any], t: Messages) -> list[str]:
        """The table's figures on the kiosk's bar: the turn, the treasury
        and the court."""
        return [
            t("ui.turn", count=view["turn"]),
            t("ui.treasury", count=view["treasury"]),
            t("ui.court", count=view["court"]),
        ]

    def reference_cards(self, view: dict[str, Any], t: Messages) -> list[ReferenceCard]:
        """The characters' cards the kiosk keeps in sight: none unless the
        game says."""
        return []

    def board_seats(self, view: dict[str, Any], t: Messages) -> list[Seat]:
        return [self.seat_panel(view, p, t) for p in view["players"]]

    def seat_panel(self, view: dict[str, Any], player: dict[str, Any], t: Messages) -> Seat:
        """A seat's panel on the pages, as on the kiosk (:meth:`panel_texts`)."""
        texts = self.panel_texts(view, player, t)
        marks = [*texts["tokens"], *texts["claims"]]
        return parts.seat(
            player["name"],
            [texts["coins"], texts["influence"], texts["revealed"], *marks],
            state=texts["state"],
            tone=texts["tone"],
            icons=[[COIN], [], texts["revealed_pieces"], *([] for _ in marks)],
        )

    def panel_texts(
        self, view: dict[str, Any], player: dict[str, Any], t: Messages
    ) -> dict[str, Any]:
        """What a seat's panel says: its turn (or the answer the table waits
        for, or its win) and that colour's tone, its coins and influence,
        the characters it has turned up (and their pieces, whose icons the
        panel draws), the variant's tokens and its latest claims with what
        became of them."""
        seat = player["seat"]
        if seat == view["winner"]:
            state, tone = t("ui.seat.winner"), "winner"
        elif seat == view["current"]:
            state, tone = t("ui.seat.turn"), "turn"
        elif seat in view["waiting_for"]:
            state, tone = t("ui.seat.waiting"), "waiting"
        else:
            state, tone = "", "out" if player["out"] else ""
        return {
            "state": state,
            "tone": tone,
            "coins": t("ui.coins", count=player["coins"]),
            "influence": (
                t("ui.out")
                if player["out"]
                else "● " * player["influence"] + t("ui.influence", count=player["influence"])
            ),
            "revealed": "  ".join(t(f"character.{c}") for c in player["revealed"]),
            "revealed_pieces": list(player["revealed"]),
            "tokens": self.seat_marks(view, seat, t),
            "claims": [
                t(
                    f"ui.claim.{c['result']}",
                    character=t(f"ui.claim_kind.{c['kind']}", character=c["character"]),
                )
                for c in player["claims"][-RECENT_CLAIMS:]
            ],
        }

    def board_parts(self, view: dict[str, Any], t: Messages) -> list[Part | None]:
        """The response countdown, while a claim waits for a challenge."""
        timer = view.get("timer")
        if not timer or timer.get("kind") != "response":
            return []
        return [parts.lines("countdown", "", [countdown_text(timer, t)])]

    def secret_lines(self, private: dict[str, Any], t: Messages) -> list[str]:
        if "hand" not in private:
            return []
        return [
            t("phone.hand_numbered", cards=_numbered(private, t))
            if private["hand"]
            else t("phone.hand_empty")
        ]

    def phone_label(
        self, command: dict[str, Any], view: dict[str, Any], t: Messages, private: dict[str, Any]
    ) -> str:
        kind = command["type"]
        if kind == "vote":
            return super().phone_label(command, view, t, private)
        if "hand" in private and (
            kind in ("lose", "keep")
            or (kind == "react" and "card" in command)
            or (kind == "choose" and view["pending"]["choice"]["cards"])
        ):
            return _by_number(command, t, private)
        return command_label(command, view, t)

    def phone_actions(
        self,
        commands: list[dict[str, Any]],
        view: dict[str, Any],
        t: Messages,
        private: dict[str, Any],
    ) -> list[dict[str, Any]]:
        """A challenged player's phone always offers both "show" and
        "concede", holding the card or not: a missing button would tell a
        glancing neighbour the claim was a bluff (showing a card one lacks
        is refused on the phone itself)."""
        types = {c["type"] for c in commands}
        if "concede" in types and "show" not in types:
            seat = next(c["seat"] for c in commands if c["type"] == "concede")
            commands = [{"type": "show", "seat": seat, "redraw": True}, *commands]
        return super().phone_actions(commands, view, t, private)

    def game_chart(self, views: list[dict[str, Any]], names: list[str], t: Messages) -> Chart:
        """Each player's coins, turn by turn."""
        steps = last_per(views, "turn")
        series = [
            (names[seat], [v["players"][seat]["coins"] for v in steps])
            for seat in range(len(names))
        ]
        return Chart(t("chart.coins"), t("chart.turns"), series, t.number)


def countdown_text(timer: dict[str, Any], t: Messages) -> str:
    """How long an unchallenged claim has left, in whole seconds rounded up."""
    return t("ui.countdown", count=math.ceil(timer["remaining"]))


def _cards(private: dict[str, Any]) -> list[str]:
    """The cards a seat holds, then those it has drawn, in the order the
    phone numbers them."""
    return list(private.get("hand", [])) + list(private.get("drawn", []))


def _numbered(private: dict[str, Any], t: Messages) -> str:
    return t.join(
        t("phone.card_numbered", number=n, character=card)
        for n, card in enumerate(_cards(private), 1)
    )


def _number_of(private: dict[str, Any], card: str, taken: Sequence[int] = ()) -> int:
    cards = _cards(private)
    return next(n for n, c in enumerate(cards, 1) if c == card and n not in taken)


def _by_number(command: dict[str, Any], t: Messages, private: dict[str, Any]) -> str:
    """A choice among the seat's own cards, named by their numbers on the
    phone (its secrets show which is which), so a glance at the buttons
    shows no card."""
    kind = command["type"]
    if kind == "lose":
        return t("phone.lose", number=_number_of(private, command["card"]))
    if kind == "choose":  # a card of the hand, handed over
        return t("phone.hand_over", number=_number_of(private, command["option"]))
    if kind == "react":
        return t(
            "phone.react",
            character=command["character"],
            number=_number_of(private, command["card"]),
        )
    numbers: list[int] = []
    for card in command["cards"]:
        numbers.append(_number_of(private, card, numbers))
    kept = t.join(t.number(n) for n in sorted(numbers))
    if "give" in command:
        return t(
            "phone.keep_give", numbers=kept, number=_number_of(private, command["give"], numbers)
        )
    return t("phone.keep", numbers=kept)
