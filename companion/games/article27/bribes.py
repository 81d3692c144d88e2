"""Bribes in keeper mode: offers, counter-offers and escrow.

An offer moves the briber's influence into escrow at once, so nobody can
promise influence they do not have. Either side may answer with new terms;
the side whose turn it is accepts or refuses. Before acceptance the briber may
withdraw; after it the recipient may back out (the bribe goes back, N8). When a
recipient accepts a condition that cannot be honoured together with one
accepted earlier (two different votes, or including and excluding the same
issue), the earlier briber may take theirs back (N9) while the later deal
stands; if they leave it, both stay and are settled as usual. Everything is
settled after the vote.

An offer stays between its two players until it is accepted: only then does
it go on the board, with a public number (1, 2, ... in the order accepted this
round), so nothing public counts or numbers the offers that never were.
"""

from __future__ import annotations

from typing import Any

from ..base import Command, Event, FrozenCommand, RuleError, seat_of
from .rules import BRIBE_KINDS, EXCLUDE, INCLUDE, ISSUES, OTHER, conflicts
from .state import Article27State, Bribe

OPEN = ("offered", "countered")
MAX_TEXT = 200
PAIRS = 100  # seat pairs a bribe's number makes room for (seats are 0-9)
# Bribe menus kept (``bribe_menus``): a negotiation's live bribes in all
# their situations, shared by every table, with room to spare.
MENUS = 4096


def bribe_id(briber: int, recipient: int, count: int) -> int:
    """A bribe's number: the pair's ``count``-th offer, briber first. It
    tells its two players only what they know (how many offers they have
    made each other), never how many deals others made: a game-wide counter
    would, with the first offer a seat receives."""
    return count * PAIRS + briber * 10 + recipient


def find(s: Article27State, command: Command, party: int | None = None) -> Bribe:
    """A live bribe (open or accepted) by its number. With ``party``: one of
    that seat's own; to anyone else a bribe between two others does not
    exist, so the refusal never tells a seat whether (or how many) deals it
    is not part of were made."""
    number = command.get("bribe")
    bribe = s.bribes.get(number) if type(number) is int else None
    if bribe is None or (party is not None and party not in (bribe["from"], bribe["to"])):
        raise RuleError("a27.no_such_bribe")
    return bribe


def _terms(s: Article27State, command: Command, recipient: int) -> dict[str, Any]:
    """Validated terms of a bribe: amount, condition, and the issue or text."""
    amount = command.get("amount")
    if type(amount) is not int or amount < 1:
        raise RuleError("a27.bad_amount")
    kind = command.get("kind")
    if kind not in BRIBE_KINDS:
        raise RuleError("a27.bad_bribe_kind", kind=str(kind)[:20])
    issue = command.get("issue")
    if kind in (INCLUDE, EXCLUDE):
        if recipient != s.sg:
            raise RuleError("a27.only_sg_moves_issues", player=recipient)
        if issue not in ISSUES:
            raise RuleError("a27.unknown_issue", issue=str(issue)[:20])
    else:
        issue = None
    text = command.get("text") if kind == OTHER else None
    if text is not None and (not isinstance(text, str) or len(text) > MAX_TEXT):
        raise RuleError("a27.bad_text", limit=MAX_TEXT)
    return {"amount": amount, "kind": kind, "issue": issue, "text": text}


def covers(s: Article27State, seat: int, bribe: Bribe, amount: int) -> bool:
    """Whether ``seat`` may take ``amount`` on ``bribe``: its briber must
    cover it with the influence behind the screen and what the bribe holds
    in escrow already; its recipient pays nothing. (The one rule ``decide``
    refuses by and the bribe's menu offers "accept" by.)"""
    return seat != bribe["from"] or amount <= s.free(seat) + bribe["held"]


