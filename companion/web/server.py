"""The phone server (aiohttp), run in the kiosk's own asyncio loop or alone
(``companion serve``).

Routes:

- ``GET /join/<token>``: a seat's join link (see :mod:`.links`): a page
  asking "Take seat N?", which changes nothing (a link preview may open it);
- ``POST /join/<token>``: its button, from this server's own page (Origin):
  a provisional claim of the seat and its cookie, then ``/seat``, whose
  request (the cookie's first use) makes the claim final;
- ``GET /seat``, ``GET /api/seat``, ``GET /ws``: the seat's page, its state
  (the public view and the seat's own private view, computed on the server
  for that seat only) and live updates;
- ``POST /api/command``: a command of the seat's, as uncompressed JSON in
  UTF-8, sent from the seat's phone channel (``seat:N``); it must carry the
  seat's CSRF token in a header and come from this server's own pages
  (Origin), so another site cannot forge it;
- ``GET /table``, ``GET /api/table``, ``GET /ws/table``: the public table, for
  a TV or spectators, with no secret in it: the status line, the table's
  figures, its board as the kiosk shows it and the cards it keeps in sight
  (its words' ``bar_items``, ``board`` and ``reference_cards``), the rules
  at hand (``explain`` and ``quick_reference``) and the log; a seat's state
  carries the same board and rules, under its own secrets;
- ``GET /api/messages/<lang>``: the catalog the pages translate with;
- ``GET /api/icons``: the game's icons as SVG, by the game's names for its
  pieces (``{piece: svg}``), which the board's items and seats name: fetched
  once by a page, cached a minute (the next game has others);

Every state carries a ``version``: how many times what that page receives
has changed, so a page can tell a newer state from an older one. It is never
a count of events, and nothing is sent to a page whose state did not change:
a private deal between two seats reaches those two phones and nobody else,
not even as a message or a number. A running timer's time left is no
exception: it moves in the public view on the timer's own schedule (each
time its whole seconds left change, looked at every ``TIMER_LOOK``
seconds), never with a command, so a private step does not wake the other
pages by refreshing it (:meth:`TableServer._follow_timer`).
- ``/static/``: the pages' script, style and font, served from the Pi itself;
  ``/favicon.ico``: the pages' icon (:mod:`.favicon`).

The length of whatever a seat's phone is sent tells only public things
(WPA2 hides a frame's bytes, not its length). ``/api/seat`` is never
compressed, and its own part (its secrets and choices) is padded with
spaces to its game's ``private_bytes`` (:func:`padded`). A command's answer
is padded too, as the page pads the command (``seat.js``).

A seat's socket negotiates no compression (permessage-deflate would deflate
its secrets with the public text, so how well they compress would show),
and each state is one binary frame in two parts (:meth:`TableServer.seat_frame`):

- its own part (its secrets and choices, version, cue: JSON) deflated on
  its own, never with another text, after its length, then padded with
  zeros to its game's ``sealed_bytes`` (:func:`sealed`): as long whatever
  it says;
- the members every seat in its language shares (the public view and
  board, status, names; JSON) as a raw deflate stream, made once per state,
  language and state before, with the shared part this socket was sent
  before as its dictionary (most of a board is the same from one change to
  the next). Every seat in a language that was sent the same state before
  is sent the same bytes, which follow only public texts.

A 5-byte head says whether the shared part is deflated after the one
before, and how long the own part is. The page inflates both parts with the
browser's own ``DecompressionStream("deflate-raw")`` (``common.js``), the
dictionary given as stored blocks before the stream. This was chosen over
a second, compressed socket per phone: that would double the phones'
sockets (and the caps in :mod:`.gate`), deflate the same public text once
per phone instead of once per language, and leave the page to pair two
sockets' messages; aiohttp cannot send one message uncompressed on a socket
that negotiated compression.

A seat's page asks for its frames (``/ws?frames=binary``), or, in a
browser without ``DecompressionStream("deflate-raw")`` (Chrome before 103,
Firefox before 113, Safari before 16.4), for the text ``/api/seat`` sends
(``/ws?frames=text``): its own part padded with spaces to ``private_bytes``,
never compressed. A socket that asks for neither is a page from before the
frames, which would read them as text: it is closed with 4001, and the page
reloads into the new one (the pages' scripts and style carry their version
in their URLs, so no browser keeps an old script). A state the page fails
to show is logged there and its socket stays open; a frame it fails to read
closes the socket, and the next one starts with a frame based on nothing.
An own part that outgrows its size is told in the log, once a game. Ten
phones at a Secret Hitler table take about 9.6 kB a change instead of
131 kB (``bench/phone_bytes.py``).

Every private request and socket is authorised by the seat cookie. Failed
join attempts are rate-limited per address; connections are capped per
address and in all before a request is read, with room kept for the phones
that hold a seat, and one that sends no whole request in time is closed
(:mod:`.gate`; serve with :meth:`TableServer.runner`). A write the store
refuses (a full or read-only disk) is answered 503 in the phone's words. On
the Pi's own access point, requests for any other host are redirected to
the public address (:mod:`.captive`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.util
import json
import logging
import math
import re
import struct
import time
import zlib
from collections import OrderedDict, defaultdict, deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

import orjson
from aiohttp import hdrs, web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler, Middleware

from ..games.base import RuleError
from ..games.views import Timer, View
from ..games.words import Words
from ..i18n import LANGUAGES, Messages, catalog, direction, translate
from ..secret_hash import same_secret
from ..table import Session, Table, Update, seat_source
from ..table.store import StoreError
from ..table.table import MAX_COMMAND_BYTES
from .captive import captive_redirect
from .favicon import favicon_response
from .gate import ConnectionLimits, GateRunner
from .icons import game_icons
from .links import LinkError, Phone, SeatLinks
from .page_states import PhoneState, PublicBoard, TableState
from .words import secret_lines

log = logging.getLogger(__name__)

PAGES = Path(__file__).with_name("pages")
COOKIE = "companion_seat"
LANG_COOKIE = "companion_lang"  # the phone's own language, chosen on its page
# Each language named in itself, for the page's language menu.
LANGUAGE_MENU = [{"lang": lang, "name": translate("web.language_name", lang)} for lang in LANGUAGES]
# DejaVu Sans, as Kivy's wheel ships it (found without importing Kivy), or
# as Debian's fonts-dejavu-core installs it; a server with neither sends
# none and the pages fall back to the phone's own fonts.
SYSTEM_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
CSRF_HEADER = "X-Companion-CSRF"
COOKIE_MAX_AGE = 7 * 24 * 3600  # a week: a long evening, a paused game
ICONS_MAX_AGE = 60  # seconds a page may keep the game's icons: the next game has others
FAILED_JOINS = 10  # failed join attempts per address...
FAILED_WINDOW = 60.0  # ...per this many seconds, then 429
SOCKET_HEARTBEAT = 20.0  # seconds: dead phones are noticed
SEND_WAIT = 3.0  # seconds a page may take to accept a state before it is dropped
# Sockets woken per turn of the loop: one, so that the kiosk's frame (a
# Clock callback due) runs between any two phones' states, which take about
# a millisecond each on a Pi 4; eleven sockets at once held a frame back.
WAKE_BATCH = 1
TIMER_LOOK = 0.25  # seconds between looks at a running timer, as the kiosk's
SEAT_SOCKETS = 3  # open sockets a seat keeps (its newest)
# Open sockets one address may hold, and all together: far more than a
# table's phones and screens, far fewer than the descriptors the service has
# (LimitNOFILE in deploy/table-companion.service).
ADDRESS_SOCKETS = 20
ALL_SOCKETS = 512
SEATED_ADDRESSES = 64  # the newest addresses a seat's phone was seen at (see seated)
# The fields of a seat's state that are the seat's own (its secrets and its
# choices); the rest of it is public or the page's own.
PRIVATE_FIELDS = ("private", "secrets", "actions", "forms", "notice", "at_table")
PAD = "pad"  # the spaces a message is padded with (a page ignores them)
# A seat's frame on its socket (see the module's docstring): whether its
# shared part is deflated after the one before, and its own part's length;
# in the own part, how many of its bytes are the deflated JSON.
FRAME_HEAD = struct.Struct(">BI")
# How a seat's page asks its socket for its states (``/ws?frames=``): the
# deflated binary frames, or, from a browser that cannot inflate them, the
# text /api/seat sends. A socket that asks neither (a page from before the
# frames) is closed with 4001, and its page reloads.
SEAT_FRAMES = ("binary", "text")
OWN_HEAD = struct.Struct(">I")
# A shared part deflated after the one before it is mostly references to
# that one: level 3 takes half the time of zlib's default 6 (108 µs, not
# 224, for a 10-seat Secret Hitler reveal's four languages here) for some
# 70 bytes more a part (432-521, not 381-445).
DEFLATE_LEVEL = 3
# A seat's own part is small (some hundred bytes; its whole text fits a
# frame's 2 kB once deflated): an 8 kB window and a smaller hash hold all
# of it, and zlib sets up a tenth of the state it does for 32 kB (11 µs a
# part here, not 56; the same bytes out).
OWN_WINDOW_BITS = 13
OWN_MEM_LEVEL = 5
ANSWER_BYTES = 1024  # a command's answer, taken or refused (the longest: 0.4 kB)
# A command's body, read no further: a command the table keeps, with room
# for a client's spacing (the table refuses one past MAX_COMMAND_BYTES).
MAX_BODY_BYTES = 16 * MAX_COMMAND_BYTES


class ClientMistakes(logging.Filter):
    """aiohttp logs a request it could not read (a byte no header may hold,
    a line past its limit) as an error with a traceback, though the client
    was told 400 and nothing on the Pi went wrong. Such a record is kept at
    DEBUG only: at INFO the request's access line is the one line it costs
    the journal, so a script on the Wi-Fi cannot fill it with tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not (isinstance(error, HttpProcessingError) and 400 <= error.code < 500):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


