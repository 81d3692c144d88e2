"""What Secret Hitler says, as plain data, on the kiosk and the phones
alike: the status line, each seat's marks, the labels of the commands, the
ballot's words, a seat's secrets and its tiles on its phone, and the chart
of the policy tracks. No Kivy and no rules here: the engine's public view
says what is so, this module only words it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import Messages
from .. import board as parts
from ..board import Part, Seat
from ..words import (
    CHOOSE,
    TURN,
    Chart,
    LastBallot,
    Words,
    ballot_lines,
    last_per,
    seat_names,
    waiting_line,
)
from .icons import VETO
from .night import night_lines
from .rules import (
    FASCIST,
    FASCIST_WIN,
    HITLER_ZONE,
    LIBERAL,
    LIBERAL_WIN,
    POLICIES,
    ROLE_COUNTS,
    VETO_FROM,
)

# Commands the screen offers in two taps: the action, then a seat. Targeted
# commands pick their target; a vote or a night confirmation picks the seat
# that gives it.
PICK_FIELD = {
    "nominate": "target",
    "investigate": "target",
    "special_election": "target",
    "execute": "target",
    "vote": "seat",
    "confirm": "seat",
}


def pick_key(command: dict[str, Any]) -> tuple[Any, ...] | None:
    """The action a two-tap command belongs to (the command without the seat
    to be picked), or None for a one-tap command."""
    field = PICK_FIELD.get(command["type"])
    if field is None:
        return None
    return tuple(sorted((k, v) for k, v in command.items() if k != field))


def picked_seat(command: dict[str, Any]) -> int:
    return command[PICK_FIELD[command["type"]]]


def status_line(view: dict[str, Any], t: Messages) -> str:
    """One sentence saying what the table is waiting for."""
    phase = view["phase"]
    if phase == "over":
        return t(f"sh.ui.status.over.{view['winner']}.{view['reason']}")
    if phase == "night":
        return t("sh.ui.status.night", count=len(view["waiting_for"]))
    if phase == "election":
        ballot = view["ballot"]
        return t("sh.ui.status.election", count=len(ballot["voted"]), total=len(ballot["eligible"]))
    if phase == "chaos":
        return t(f"sh.ui.status.chaos.{view['mode']}")
    if phase == "peek":
        return t(f"sh.ui.status.peek.{view['mode']}", player=view["president"])
    waiting = view["waiting_for"]
    return t(
        f"sh.ui.status.{phase}",
        player=_first(view["president"], view["candidate"]),
        target=_first(view["chancellor"], view["nominee"]),
        seat=waiting[0] if waiting else None,
    )


def _first(*seats: int | None) -> int | None:
    return next((seat for seat in seats if seat is not None), None)


def info_line(view: dict[str, Any], t: Messages) -> str:
    """The facts for the top bar (a narrow one has room for little)."""
    return t("sh.ui.round", count=view["round"])


def office_of(view: dict[str, Any], seat: int, t: Messages) -> str:
    for office in ("president", "chancellor", "candidate", "nominee"):
        if view[office] == seat:
            return t(f"sh.ui.office.{office}")
    return ""


def seat_office(view: dict[str, Any], player: dict[str, Any], t: Messages) -> str:
    """The office a seat holds or is named for, in words (none at night,
    before play has begun, and none for the executed)."""
    if not player["alive"] or view["phase"] == "night":
        return ""
    return office_of(view, player["seat"], t)


def seat_marks(
    view: dict[str, Any], player: dict[str, Any], t: Messages, office: bool = True
) -> list[str]:
    """What the table knows of one seat, in words: office (unless
    ``office`` is false, for a panel that shows it beside the name),
    executed, term limits (which matter when the next government is
    nominated, so not said of the one in office), known not Hitler,
    investigations, and at night whether they have seen their role."""
    seat = player["seat"]
    if not player["alive"]:
        return [t("sh.ui.mark.executed")]
    if view["phase"] == "night":  # play has not begun: no office yet
        return [t("sh.ui.mark.confirmed" if player["confirmed"] else "sh.ui.mark.unconfirmed")]
    held = seat_office(view, player, t)
    marks = [held if office else ""]
    if player["term_limited"] and not held:  # the sitting government's limit goes unsaid
        marks.append(t("sh.ui.mark.term_limited"))
    if player["not_hitler"]:
        marks.append(t("sh.ui.mark.not_hitler"))
    marks += [
        t("sh.ui.mark.investigated", player=i["by"])
        for i in view["investigations"]
        if i["target"] == seat
    ]
    return [m for m in marks if m]


def seat_details(
    view: dict[str, Any], player: dict[str, Any], t: Messages, office: bool = True
) -> str:
    """A seat's marks in one text (with its office unless ``office`` is false)."""
    return "  ·  ".join(seat_marks(view, player, t, office))