def decide_offer(s: Article27State, command: Command) -> Event:
    seat = seat_of(command, s.players)
    if seat in offering(s):
        # One offer at a time: withdraw the waiting one to make another.
        raise RuleError("a27.offer_waiting")
    recipient = seat_of(command, s.players, "to")
    if recipient == seat:
        raise RuleError("a27.bribe_self")
    terms = _terms(s, command, recipient)
    if terms["amount"] > s.free(seat):
        raise RuleError("a27.not_enough_influence", amount=terms["amount"])
    count = s.offers_made.get((seat, recipient), 0) + 1
    number = bribe_id(seat, recipient, count)
    return {"type": "offer", "bribe": number, "seat": seat, "to": recipient, **terms}


def apply_offer(s: Article27State, e: Event) -> None:
    assert s.influence is not None  # keeper mode: the app holds the influence
    s.influence[e["seat"]] -= e["amount"]
    s.bribes[e["bribe"]] = {
        "id": e["bribe"],
        "from": e["seat"],
        "to": e["to"],
        "amount": e["amount"],
        "kind": e["kind"],
        "issue": e["issue"],
        "text": e["text"],
        "held": e["amount"],
        "status": "offered",
        "awaiting": e["to"],
        "conflicted": False,
        "confirmed": {},
        "number": None,
    }
    pair = (e["seat"], e["to"])
    s.offers_made[pair] = s.offers_made.get(pair, 0) + 1


def _answering(s: Article27State, command: Command) -> tuple[int, Bribe]:
    """The seat whose turn it is to answer an open bribe, and the bribe."""
    seat = seat_of(command, s.players)
    bribe = find(s, command, party=seat)
    if bribe["status"] not in OPEN or bribe["awaiting"] != seat:
        raise RuleError("a27.not_your_answer")
    return seat, bribe


def decide_counter(s: Article27State, command: Command) -> Event:
    seat, bribe = _answering(s, command)
    terms = _terms(s, command, bribe["to"])
    if not covers(s, seat, bribe, terms["amount"]):
        raise RuleError("a27.not_enough_influence", amount=terms["amount"])
    return {"type": "counter", "bribe": bribe["id"], "seat": seat, **terms}


def apply_counter(s: Article27State, e: Event) -> None:
    bribe = s.bribes[e["bribe"]]  # decide found it
    for term in ("amount", "kind", "issue", "text"):
        bribe[term] = e[term]
    if e["seat"] == bribe["from"]:
        _escrow(s, bribe, e["amount"])
        bribe["status"], bribe["awaiting"] = "offered", bribe["to"]
    else:
        bribe["status"], bribe["awaiting"] = "countered", bribe["from"]


def _escrow(s: Article27State, bribe: Bribe, amount: int) -> None:
    """Hold exactly ``amount`` of the briber's influence for this bribe."""
    assert s.influence is not None  # keeper mode: the app holds the influence
    s.influence[bribe["from"]] += bribe["held"] - amount
    bribe["held"] = amount


def decide_accept(s: Article27State, command: Command) -> Event:
    seat, bribe = _answering(s, command)
    if not covers(s, seat, bribe, bribe["amount"]):
        raise RuleError("a27.not_enough_influence", amount=bribe["amount"])
    return {"type": "accept", "bribe": bribe["id"], "seat": seat, "number": s.accepted + 1}


def apply_accept(s: Article27State, e: Event) -> None:
    bribe = s.bribes[e["bribe"]]  # decide found it
    _escrow(s, bribe, bribe["amount"])
    bribe["status"], bribe["awaiting"], bribe["number"] = "accepted", None, e["number"]
    s.accepted = e["number"]
    _mark_conflicts(s, bribe["to"])


def _mark_conflicts(s: Article27State, recipient: int) -> None:
    """N9: an accepted bribe is conflicted while its recipient holds one
    accepted later on an opposite condition (and no longer once that one is
    gone)."""
    held = [b for b in s.bribes.values() if b["to"] == recipient and b["status"] == "accepted"]
    for bribe in held:
        # Plain loops: this runs at every acceptance and every deal undone.
        conflicted = False
        for later in held:
            if _number(later) > _number(bribe) and conflicts(
                bribe["kind"], bribe["issue"], later["kind"], later["issue"]
            ):
                conflicted = True
                break
        bribe["conflicted"] = conflicted