CLIENT_MISTAKES = ClientMistakes()


class HiddenJoinLinks(logging.Filter):
    """aiohttp's access line names the path asked for and the page it came
    from, and a join link's path is the seat's secret: whoever reads the
    journal (an export sent to support) could take an unclaimed seat. Each
    line keeps ``/join/`` and loses the token."""

    _TOKEN = re.compile(r"/join/[^\s\"?#]+")

    def filter(self, record: logging.LogRecord) -> bool:
        line = record.getMessage()
        if "/join/" in line:
            record.msg, record.args = self._TOKEN.sub("/join/…", line), None
        return True


HIDDEN_JOIN_LINKS = HiddenJoinLinks()


def page_font() -> Path | None:
    """The font file the pages use, or None when this machine has none."""
    kivy = importlib.util.find_spec("kivy")
    if kivy is not None and kivy.submodule_search_locations:
        bundled = Path(kivy.submodule_search_locations[0]) / "data" / "fonts" / "DejaVuSans.ttf"
        if bundled.exists():
            return bundled
    return SYSTEM_FONT if SYSTEM_FONT.exists() else None


def csrf_token(phone: Phone) -> str:
    """The seat's CSRF token: derived from its cookie secret, which another
    site can neither read (HttpOnly) nor send from its own page (SameSite)."""
    return hashlib.sha256(f"csrf:{phone.secret}".encode()).hexdigest()[:32]