def role_word(player: dict[str, Any], t: Messages) -> str:
    """A role is in the view only once the game is over (keeper mode)."""
    return t(f"sh.ui.role.{player['role']}") if player["role"] else ""


def command_label(command: dict[str, Any], t: Messages) -> str:
    """A one-tap command's button."""
    kind = command["type"]
    if kind in ("enact", "chaos"):
        return t(f"policy.{command['policy']}")
    if kind == "reveal":
        return t(
            f"sh.ui.cmd.reveal.{'hitler' if command['hitler'] else 'not_hitler'}",
            player=command["seat"],
        )
    if kind == "veto_response":
        return t(
            f"sh.ui.cmd.veto_{'agree' if command['agree'] else 'refuse'}", player=command["seat"]
        )
    return t(f"sh.ui.cmd.{kind}", player=command.get("seat"))


def pick_label(command: dict[str, Any], t: Messages) -> str:
    """The first tap of a two-tap command."""
    if command["type"] == "vote":
        return t("sh.ui.pick.vote", choice=t(f"choice.{command['choice']}"))
    return t(f"sh.ui.pick.{command['type']}", player=command.get("seat"))


def pick_prompt(command: dict[str, Any], t: Messages) -> str:
    """What the second tap chooses, said while the table picks."""
    if command["type"] == "vote":
        return t("sh.ui.prompt.vote", choice=t(f"choice.{command['choice']}"))
    return t(f"sh.ui.prompt.{command['type']}", player=command.get("seat"))


def ballot_title(president: int | None, chancellor: int | None, t: Messages) -> str:
    return t("sh.ui.ballot.title", player=president, target=chancellor)


def election_result(election: dict[str, Any], t: Messages) -> str:
    """The outcome of an election as the engine published it."""
    if election["elected"]:
        return t("sh.ui.ballot.elected")
    if election["chaos"]:
        return t("sh.ui.ballot.chaos")
    return t("sh.ui.ballot.failed", count=election["tracker"])


def power_word(power: str | None, t: Messages) -> str:
    return t(f"sh.ui.power.{power}") if power else ""


def liberal_track(view: dict[str, Any], t: Messages) -> dict[str, Any]:
    """The liberal track as on its board: its count, the election tracker
    beside it, each slot filled or not (the last one wins; a filled one
    shows the tile), and the piles."""
    words = [""] * (LIBERAL_WIN - 1) + [t("sh.ui.power.liberal_win")]
    return {
        "title": t("sh.ui.track.liberal", count=view["liberal"], total=LIBERAL_WIN),
        "state": t("sh.ui.tracker", count=view["tracker"]),
        "cells": [
            {
                "text": word,
                "filled": n <= view["liberal"],
                "danger": False,
                "piece": LIBERAL if n <= view["liberal"] else "",
            }
            for n, word in enumerate(words, 1)
        ],
        "piles": t("sh.ui.piles", draw=view["draw"], discard=view["discard"]),
    }


