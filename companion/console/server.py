"""The console's page (aiohttp): staff log in with the password, then see
every table as a card, kept live over a WebSocket, and act on a table.

Every POST carries a CSRF token (the session's; at login, the login page's
cookie) and every POST and socket comes from the console's own page
(Origin); failed logins are rate-limited per client address (behind the
trusted TLS proxy, the one it forwards: guard.py), the password checked off
the event loop; sessions (sessions.py) are made only at login, end at
logout or when they expire, and their cookie is HttpOnly, SameSite=Strict,
Secure over TLS. Every text from a table (its name, its players' names, its
last error) is escaped."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

from aiohttp import WSCloseCode, WSMsgType, web

from ..fleet import protocol
from ..i18n import LANGUAGES, Messages, add_catalogs, direction
from ..secret_hash import pin_matches, same_secret
from . import fleet as f
from .charts import bar_chart
from .checks import Checks
from .fleet import Pending, TableView, parse
from .guard import forwarded, same_origin
from .sessions import ABSOLUTE_SECONDS, Session, Sessions
from .stats import Stats
from .trust import Trust

# The console's own words, registered when a console is made (not on import).
CATALOGS = Path(__file__).with_name("catalogs")

SESSION = "console_session"
LANG = "console_lang"
LOGIN = "console_login"  # the login form's CSRF token, before there is a session
LOGGED_OUT = 4401  # a page's socket closed as its session ended: the page reloads
ALL = ""  # in the cards to push: every card (no table has this name)
FAILED_LOGINS = 10  # failed logins per address...
FAILED_WINDOW = 60.0  # ...per this many seconds, then 429
ALERT_EVERY = 5.0  # seconds between looks at the alerts that come with time
PAGE = 50  # cards on a page, the signed tables first
STYLE = (Path(__file__).with_name("console.css")).read_text(encoding="utf-8")
SCRIPT = (Path(__file__).with_name("console.js")).read_text(encoding="utf-8")
ICON = (Path(__file__).with_name("icon.svg")).read_bytes()


class Console:
    def __init__(
        self,
        password_hash: str,
        action_key: bytes,
        stats: Stats,
        send: Callable[[str, dict[str, Any]], None] = lambda _t, _a: None,
        clock: Callable[[], float] = time.monotonic,
        reply_seconds: float = f.REPLY_SECONDS,
    ) -> None:
        add_catalogs(CATALOGS)
        self.password_hash = password_hash
        self.key = action_key
        self.stats = stats
        self.send = send
        self.clock = clock
        self.reply_seconds = reply_seconds
        self.tables: dict[str, TableView] = {}
        self.checks = Checks()
        self.trust = Trust(action_key)
        self.sessions = Sessions(clock)
        self.failures: dict[str, deque[float]] = defaultdict(deque)
        self.sockets: set[tuple[web.WebSocketResponse, str, tuple[tuple[str, str], ...], str]] = (
            set()
        )
        self._alerts_seen: dict[str, list[str]] = {}
        self.broker_up = True
        self._dirty: set[str] | None = None  # cards to push on the loop's next turn
        self.pushed: dict[web.WebSocketResponse, list[str]] = {}  # the tables each page shows

    # -- the broker's messages, on the loop -------------------------------------------
    def receive(self, table: str, leaf: str, payload: bytes) -> None:
        data = parse(payload)
        if data is None:
            return
        if leaf == "reply":
            self._take_reply(table, data)
            return
        view = self.tables.setdefault(table, TableView(table))
        if not self.trust.admit(view, leaf, data):
            return
        if leaf == "status":
            data = self.checks.status(table, data)
            view.take_status(data, self.clock())
            if view.signed:  # an unsigned table's games are no café's statistics
                self.stats.seen(table, data)
        elif leaf == "online":
            view.online = bool(data.get("online"))
        self.changed(table)

    def _take_reply(self, table: str, data: dict[str, Any]) -> None:
        """A reply counts only as the answer to the action this table was
        last sent (its id; the reply names the table), and only the first
        (a later one, a repeat or a forgery, changes nothing shown)."""
        view = self.tables.get(table)
        if view is None or not self.trust.admit(view, "reply", data):  # signed by the table
            return
        pending = view.pending
        reply = self.checks.reply(table, data)
        if (
            reply is None
            or pending is None
            or reply["id"] != pending.id
            or pending.fate in ("ok", "refused")
        ):
            return
        pending.fate = "ok" if reply["ok"] else "refused"
        pending.key, pending.args = reply["key"], reply["args"]
        self.changed(table)

    def act(self, table: str, action: str, args: dict[str, Any]) -> None:
        view = self.tables[table]
        # It expires as the staff are told the table did not answer: a table
        # it reaches later (a broker that was down) refuses it.
        message = protocol.make_action(
            self.key, table, action, view.game_id, args, lifetime=self.reply_seconds
        )
        view.pending = pending = Pending(message["id"], action)
        self.send(table, message)
        asyncio.get_running_loop().call_later(self.reply_seconds, self._no_answer, view, pending)

    def _no_answer(self, view: TableView, pending: Pending) -> None:
        if view.pending is pending and pending.fate == "waiting":
            pending.fate = "no_answer"
            self.changed(view.name)

    def broker_link(self, up: bool) -> None:
        """The console's own connection to the broker came or went. Gone, it
        can see no table: each shows offline, and the page says why, until
        the broker's retained messages (resent on the next connect) and the
        tables that come back say otherwise."""
        self.broker_up = up
        if not up:
            for view in self.tables.values():
                view.online = False
        self.changed()

    def changed(self, table: str | None = None) -> None:
        """Something shown changed (``table``'s card, or anything: None).
        Changes that come together go out together, on the loop's next turn."""
        if not self.sockets:
            return  # no page open: nothing to tell
        if self._dirty is None:
            self._dirty = set()
            asyncio.get_running_loop().call_soon(self._push)
        self._dirty.add(table if table is not None else ALL)

    def _push(self) -> None:
        """To each open page: only the cards that changed, when it shows the
        same tables as before; else all its cards."""
        dirty, self._dirty = self._dirty or set(), None
        now = self.clock()
        for ws, lang, filters, csrf in list(self.sockets):
            if ws.closed:
                continue
            shown = self.shown(dict(filters), now)
            names = [view.name for view in shown]
            if ALL in dirty or self.pushed.get(ws) != names:
                message: dict[str, Any] = {"cards": self.cards(lang, dict(filters), csrf)}
            else:
                say = Messages(lang)
                message = {
                    "update": {
                        view.name: self.card(view, say, now, csrf, dict(filters))
                        for view in shown
                        if view.name in dirty
                    }
                }
                if not message["update"]:
                    continue
            self.pushed[ws] = names
            asyncio.ensure_future(ws.send_str(json.dumps(message)))

    async def watch_alerts(self) -> None:
        """Alerts that come with time alone (a long pause, an expired timer)."""
        while True:
            await asyncio.sleep(ALERT_EVERY)
            self.check_alerts()

    def check_alerts(self) -> None:
        now = self.clock()
        alerts = {name: view.alerts(now) for name, view in self.tables.items()}
        if alerts != self._alerts_seen:
            self._alerts_seen = alerts
            self.changed()

    # -- the page -----------------------------------------------------------------------
    def matching(self, filters: dict[str, str], now: float) -> list[TableView]:
        """Every table the filters let through: the signed ones first (a
        crowd of fake tables never pushes a real one off the first page),
        each part by name."""
        views = (view for view in self.tables.values() if _passes(view, filters, now))
        return sorted(views, key=lambda view: (not view.signed, view.name))

    def shown(self, filters: dict[str, str], now: float) -> list[TableView]:
        """The tables on the page the filters ask for."""
        start = (_page_number(filters) - 1) * PAGE
        return self.matching(filters, now)[start : start + PAGE]

    def cards(self, lang: str, filters: dict[str, str], csrf: str = "") -> str:
        say = Messages(lang)
        now = self.clock()
        matching = self.matching(filters, now)
        start = (_page_number(filters) - 1) * PAGE
        shown = matching[start : start + PAGE]
        lost = (
            ""
            if self.broker_up
            else f'<p class="broker-lost" role="alert">{escape(say("console.broker_lost"))}</p>'
        )
        pager = _pager(say, filters, start, len(shown), len(matching))
        above = pager and (
            f'<nav class="pages" aria-label="{escape(say("console.page.label"))}">{pager}</nav>'
        )
        if not shown:
            return lost + f'<p class="empty">{escape(say("console.no_tables"))}</p>' + above
        cards = "".join(self.card(view, say, now, csrf, filters) for view in shown)
        # Again below the cards, there not a second landmark.
        below = pager and f'<div class="pages">{pager}</div>'
        return lost + above + cards + below

    def card(
        self, view: TableView, say: Messages, now: float, csrf: str, filters: dict[str, str]
    ) -> str:
        status = view.status or {}
        alerts = view.alerts(now)
        game = status.get("game")
        lines = [
            f'<article class="card{" alert" if alerts else ""}{"" if view.signed else " unsigned"}"'
            f' data-table="{escape(view.name)}">'
            f"<h2><bdi>{escape(view.name)}</bdi></h2>",
            '<p class="online">'
            + escape(say("console.offline" if view.online is False else "console.online"))
            + "</p>"
            if view.signed
            else '<p class="unsigned-note" role="note"><span aria-hidden="true">⚠</span> '
            f"<strong>{escape(say('console.unsigned'))}</strong></p>",
        ]
        if alerts:
            lines.append('<ul class="alerts">')
            for alert in alerts:
                extra = ""
                if alert == f.ERROR:
                    error = view.health["last_error"]
                    # The table's own words: set apart, they may hold a name.
                    extra = f": <bdi>{escape(str(error.get('message', ''))[:200])}</bdi>"
                words = say("console.alert." + alert)
                lines.append(
                    f'<li class="alert-{alert}"{_news(view, say, words)}>'
                    '<span aria-hidden="true">⚠</span> '
                    f"<strong>{escape(words)}</strong>{extra}</li>"
                )
            lines.append("</ul>")
        facts = [say("console.state." + view.state)]
        if isinstance(game, str):
            facts.insert(0, say("game." + game))
        for key in ("round", "turn"):
            if isinstance(status.get(key), int):
                facts.append(say("console." + key, value=str(status[key])))
        lines.append(f'<p class="facts">{escape(" · ".join(facts))}</p>')
        where = _status_line(status, say.lang)
        if where:
            lines.append(f'<p class="line">{escape(where)}</p>')
        timer = view.timer
        if timer is not None:
            remaining = int(timer["remaining"])
            words = (
                say("console.timer.up")
                if remaining <= 0
                else say(
                    "console.timer." + _timer_state(timer),
                    time=f"{remaining // 60}:{remaining % 60:02d}",
                )
            )
            lines.append(f'<p class="timer">{escape(words)}</p>')
        phones = view.health.get("phones") or []
        if view.names:
            lines.append('<ul class="players">')
            for seat, name in enumerate(view.names):
                phone = say("console.phone" if seat in phones else "console.no_phone")
                lines.append(f"<li><bdi>{escape(name)}</bdi> <small>{escape(phone)}</small></li>")
            lines.append("</ul>")
        lines.append(f'<p class="health">{escape(_health(view.health, say))}</p>')
        if view.pending is not None:
            reply = _reply(view.pending, say)
            lines.append(f'<p class="reply"{_news(view, say, reply)}>{escape(reply)}</p>')
        if view.online is not False and csrf and view.signed:
            lines.append(self.actions(view, say, csrf, filters))
        lines.append("</article>")
        return "".join(lines)

    def actions(self, view: TableView, say: Messages, csrf: str, filters: dict[str, str]) -> str:
        def form(action: str, label: str, fields: str = "") -> str:
            return (
                f'<form method="post" action="/action" class="act act-{action}">'
                f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
                f'<input type="hidden" name="table" value="{escape(view.name)}">'
                f'<input type="hidden" name="action" value="{action}">'
                f'<input type="hidden" name="back" value="{escape(urlencode(filters))}">'
                f"{fields}<button type='submit'>{escape(label)}</button></form>"
            )

        parts = []
        state = view.state
        if state in ("playing", "finished"):
            parts.append(
                f"<details><summary>{escape(say('console.act.end_game'))}</summary>"
                + form(protocol.END_GAME, say("console.act.end_game_confirm"))
                + "</details>"
            )
        timer = view.timer
        if timer is not None and timer.get("running"):
            parts.append(form(protocol.PAUSE_TIMER, say("console.act.pause_timer")))
        elif timer is not None and timer.get("paused") is True and timer["remaining"] > 0:
            parts.append(form(protocol.RESUME_TIMER, say("console.act.resume_timer")))
        if view.names:
            options = "".join(
                f'<option value="{seat}" dir="auto">{escape(name)}</option>'
                for seat, name in enumerate(view.names)
            )
            parts.append(
                form(
                    protocol.REPAIR_SEAT,
                    say("console.act.repair_seat"),
                    f'<select name="seat" aria-label="{escape(say("console.seat"))}">'
                    f"{options}</select>",
                )
            )
        if view.screen:  # a table with no screen would only refuse it
            field = escape(f"message-{view.name}")
            parts.append(
                form(
                    protocol.MESSAGE,
                    say("console.act.message"),
                    f'<label for="{field}">{escape(say("console.message"))}</label>'
                    f'<input id="{field}" name="text" maxlength="{protocol.MAX_MESSAGE}"'
                    " required>",
                )
            )
        if state == "finished" or (state == "idle" and view.had_game):
            parts.append(form(protocol.NEXT_GAME, say("console.act.next_game")))
        return '<div class="actions">' + "".join(parts) + "</div>"

    def charts(self, say: Messages) -> str:
        rtl = direction(say.lang) == "rtl"
        per_day = [
            (f"{table} · {day}", count, say.number(count))
            for (table, day), count in sorted(self.stats.per_table_day().items())
        ]
        lengths = [
            (say("game." + game), minutes, say("console.minutes", count=round(minutes)))
            for game, minutes in sorted(self.stats.average_minutes().items())
        ]
        # Only the hours that had a game: a day of mostly empty rows is noise.
        hours = [
            (say.number(f"{hour:02d}:00"), count, say.number(count))
            for hour, count in self.stats.per_hour().items()
            if count
        ]
        none, none_finished = say("console.chart.no_games"), say("console.chart.no_finished")
        return (
            bar_chart(say("console.chart.per_day"), per_day, rtl, none)
            + bar_chart(say("console.chart.length"), lengths, rtl, none_finished)
            + bar_chart(say("console.chart.hours"), hours, rtl, none)
        )


def _passes(view: TableView, filters: dict[str, str], now: float) -> bool:
    game = filters.get("game")
    if game and (view.status or {}).get("game") != game:
        return False
    state = filters.get("state")
    if state == "alerts":
        return bool(view.alerts(now))
    return not state or view.state == state


def _page_number(filters: dict[str, str]) -> int:
    return int(filters.get("page", "1"))


def _pager(say: Messages, filters: dict[str, str], start: int, shown: int, total: int) -> str:
    """Which cards of how many the page shows, and links to the pages
    before and after ("" when every card is on the first)."""
    number = _page_number(filters)
    if total <= PAGE and number == 1:
        return ""
    links = []
    for to, key, rel in (
        (number - 1, "console.page.previous", "prev"),
        (number + 1, "console.page.next", "next"),
    ):
        if to >= 1 and (to - 1) * PAGE < total:
            query = {**filters, "page": str(to)} if to > 1 else _without_page(filters)
            links.append(
                f'<a href="/?{escape(urlencode(query))}" rel="{rel}">{escape(say(key))}</a>'
            )
    counted = ""
    if shown:
        last = str(start + shown)
        words = say("console.page.shown", first=str(start + 1), last=last, total=str(total))
        counted = f"<p>{escape(words)}</p>"
    return counted + "".join(links)


def _without_page(filters: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in filters.items() if name != "page"}


def _health(health: dict[str, Any], say: Messages) -> str:
    parts = []
    disk = health.get("disk_free")
    if isinstance(disk, int | float):
        parts.append(say("console.disk", gib=f"{disk / f.GIB:.1f}"))
    if isinstance(health.get("cpu_temp"), int | float):
        parts.append(say("console.cpu", degrees=str(health["cpu_temp"])))
    if health.get("pad") in ("connected", "lost"):
        parts.append(say("console.pad." + health["pad"]))
    if health.get("gpio") is True:
        parts.append(say("console.gpio"))
    return " · ".join(parts)


def _status_line(status: dict[str, Any], lang: str) -> str | None:
    """Where the game is, in the table's own words for this language (the
    kiosk's status line, which the table words in every language): a phase
    is the game's to say, not the console's."""
    line = status.get("line")
    if not isinstance(line, dict):
        return None
    worded = line.get(lang, line.get("en"))
    return worded[:300] if isinstance(worded, str) else None


def _timer_state(timer: dict[str, Any]) -> str:
    """A timer with time left: running, paused (after it ran), waiting to
    start, or, from a table too old to say which of the last two, stopped."""
    if timer.get("running"):
        return "running"
    if "paused" not in timer:
        return "stopped"
    return "paused" if timer["paused"] else "waiting"


def _news(view: TableView, say: Messages, words: str) -> str:
    """The attribute with what a screen reader is told when this alert or
    reply is new on the page: console.js says it in the page's live region
    (a card comes anew with each change, and a live region inside it would
    be new too: unheard)."""
    return f' data-news="{escape(say("console.news", table=view.name, news=words))}"'


def _reply(pending: Pending, say: Messages) -> str:
    if pending.fate == "waiting":
        return say("console.reply.waiting")
    if pending.fate == "no_answer":
        return say("console.reply.no_answer")
    if pending.fate == "ok":
        return say("console.reply.done." + pending.action)
    return say(pending.key or "console.reply.refused", **pending.args)


CONSOLE: web.AppKey[Console] = web.AppKey("console", Console)


# -- aiohttp ----------------------------------------------------------------------------
def make_app(console: Console, trusted_proxy: str | None = None) -> web.Application:
    """The console's page; ``trusted_proxy``: the address of the TLS proxy
    in front of it, whose forwarded client address and scheme are taken."""
    app = web.Application(middlewares=[forwarded(trusted_proxy)])
    app[CONSOLE] = console
    app.router.add_get("/", _index)
    app.router.add_get("/login", _login_page)
    app.router.add_post("/login", _login)
    app.router.add_post("/logout", _logout)
    app.router.add_post("/action", _action)
    app.router.add_get("/ws", _socket)
    app.router.add_get("/static/console.css", _style)
    app.router.add_get("/static/console.js", _script)
    app.router.add_get("/static/icon.svg", _icon)
    app.router.add_get("/favicon.ico", _icon)  # asked for by browsers regardless

    async def alerts(app: web.Application):
        task = asyncio.ensure_future(console.watch_alerts())
        yield
        task.cancel()

    async def sessions(app: web.Application):
        task = asyncio.ensure_future(_watch_sessions(console))
        yield
        task.cancel()

    app.cleanup_ctx.append(alerts)
    app.cleanup_ctx.append(sessions)
    app.on_shutdown.append(_close_pages)
    return app


async def _watch_sessions(console: Console) -> None:
    """Sessions that expire: their pages still open are closed."""
    while True:
        await asyncio.sleep(ALERT_EVERY)
        _log_out(console.sessions.sweep())


_CLOSING: set[asyncio.Task[Any]] = set()  # held until done (the loop holds tasks weakly)


def _log_out(pages: set[web.WebSocketResponse]) -> None:
    """Close the pages of a session that ended, each told why (it reloads,
    to the login); nobody waits for a page to answer."""
    for ws in list(pages):  # each page leaves its session's set as it closes
        task = asyncio.ensure_future(ws.close(code=LOGGED_OUT, message=b"logged out"))
        _CLOSING.add(task)
        task.add_done_callback(_CLOSING.discard)


async def _close_pages(app: web.Application) -> None:
    """Stopping (systemctl stop): open pages are told so at once, rather than
    holding the console up until their sockets time out; they reconnect to
    the next console."""
    for ws, *_ in list(app[CONSOLE].sockets):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"console stopping")