class TableServer:
    """The phone server for whatever game the table is playing."""

    def __init__(
        self,
        table: Session | Table,
        clock: Callable[[], float] = time.monotonic,
        captive_home: str | None = None,
        limits: ConnectionLimits | None = None,
    ) -> None:
        # The table's games in turn (a Table alone: a session of that game).
        self.session = table if isinstance(table, Session) else Session.around(table)
        self.limits = limits or ConnectionLimits.for_this_process()  # the port's caps (see gate.py)
        self._seated: OrderedDict[str, None] = OrderedDict()  # addresses, newest last
        self.captive_home = captive_home  # redirect other hosts here (see captive.py)
        self.links = SeatLinks(self.session.store, on_claim=self._links_changed)
        self.clock = clock
        self._seat_sockets: dict[web.WebSocketResponse, int] = {}
        self._table_sockets: dict[web.WebSocketResponse, str] = {}  # socket → language
        self._wake: dict[web.WebSocketResponse, asyncio.Event] = {}
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        # (audience, the state as its page reads it, JSON), when recording
        self.sent: list[tuple[str, str]] | None = None
        self._links_changes = 0  # claims and re-pairs so far: the phones' status
        self._phones_cache: tuple[Any, list[dict[str, object]]] = (None, [])
        self._public_cache: tuple[Any, View] = (None, {})
        self._public_version = 0  # changes of the public view so far
        # By (seat, language): changes of what that seat's phones receive so
        # far, and the last state (without its version).
        self._seat_versions: dict[tuple[int, str], tuple[int, PhoneState]] = {}
        self._table_text_cache: tuple[Any, dict[str, str]] = (None, {})
        self._board_cache: tuple[Any, dict[str, PublicBoard]] = (None, {})
        self._shared_cache: tuple[Any, dict[tuple[Any, ...], SharedPart]] = (None, {})
        # Games whose seats' own parts outgrew their size, by the size's name:
        # told in the log once each (see _outgrown).
        self._outgrown_told: set[tuple[int, str]] = set()
        # The shared part as sent, by (shared, the one before it), per public state.
        self._deflated_cache: tuple[Any, dict[tuple[bytes, bytes | None], bytes]] = (None, {})
        self._closing: set[asyncio.Future] = set()  # sockets being closed
        self._open_by_address: dict[str, int] = defaultdict(int)
        self._notices: dict[int, RuleError] = {}  # a seat's refused press, for its phone
        self.session.subscribe(self._changed)

    @property
    def table(self) -> Table:
        """The game the phones play (the session's; it has one once served)."""
        assert self.session.table is not None
        return self.session.table

    def connected_seats(self) -> list[int]:
        """The seats with a phone's page open now (public: the table sees
        who holds a phone)."""
        return sorted(set(self._seat_sockets.values()))

    def repair(self, seat: int) -> str:
        """Re-pair a seat (from the kiosk): a new join token; the old link,
        cookie and open socket no longer reach the seat. Returns the token."""
        token = self.links.repair(self.table.game_id, seat)
        self._links_changed()
        return token

    def _links_changed(self) -> None:
        """A claim became final or a seat was re-paired: the table sees it."""
        self._links_changes += 1
        self._wake_phones()

    def runner(self, **kwargs: Any) -> GateRunner:
        """The runner to serve :meth:`app` with: its connections capped
        before a request is read, the seats' phones' addresses using the
        reserve (see :mod:`.gate`)."""
        return GateRunner(self.app(), self.limits, self.seated, **kwargs)

    def seated(self, address: str) -> bool:
        """Whether a phone holding a seat of this game was seen lately at
        ``address`` (one of the newest ``SEATED_ADDRESSES``)."""
        return address in self._seated

    def app(self) -> web.Application:
        middlewares: list[Middleware] = [security_headers, store_refusals]
        captive_home = self.captive_home
        if captive_home is not None:
            middlewares.append(captive_redirect(lambda: self.captive_home or captive_home))
        # A body is read as it came: a phone's page never compresses one,
        # and a small "gzip" body that inflates past any size is no command.
        app = web.Application(middlewares=middlewares, handler_args={"auto_decompress": False})
        logging.getLogger("aiohttp.server").addFilter(CLIENT_MISTAKES)
        logging.getLogger("aiohttp.access").addFilter(HIDDEN_JOIN_LINKS)
        app.add_routes(
            [
                web.get("/", self.index),
                web.get("/join/{token}", self.join_page),
                web.post("/join/{token}", self.take_seat),
                web.get("/seat", self.seat_page),
                web.get("/api/seat", self.seat_state),
                web.post("/api/command", self.command),
                web.get("/ws", self.seat_socket),
                web.get("/table", self.table_page),
                web.get("/api/table", self.table_state),
                web.get("/ws/table", self.table_socket),
                web.get("/api/messages/{lang}", self.messages),
                web.get("/api/icons", self.icons),
                web.get("/fonts/DejaVuSans.ttf", self.font),
                web.get("/favicon.ico", favicon_response),
                web.static("/static", PAGES / "static"),
            ]
        )
        app.on_shutdown.append(self._close_sockets)
        app.cleanup_ctx.append(self._timer_ticks)
        return app

    # -- joining ----------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPSeeOther("/seat" if self._arrive(request) else "/table")

    async def join_page(self, request: web.Request) -> web.StreamResponse:
        """A join link opened (or looked at by a link preview): the seat's
        page with its one button, the seat's refusal, or, for the phone that
        holds the seat, the seat itself. Nothing is claimed here."""
        try:
            seat = self._link_seat(request)
            holder = self._arrive(request)
            if holder is not None and holder.seat == seat:
                raise web.HTTPSeeOther("/seat")
            if self.links.claimed(self.table.game_id, seat):
                raise self._failed(request, "web.seat_taken", 403)
        except Refused as refused:
            return _refusal(request, refused.key, refused.status)
        return self._take_seat_page(request, seat)

    async def take_seat(self, request: web.Request) -> web.StreamResponse:
        """The join page's button: the phone's provisional claim and its
        cookie, then the seat's page, whose request makes the claim final."""
        try:
            if not _same_origin(request):
                raise Refused("web.forged", 403)
            self._link_seat(request)
            try:
                phone = self.links.join(request.match_info["token"], request.cookies.get(COOKIE))
            except LinkError:
                raise self._failed(request, "web.seat_taken", 403) from None
        except Refused as refused:
            return _refusal(request, refused.key, refused.status)
        response = web.HTTPSeeOther("/seat")
        response.set_cookie(
            COOKIE, phone.cookie, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Strict", path="/"
        )
        raise response

    def _link_seat(self, request: web.Request) -> int:
        """The seat the request's join link opens in this game. Raises
        Refused: too many failures from this address, a link that opens
        nothing, or one of an earlier game."""
        if self._rate_limited(request.remote or "?"):
            raise Refused("web.too_many_tries", 429)
        try:
            game_id, seat = self.links.seat(request.match_info["token"])
        except LinkError:
            raise self._failed(request, "web.bad_link", 404) from None
        if game_id != self.table.game_id:
            raise Refused("web.old_game", 410)
        return seat

    def _failed(self, request: web.Request, key: str, status: int) -> Refused:
        """A failed join, counted against the address: its refusal."""
        self._failures[request.remote or "?"].append(self.clock())
        return Refused(key, status)

    def _take_seat_page(self, request: web.Request, seat: int) -> web.Response:
        t = Messages(phone_language(request, self._seat_lang(seat)), self.table.names)
        text = _page(
            "join.html",
            t.lang,
            title=t("web.title"),
            page_title=t("web.title_join"),
            question=t("web.join_question", number=seat + 1, player=seat),
            button=t("web.join_button"),
            hint=t("web.join_hint"),
        )
        # Under the site's "no-referrer" a browser sends "Origin: null" with
        # a form's POST, which the Origin check refuses; "same-origin" sends
        # this server's own, and still no address to any other site.
        headers = {"Referrer-Policy": "same-origin"}
        return web.Response(text=text, content_type="text/html", headers=headers)

    def _rate_limited(self, address: str) -> bool:
        failures = self._failures[address]
        now = self.clock()
        while failures and now - failures[0] > FAILED_WINDOW:
            failures.popleft()
        return len(failures) >= FAILED_JOINS

    def _arrive(self, request: web.Request) -> Phone | None:
        """A request of a page that may hold a seat, where a join ends: the
        cookie's first use makes its provisional claim final (the store's
        write, see :meth:`SeatLinks.arrive`). The seat it holds then, in the
        current game, if any."""
        phone = self.links.arrive(request.cookies.get(COOKIE), self.table.game_id)
        self._note_seated(request, phone)
        return phone

    def _phone(self, request: web.Request) -> Phone | None:
        """The seat this request's cookie holds in the current game. A
        getter: it reads the store and never writes to it."""
        phone = self.links.holder(request.cookies.get(COOKIE), self.table.game_id)
        self._note_seated(request, phone)
        return phone

    def _note_seated(self, request: web.Request, phone: Phone | None) -> None:
        """A phone holding a seat was seen at the request's address."""
        if phone is not None and request.remote:
            self._seated[request.remote] = None
            self._seated.move_to_end(request.remote)
            while len(self._seated) > SEATED_ADDRESSES:
                self._seated.popitem(last=False)

    def _still_held(self, request: web.Request, phone: Phone) -> Callable[[], bool]:
        """Whether a socket's phone still holds its seat, asked at every
        change: the store is asked again only when a claim or a re-pair
        changed the seats' links, or the table moved to another game (the
        only ways a seat changes hands), so a commit costs no look-up per
        socket."""
        looked = (self.table.game_id, self._links_changes)
        held = True

        def still() -> bool:
            nonlocal looked, held
            now = (self.table.game_id, self._links_changes)
            if now != looked:
                looked, held = now, self._phone(request) == phone
            elif held:
                self._note_seated(request, phone)
            return held

        return still

    def _seatless(self, request: web.Request) -> Refused:
        """Why a request holds no seat: another phone was first to use its
        claim of the seat (403), or it has none in this game (401)."""
        if self.links.lost(request.cookies.get(COOKIE), self.table.game_id):
            return Refused("web.seat_taken", 403)
        return Refused("web.no_seat", 401)

    # -- a seat's phone -------------------------------------------------------------------
    async def seat_page(self, request: web.Request) -> web.StreamResponse:
        if self._arrive(request) is None:
            seatless = self._seatless(request)
            return _refusal(request, seatless.key, seatless.status)
        return web.Response(text=_versioned(PAGES / "seat.html"), content_type="text/html")

    async def seat_state(self, request: web.Request) -> web.Response:
        phone = self._arrive(request)
        if phone is None:
            seatless = self._seatless(request)
            return _error(seatless.status, seatless.key, request)
        lang = phone_language(request, self._seat_lang(phone.seat))
        text = self.seat_text(phone.seat, lang, csrf_token(phone))
        return web.Response(text=text, content_type="application/json")

    def _seat_lang(self, seat: int) -> str:
        """The seat's language at set-up: a phone that says nothing reads it."""
        return self.table.setup.seats[seat].get("lang", "en")

    def tell_seat(self, seat: int, error: RuleError) -> None:
        """Show a refusal of the seat's own buttons or pad ("vote Veto on
        your phone", "not now") on that seat's phone, and on no other: it
        may reflect what only the seat knows. The phone shows it once, with
        the next state it is sent."""
        if not 0 <= seat < self.table.setup.players:
            return
        self._notices[seat] = error
        for socket, holder in self._seat_sockets.items():
            if holder == seat and socket in self._wake:
                self._wake[socket].set()

    def seat_text(self, seat: int, lang: str, csrf: str | None = None) -> str:
        """The seat's state as ``/api/seat`` sends it: as long as any other
        seat's would be at this point of the game, whatever their secrets
        (see :func:`padded`). What every seat's state shares (the public
        view and board) is written once per state and language, however
        many phones are sent it."""
        state = self._seat_state(seat, lang, csrf)
        shared = self._shared_text(state)
        own = {key: value for key, value in state.items() if key not in shared.keys}
        size = self.table.spec.private_bytes
        self._outgrown("private_bytes", private_bytes(own), size)
        return padded(own, size, shared=shared.text)

    def seat_message(self, seat: int, lang: str) -> SeatMessage:
        """The seat's state as its socket sends it (:meth:`seat_frame`)."""
        state = self._seat_state(seat, lang)
        shared = self._shared_text(state)
        own = {key: value for key, value in state.items() if key not in shared.keys}
        return SeatMessage(_json(own), shared.json)

    def seat_frame(self, message: SeatMessage, last: SeatMessage | None) -> bytes:
        """A seat's frame: its own part deflated alone and padded to its
        game's ``sealed_bytes`` (:func:`sealed`), then the shared part,
        deflated once per state and language for every seat that was sent
        the same one before (with that one as its dictionary)."""
        base = None if last is None else last.shared
        size = self.table.spec.sealed_bytes
        own = sealed(message.own, size)
        self._outgrown("sealed_bytes", len(own), size)
        return FRAME_HEAD.pack(base is not None, len(own)) + own + self._deflated(message, base)

    def _deflated(self, message: SeatMessage, base: bytes | None) -> bytes:
        public = self._public()
        if self._deflated_cache[0] is not public:
            self._deflated_cache = (public, {})
        packed = self._deflated_cache[1]
        key = (message.shared, base)
        if key not in packed:
            packed[key] = deflate(message.shared, base)
        return packed[key]

    def _outgrown(self, name: str, taken: int, size: int) -> None:
        """Tell the log, once per game, that a seat's own part took more than
        its game's ``name`` (``size`` bytes): its states are then 2, 4...
        times as long (which tells that much), and the game's size is to be
        raised."""
        told = (self.table.game_id, name)
        if taken > size and told not in self._outgrown_told:
            self._outgrown_told.add(told)
            log.warning(
                "a seat's own part took %d bytes, past its game's %s (%d): "
                "its states are longer from now on; raise %s in the game's spec",
                taken,
                name,
                size,
                name,
            )

    def _shared_text(self, state: PhoneState) -> SharedPart:
        """The members of a seat's state that every seat's in its language
        shares (the public view and board, the table's status, names and
        languages), written once per state and language."""
        public = self._public()
        if self._shared_cache[0] is not public:
            self._shared_cache = (public, {})
        texts = self._shared_cache[1]
        key = (state["lang"], state["status"], tuple(state["names"]))
        if key not in texts:
            shared: dict[str, Any] = {
                "game": state["game"],
                "dir": state["dir"],
                "languages": state["languages"],
                "names": state["names"],
                "status": state["status"],
                "public": state["public"],
                **self._public_board(Messages(state["lang"], self.table.names)),
            }
            written = _json(shared)
            texts[key] = SharedPart(frozenset(shared), written.decode()[1:-1], written)
        return texts[key]

    def _seat_state(self, seat: int, lang: str, csrf: str | None = None) -> PhoneState:
        """What the seat's phone shows: the public view, and the seat's own
        secrets and private actions, worded on the server in the phone's
        language."""
        table = self.table
        words = table.spec.words
        t = Messages(lang, table.names)
        public = self._public()
        private = table.private_view(seat)
        mine = table.phone_commands(seat)
        state: PhoneState = {
            "type": "state",
            "seat": seat,
            "game": table.setup.game,
            "lang": t.lang,
            "dir": direction(t.lang),
            "languages": LANGUAGE_MENU,
            "names": table.names,
            "public": public,
            "private": private,
            "secrets": secret_lines(words, private, t),
            "actions": words.phone_actions(mine, public, t, private),
            # Its commands with open-ended terms, as forms its words declare.
            "forms": words.phone_forms(mine, public, t, private),
            # The table's screen offers the seat a choice now (a nomination,
            # a turn's action): its phone says so rather than "nothing".
            "at_table": any(c.get("seat") == seat for c in table.shared_commands()),
            "status": table.status_line(t.lang),
            # From the public view alone: the same for every seat's secrets.
            **self._public_board(t),
            "cue": words.phone_cue(public, seat),
        }
        notice = self._notices.pop(seat, None)
        if notice is not None:
            state["notice"] = words.refusal(notice, public, t)
        version, last = self._seat_versions.get((seat, t.lang), (0, None))
        if state != last:
            version += 1
            self._seat_versions[seat, t.lang] = (version, state)
        state = {**state, "version": version}
        if csrf is not None:
            state["csrf"] = csrf
        return state

    def _public(self) -> View:
        """The public view with the phones' status: computed once per state
        (and per second, for a running timer) however many sockets take it."""
        key = self._public_key()
        if self._public_cache[0] != key:
            self._keep_public(key, self._with_phones(self.table.public_view()))
        return self._public_cache[1]

    def _keep_public(self, key: tuple[Any, ...], public: View, timer_moved: bool = False) -> None:
        """Keep ``public`` as the table's public state. If it is the same as
        the one before, that one stays (the same object, the same texts and
        version, so nothing is sent again); else the version goes up. A
        running timer's time left does not count, unless ``timer_moved``
        (the timer's own tick): a command that changed nothing else public
        keeps the time left the pages were last sent, so it sends them
        nothing."""
        kept = self._public_cache[1]
        if public == kept or (not timer_moved and _settled(public) == _settled(kept)):
            self._public_cache = (key, kept)
            return
        self._public_cache = (key, public)
        self._public_version += 1

    def _public_board(self, t: Messages) -> PublicBoard:
        """The public board in ``t``'s language (:func:`public_board`),
        worded once per state and language however many pages show it."""
        public = self._public()
        if self._board_cache[0] is not public:
            self._board_cache = (public, {})
        boards = self._board_cache[1]
        if t.lang not in boards:
            boards[t.lang] = public_board(self.table.spec.words, public, t)
        return boards[t.lang]

    async def _timer_ticks(self, app: web.Application) -> AsyncIterator[None]:
        """Follow the table's timer while the server runs."""
        follower = asyncio.ensure_future(self._follow_timer())
        yield
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower

    async def _follow_timer(self) -> None:
        """Every ``TIMER_LOOK`` seconds: if the time left of the table's
        timer reads another whole second than the pages were sent, every
        page is sent the new time (each that shows it: all of them). This is
        the only way the time left moves in what pages are sent, so it
        reaches them on the timer's schedule and never a command's."""
        while True:
            await asyncio.sleep(TIMER_LOOK)
            try:
                self._timer_tick()
            except Exception:  # a table that cannot be looked at now: next look
                log.exception("the phones' timer could not be refreshed")

    def _timer_tick(self) -> None:
        # The timer as the pages were last sent it. The public view is not
        # refreshed here unless the timer moved: a look that folded other
        # changes in (two claims at once, say) would make the versions
        # count the looks.
        shown = self._public_cache[1].get("timer")
        if not _counting_down(shown):
            return
        now = self.table.timer()
        if now is not None and _seconds_left(now) == _seconds_left(shown):
            return
        self._keep_public(
            self._public_key(), self._with_phones(self.table.public_view()), timer_moved=True
        )
        self._wake_phones()

    def _public_key(self) -> tuple[Any, ...]:
        table = self.table
        return (table.game_id, len(table.log), self._links_changes, int(table.clock()))

    def _with_phones(self, view: View) -> View:
        """The public view with the phones' status (a copy: the view a
        commit hands its listeners is theirs to share)."""
        return {**view, "phones": self._phones()}

    def _phones(self) -> list[dict[str, object]]:
        """The seats' phones' status, read from the store once per claim or
        re-pair (the only changes it has), not once per commit."""
        table = self.table
        key = (table.game_id, table.setup.players, self._links_changes)
        if self._phones_cache[0] != key:
            self._phones_cache = (key, self.links.status(table.game_id, table.setup.players))
        return self._phones_cache[1]

    async def command(self, request: web.Request) -> web.Response:
        phone = self._arrive(request)
        if phone is None:
            seatless = self._seatless(request)
            return _error(seatless.status, seatless.key, request)
        sent = request.headers.get(CSRF_HEADER, "")
        if not same_secret(sent, csrf_token(phone)) or not _same_origin(request):
            return _error(403, "web.forged", request)
        if not _says_json(request):
            return _error(415, "web.not_json", request)
        try:
            body = await _body(request, MAX_BODY_BYTES)
        except web.RequestPayloadError:  # cut short, or badly chunked
            return _error(400, "command.not_json", request)
        if body is None:
            return _error(413, "command.too_large", request)
        try:
            command = json.loads(body.decode("utf-8"))
        except (ValueError, RecursionError):  # not UTF-8, not JSON, nested past reading
            return _error(400, "command.not_json", request)
        if not isinstance(command, dict):
            return _error(400, "command.not_an_object", request)
        command.pop(PAD, None)  # the page's padding (see seat.js)
        command["seat"] = phone.seat  # a phone acts for its own seat only
        try:
            events = self.table.execute(command, source=seat_source(phone.seat))
        except RuleError as exc:
            t = Messages(phone_language(request), self.table.names)
            message = self.table.spec.words.refusal(exc, self._public(), t)
            return answer({"error": exc.key, "message": message}, status=400)
        except StoreError:
            log.exception("the store refused a phone's command")
            return _error(503, "web.not_stored", request)
        return answer({"ok": True, "events": len(events)})

    async def seat_socket(self, request: web.Request) -> web.StreamResponse:
        phone = self._arrive(request)
        if phone is None or not _same_origin(request):
            raise web.HTTPUnauthorized()
        if self._full(request):
            return _error(503, "web.busy", request)
        # Never compressed by the socket: how well a state compresses would
        # tell its secrets. Its frames are deflated part by part instead.
        socket = web.WebSocketResponse(heartbeat=SOCKET_HEARTBEAT, compress=False)
        if not _can_open(socket, request):
            return _error(400, "web.not_a_socket", request)
        # Whether the seat is still held is asked from the links as they were
        # when the phone was let in: a re-pair (or a next game) while the
        # socket opens is seen at its first state, not taken as already known.
        still = self._still_held(request, phone)
        await socket.prepare(request)
        frames = request.query.get("frames")
        if frames not in SEAT_FRAMES:  # a page from before an update: it reloads
            await socket.close(code=4001, message=b"reload")
            return socket
        self._make_room(phone.seat)
        self._seat_sockets[socket] = phone.seat
        self._open_by_address[request.remote or ""] += 1
        try:
            lang = phone_language(request, self._seat_lang(phone.seat))
            if frames == "text":  # a browser that cannot inflate: as /api/seat
                await self._feed(
                    socket,
                    lambda: self.seat_text(phone.seat, lang),
                    f"seat:{phone.seat}",
                    still,
                    request,
                )
            else:
                await self._feed(
                    socket,
                    lambda: self.seat_message(phone.seat, lang),
                    f"seat:{phone.seat}",
                    still,
                    request,
                    self.seat_frame,
                )
        finally:
            self._seat_sockets.pop(socket, None)
            self._closed_from(request)
        return socket

    def _make_room(self, seat: int) -> None:
        """A seat keeps its newest ``SEAT_SOCKETS`` sockets (a phone that
        reopens its page, a second phone of the same player); older ones are
        closed, so one cookie cannot make every change cost the loop more."""
        mine = [socket for socket, holder in self._seat_sockets.items() if holder == seat]
        for socket in mine[: max(0, len(mine) - SEAT_SOCKETS + 1)]:
            self._seat_sockets.pop(socket, None)
            closing = asyncio.ensure_future(socket.close(code=4002, message=b"newer page"))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    # -- the public table ------------------------------------------------------------------
    async def table_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=_versioned(PAGES / "table.html"), content_type="text/html")

    async def table_state(self, request: web.Request) -> web.Response:
        lang = phone_language(request)
        return web.json_response(
            {
                **self._table_state(lang),
                "lang": lang,
                "dir": direction(lang),
                "languages": LANGUAGE_MENU,
            }
        )

    async def icons(self, request: web.Request) -> web.Response:
        """The game's icons as SVG, by piece: sent once to a page, not with
        every state; cached briefly, as the table may start another game."""
        return web.json_response(
            game_icons(self.table.spec), headers={"Cache-Control": f"max-age={ICONS_MAX_AGE}"}
        )

    def _table_state(self, lang: str) -> TableState:
        """The public table, worded in the page's language: what it waits
        for, its figures, the cards it keeps in sight, and its log."""
        table, public = self.table, self._public()
        t = Messages(lang, table.names)
        return {
            "type": "state",
            "version": self._public_version,
            "game": table.setup.game,
            "names": table.names,
            "public": public,
            "status": table.status_line(t.lang),
            **self._public_board(t),
            "log": [t.log_line(line["key"], line["args"]) for line in public["log"]],
        }

    async def table_socket(self, request: web.Request) -> web.StreamResponse:
        if self._full(request):
            return _error(503, "web.busy", request)
        # Compressed if the page asks: what it carries is public, and so is
        # how well that compresses.
        socket = web.WebSocketResponse(heartbeat=SOCKET_HEARTBEAT)
        if not _can_open(socket, request):
            return _error(400, "web.not_a_socket", request)
        await socket.prepare(request)
        lang = phone_language(request)
        self._table_sockets[socket] = lang
        self._open_by_address[request.remote or ""] += 1
        try:
            await self._feed(socket, lambda: self.table_text(lang), "table", lambda: True, request)
        finally:
            self._table_sockets.pop(socket, None)
            self._closed_from(request)
        return socket

    def _full(self, request: web.Request) -> bool:
        """Whether a new socket would pass the caps: ``ADDRESS_SOCKETS`` from
        one address, ``ALL_SOCKETS`` in all. Past them the page is told to
        wait (503), and every phone already open stays connected."""
        open_now = len(self._seat_sockets) + len(self._table_sockets)
        mine = self._open_by_address.get(request.remote or "", 0)
        return open_now >= ALL_SOCKETS or mine >= ADDRESS_SOCKETS

    def _closed_from(self, request: web.Request) -> None:
        address = request.remote or ""
        self._open_by_address[address] -= 1
        if self._open_by_address[address] <= 0:
            del self._open_by_address[address]

    def table_text(self, lang: str) -> str:
        """The table's state as sent: the same text for every table socket
        of a language, made once per state."""
        public = self._public()
        if self._table_text_cache[0] is not public:
            self._table_text_cache = (public, {})
        texts = self._table_text_cache[1]
        if lang not in texts:
            texts[lang] = _text(self._table_state(lang))
        return texts[lang]

    async def font(self, request: web.Request) -> web.StreamResponse:
        """The pages' font, from the Pi itself (no internet): DejaVu Sans
        covers Latin, Greek, Cyrillic and Persian."""
        font = page_font()
        if font is None:
            raise web.HTTPNotFound()
        return web.FileResponse(font, headers={"Cache-Control": "max-age=86400"})

    async def messages(self, request: web.Request) -> web.Response:
        lang = request.match_info["lang"]
        if lang not in LANGUAGES:
            raise web.HTTPNotFound()
        return web.json_response(catalog(lang))

    # -- live updates --------------------------------------------------------------------
    async def _feed(
        self,
        socket: web.WebSocketResponse,
        state: Callable[[], Any],
        audience: str,
        still_valid: Callable[[], bool],
        request: web.Request,
        frame: Callable[[Any, Any], bytes] | None = None,
    ) -> None:
        """Send the state now and after every change, always the latest one
        (a slow phone skips states, it never queues them), until the socket
        closes or its seat is no longer this phone's. Every socket is fed on
        its own: one that stops reading holds up nobody else, and once it
        has not taken a state for ``SEND_WAIT`` seconds it is dropped (its
        page reconnects when it can). ``state`` is a text, sent as it is, or
        what ``frame`` makes a binary frame of, given the state this socket
        was sent before (None at first)."""
        wake = self._wake[socket] = asyncio.Event()
        reader = asyncio.ensure_future(_drop_what_it_says(socket, wake))
        sent = None
        try:
            while not reader.done():
                if not still_valid():
                    await socket.close(code=4001, message=b"re-paired")
                    return
                now = state()
                if now != sent:  # what this phone sees changed
                    message = now if frame is None else frame(now, sent)
                    sent = now
                    if self.sent is not None:
                        self.sent.append((audience, now if frame is None else now.text()))
                    try:
                        async with asyncio.timeout(SEND_WAIT):
                            if isinstance(message, bytes):
                                await socket.send_bytes(message)
                            else:
                                await socket.send_str(message)
                    except ConnectionError:  # the phone went away mid-send
                        return
                    except TimeoutError:  # not reading: drop it
                        if request.transport is not None:
                            request.transport.abort()
                        return
                await wake.wait()  # a change, or the socket closed
                wake.clear()
        finally:
            reader.cancel()
            self._wake.pop(socket, None)

    def _changed(self, update: Update) -> None:
        """A commit, or another game (its phones of the old one are done)."""
        self._keep_public(self._public_key(), self._with_phones(update.view))
        self._wake_phones()

    def _wake_phones(self) -> None:
        """Every phone and table page works out its state again, and sends
        it only if it changed: the seats' phones first, then the table
        pages, ``WAKE_BATCH`` per turn of the loop so the kiosk's frames go
        on between them (tests/test_web_spread.py)."""
        seats = [self._wake[s] for s in self._seat_sockets if s in self._wake]
        pages = [self._wake[s] for s in self._table_sockets if s in self._wake]
        self._wake_in_turn(seats + pages)

    def _wake_in_turn(self, wakes: list[asyncio.Event]) -> None:
        for wake in wakes[:WAKE_BATCH]:
            wake.set()
        if len(wakes) > WAKE_BATCH:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # told from outside the loop (a tool): all at once
                for wake in wakes[WAKE_BATCH:]:
                    wake.set()
                return
            loop.call_soon(self._wake_in_turn, wakes[WAKE_BATCH:])

    async def _close_sockets(self, app: web.Application) -> None:
        for socket in [*self._seat_sockets, *self._table_sockets]:
            await socket.close(code=1001, message=b"server shutdown")