def fascist_track(view: dict[str, Any], t: Messages) -> dict[str, Any]:
    """The fascist track for this table's size: each slot's power (the veto
    where it unlocks), filled or not, those past the danger zone marked, and
    whether Hitler's election now wins. A filled slot shows the tile, an
    empty one its power's icon (the veto's where it unlocks)."""
    words = [power_word(p, t) for p in view["powers"]] + [t("sh.ui.power.fascist_win")]
    words[VETO_FROM - 1] = veto_word(view, words[VETO_FROM - 1], t)
    powers = [p or "" for p in view["powers"]] + [""]
    powers[VETO_FROM - 1] = VETO
    return {
        "title": t("sh.ui.track.fascist", count=view["fascist"], total=FASCIST_WIN),
        "state": t("sh.ui.hitler_zone") if view["hitler_zone"] else "",
        "cells": [
            {
                "text": word,
                "filled": n <= view["fascist"],
                "danger": n > HITLER_ZONE,
                "piece": FASCIST if n <= view["fascist"] else power,
            }
            for n, (word, power) in enumerate(zip(words, powers, strict=True), 1)
        ],
    }


def veto_word(view: dict[str, Any], power: str, t: Messages) -> str:
    """The veto's slot: what it will unlock, then the veto's state."""
    for state in ("requested", "refused", "unlocked"):
        if view[f"veto_{state}"]:
            return t(f"sh.ui.veto.{state}")
    return t("sh.ui.power.with_veto", power=power)


def offices(view: dict[str, Any]) -> set[int]:
    """The seats in office or nominated for it (none at night)."""
    if view["phase"] == "night":
        return set()
    return {view[o] for o in ("president", "chancellor", "candidate", "nominee")} - {None}


def shown_waiting(view: dict[str, Any]) -> set[int]:
    """The seats the table waits for, as a seat's colour shows it: not the
    voters of an election (the ballot shows who has voted)."""
    return set() if view["phase"] == "election" else set(view["waiting_for"])