async def _style(_request: web.Request) -> web.Response:
    return web.Response(text=STYLE, content_type="text/css")


async def _script(_request: web.Request) -> web.Response:
    return web.Response(text=SCRIPT, content_type="application/javascript")


async def _icon(_request: web.Request) -> web.Response:
    return web.Response(
        body=ICON, content_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
    )


def _session(request: web.Request) -> tuple[str, Session | None]:
    """The request's session id and its live session (None: logged out).
    Makes none: only a login does."""
    sid = request.cookies.get(SESSION, "")
    return sid, request.app[CONSOLE].sessions.get(sid)


def _set_cookie(
    response: web.StreamResponse, request: web.Request, name: str, value: str, **more: Any
) -> None:
    """Every cookie of the console: SameSite=Strict, and Secure over TLS."""
    response.set_cookie(name, value, samesite="Strict", secure=request.secure, path="/", **more)


def _lang(request: web.Request) -> str:
    lang = request.query.get("lang") or request.cookies.get(LANG, "en")
    return lang if lang in LANGUAGES else "en"


def _page(
    request: web.Request, lang: str, title: str, body: str, session: Session | None = None
) -> web.Response:
    say = Messages(lang)
    menu = " ".join(
        f'<a href="/?lang={code}" lang="{code}">'
        f"{escape(Messages(code)('console.language_name'))}</a>"
        for code in LANGUAGES
    )
    logout = (
        '<form method="post" action="/logout" class="logout">'
        f'<input type="hidden" name="csrf" value="{escape(session.csrf)}">'
        f"<button type='submit'>{escape(say('console.logout'))}</button></form>"
        if session is not None
        else ""
    )
    html = (
        f'<!doctype html><html lang="{lang}" dir="{direction(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/static/console.css">'
        '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">'
        f"</head><body><header><h1>{escape(say('console.title'))}</h1>"
        f'<nav class="languages">{menu}</nav>{logout}</header>{body}'
        '<script src="/static/console.js"></script></body></html>'
    )
    response = web.Response(text=html, content_type="text/html")
    response.headers["Content-Security-Policy"] = "default-src 'self'; style-src 'self'"
    response.headers["X-Frame-Options"] = "DENY"
    _set_cookie(response, request, LANG, lang)
    return response