class Refused(Exception):
    """A phone's request refused: the message's key and the HTTP status."""

    def __init__(self, key: str, status: int) -> None:
        super().__init__(key)
        self.key = key
        self.status = status


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    )
    return response


@web.middleware
async def store_refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A write the store refused (a full or read-only disk) while a phone
    joins or first uses its cookie: 503, in the phone's words (a page, or
    JSON for ``/api/``), as for a refused command; nothing was claimed, and
    the same link and cookie work once the store writes again."""
    try:
        return await handler(request)
    except StoreError as exc:
        log.warning("the store refused a phone's request (%s): %s", request.path, exc)
        if request.path.startswith(("/api/", "/ws")):
            return _error(503, "web.not_stored", request)
        return _refusal(request, "web.not_stored", 503)


async def _drop_what_it_says(socket: web.WebSocketResponse, wake: asyncio.Event) -> None:
    """Read what a page sends and drop it unread (a page says nothing, and
    what it says costs no state) until its socket closes; then wake its
    feed, which ends."""
    try:
        async for _ in socket:
            pass
    finally:
        wake.set()


def _can_open(socket: web.WebSocketResponse, request: web.Request) -> bool:
    """Whether the request is a handshake ``socket`` can answer, as a page's
    is. aiohttp's own refusal quotes the header it did not like, and cannot
    even be sent when that header holds bytes that are not UTF-8; a page
    asks for no sub-protocol (one the server does not speak costs the log a
    warning)."""
    if hdrs.SEC_WEBSOCKET_PROTOCOL in request.headers:
        return False
    try:
        return socket.can_prepare(request).ok
    except UnicodeEncodeError:
        return False


def public_board(words: Words, public: View, t: Messages) -> PublicBoard:
    """What the kiosk shows of the table, worded from the public view for a
    page: its figures, its board, the cards it keeps in sight, and the rules
    at hand (what is happening now and what each may do; the game's quick
    reference)."""
    return {
        "facts": words.bar_items(public, t),
        "board": words.board(public, t),
        "reference": [card._asdict() for card in words.reference_cards(public, t)],
        "explain": words.explain(public, t),
        "rules": [{"name": name, "text": text} for name, text in words.quick_reference(public, t)],
    }


def _settled(public: View) -> View:
    """The public view without what moves with time alone: a running
    timer's time left (``remaining``, in every game's timer; see
    :meth:`Table.public_view`)."""
    timer = public.get("timer")
    if not _counting_down(timer):
        return public
    return {**public, "timer": {k: v for k, v in timer.items() if k != "remaining"}}


def _counting_down(timer: Any) -> TypeGuard[Timer]:
    """Whether a public view's ``timer`` is running, its time left moving."""
    return isinstance(timer, dict) and bool(timer.get("running")) and "remaining" in timer


