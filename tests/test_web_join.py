"""Taking a seat, through the real server on 127.0.0.1: opening a join link
(or a link preview's HEAD or GET) claims nothing; the page's button claims
the seat provisionally; the claim is final once the phone has used its
cookie. A claim whose cookie never arrived, or was never used, locks no seat,
not even across a restart, and of two phones that tapped, the first to use
its cookie holds the seat while the other is told it is taken."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

import pytest
from aiohttp import WSServerHandshakeError
from web_helpers import join, open_link, seat_cookie, served, state, tap_take_seat

from companion.games.base import Fate, Setup
from companion.i18n import Messages
from companion.table import EventStore, Table
from companion.web.links import PROVISIONAL_CLAIMS
from companion.web.server import COOKIE


def coup(store) -> Table:
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], mode="keeper", options={"first": 0})
    return Table.start(store, setup, fate=Fate(seed=2))


def phones_shown(server) -> list[bool]:
    """Which seats the table sees with a phone."""
    table = server.table
    return [seat["phone"] for seat in server.links.status(table.game_id, table.setup.players)]


async def taken_refusals(phone) -> list[tuple[int, str]]:
    """What a phone whose claim another phone beat meets on its next requests."""
    page = await phone.get("/seat")
    api = await phone.get("/api/seat")
    assert "already on another phone" in await page.text()
    return [(page.status, "page"), (api.status, (await api.json())["error"])]


def test_a_look_at_a_join_link_claims_nothing(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 1)
            preview = await phone()
            head = await preview.head(f"/join/{token}", allow_redirects=False)
            assert head.status == 200
            page = await open_link(preview, token)
            assert page.status == 200 and page.headers["Cache-Control"] == "no-store"
            text = await page.text()
            assert "Take seat 2 (Bob)?" in text and "Take this seat" in text
            assert 'method="post"' in text and token not in text
            assert COOKIE not in page.cookies and seat_cookie(preview) is None
            assert phones_shown(server) == [False, False, False]
            bob = await phone()
            assert (await join(bob, token)).status == 303
            assert (await state(bob))["seat"] == 1

    asyncio.run(scenario())


def test_the_join_page_speaks_the_phones_language_right_to_left_in_persian(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 2)
            page = await (await phone()).get(f"/join/{token}", headers={"Accept-Language": "fa"})
            text = await page.text()
            t = Messages("fa", table.names)
            assert 'lang="fa" dir="rtl"' in text
            assert t("web.join_question", number=3, player=2) in text and "۳" in text
            assert t("web.join_button") in text and t("web.join_hint") in text

    asyncio.run(scenario())


def test_a_tap_claims_the_seat_once_the_phone_has_used_its_cookie(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 0)
            ann, other = await phone(), await phone()
            tapped = await tap_take_seat(ann, token)
            assert tapped.status == 303 and tapped.headers["Location"] == "/seat"
            assert tapped.cookies[COOKIE]["httponly"]
            assert not server.links.claimed(table.game_id, 0), "not before its first use"
            assert (await open_link(other, token)).status == 200, "the link still works"
            assert (await state(ann))["seat"] == 0  # its first use
            assert server.links.claimed(table.game_id, 0)
            assert phones_shown(server) == [True, False, False]
            refused = await open_link(other, token)
            assert refused.status == 403 and "already on another phone" in await refused.text()
            assert (await tap_take_seat(other, token)).status == 403
            assert (await other.get("/api/seat")).status == 401

    asyncio.run(scenario())


def test_a_phone_that_tapped_but_never_used_its_cookie_locks_no_seat(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 1)
            gone = await phone()
            assert (await tap_take_seat(gone, token)).status == 303
            bob = await phone()
            assert (await join(bob, token)).status == 303
            assert (await state(bob))["seat"] == 1
            # The first phone comes back: it is told the seat is taken.
            assert await taken_refusals(gone) == [(403, "page"), (403, "web.seat_taken")]
            assert (await state(bob))["seat"] == 1

    asyncio.run(scenario())


def test_a_restart_between_the_tap_and_the_first_use_loses_nothing(tmp_path):
    """The power goes between the tap and the phone's next request. The
    phone that got its cookie uses it after the restart; for the phone whose
    cookie never arrived, the link still works."""

    async def scenario():
        path = tmp_path / "g.sqlite3"
        table = coup(EventStore(path))
        async with served(table) as (server, phone):
            tokens = [server.links.token(table.game_id, seat) for seat in (0, 1)]
            ann, lost = await phone(), await phone()
            assert (await tap_take_seat(ann, tokens[0])).status == 303
            assert (await tap_take_seat(lost, tokens[1])).status == 303
            cookie = seat_cookie(ann)
        table.store.close()
        resumed = Table.resume(EventStore(path))
        async with served(resumed) as (server, phone):
            back = await phone()
            back.session.cookie_jar.update_cookies({COOKIE: cookie})
            assert (await state(back))["seat"] == 0
            bob = await phone()  # the answer to the tap never reached the phone
            assert (await join(bob, tokens[1])).status == 303
            assert (await state(bob))["seat"] == 1
            assert phones_shown(server) == [True, True, False]
        resumed.store.close()

    asyncio.run(scenario())


def test_of_two_phones_that_tapped_the_first_to_use_its_cookie_holds_the_seat(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 2)
            early, quick = await phone(), await phone()
            for racer in (early, quick):
                assert (await tap_take_seat(racer, token)).status == 303
            assert (await state(quick))["seat"] == 2
            assert await taken_refusals(early) == [(403, "page"), (403, "web.seat_taken")]
            with pytest.raises(WSServerHandshakeError) as socket:
                await early.ws_connect("/ws?frames=binary")
            assert socket.value.status == 401
            assert (await open_link(early, token)).status == 403
            assert (await state(quick))["seat"] == 2
            assert phones_shown(server) == [False, False, True]

    asyncio.run(scenario())


def test_the_tap_must_come_from_this_servers_page(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 0)
            ann = await phone()
            forged = await ann.post(
                f"/join/{token}", headers={"Origin": "http://evil.example"}, allow_redirects=False
            )
            assert forged.status == 403 and seat_cookie(ann) is None
            host = f"{forged.url.host}:{forged.url.port}"
            own = await ann.post(
                f"/join/{token}", headers={"Origin": f"http://{host}"}, allow_redirects=False
            )
            assert own.status == 303

    asyncio.run(scenario())


def test_re_pairing_forgets_the_claims_not_yet_used(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            old = server.links.token(table.game_id, 0)
            ann = await phone()
            assert (await tap_take_seat(ann, old)).status == 303
            new = server.repair(0)
            assert (await ann.get("/api/seat")).status == 401
            assert phones_shown(server) == [False, False, False]
            assert (await open_link(await phone(), old)).status == 404
            found = await phone()
            assert (await join(found, new)).status == 303
            assert (await state(found))["seat"] == 0

    asyncio.run(scenario())


def test_tapping_again_and_again_keeps_only_the_newest_claims(store):
    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 1)
            cookies = []
            for _ in range(PROVISIONAL_CLAIMS + 3):
                tapper = await phone()
                assert (await tap_take_seat(tapper, token)).status == 303
                cookies.append(seat_cookie(tapper))
            with closing(sqlite3.connect(store.path)) as db:
                kept = db.execute("SELECT COUNT(*) FROM provisional_claims").fetchone()
            assert kept == (PROVISIONAL_CLAIMS,)
            first = await phone()
            first.session.cookie_jar.update_cookies({COOKIE: cookies[0]})
            assert (await first.get("/api/seat")).status == 401, "the oldest is forgotten"
            last = await phone()
            last.session.cookie_jar.update_cookies({COOKIE: cookies[-1]})
            assert (await state(last))["seat"] == 1

    asyncio.run(scenario())


def test_a_store_from_before_provisional_claims_keeps_its_phones(tmp_path):
    """A store written before provisional claims opens as before: its phones
    keep their seats, and its other seats are taken by a tap."""

    async def scenario():
        path = tmp_path / "g.sqlite3"
        table = coup(EventStore(path))
        async with served(table) as (server, phone):
            ann = await phone()
            await join(ann, server.links.token(table.game_id, 0))
            cookie = seat_cookie(ann)
            token = server.links.token(table.game_id, 1)
        table.store.close()
        with closing(sqlite3.connect(path)) as db:
            db.execute("DROP TABLE provisional_claims")
        resumed = Table.resume(EventStore(path))
        async with served(resumed) as (server, phone):
            back = await phone()
            back.session.cookie_jar.update_cookies({COOKIE: cookie})
            assert (await state(back))["seat"] == 0
            bob = await phone()
            assert (await join(bob, token)).status == 303
            assert (await state(bob))["seat"] == 1
        resumed.store.close()

    asyncio.run(scenario())


def test_the_access_log_names_no_join_link(store, caplog):
    """The journal keeps one line per request, and a join link's token is
    the seat's secret: the line for the link, and for the page the link's
    page sent the phone on to, says ``/join/…`` and no more."""
    table = coup(store)

    async def scenario():
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 1)
            ann = await phone()
            with caplog.at_level("INFO", logger="aiohttp.access"):
                assert (await open_link(ann, token)).status == 200
                tapped = await ann.post(
                    f"/join/{token}",
                    headers={"Referer": f"{server_url(ann)}/join/{token}"},
                    allow_redirects=False,
                )
                assert tapped.status == 303
            return token

    token = asyncio.run(scenario())
    lines = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
    assert len(lines) == 2 and all("/join/…" in line for line in lines), lines
    assert not any(token in line for line in lines)


def server_url(phone) -> str:
    return str(phone.make_url("")).rstrip("/")


def test_joining_while_the_store_cannot_write_is_refused_in_words(store):
    """A full or read-only disk: the tap and the cookie's first use (the
    claim's two writes) are answered 503 in the phone's language, like any
    other write, and claim nothing; once the store writes again the same
    phone joins by the same link and cookie."""

    async def scenario():
        table = coup(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 0)
            ann = await phone()
            store.db.execute("PRAGMA query_only=ON")  # the store cannot write
            greek = {"Accept-Language": "el"}
            tapped = await ann.post(f"/join/{token}", headers=greek, allow_redirects=False)
            assert tapped.status == 503
            assert Messages("el")("web.not_stored") in await tapped.text()
            assert seat_cookie(ann) is None
            store.db.execute("PRAGMA query_only=OFF")
            assert (await tap_take_seat(ann, token)).status == 303
            store.db.execute("PRAGMA query_only=ON")
            first = await ann.get("/api/seat", headers={"Accept-Language": "ru"})
            assert first.status == 503
            assert await first.json() == {
                "error": "web.not_stored",
                "message": Messages("ru")("web.not_stored"),
            }
            page = await ann.get("/seat", headers={"Accept-Language": "fa"})
            assert page.status == 503
            assert 'dir="rtl"' in (text := await page.text())
            assert Messages("fa")("web.not_stored") in text
            assert not server.links.claimed(table.game_id, 0)
            store.db.execute("PRAGMA query_only=OFF")
            assert (await state(ann))["seat"] == 0
            assert server.links.claimed(table.game_id, 0)
            assert phones_shown(server) == [True, False, False]

    asyncio.run(scenario())
