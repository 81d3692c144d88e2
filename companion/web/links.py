"""Join links and the phones that claimed them.

Each seat of a game has a join link, ``/join/<token>``, whose token is 192
random bits from :mod:`secrets`. Opening the link claims nothing (a link
preview's ``HEAD`` or prefetch must not take a seat): its page asks, and
only a tap on its button (a ``POST``) makes a claim. That claim is
provisional: the phone gets a cookie holding another 192 random bits, of
which the store keeps only a SHA-256 hash, and the claim is final at the
first request that carries the cookie, which proves the phone has it. Until
then the link still works for any phone, and of several provisional claims
the first whose cookie is used wins; the others' phones are told the seat is
taken. A claim whose cookie never arrived (a power cut, a dropped
connection) blocks nobody, and one stored before a restart is still good
after it.

Once the claim is final the link opens nothing for any other phone, and the
claiming phone is recognised by its cookie: a reload, a sleep, a new Wi-Fi
connection or a restarted server gives it its seat back.

Re-pairing (from the kiosk) replaces the token and forgets the phone (and
any provisional claim), so the old link and the old cookies open nothing.
Tokens never appear in a log or a public view; the kiosk shows a seat's link
only while no claim of it is final.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from ..table import EventStore
from ..table.store import SeatLink

TOKEN_BYTES = 24  # 192 bits, at least the 128 the design asks for
# A cookie as this server makes them: game and seat in ASCII digits (no
# number SQLite cannot hold, no "²"), then a token_urlsafe secret.
_COOKIE = re.compile(r"([0-9]{1,12})\.([0-9]{1,3})\.([A-Za-z0-9_-]{1,100})")
# Provisional claims a seat keeps (its newest): phones racing for one seat,
# a phone tapping twice; never so many that tapping a link fills the store.
PROVISIONAL_CLAIMS = 8


class LinkError(Exception):
    """Why a join link opens nothing: ``unknown`` (no such link: a typo, a
    guess, a re-paired seat's old link) or ``claimed`` (another phone has it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Phone:
    """A phone that holds a seat, or has claimed it provisionally: the
    cookie it keeps."""

    game_id: int
    seat: int
    secret: str

    @property
    def cookie(self) -> str:
        return f"{self.game_id}.{self.seat}.{self.secret}"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _from_cookie(cookie: str | None) -> Phone | None:
    """The phone a cookie names, if it is one as this server makes them
    (whether it holds anything is for the store to say)."""
    match = _COOKIE.fullmatch(cookie) if cookie else None
    if match is None:
        return None
    return Phone(int(match[1]), int(match[2]), match[3])


class SeatLinks:
    def __init__(self, store: EventStore, on_claim: Callable[[], None] | None = None) -> None:
        """``on_claim`` is called whenever a claim becomes final."""
        self.store = store
        self.on_claim = on_claim

    def token(self, game_id: int, seat: int) -> str:
        """The seat's join token (made on first use)."""
        link = self.store.seat_link(game_id, seat)
        if link is not None:
            return link["token"]
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.store.set_seat_link(game_id, seat, token, None)
        return token

    def claimed(self, game_id: int, seat: int) -> bool:
        """Whether a phone holds the seat: its claim is final."""
        link = self.store.seat_link(game_id, seat)
        return link is not None and link["device_hash"] is not None

    def repair(self, game_id: int, seat: int) -> str:
        """A new link for the seat; its old link and phones open nothing now."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.store.set_seat_link(game_id, seat, token, None, repaired=True)
        return token

    def seat(self, token: str) -> tuple[int, int]:
        """(game, seat) of a join link. Raises LinkError."""
        found = self.store.seat_of_token(token)
        if found is None:
            raise LinkError("unknown")
        return found

    def join(self, token: str, cookie: str | None) -> Phone:
        """A phone takes a seat by its link (a tap, never a mere look): a
        provisional claim and the cookie for it, or the phone that already
        holds the seat. Raises LinkError."""
        game_id, seat = self.seat(token)
        holder = self.arrive(cookie, game_id)
        if holder is not None and holder.seat == seat:
            return holder  # the same phone again
        phone = Phone(game_id, seat, secrets.token_urlsafe(TOKEN_BYTES))
        digest = _hash(phone.secret)
        if not self.store.claim_provisionally(game_id, seat, token, digest, PROVISIONAL_CLAIMS):
            raise LinkError("claimed")
        return phone

    def arrive(self, cookie: str | None, game_id: int) -> Phone | None:
        """A phone's request with its cookie, where its join ends: the first
        use of a provisional claim's cookie makes the claim final (the one
        write), unless another phone's claim was made final first. Returns
        the seat of game ``game_id`` the cookie then holds, if any."""
        found = self._link(cookie, game_id)
        if found is None:
            return None
        phone, link = found
        if link["device_hash"] is None:
            return phone if self._confirm(phone, _hash(phone.secret)) else None
        return phone if hmac.compare_digest(link["device_hash"], _hash(phone.secret)) else None

    def holder(self, cookie: str | None, game_id: int) -> Phone | None:
        """The seat of game ``game_id`` that a cookie holds (its claim is
        final), if it still does. It only reads: a provisional claim is
        made final by :meth:`arrive`, never here."""
        found = self._link(cookie, game_id)
        if found is None:
            return None
        phone, link = found
        held = link["device_hash"]
        if held is None:
            return None
        return phone if hmac.compare_digest(held, _hash(phone.secret)) else None

    def _link(self, cookie: str | None, game_id: int) -> tuple[Phone, SeatLink] | None:
        """The phone a cookie names in game ``game_id``, and its seat's link."""
        phone = _from_cookie(cookie)
        if phone is None or phone.game_id != game_id:
            return None
        link = self.store.seat_link(game_id, phone.seat)
        return None if link is None else (phone, link)

    def _confirm(self, phone: Phone, digest: str) -> bool:
        if not self.store.is_provisional_claim(phone.game_id, phone.seat, digest):
            return False  # a guess, or a claim a re-pair forgot
        if not self.store.confirm_claim(phone.game_id, phone.seat, digest):
            return False
        if self.on_claim is not None:
            self.on_claim()
        return True

    def lost(self, cookie: str | None, game_id: int) -> bool:
        """Whether a cookie is a provisional claim of a seat of game
        ``game_id`` that another phone's claim took first."""
        phone = _from_cookie(cookie)
        if phone is None or phone.game_id != game_id or not self.claimed(game_id, phone.seat):
            return False
        return self.store.is_provisional_claim(game_id, phone.seat, _hash(phone.secret))

    def status(self, game_id: int, players: int) -> list[dict[str, object]]:
        """What the table may see: which seats have a phone, and how often
        each was re-paired. No token, no phone."""
        links = self.store.seat_links(game_id)
        return [
            {
                "seat": seat,
                "phone": seat in links and links[seat]["device_hash"] is not None,
                "repairs": links[seat]["repairs"] if seat in links else 0,
            }
            for seat in range(players)
        ]