def _seconds_left(timer: Timer) -> int:
    """A timer's whole seconds left, as a clock shows them (rounded up)."""
    return math.ceil(timer["remaining"])


@dataclass(frozen=True)
class SharedPart:
    """The members every seat's state in a language shares: their keys,
    their JSON without its braces (for the text :func:`padded` writes) and
    with them, in UTF-8 (a frame's shared part)."""

    keys: frozenset[str]
    text: str
    json: bytes


@dataclass(frozen=True)
class SeatMessage:
    """A seat's state as its socket sends it: its own members (its secrets
    and choices, its version) and the members every seat in its language
    shares, each as JSON."""

    own: bytes
    shared: bytes

    def text(self) -> str:
        """The whole state, as its page reads it (its JSON text)."""
        return f"{self.own[:-1].decode()},{self.shared[1:].decode()}"


def _json(state: Mapping[str, Any]) -> bytes:
    """JSON in UTF-8, as ``json.dumps(state, ensure_ascii=False,
    separators=(",", ":"))`` writes it, byte for byte, in an eighth of the
    instructions (orjson)."""
    return orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS)


def _text(state: Mapping[str, Any]) -> str:
    return _json(state).decode()


def deflate(
    data: bytes, dictionary: bytes | None = None, window_bits: int = 15, mem_level: int = 8
) -> bytes:
    """``data`` as a raw deflate stream (what a page's
    ``DecompressionStream("deflate-raw")`` inflates, whatever the window it
    was made with), with ``dictionary`` (the text before it) as the window
    it may refer back to."""
    packer = (
        zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -window_bits, mem_level, zdict=dictionary)
        if dictionary
        else zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -window_bits, mem_level)
    )
    return packer.compress(data) + packer.flush()


