"""Power cuts during a join: ``companion serve`` is killed with SIGKILL at a
random moment while a phone opens a seat's link, taps to take the seat and
opens the seat's page. After the restart the phone always gets the seat:
with the cookie it got, if it got one, or else by opening the link and
tapping again. The link never answers "seat taken" to a seat nobody holds.
(An outside campaign found 5 of 17 such kills locked the seat until a PIN
re-pair.) ``COMPANION_CAMPAIGN`` scales the number of kills."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import aiohttp
from campaign import report, scaled
from ports import free_port

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

KILLS = scaled(12)
SEAT = 1


class Served:
    """``companion serve`` on 127.0.0.1, with its seats' links."""

    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--db", str(db), "--print-links"]
            + ["--host", "127.0.0.1", "--port", str(self.port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        self.links = [self.process.stdout.readline().strip() for _ in range(4)][1:]
        assert all("/join/" in link for link in self.links), self.links

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()


def new_game(db: Path) -> None:
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], mode="keeper", options={"first": 0})
    Table.start(EventStore(db), setup, fate=Fate(seed=4)).store.close()


STEPS = ("opened", "tapped", "seated")


async def join_steps(
    phone: aiohttp.ClientSession,
    url: str,
    link: str,
    reached: list[str],
    stop_after: str | None = None,
) -> None:
    """What a person's phone does: open the link, tap, open the seat's page
    (the cookie's first use). ``stop_after``: the step after which the
    power goes, before the next request."""
    token_path = link[link.index("/join/") :]
    requests = (
        lambda: phone.get(url + token_path),
        lambda: phone.post(url + token_path, allow_redirects=False),
        lambda: phone.get(url + "/seat"),
    )
    for step, request, status in zip(STEPS, requests, (200, 303, 200)):
        async with request() as answer:
            assert answer.status == status, (step, answer.status)
        reached.append(step)
        if step == stop_after:
            return


async def seat_of(phone: aiohttp.ClientSession, url: str) -> int | None:
    async with phone.get(url + "/api/seat") as answer:
        if answer.status != 200:
            return None
        return (await answer.json())["seat"]


async def one_cut(db: Path, stop_after: str | None, rng: random.Random) -> str:
    """One join cut short by a kill, after a step or (``stop_after`` None)
    at a random moment, in flight; how far it got, and how it came back."""
    new_game(db)
    served = Served(db)
    reached: list[str] = []
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as phone:
        link = served.links[SEAT]
        steps = asyncio.ensure_future(join_steps(phone, served.url, link, reached, stop_after))
        if stop_after is None:
            await asyncio.sleep(rng.uniform(0.0, 0.03))
        else:
            await steps
        served.kill()
        # The join, cut short: its request failed, or its answer never came.
        with contextlib.suppress(TimeoutError, aiohttp.ClientError, AssertionError):
            await steps
        stage = reached[-1] if reached else "nothing"
        served = Served(db)
        try:
            got = await seat_of(phone, served.url)
            if got is None:  # no cookie, or one the store never kept: tap again
                link = served.links[SEAT]
                async with phone.get(served.url + link[link.index("/join/") :]) as page:
                    assert page.status == 200, f"after a cut at '{stage}' the link is refused"
                await join_steps(phone, served.url, link, [])
                got = await seat_of(phone, served.url)
                stage += ", tapped again"
            else:
                stage += ", its cookie held"
            assert got == SEAT, stage
        finally:
            served.kill()
    return stage


def test_a_join_cut_by_a_power_cut_never_locks_the_seat(tmp_path):
    rng = random.Random(20261201)
    outcomes: Counter[str] = Counter()
    started = time.monotonic()
    for kill in range(KILLS):
        db = tmp_path / f"games-{kill}.sqlite3"
        # After opening the link; after the tap, its cookie not used yet (the
        # lock the campaign found); and at random, mid-request.
        stop_after = ("opened", "tapped", None)[kill % 3]
        outcomes[asyncio.run(one_cut(db, stop_after, rng))] += 1
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    assert sum(outcomes.values()) == KILLS
    report(
        "joins cut by SIGKILL",
        {
            "kills": KILLS,
            **dict(sorted(outcomes.items())),
            "seconds": round(time.monotonic() - started, 1),
        },
    )
    assert outcomes["opened, tapped again"] and outcomes["tapped, its cookie held"], outcomes