async def _login_page(request: web.Request, failed: bool = False) -> web.Response:
    """The login form. Its CSRF token is a cookie of its own, the same in the
    form (nothing is kept on the server until the password is right)."""
    token = request.cookies.get(LOGIN, "")
    if len(token) != 32 or not token.isalnum():
        token = secrets.token_hex(16)
    lang = _lang(request)
    say = Messages(lang)
    wrong = (
        f'<p class="wrong" role="alert"><span aria-hidden="true">⚠</span> '
        f"{escape(say('console.login.wrong'))}</p>"
        if failed
        else ""
    )
    body = (
        f'<main><form method="post" action="/login" class="login">{wrong}'
        f'<input type="hidden" name="csrf" value="{token}">'
        f"<label>{escape(say('console.login.password'))}"
        '<input type="password" name="password" autocomplete="current-password" required></label>'
        f"<button type='submit'>{escape(say('console.login.submit'))}</button></form></main>"
    )
    response = _page(request, lang, say("console.title"), body)
    _set_cookie(response, request, LOGIN, token, httponly=True)
    return response


async def _login(request: web.Request) -> web.StreamResponse:
    console: Console = request.app[CONSOLE]
    form = await request.post()
    token = request.cookies.get(LOGIN, "")
    if not (token and same_secret(str(form.get("csrf", "")), token) and same_origin(request)):
        raise web.HTTPForbidden(text="csrf")
    address = request.remote or "?"
    failures = console.failures[address]
    while failures and time.monotonic() - failures[0] > FAILED_WINDOW:
        failures.popleft()
    if len(failures) >= FAILED_LOGINS:
        raise web.HTTPTooManyRequests(text="too many failed logins; wait a minute")
    # Counted as failed until it proves right, so guesses sent together wait
    # their turn like guesses sent one after another.
    attempt = time.monotonic()
    failures.append(attempt)
    # scrypt takes its tenth of a second in a thread: the page stays live.
    right = await asyncio.get_running_loop().run_in_executor(
        None, pin_matches, str(form.get("password", "")), console.password_hash
    )
    if not right:
        response = await _login_page(request, failed=True)
        response.set_status(403)
        return response
    if attempt in failures:
        failures.remove(attempt)
    if not failures:
        console.failures.pop(address, None)
    sid, _new = console.sessions.create()  # a new session id at every login
    _log_out(console.sessions.end(request.cookies.get(SESSION, "")))
    response = web.HTTPSeeOther("/")
    _set_cookie(response, request, SESSION, sid, httponly=True, max_age=int(ABSOLUTE_SECONDS))
    response.del_cookie(LOGIN, path="/")
    raise response