def sealed(own: bytes, size: int) -> bytes:
    """A seat's own part as its frame carries it: deflated on its own
    (never with another text, so another seat's or a chosen name cannot
    tell how well it compresses), after its length, padded with zeros to
    ``size`` bytes whatever it says. A part that outgrows ``size`` takes 2,
    4, 8... times ``size``, the fewest that hold it (as :func:`padded`)."""
    packed = deflate(own, window_bits=OWN_WINDOW_BITS, mem_level=OWN_MEM_LEVEL)
    taken = OWN_HEAD.size + len(packed)
    budget = size
    while budget < taken:
        budget *= 2
    return OWN_HEAD.pack(len(packed)) + packed + bytes(budget - taken)


def padded(
    message: dict[str, Any],
    size: int,
    private: tuple[str, ...] = PRIVATE_FIELDS,
    shared: str = "",
) -> str:
    """``message`` as sent, with a ``pad`` of spaces that makes its
    ``private`` fields and the pad take ``size`` bytes together, whatever
    those fields say: the message is then as long as its other fields make
    it, plus a constant. Fields that outgrow ``size`` cannot hide that they
    did: they take 2, 4, 8... times ``size``, the fewest that hold them,
    which tells no more than that power of two. ``shared``: more members,
    already written (JSON without its braces), public ones."""
    taken = private_bytes(message, private)
    budget = size
    while budget < taken:
        budget *= 2
    text = _text({**message, PAD: " " * (budget - taken)})
    return f"{text[:-1]},{shared}}}" if shared else text


