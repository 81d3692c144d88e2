"""Staff sessions of the console, in memory (a restarted console asks staff
to log in again).

A session is made only by a right password: a request without a cookie
makes nothing, so no flood of requests fills the memory. It ends when staff
log out, after ``IDLE_SECONDS`` unused (a page left open, its socket live,
counts as in use), or ``ABSOLUTE_SECONDS`` after the login whatever happens.
At most ``MAX_SESSIONS`` live at once: a new login ends the one least
recently used. A session's open pages (its WebSockets) are closed when it
ends, so a page stops showing the tables the moment its session does."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

IDLE_SECONDS = 2 * 3600.0
ABSOLUTE_SECONDS = 12 * 3600.0  # a long day's shift
MAX_SESSIONS = 32


@dataclass
class Session:
    csrf: str
    born: float
    seen: float
    pages: set[web.WebSocketResponse] = field(default_factory=set)


class Sessions:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._live: dict[str, Session] = {}
        self._ended: set[web.WebSocketResponse] = set()  # open pages of ended sessions

    def __len__(self) -> int:
        return len(self._live)

    def create(self) -> tuple[str, Session]:
        """A new session, for a login that gave the right password."""
        now = self.clock()
        self.sweep()
        while len(self._live) >= MAX_SESSIONS:
            self._drop(min(self._live, key=lambda sid: self._live[sid].seen))
        sid = secrets.token_urlsafe(32)
        self._live[sid] = session = Session(secrets.token_urlsafe(24), now, now)
        return sid, session

    def get(self, sid: str) -> Session | None:
        """The live session with this id, now in use; None for an unknown or
        ended one."""
        session = self._live.get(sid)
        if session is None:
            return None
        now = self.clock()
        if self._over(session, now):
            self._drop(sid)
            return None
        session.seen = now
        return session

    def end(self, sid: str) -> set[web.WebSocketResponse]:
        """Forget a session; returns the pages still open of every session
        ended since last asked (this one's, one a login pushed out...), for
        the caller to close."""
        self._drop(sid)
        ended, self._ended = self._ended, set()
        return ended

    def sweep(self) -> set[web.WebSocketResponse]:
        """End every session that is over (an open page keeps its session in
        use); returns the pages to close, as :meth:`end` does."""
        now = self.clock()
        for session in self._live.values():
            if session.pages:
                session.seen = now
        for sid in [sid for sid, session in self._live.items() if self._over(session, now)]:
            self._drop(sid)
        ended, self._ended = self._ended, set()
        return ended

    def _drop(self, sid: str) -> None:
        session = self._live.pop(sid, None)
        if session is not None:
            self._ended |= session.pages

    @staticmethod
    def _over(session: Session, now: float) -> bool:
        return now - session.seen > IDLE_SECONDS or now - session.born > ABSOLUTE_SECONDS