async def _logout(request: web.Request) -> web.StreamResponse:
    """Log out: the session ends, its pages still open close, the cookie goes."""
    console: Console = request.app[CONSOLE]
    sid, session = _session(request)
    form = await request.post()
    if session is not None:
        if not (same_secret(str(form.get("csrf", "")), session.csrf) and same_origin(request)):
            raise web.HTTPForbidden(text="csrf")
        _log_out(console.sessions.end(sid))
    response = web.HTTPSeeOther("/login")
    response.del_cookie(SESSION, path="/")
    raise response


def _filters(query: Any) -> dict[str, str]:
    filters = {}
    if query.get("game"):
        filters["game"] = str(query["game"])[:64]
    if query.get("state") in f.STATES:
        filters["state"] = str(query["state"])
    page = str(query.get("page") or "")
    if page.isascii() and page.isdigit() and len(page) <= 5 and int(page) > 1:
        filters["page"] = str(int(page))
    return filters


async def _index(request: web.Request) -> web.Response:
    console: Console = request.app[CONSOLE]
    _sid, session = _session(request)
    lang = _lang(request)
    if session is None:
        # A language chosen (a link of the menu) goes along to the login,
        # which keeps it (its cookie) for the cards after.
        chosen = "?" + urlencode({"lang": lang}) if "lang" in request.query else ""
        raise web.HTTPSeeOther("/login" + chosen)
    say = Messages(lang)
    filters = _filters(request.query)
    games = sorted(
        {
            str(view.status["game"])
            for view in console.tables.values()
            if view.signed and view.status and isinstance(view.status.get("game"), str)
        }
    )
    game_options = "".join(
        f'<option value="{escape(g)}"{" selected" if filters.get("game") == g else ""}>'
        f"{escape(say('game.' + g))}</option>"
        for g in games
    )
    state_options = "".join(
        f'<option value="{s}"{" selected" if filters.get("state") == s else ""}>'
        f"{escape(say('console.state.' + s))}</option>"
        for s in f.STATES
    )
    # One main landmark holds all but the header: the filters, the live
    # region where the news of the cards is said (console.js), the cards
    # and the statistics.
    body = (
        '<main><form method="get" action="/" class="filters">'
        f'<label>{escape(say("console.filter.game"))}<select name="game">'
        f'<option value="">{escape(say("console.filter.all"))}</option>{game_options}'
        "</select></label>"
        f'<label>{escape(say("console.filter.state"))}<select name="state">'
        f'<option value="">{escape(say("console.filter.all"))}</option>{state_options}'
        "</select></label>"
        f"<button type='submit'>{escape(say('console.filter.apply'))}</button></form>"
        '<div id="news" class="visually-hidden" role="status"></div>'
        f'<div id="cards" data-ws="/ws?{escape(urlencode({**filters, "lang": lang}))}">'
        f"{console.cards(lang, filters, session.csrf)}</div>"
        f'<section class="stats"><h2>{escape(say("console.stats"))}</h2>'
        f"{console.charts(say)}</section></main>"
    )
    return _page(request, lang, say("console.title"), body, session)