def private_bytes(message: dict[str, Any], private: tuple[str, ...] = PRIVATE_FIELDS) -> int:
    """The bytes the ``private`` fields of ``message`` take with an empty
    pad, written as an object of their own. In the message they take as
    many, less the braces, plus a comma before each one not first there."""
    own = {key: message[key] for key in private if key in message}
    return len(_json({**own, PAD: ""}))


def answer(body: dict[str, Any], status: int = 200) -> web.Response:
    """A seat's command answered, taken or refused: its body is
    ``ANSWER_BYTES`` long whatever it says. (Its status line still tells
    taken from refused.)"""
    text = padded(body, ANSWER_BYTES, private=tuple(body))
    return web.Response(text=text, status=status, content_type="application/json")


async def _body(request: web.Request, limit: int) -> bytes | None:
    """The request's body, or None if it is longer than ``limit`` bytes (of
    which no more is read)."""
    if (request.content_length or 0) > limit:
        return None
    body = bytearray()
    while len(body) <= limit:
        chunk = await request.content.readany()
        if not chunk:
            return bytes(body)
        body += chunk
    return None


def _says_json(request: web.Request) -> bool:
    """Whether a request's body says it is JSON in UTF-8, uncompressed, as
    the seat's page sends a command: a charset the server does not read is
    not guessed at, and a body is never inflated (see :meth:`TableServer.app`)."""
    charset = (request.charset or "utf-8").lower()
    coding = request.headers.get("Content-Encoding", "identity").lower()
    return request.content_type == "application/json" and (charset, coding) == ("utf-8", "identity")