class SecretHitlerWords(Words):
    # The candidate's nomination; then the president's and the chancellor's
    # tiles (or, with the real tiles, the chancellor's), the veto, the
    # president's power, and the shot or elected seat's answer: Hitler?
    cue_phases = {"nominate": TURN} | {
        phase: CHOOSE
        for phase in (
            "president_discard",
            "chancellor_enact",
            "legislative",
            "veto",
            "hitler_reveal",
            "execution_reveal",
            "investigate",
            "special_election",
            "peek",
            "execute",
        )
    }

    def outcome(self, result: dict[str, Any], names: Sequence[str], t: Messages) -> str:
        """A team wins, not a seat."""
        return t("sh.outcome.liberal") if result["winner"] == LIBERAL else t("sh.outcome.fascist")

    def spoken_lines(self, t: Messages) -> list[str]:
        """The ballot's cues, and the night's script in both versions (the
        physical-mode night is read aloud; docs/games/secret_hitler.md)."""
        return super().spoken_lines(t) + night_lines(t)

    def status_line(self, view: dict[str, Any], t: Messages) -> str:
        return status_line(view, t)

    def command_label(self, command: dict[str, Any], view: dict[str, Any], t: Messages) -> str:
        return command_label(command, t)

    def bar_items(self, view: dict[str, Any], t: Messages) -> list[str]:
        return [info_line(view, t)]

    def board_seats(self, view: dict[str, Any], t: Messages) -> list[Seat]:
        """Each seat with its marks (office, limits, what powers showed) and,
        once the game is over, its role."""
        office, waiting = offices(view), shown_waiting(view)
        return [
            parts.seat(
                p["name"],
                [seat_details(view, p, t), role_word(p, t)],
                state=t("ui.seat.waiting") if p["alive"] and p["seat"] in waiting else "",
                tone=(
                    "out"
                    if not p["alive"]
                    else "waiting"
                    if p["seat"] in waiting
                    else "office"
                    if p["seat"] in office
                    else ""
                ),
            )
            for p in view["players"]
        ]

    def board_parts(self, view: dict[str, Any], t: Messages) -> list[Part | None]:
        """Both tracks as on the boards, and the piles."""
        liberal, fascist = liberal_track(view, t), fascist_track(view, t)
        return [
            parts.part(
                "liberal",
                liberal["title"],
                [
                    parts.item(c["text"], on=c["filled"], tone="cool", icon=c["piece"])
                    for c in liberal["cells"]
                ],
                kind="track",
                note=liberal["state"],
            ),
            parts.part(
                "fascist",
                fascist["title"],
                [
                    parts.item(c["text"], on=c["filled"], tone=_slot_tone(c), icon=c["piece"])
                    for c in fascist["cells"]
                ],
                kind="track",
                note=fascist["state"],
            ),
            parts.lines("piles", "", [liberal["piles"]]),
        ]

    def ballot_title(self, view: dict[str, Any], t: Messages) -> str:
        return ballot_title(view["candidate"], view["nominee"], t)

    def last_ballot(self, view: dict[str, Any], t: Messages) -> LastBallot | None:
        """The last election's votes face up, until the next ballot opens."""
        election = view["last_election"]
        if election is None:
            return None
        return LastBallot(
            ballot_title(election["president"], election["chancellor"], t),
            ("ja", "nein"),
            [(seat, vote) for seat, vote in enumerate(election["votes"]) if vote is not None],
            election_result(election, t),
        )

    def explain(self, view: dict[str, Any], t: Messages) -> list[str]:
        """Each step of a round, whose it is and what it may lead to; where
        the tiles are real (physical) or on the phones (keeper), said so."""
        phase = view["phase"]
        if phase in _EXPLAINED:
            return [
                t(
                    f"explain.sh.{phase}",
                    player=view["president"],
                    target=view["chancellor"],
                    seat=view["waiting_for"][0] if view["waiting_for"] else None,
                )
            ]
        if phase in _BY_MODE:
            lines = [t(f"explain.sh.{phase}.{view['mode']}", player=view["president"])]
            if phase == "chaos":
                lines.append(t("explain.sh.chaos"))
            return lines
        explainer = {
            "night": self._explain_night,
            "nominate": self._explain_nominate,
            "election": self._explain_election,
            "legislative": self._explain_session,
            "chancellor_enact": self._explain_session,
        }.get(phase)
        return super().explain(view, t) if explainer is None else explainer(view, t)

    @staticmethod
    def _explain_night(view: dict[str, Any], t: Messages) -> list[str]:
        return [t("explain.sh.night"), *waiting_line(view["waiting_for"], t)]

    @staticmethod
    def _explain_nominate(view: dict[str, Any], t: Messages) -> list[str]:
        lines = [t("explain.sh.nominate", player=view["candidate"])]
        limited = [p["seat"] for p in view["players"] if p["term_limited"]]
        if limited:
            lines.append(t("explain.sh.term_limited", players=seat_names(limited, t)))
        if view["hitler_zone"]:
            lines.append(t("explain.sh.hitler_zone"))
        return lines

    @staticmethod
    def _explain_election(view: dict[str, Any], t: Messages) -> list[str]:
        return [
            t("explain.sh.election", player=view["candidate"], target=view["nominee"]),
            t("explain.sh.tracker", count=view["tracker"]),
            *ballot_lines(view, t),
        ]

    @staticmethod
    def _explain_session(view: dict[str, Any], t: Messages) -> list[str]:
        """The chancellor's part of the session (with the real tiles, the
        whole session), and the veto when it is open to them."""
        args = {"player": view["president"], "target": view["chancellor"]}
        lines = [t(f"explain.sh.{view['phase']}", **args)]
        if view["veto_unlocked"] and not view["veto_refused"]:
            lines.append(t("explain.sh.veto_open", **args))
        elif view["veto_refused"]:
            lines.append(t("explain.sh.veto_refused", **args))
        return lines

    def quick_reference(self, view: dict[str, Any], t: Messages) -> list[tuple[str, str]]:
        """The parties and the fascist track for this player count, the
        powers on it, then elections, the session, the tracker, the veto
        and how each side wins."""
        players = len(view["players"])
        liberals, fascists = ROLE_COUNTS[players]
        slots = [
            t("reference.sh.slot", number=slot, power=_slot_power(power, slot, t))
            for slot, power in enumerate(view["powers"], 1)
        ] + [t("reference.sh.slot", number=FASCIST_WIN, power=t("sh.ui.power.fascist_win"))]
        powers = dict.fromkeys(p for p in view["powers"] if p)
        return [
            (
                t("reference.sh.parties_title"),
                t("reference.sh.parties", liberals=liberals, count=fascists),
            ),
            (t("reference.sh.track_title", count=players), t.join(slots)),
            *((power_word(p, t), t(f"reference.sh.power.{p}")) for p in powers),
            *(
                (t(f"reference.sh.{part}_title"), t(f"reference.sh.{part}"))
                for part in ("election", "session", "tracker", "veto", "winning")
            ),
        ]

    def secret_lines(self, private: dict[str, Any], t: Messages) -> list[str]:
        lines: list[str] = []
        if "role" in private:
            lines.append(t(f"phone.role.{private['role']}"))
            for mate in private.get("teammates", []):
                lines.append(t(f"phone.teammate.{mate['role']}", player=mate["seat"]))
        if "hand" in private:
            # Unnumbered: the buttons name the policy, not a tile's place.
            lines.append(t("phone.tiles", tiles=_policies(private["hand"], t)))
        if "peek" in private:
            lines.append(t("phone.peek", tiles=_policies(private["peek"], t)))
        for known in private.get("knowledge", []):  # what your powers showed you
            if "party" in known:
                lines.append(t(f"phone.investigated.{known['party']}", player=known["target"]))
            elif "tiles" in known:
                lines.append(t("phone.peeked", tiles=_policies(known["tiles"], t)))
        return lines

    def phone_actions(
        self,
        commands: list[dict[str, Any]],
        view: dict[str, Any],
        t: Messages,
        private: dict[str, Any],
    ) -> list[dict[str, Any]]:
        """A tile to discard or enact is chosen by its policy, named on its
        button ("Discard a Fascist policy"), so the office holder, who has
        seen the hand once behind hold-to-reveal, need not hold it again
        to know which button is which. Both policies are offered whatever
        the hand, in the same order, as a ballot offers every choice: the
        buttons show no tile at a glance, and a policy not in the hand is
        refused on this phone only."""
        tiles = {c["type"] for c in commands} & {"discard", "enact"}
        if not tiles or "hand" not in private:
            return super().phone_actions(commands, view, t, private)
        kind, seat = tiles.pop(), commands[0]["seat"]
        others = [c for c in commands if c["type"] != kind]
        return [
            {
                "command": {"type": kind, "seat": seat, "policy": policy},
                "label": t(f"phone.{kind}_policy", policy=policy),
            }
            for policy in POLICIES
        ] + super().phone_actions(others, view, t, private)

    def game_chart(self, views: list[dict[str, Any]], names: list[str], t: Messages) -> Chart:
        """The two policy tracks, round by round."""
        steps = last_per(views, "round")
        return Chart(
            t("chart.policies"),
            t("chart.rounds"),
            [
                (t("chart.liberal"), [v["liberal"] for v in steps]),
                (t("chart.fascist"), [v["fascist"] for v in steps]),
            ],
            t.number,
        )


def _slot_tone(cell: dict[str, Any]) -> str:
    return "danger" if cell["danger"] else "warm"


# Phases said in one sentence of who does what (the president, the
# chancellor, the seat the table waits for), and those whose words depend on
# whether the tiles are real or on the phones.
_EXPLAINED = frozenset(
    (
        "hitler_reveal",
        "president_discard",
        "veto",
        "special_election",
        "execute",
        "execution_reveal",
    )
)
_BY_MODE = frozenset(("chaos", "peek", "investigate"))


def _slot_power(power: str | None, slot: int, t: Messages) -> str:
    """A slot of the fascist track: its power, with the veto from the 5th."""
    word = power_word(power, t) if power else t("reference.sh.no_power")
    return t("sh.ui.power.with_veto", power=word) if slot == VETO_FROM else word


def _policies(tiles: list[str], t: Messages) -> str:
    return t.join(t(f"policy.{tile}") for tile in tiles)


WORDS = SecretHitlerWords()