def _number(bribe: Bribe) -> int:
    """An accepted bribe's public number (every accepted bribe has one)."""
    number = bribe["number"]
    assert number is not None
    return number


def decide_refuse(s: Article27State, command: Command) -> Event:
    seat, bribe = _answering(s, command)
    return {"type": "refuse", "bribe": bribe["id"], "seat": seat}


def decide_withdraw(s: Article27State, command: Command) -> Event:
    """The briber withdraws an open offer; the recipient backs out of an
    accepted one."""
    seat = seat_of(command, s.players)
    bribe = find(s, command, party=seat)
    if bribe["status"] in OPEN and seat == bribe["from"]:
        return {"type": "withdraw", "bribe": bribe["id"], "seat": seat}
    if bribe["status"] == "accepted" and seat == bribe["to"]:
        # On the board: the table sees it go, by its public number.
        return {"type": "withdraw", "bribe": bribe["id"], "seat": seat, "number": bribe["number"]}
    raise RuleError("a27.cannot_withdraw")


def decide_reclaim(s: Article27State, command: Command) -> Event:
    seat = seat_of(command, s.players)
    bribe = find(s, command, party=seat)
    if bribe["status"] != "accepted" or seat != bribe["from"] or not bribe["conflicted"]:
        raise RuleError("a27.cannot_reclaim")
    return {"type": "reclaim", "bribe": bribe["id"], "seat": seat, "number": bribe["number"]}


def give_back(s: Article27State, bribe: Bribe, status: str) -> None:
    assert s.influence is not None  # keeper mode: the app holds the influence
    payer = bribe["from"]
    s.influence[payer] += bribe["held"]
    _close(s, bribe, status)


def pay_out(s: Article27State, bribe: Bribe) -> None:
    assert s.influence is not None  # keeper mode: the app holds the influence
    s.influence[bribe["to"]] += bribe["held"]
    _close(s, bribe, "paid")


def _close(s: Article27State, bribe: Bribe, status: str) -> None:
    was = bribe["status"]
    bribe["held"], bribe["status"], bribe["awaiting"] = 0, status, None
    del s.bribes[bribe["id"]]
    s.closed[bribe["id"]] = bribe
    if was == "accepted":
        _mark_conflicts(s, bribe["to"])  # a conflict ends with either deal


def offering(s: Article27State) -> set[int]:
    """The players whose offer waits for an answer (one each at most)."""
    return {b["from"] for b in s.bribes.values() if b["status"] in OPEN}


def bribe_menus(s: Article27State) -> tuple[set[int], list[Command]]:
    """The players whose offer waits for an answer, and the commands the
    live bribes offer their parties now: the answering side accepts (if the
    briber can cover the terms), refuses or counters; the briber withdraws an
    open offer; the recipient backs out of an accepted one; after a
    conflicting deal the briber may take theirs back.

    Asked at every step of a negotiation, so each bribe's commands are kept
    per situation in ``_MENUS``, outside the state (nothing in the state is
    derived): the key holds everything the commands depend on (a bribe's
    number names its two players)."""
    waiting: set[int] = set()
    commands: list[Command] = []
    menus = _MENUS
    for bribe in s.bribes.values():
        if bribe["status"] == "accepted":
            key: tuple = (bribe["id"], bribe["conflicted"])
        else:
            who, amount = bribe["awaiting"], bribe["amount"]
            assert who is not None  # an open bribe awaits an answer
            waiting.add(bribe["from"])
            key = (
                bribe["id"],
                who,
                amount,
                bribe["kind"],
                bribe["issue"],
                covers(s, who, bribe, amount),
            )
        menu = menus.get(key)
        if menu is None:
            if len(menus) >= MENUS:
                menus.clear()
            menu = menus[key] = _menu(bribe, key[-1])
        commands += menu
    return waiting, commands


_MENUS: dict[tuple, tuple[Command, ...]] = {}