def _same_origin(request: web.Request) -> bool:
    """A request a browser sends from this server's own page: its Origin (if
    any) is this server's, scheme and host (``https://`` from a page of
    another server on the same name is not)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin == f"{request.scheme}://{request.host}"


def phone_language(request: web.Request, otherwise: str = "en") -> str:
    """The phone's language: the one chosen on its page (a cookie), else the
    browser's first that we speak, else ``otherwise``."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    for lang in _preferred(request.headers.get("Accept-Language", "")):
        if lang in LANGUAGES:
            return lang
    return otherwise


def _preferred(header: str) -> list[str]:
    """The languages of an Accept-Language header, most wanted first (by
    their q-values; equal ones in the header's order; q=0 means "not this")."""
    weighted = []
    for index, part in enumerate(header.split(",")):
        lang, *params = part.strip().split(";")
        q = 1.0
        for param in params:
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            weighted.append((-q, index, lang.strip().split("-")[0].lower()))
    return [lang for _, _, lang in sorted(weighted)]


def _error(status: int, key: str, request: web.Request) -> web.Response:
    return web.json_response(
        {"error": key, "message": Messages(phone_language(request))(key)}, status=status
    )


def _refusal(request: web.Request, key: str, status: int) -> web.Response:
    """A refusal as a page, in the phone's language."""
    t = Messages(phone_language(request))
    text = _page(
        "refusal.html",
        t.lang,
        title=t("web.title"),
        page_title=t("web.title_refused"),
        message=t(key),
    )
    return web.Response(text=text, status=status, content_type="text/html")


def _page(name: str, lang: str, **texts: str) -> str:
    """A page of ``pages/`` with its ``{{field}}``s filled: the language and
    its direction, and the texts, escaped."""
    page = _versioned(PAGES / name)
    fields = {"lang": lang, "dir": direction(lang)} | {k: _html(v) for k, v in texts.items()}
    for field, value in fields.items():
        page = page.replace("{{" + field + "}}", value)
    return page


def _static_version() -> str:
    """A hash of the pages' scripts and style, which their URLs carry
    (``?v=``): a browser never runs a script it cached before an update
    with a page of after it."""
    digest = hashlib.sha256()
    for path in sorted((PAGES / "static").iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


STATIC_VERSION = _static_version()


def _versioned(page: Path) -> str:
    """A page of ``pages/``, its scripts' and style's URLs versioned."""
    return page.read_text(encoding="utf-8").replace("{{v}}", STATIC_VERSION)


def _html(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
