"""What Article 27 says, as plain data, on the kiosk and the phones alike:
the status line, the facts in the bar, the countdown, the track, the
bribes, the vote's outcome, the final scores, the menu of commands the kiosk
offers, a seat's agenda and bribes on its phone with its bribe form, and the
chart of agenda points. No Kivy here and no rules: the engine says what is
legal, this module words it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...i18n import Messages
from .. import board as parts
from .. import forms
from ..board import Part, Seat
from ..forms import Form
from ..words import CHOOSE, TURN, Chart, LastBallot, Words, ballot_lines, last_per, waiting_line
from .palette import DISK_DOWN_SIGN, DISK_LEFT_SIGN, DISK_UP_SIGN
from .rules import AGENDAS, OTHER, PASSED, TIMER_SECONDS, TRACK_SLOTS, VETOED, VOTES, YES_NEEDED

WARNING_SECONDS = 30  # the countdown's last stretch: a warning colour and a tick
# The most characters a phone's bribe "for something else" says (the engine
# takes more; a phone's command is padded to a length that holds these).
OFFER_TEXT = 80

# Commands the board itself offers: the gavel, the pause button, the issues
# (a tap moves one), and the panels for the agendas put aside and the final
# tally. Every other command is an action in the command strip.
BOARD_COMMANDS = frozenset(("gavel", "pause", "resume", "move", "unused", "final_tally"))


@dataclass(frozen=True)
class Action:
    """A button in the command strip. Without a ``prompt`` a tap sends its
    one command; with one, a tap asks for the target (a player, an agenda, a
    score) and a second tap sends that choice, even when only one is left."""

    label: str
    prompt: str
    choices: tuple[tuple[str, dict[str, Any]], ...]
    scores: bool = False  # the choices are scores: keys of a keypad


def info_line(view: dict[str, Any], t: Messages) -> str:
    """The bar's facts: the round and the rounds left, if any ("Round 4 of
    4" says the rest, where the bar has least room: at the game's end)."""
    if not view["round"]:
        return ""
    line = t("a27.ui.round", round=view["round"], rounds=view["rounds"])
    left = view["rounds"] - view["round"]
    return f"{line} {t('a27.ui.rounds_left', count=left)}" if left else line


def sg_line(view: dict[str, Any], t: Messages) -> str:
    """Who holds the gavel now, and who takes it next."""
    if view["sg"] is None or view["phase"] == "over":
        return ""
    return t("a27.ui.sg", player=view["sg"], next=t.names[view["next_sg"]])


def status_line(view: dict[str, Any], t: Messages) -> str:
    """One sentence saying what the table is waiting for."""
    phase, sg = view["phase"], view["sg"]
    waiting = view["waiting_for"]
    if phase == "unused":
        return t("a27.ui.status.unused", count=len(AGENDAS) - len(view["players"]))
    if phase == "reveal":
        issue = next(i["issue"] for i in view["issues"] if i["agenda"] is None)
        return t("a27.ui.status.reveal", issue=issue)
    if phase == "negotiation":
        if view["timer"] and view["timer"]["paused"]:
            return t("a27.ui.status.paused")
        key = "negotiation_vote" if view["floor"] else "negotiation"
        return t(f"a27.ui.status.{key}", player=sg)
    if phase == "challenge":
        latest = view["announcements"][-1]
        return t("a27.ui.status.challenge", player=latest["seat"], score=latest["score"])
    if phase == "scored":
        return t("a27.ui.status.scored", player=view["next_sg"], round=view["round"] + 1)
    if phase in ("final", "announce"):
        return t(f"a27.ui.status.{phase}", player=waiting[0])
    if phase == "over":
        return winners_line(view, t)
    return t(f"a27.ui.status.{phase}", player=sg)


def winners_line(view: dict[str, Any], t: Messages) -> str:
    winners = [r["seat"] for r in view["results"] if r["rank"] == 1]
    if len(winners) == 1:
        return t("a27.ui.status.winner", player=winners[0])
    return t("a27.ui.status.shared", players=t.join(t.names[s] for s in winners))