async def _action(request: web.Request) -> web.StreamResponse:
    console: Console = request.app[CONSOLE]
    _sid, session = _session(request)
    if session is None:
        raise web.HTTPForbidden(text="log in first")
    form = await request.post()
    if not (same_secret(str(form.get("csrf", "")), session.csrf) and same_origin(request)):
        raise web.HTTPForbidden(text="csrf")
    table, action = str(form.get("table", "")), str(form.get("action", ""))
    if table not in console.tables or action not in protocol.ACTIONS:
        raise web.HTTPBadRequest(text="no such table or action")
    if not console.tables[table].signed:  # offered none: perhaps not one of the café's
        raise web.HTTPBadRequest(text="not a signed table")
    args: dict[str, Any] = {}
    if action == protocol.REPAIR_SEAT:
        try:
            args["seat"] = int(str(form.get("seat")))
        except ValueError:
            raise web.HTTPBadRequest(text="seat") from None
    if action == protocol.MESSAGE:
        args["text"] = str(form.get("text", ""))[: protocol.MAX_MESSAGE]
    console.act(table, action, args)
    back = _filters({k: v[0] for k, v in parse_qs(str(form.get("back", ""))).items()})
    raise web.HTTPSeeOther("/?" + urlencode(back) if back else "/")


async def _socket(request: web.Request) -> web.WebSocketResponse:
    console: Console = request.app[CONSOLE]
    _sid, session = _session(request)
    if session is None:
        raise web.HTTPUnauthorized(text="log in first")
    if not same_origin(request):  # its first message carries the CSRF token
        raise web.HTTPForbidden(text="origin")
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    filters = _filters(request.query)
    entry = (ws, _lang(request), tuple(sorted(filters.items())), session.csrf)
    console.sockets.add(entry)
    session.pages.add(ws)
    console.pushed[ws] = [view.name for view in console.shown(filters, console.clock())]
    await ws.send_str(json.dumps({"cards": console.cards(entry[1], filters, session.csrf)}))
    try:
        async for message in ws:
            if message.type == WSMsgType.ERROR:
                break
    finally:
        console.sockets.discard(entry)
        session.pages.discard(ws)
        console.pushed.pop(ws, None)
    return ws
