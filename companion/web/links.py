"""Join links and the phones that claimed them.

Each seat of a game has a join link, ``/join/<token>``, whose token is 192
random bits from :mod:`secrets`. The first phone to open it claims the seat:
it gets a cookie holding another 192 random bits, of which the store keeps
only a SHA-256 hash. After that the link opens nothing for any other phone,
and the claiming phone is recognised by its cookie: a reload, a sleep, a new
Wi-Fi connection or a restarted server gives it its seat back.

Re-pairing (from the kiosk) replaces the token and forgets the phone, so the
old link and the old cookie open nothing. Tokens never appear in a log or a
public view; the kiosk shows a seat's link only while the seat is unclaimed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from ..table import EventStore

TOKEN_BYTES = 24  # 192 bits, at least the 128 the design asks for
# A cookie as this server makes them: game and seat in ASCII digits (no
# number SQLite cannot hold, no "²"), then a token_urlsafe secret.
_COOKIE = re.compile(r"([0-9]{1,12})\.([0-9]{1,3})\.([A-Za-z0-9_-]{1,100})")


class LinkError(Exception):
    """Why a join link opens nothing: ``unknown`` (no such link: a typo, a
    guess, a re-paired seat's old link) or ``claimed`` (another phone has it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Phone:
    """A phone that holds a seat: the cookie it keeps."""

    game_id: int
    seat: int
    secret: str

    @property
    def cookie(self) -> str:
        return f"{self.game_id}.{self.seat}.{self.secret}"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class SeatLinks:
    def __init__(self, store: EventStore) -> None:
        self.store = store

    def token(self, game_id: int, seat: int) -> str:
        """The seat's join token (made on first use)."""
        link = self.store.seat_link(game_id, seat)
        if link is not None:
            return link["token"]
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.store.set_seat_link(game_id, seat, token, None)
        return token

    def claimed(self, game_id: int, seat: int) -> bool:
        link = self.store.seat_link(game_id, seat)
        return link is not None and link["device_hash"] is not None

    def repair(self, game_id: int, seat: int) -> str:
        """A new link for the seat; its old link and phone open nothing now."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.store.set_seat_link(game_id, seat, token, None, repaired=True)
        return token

    def join(self, token: str, cookie: str | None) -> Phone:
        """A phone opens a join link: claim the seat, or recognise the phone
        that already holds it. Raises LinkError."""
        found = self.store.seat_of_token(token)
        if found is None:
            raise LinkError("unknown")
        game_id, seat = found
        holder = self.phone(cookie)
        if holder is not None and (holder.game_id, holder.seat) == (game_id, seat):
            return holder  # the same phone again
        phone = Phone(game_id, seat, secrets.token_urlsafe(TOKEN_BYTES))
        if not self.store.claim_seat(game_id, seat, token, _hash(phone.secret)):
            raise LinkError("claimed")
        return phone

    def phone(self, cookie: str | None) -> Phone | None:
        """The seat a cookie holds, if it still does."""
        match = _COOKIE.fullmatch(cookie) if cookie else None
        if match is None:
            return None
        game_id, seat, secret = int(match[1]), int(match[2]), match[3]
        link = self.store.seat_link(game_id, seat)
        if link is None or link["device_hash"] is None:
            return None
        if not hmac.compare_digest(link["device_hash"], _hash(secret)):
            return None
        return Phone(game_id, seat, secret)

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