def _menu(bribe: Bribe, can_accept: bool) -> tuple[Command, ...]:
    number = bribe["id"]
    if bribe["status"] != "accepted":
        who = bribe["awaiting"]
        raise_to = bribe["amount"] + 1 if who == bribe["to"] else max(1, bribe["amount"] - 1)
        menu = [
            FrozenCommand(type="refuse", seat=who, bribe=number),
            FrozenCommand(
                type="counter",
                seat=who,
                bribe=number,
                amount=raise_to,
                kind=bribe["kind"],
                issue=bribe["issue"],
            ),
            FrozenCommand(type="withdraw", seat=bribe["from"], bribe=number),
        ]
        if can_accept:
            menu.append(FrozenCommand(type="accept", seat=who, bribe=number))
    else:
        menu = [FrozenCommand(type="withdraw", seat=bribe["to"], bribe=number)]
        if can_accept:  # for a deal: whether it is conflicted
            menu.append(FrozenCommand(type="reclaim", seat=bribe["from"], bribe=number))
    return tuple(menu)


def apply_closing(s: Article27State, e: Event) -> None:
    """Refuse, withdraw or reclaim: the escrow goes back to the briber."""
    give_back(
        s,
        s.bribes[e["bribe"]],  # decide found it
        {"refuse": "refused", "withdraw": "withdrawn", "reclaim": "reclaimed"}[e["type"]],
    )


def decide_confirm(s: Article27State, command: Command) -> Event:
    """Both parties of an OTHER bribe say whether its terms were kept."""
    seat = seat_of(command, s.players)
    bribe = find(s, command)
    if (
        bribe["kind"] != OTHER
        or bribe["status"] != "accepted"
        or seat not in (bribe["from"], bribe["to"])
        or seat in bribe["confirmed"]
    ):
        raise RuleError("a27.cannot_confirm")
    kept = command.get("kept")
    if type(kept) is not bool:
        raise RuleError("command.bad_field", field="kept")
    return {"type": "confirm_other", "bribe": bribe["id"], "seat": seat, "kept": kept}


def apply_confirm(s: Article27State, e: Event) -> None:
    s.bribes[e["bribe"]]["confirmed"][e["seat"]] = e["kept"]  # decide found it


def unconfirmed(s: Article27State) -> list[Bribe]:
    """Accepted OTHER bribes still waiting for a party's word."""
    return [
        b
        for b in s.bribes.values()
        if b["kind"] == OTHER and b["status"] == "accepted" and len(b["confirmed"]) < 2
    ]


def kept(s: Article27State, bribe: Bribe) -> bool:
    """Whether an accepted bribe's condition was met (P1): a vote against the
    recipient's actual vote, an issue against the floor at the vote, OTHER by
    both parties' word."""
    kind = bribe["kind"]
    if kind == INCLUDE:
        return bribe["issue"] in s.floor
    if kind == EXCLUDE:
        return bribe["issue"] not in s.floor
    if kind == OTHER:
        return len(bribe["confirmed"]) == 2 and all(bribe["confirmed"].values())
    assert s.votes is not None  # settled after the ballot
    return s.votes[bribe["to"]] == kind


def settle(s: Article27State) -> None:
    """After the vote: every accepted bribe whose deal was kept goes to its
    recipient, every other one (and every offer left open) back to its briber."""
    for bribe in list(s.bribes.values()):
        if bribe["status"] == "accepted" and kept(s, bribe):
            pay_out(s, bribe)
        else:
            give_back(s, bribe, "returned")


def on_board(s: Article27State) -> list[Bribe]:
    """This round's bribes that were accepted, settled or not, by public
    number: they lie on the recipients' boards for all to see. An offer that
    was never accepted stays between its two players."""
    return sorted((b for b in this_round(s) if b["number"] is not None), key=_number)


def this_round(s: Article27State) -> list[Bribe]:
    """Every bribe of the round, settled or not, in the order offered."""
    return sorted([*s.closed.values(), *s.bribes.values()], key=lambda b: b["id"])


def public(bribe: Bribe) -> dict[str, Any]:
    """A bribe as the board shows it: by its public number (None for an
    offer never accepted, which only its two players see)."""
    return {
        k: bribe[k]
        for k in ("number", "from", "to", "amount", "kind", "issue", "text", "status", "conflicted")
    }