def clock_text(remaining: float, t: Messages) -> str:
    """Whole seconds left, rounded up (the timer reads 0:00 only when it is up)."""
    seconds = math.ceil(remaining)
    return t("a27.ui.clock", minutes=seconds // 60, seconds=f"{seconds % 60:02d}")


def in_warning(timer: dict[str, Any] | None) -> bool:
    """The last 30 seconds of a negotiation under way (running or paused)."""
    return (
        timer is not None
        and timer["remaining"] < timer["duration"]
        and 0 < timer["remaining"] <= WARNING_SECONDS
    )


def timer_caption(timer: dict[str, Any], t: Messages) -> str:
    if timer["paused"]:
        return t("a27.ui.timer.paused")
    if not timer["running"]:
        return t("a27.ui.timer.ready")
    if in_warning(timer):
        return t("a27.ui.timer.warning", count=WARNING_SECONDS)
    return t("a27.ui.timer.running")


def track_rows(view: dict[str, Any], t: Messages) -> list[dict[str, Any]]:
    """Each agenda's row: its name (and its piece, for the icon), its disks
    (face up, face down, slots still open) and its value now and at best."""
    rows = []
    for row in view["track"]:
        rows.append(
            {
                "agenda": t(f"agenda.{row['agenda']}"),
                "piece": row["agenda"],
                "in_play": row["in_play"],
                "up": row["up"],
                "down": row["down"],
                "value": (
                    t("a27.ui.track_value", value=row["value"], best=row["best"])
                    if row["in_play"]
                    else t("a27.ui.put_away")
                ),
            }
        )
    return rows


def disks_left(row: dict[str, Any]) -> int:
    """The track's open slots of an agenda in play (none once put away)."""
    return TRACK_SLOTS - row["up"] - row["down"] if row["in_play"] else 0


def track_legend(t: Messages) -> str:
    """What the track's disks mean, its items parted by two spaces."""
    return t("a27.ui.track_legend", up=DISK_UP_SIGN, down=DISK_DOWN_SIGN, left=DISK_LEFT_SIGN)


def floor_title(view: dict[str, Any], t: Messages) -> str:
    return t("a27.ui.floor_privilege" if view["privilege"] else "a27.ui.floor")


def issue_agenda(issue: dict[str, Any], t: Messages) -> str:
    """The agenda an issue's disk shows, once revealed."""
    if issue["agenda"] is None:
        return t("a27.ui.not_revealed")
    return t(f"agenda.{issue['agenda']}")


def bribe_condition(bribe: dict[str, Any], t: Messages) -> str:
    """What a bribe is paid for, with its terms: the issue it moves, or the
    players' own words for "something else"."""
    kind = bribe["kind"]
    if kind in ("include", "exclude"):
        return t(f"a27.ui.bribe_kind.{kind}", issue=bribe["issue"])
    if kind == "other":
        return t("a27.ui.bribe_kind.other", text=bribe["text"] or "")
    return t(f"phone.bribe_kind.{kind}")


def bribe_lines(view: dict[str, Any], t: Messages) -> list[str]:
    lines = []
    for b in view["bribes"]:
        condition = bribe_condition(b, t)
        state = "conflicted" if b["conflicted"] and b["status"] == "accepted" else b["status"]
        lines.append(
            t(
                "a27.ui.bribe",
                number=b["number"],
                player=b["from"],
                target=b["to"],
                amount=b["amount"],
                condition=condition,
                state=t(f"a27.ui.bribe_state.{state}"),
            )
        )
    return lines


def outcome_line(view: dict[str, Any], t: Messages) -> str:
    """The vote's result in words, with the count that decided it."""
    votes, outcome = view["votes"], view["outcome"]
    if outcome == VETOED:
        return t("a27.ui.outcome.vetoed", players=t.join(t.names[s] for s in view["vetoers"]))
    yes = votes.count("yes")
    if outcome == PASSED:
        return t("a27.ui.outcome.passed", yes=yes, count=yes)
    return t("a27.ui.outcome.failed", count=yes, needed=YES_NEEDED[len(votes)])


def vote_words(choice: str, t: Messages) -> str:
    return t(f"choice.{choice}")


def result_lines(view: dict[str, Any], t: Messages) -> list[str]:
    """The final ranking: rank, name, total and how it is made up, and the
    tie-break that placed a player, if one did."""
    lines = []
    for r in view["results"]:
        line = t(
            "a27.ui.result",
            rank=r["rank"],
            player=r["seat"],
            total=r["total"],
            influence=r["influence"],
            points=r["points"],
            agenda=r["agenda"],
        )
        if r.get("tie_break"):
            line += " " + t(f"a27.ui.tie_break.{r['tie_break']}")
        lines.append(line)
    return lines


def actions(commands: list[dict[str, Any]], view: dict[str, Any], t: Messages) -> list[Action]:
    """The command strip: every command the kiosk may give that the board
    does not offer itself, as actions of at most two taps."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for command in commands:
        if command["type"] not in BOARD_COMMANDS:
            by_type.setdefault(command["type"], []).append(command)
    out = []
    if "reveal_disk" in by_type:
        issue = by_type["reveal_disk"][0]["issue"]
        out.append(
            Action(
                t("a27.ui.reveal_action", issue=issue),
                t("a27.ui.reveal_prompt", issue=issue),
                tuple((t(f"agenda.{c['agenda']}"), c) for c in by_type["reveal_disk"]),
            )
        )
    if "next_round" in by_type:
        command = by_type["next_round"][0]
        out.append(
            Action(
                t("a27.ui.next_round", player=command["seat"], round=view["round"] + 1),
                "",
                ((command["type"], command),),
            )
        )
    for choice in VOTES:
        chosen = [c for c in by_type.get("vote", ()) if c["choice"] == choice]
        if chosen:
            words = vote_words(choice, t)
            out.append(
                Action(
                    t("a27.ui.vote_action", choice=words),
                    t("a27.ui.vote_prompt", choice=words),
                    tuple((t.names[c["seat"]], c) for c in chosen),
                )
            )
    if "announce" in by_type:
        seat = by_type["announce"][0]["seat"]
        out.append(
            Action(
                t("a27.ui.announce_action", player=seat),
                t("a27.ui.announce_prompt", player=seat),
                tuple((t("a27.ui.score", score=c["score"]), c) for c in by_type["announce"]),
                scores=True,
            )
        )
    if "pass" in by_type:
        out.append(
            Action(
                t("a27.ui.pass_action"),
                t("a27.ui.pass_prompt"),
                tuple((t.names[c["seat"]], c) for c in by_type["pass"]),
            )
        )
    if "proceed" in by_type:
        command = by_type["proceed"][0]
        out.append(Action(t("a27.ui.proceed"), "", ((command["type"], command),)))
    return out


class Article27Words(Words):
    # The Secretary-General's gavel and negotiation; then what a seat must
    # settle: the one issue when time is up, a deal "for something else"
    # after the vote, its score, its final count.
    cue_phases = {"ready": TURN, "negotiation": TURN, "scored": TURN} | {
        phase: CHOOSE for phase in ("place_one", "settle_other", "announce", "final")
    }

    def spoken_lines(self, t: Messages) -> list[str]:
        return super().spoken_lines(t) + [
            t("speech.a27.gavel.start"),
            t("speech.a27.gavel.vote"),
            t("speech.a27.one_minute"),
            t("speech.a27.seconds_left", count=WARNING_SECONDS),
            t("speech.a27.time_up"),
        ]

    def status_line(self, view: dict[str, Any], t: Messages) -> str:
        return status_line(view, t)

    def explain(self, view: dict[str, Any], t: Messages) -> list[str]:
        """Each step of a round, who acts and what follows; where the
        influence, slots and bribes are real (physical) or on the phones
        (keeper), said so."""
        explainer = _EXPLAINERS.get(view["phase"])
        return super().explain(view, t) if explainer is None else explainer(view, t)

    def quick_reference(self, view: dict[str, Any], t: Messages) -> list[tuple[str, str]]:
        """A round, bribes, the vote and scoring, for this player count and
        timer; the "Lie, Cheat and Steal" check when the table plays it."""
        timer = view["timer"]
        seconds = timer["duration"] if timer else TIMER_SECONDS
        parts = [
            ("round", {"minutes": seconds // 60}),
            ("bribes", {}),
            ("voting", {"needed": YES_NEEDED[len(view["players"])]}),
            ("scoring", {}),
            ("end", {}),
        ]
        if view["variants"]["lie_cheat_steal"]:
            parts.append(("lie_cheat_steal", {}))
        return [
            (t(f"reference.a27.{part}_title"), t(f"reference.a27.{part}", **args))
            for part, args in parts
        ]

    def outcome(self, result: dict[str, Any], names: Sequence[str], t: Messages) -> str:
        """The best total wins: every seat ranked first."""
        best = [names[r["seat"]] for r in result["ranking"] if r["rank"] == 1]
        return t("home.outcome.winners", winners=t.join(best))

    def variant_value(self, option: str, value: Any, t: Messages) -> str:
        if option == "timer_seconds":
            return t("home.value.minutes", count=value // 60)
        return super().variant_value(option, value, t)

    def bar_items(self, view: dict[str, Any], t: Messages) -> list[str]:
        return [line for line in (info_line(view, t),) if line]

    def board_seats(self, view: dict[str, Any], t: Messages) -> list[Seat]:
        """The players by name: the gavel's line says who holds it, the
        ballot who has voted."""
        return [parts.seat(p["name"], []) for p in view["players"]]

    def board_parts(self, view: dict[str, Any], t: Messages) -> list[Part | None]:
        """The gavel, the clock, the issues on the floor and on the table,
        the agenda track, the bribes on the board and the final scores."""
        timer = view.get("timer")
        issues = {i["issue"]: i for i in view["issues"]}
        on_table = [i for i in view["issues"] if i["place"] != "floor"]
        over = view["phase"] == "over"
        return [
            parts.lines("gavel", "", [sg_line(view, t)]),
            (
                parts.lines(
                    "clock", "", [clock_text(timer["remaining"], t), timer_caption(timer, t)]
                )
                if timer
                else None
            ),
            *(
                ()
                if view["phase"] in ("final", "over")
                else (
                    self._issues(
                        "floor", floor_title(view, t), [issues[i] for i in view["floor"]], t
                    ),
                    self._issues("table", t("a27.ui.table"), on_table, t),
                )
            ),
            parts.part(
                "track",
                t("a27.ui.track"),
                [
                    parts.item(
                        row["agenda"],
                        detail=" ".join(
                            (
                                row["value"],
                                DISK_UP_SIGN * row["up"]
                                + DISK_DOWN_SIGN * row["down"]
                                + DISK_LEFT_SIGN * disks_left(row),
                            )
                        ).strip(),
                        on=row["in_play"],
                        icon=row["piece"],
                    )
                    for row in track_rows(view, t)
                ],
                note=f"{t('a27.ui.track_head')} · {track_legend(t)}",
            ),
            parts.lines("bribes", t("a27.ui.bribes"), bribe_lines(view, t))
            if view["bribes"]
            else None,
            parts.lines("results", t("a27.ui.results"), result_lines(view, t)) if over else None,
        ]

    @staticmethod
    def _issues(key: str, title: str, issues: list[dict[str, Any]], t: Messages) -> Part:
        return parts.part(
            key,
            title,
            [
                parts.item(
                    t(f"issue.{i['issue']}"),
                    detail=issue_agenda(i, t),
                    on=i["agenda"] is not None,
                    icon=i["issue"],
                    detail_icon=i["agenda"] or "",
                )
                for i in issues
            ],
            kind="tiles",
        )

    def ballot_title(self, view: dict[str, Any], t: Messages) -> str:
        return t("a27.ui.ballot_title")

    def last_ballot(self, view: dict[str, Any], t: Messages) -> LastBallot | None:
        """The votes of the round, face up, until the next round's ballot."""
        if view["votes"] is None or view["phase"] == "over":
            return None
        return LastBallot(
            t("a27.ui.ballot_title"),
            VOTES,
            list(enumerate(view["votes"])),
            outcome_line(view, t),
        )

    def secret_lines(self, private: dict[str, Any], t: Messages) -> list[str]:
        if "agenda" not in private:
            return []
        agenda = private["agenda"]
        lines = [
            t("phone.agenda", agenda=agenda["agenda"], value=agenda["value"], best=agenda["best"]),
            t("phone.influence", count=private["influence"]),
        ]
        if "slots" in private:
            lines.append(
                t(
                    "phone.slots",
                    slots=t.join(
                        t("phone.slot", value=f"{slot['value']:+d}", issue=slot["issue"])
                        for slot in private["slots"]
                    ),
                )
            )
        if "if_passed" in private:
            lines.append(t("phone.if_passed", count=private["if_passed"]))
        for bribe in private.get("bribes", []):
            lines.append(
                t(
                    "phone.bribe",
                    id=bribe["mine"],
                    player=bribe["from"],
                    target=bribe["to"],
                    amount=bribe["amount"],
                    kind=bribe_condition(bribe, t),
                    state=t(f"phone.bribe_state.{bribe['status']}"),
                )
            )
        return lines

    def phone_label(
        self, command: dict[str, Any], view: dict[str, Any], t: Messages, private: dict[str, Any]
    ) -> str:
        """A bribe's button calls it as the seat's secrets do (#1, #2: the
        seat's own), never by the number its commands carry."""
        mine = {b["id"]: b["mine"] for b in private.get("bribes", [])}
        if command.get("bribe") in mine:
            command = {**command, "bribe": mine[command["bribe"]]}
        return super().phone_label(command, view, t, private)

    def phone_actions(
        self,
        commands: list[dict[str, Any]],
        view: dict[str, Any],
        t: Messages,
        private: dict[str, Any],
    ) -> list[dict[str, Any]]:
        """Bribe offers take a form of their own (:meth:`phone_forms`)."""
        return super().phone_actions(
            [c for c in commands if c["type"] != "offer"], view, t, private
        )

    def phone_forms(
        self,
        commands: list[dict[str, Any]],
        view: dict[str, Any],
        t: Messages,
        private: dict[str, Any],
    ) -> list[Form]:
        """The seat's bribe form, from its legal offers (listed for 1
        influence): to whom, for what (a vote, an issue on or off the floor,
        which only the Secretary-General is offered, or something else in
        the players' own words) and any amount up to its free influence."""
        offers = [c for c in commands if c["type"] == "offer"]
        if not offers:
            return []
        recipients = sorted({c["to"] for c in offers})
        takers: dict[str, set[int]] = {}  # each condition: to whom it may be offered
        for c in offers:
            takers.setdefault(c["kind"], set()).add(c["to"])
        issues = list(dict.fromkeys(c["issue"] for c in offers if "issue" in c))
        issue_kinds = [k for k in takers if any(c["kind"] == k and "issue" in c for c in offers)]
        fields = [
            forms.choice(
                "to",
                t("web.offer_to"),
                ((seat, t("phone.offer_to", player=seat)) for seat in recipients),
            ),
            forms.choice(
                "kind",
                t("web.offer_kind"),
                (
                    (
                        kind,
                        t(f"phone.bribe_kind.{kind}"),
                        None if to == set(recipients) else {"to": sorted(to)},
                    )
                    for kind, to in takers.items()
                ),
            ),
        ]
        if issues:
            fields.append(
                forms.choice(
                    "issue",
                    t("a27.form.issue"),
                    ((issue, t(f"issue.{issue}")) for issue in issues),
                    when={"kind": issue_kinds},
                )
            )
        fields.append(forms.number("amount", t("web.offer_amount"), 1, private["influence"]))
        if OTHER in takers:
            fields.append(
                forms.text("text", t("web.offer_text"), OFFER_TEXT, when={"kind": [OTHER]})
            )
        return [
            forms.form(
                "offer", t("web.offer_title"), t("web.offer_send"), {"type": "offer"}, fields
            )
        ]

    def game_chart(
        self, views: list[dict[str, Any]], names: list[str], t: Messages
    ) -> Chart | None:
        """The points of each player's agenda, round by round (the agendas
        are on the table at the end)."""
        results = views[-1]["results"] or []
        steps = last_per(views, "round")
        series = []
        for entry in sorted(results, key=lambda r: r["seat"]):
            agenda = entry["agenda"]
            series.append(
                (
                    t(
                        "chart.player_agenda",
                        player=names[entry["seat"]],
                        agenda=t(f"agenda.{agenda}"),
                    ),
                    [_track_value(v, agenda) for v in steps],
                )
            )
        if not series:
            return None
        return Chart(t("chart.agenda_points"), t("chart.rounds"), series, t.number)


def _explain_unused(view: dict[str, Any], t: Messages) -> list[str]:
    return [t("explain.a27.unused")]


def _explain_reveal(view: dict[str, Any], t: Messages) -> list[str]:
    issue = next(i["issue"] for i in view["issues"] if i["agenda"] is None)
    lines = [t("explain.a27.reveal", issue=issue)]
    if view["round"] < view["rounds"]:  # no third disk of an agenda, but in the last round
        lines.append(t("explain.a27.reveal_limit"))
    return lines


def _explain_ready(view: dict[str, Any], t: Messages) -> list[str]:
    return [t("explain.a27.ready", player=view["sg"]), t(f"explain.a27.screen.{view['mode']}")]


def _explain_negotiation(view: dict[str, Any], t: Messages) -> list[str]:
    sg = view["sg"]
    lines = [
        t("explain.a27.negotiation", player=sg),
        t("explain.a27.vote_call" if view["floor"] else "explain.a27.floor_empty", player=sg),
        t(f"explain.a27.bribes.{view['mode']}"),
    ]
    if view["timer"] and view["timer"]["paused"]:
        lines.append(t("a27.ui.status.paused"))
    return lines


def _explain_place_one(view: dict[str, Any], t: Messages) -> list[str]:
    return [t("explain.a27.place_one", player=view["sg"])]


def _explain_voting(view: dict[str, Any], t: Messages) -> list[str]:
    return [
        t("explain.a27.voting", needed=YES_NEEDED[len(view["players"])]),
        *ballot_lines(view, t),
    ]


def _explain_settle_other(view: dict[str, Any], t: Messages) -> list[str]:
    return [t("explain.a27.settle_other"), *waiting_line(view["waiting_for"], t)]


def _explain_announce(view: dict[str, Any], t: Messages) -> list[str]:
    return [t("explain.a27.announce", player=view["announcer"])]


def _explain_challenge(view: dict[str, Any], t: Messages) -> list[str]:
    latest = view["announcements"][-1]
    return [
        t("explain.a27.challenge", player=latest["seat"], score=latest["score"]),
        *waiting_line(view["waiting_for"], t),
    ]


def _explain_scored(view: dict[str, Any], t: Messages) -> list[str]:
    return [
        t(f"explain.a27.outcome.{view['outcome']}"),
        t("explain.a27.scored", player=view["next_sg"], round=view["round"] + 1),
    ]


def _explain_final(view: dict[str, Any], t: Messages) -> list[str]:
    return [t("explain.a27.final"), *waiting_line(view["waiting_for"], t)]


_EXPLAINERS = {
    "unused": _explain_unused,
    "reveal": _explain_reveal,
    "ready": _explain_ready,
    "negotiation": _explain_negotiation,
    "place_one": _explain_place_one,
    "voting": _explain_voting,
    "settle_other": _explain_settle_other,
    "announce": _explain_announce,
    "challenge": _explain_challenge,
    "scored": _explain_scored,
    "final": _explain_final,
}


def _track_value(view: dict[str, Any], agenda: str) -> int:
    return next(row["value"] for row in view["track"] if row["agenda"] == agenda)


WORDS = Article27Words()
