"""Idle connections cannot crowd the phones out: ``companion serve`` with
few descriptors (512, so that 600 sockets are the review's 8,400 against
its 8,192), flooded with TCP connections that send nothing, from one
address and then from many. The port's door
(companion/web/gate.py) closes each connection past its caps before reading
it, keeps room for the phones that hold a seat, and closes one that has not
sent its headers in time; a joined phone's ``GET /api/seat`` answers
throughout, and the server's descriptors stay far from their limit.
``COMPANION_CAMPAIGN`` makes the floods larger (campaign.py)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from campaign import report, scaled
from ports import free_port

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table
from companion.web.gate import ConnectionLimits
from companion.web.server import COOKIE

DESCRIPTORS = 512  # the server's RLIMIT_NOFILE in this test
FLOOD = scaled(600)  # idle sockets from one address: more than the server has descriptors
ADDRESSES = 12  # then the per-address cap from each of this many addresses
# Seconds a flood is given before the server is looked at: the kernel
# accepts a burst into the backlog and asyncio takes it in batches (128 at a
# time, some of them past a full backlog only when the client's handshake is
# sent again), each closed at once past a cap.
SETTLE = 3.0


def limited_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, DESCRIPTORS))


class Serving:
    """``companion serve`` on 127.0.0.1 with ``DESCRIPTORS`` descriptors."""

    def __init__(self, db: Path) -> None:
        self.journal = db.with_name("serve.log")  # what it writes on stderr
        with self.journal.open("w") as journal:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "serve", "--db", str(db), "--print-links"]
                + ["--host", "127.0.0.1", "--port", str(free_port())],
                stdout=subprocess.PIPE,
                stderr=journal,
                text=True,
                preexec_fn=limited_descriptors,
            )
        assert self.process.stdout is not None
        first, *lines = [self.process.stdout.readline().strip() for _ in range(4)]
        self.url = first.split(" at ")[1].removesuffix("/table")  # the port it took
        self.port = int(self.url.rsplit(":", 1)[1])
        self.links = [line.split(": ", 1)[1] for line in lines]  # "Ann: http://…"
        assert all("/join/" in link for link in self.links), self.links

    def descriptors(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()


def idle(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source`` that send nothing (connected
    without waiting: a flood does not wait for the server's accept)."""
    sockets = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.bind((source, 0))
        code = s.connect_ex(("127.0.0.1", port))
        assert code in (0, errno.EINPROGRESS), os.strerror(code)
        sockets.append(s)
    return sockets


def held(port: int, sources: set[str]) -> int:
    """How many connections from ``sources`` the server's side of ``port``
    holds open, as the kernel lists them (/proc/net/tcp). A client's own
    view cannot tell: past a full backlog its connection looks open while
    the server has none."""
    count = 0
    with open("/proc/net/tcp") as table:
        next(table)
        for line in table:
            local, remote, state = line.split()[1:4]
            if state != "01" or int(local.split(":")[1], 16) != port:  # 01: established
                continue
            address = socket.inet_ntoa(bytes.fromhex(remote.split(":")[0])[::-1])
            count += address in sources
    return count


async def seat_state(url: str, cookie: str, source: str = "127.0.0.1") -> int:
    """The joined phone's ``GET /api/seat`` on a new connection of its own:
    its status, or 0 if no answer came in 5 s."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as phone:
        try:
            async with phone.get(
                f"{url}/api/seat",
                headers={"Cookie": f"{COOKIE}={cookie}"},
                timeout=aiohttp.ClientTimeout(5),
            ) as r:
                return r.status
        except (TimeoutError, aiohttp.ClientError):
            return 0


async def page(url: str, source: str) -> int:
    """``GET /table`` from a fresh address: its status, or 0 (turned away)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as client:
        try:
            async with client.get(f"{url}/table", timeout=aiohttp.ClientTimeout(5)) as r:
                return r.status
        except (TimeoutError, aiohttp.ClientError):
            return 0


async def join(url: str, link: str) -> str:
    """Take a seat by its link as a phone does; the seat's cookie."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as phone:
        async with phone.post(link, headers={"Origin": url}) as r:
            assert r.status == 200 and r.url.path == "/seat"
        cookie = next(c.value for c in phone.cookie_jar if c.key == COOKIE)
        async with phone.get(f"{url}/api/seat") as r:
            assert r.status == 200
    return cookie


@pytest.mark.slow  # the headers' 10 s, and floods
def test_idle_connections_leave_the_joined_phones_room(tmp_path):
    db = tmp_path / "games.sqlite3"
    setup = Setup(game="coup", seats=["Ann", "Bob", "Cat"], mode="keeper", options={"first": 0})
    Table.start(EventStore(db), setup, fate=Fate(seed=4)).store.close()
    limits = ConnectionLimits.for_descriptors(DESCRIPTORS)
    served = Serving(db)
    flood: list[socket.socket] = []
    seen: dict[str, object] = {}
    try:

        async def scenario() -> None:
            cookie = await join(served.url, served.links[0])
            seen["idle sockets from one address"] = FLOOD
            seen["descriptors before"] = served.descriptors()
            port, one, many = served.port, {"127.0.0.2"}, {f"127.0.1.{n}" for n in range(ADDRESSES)}
            # One address, far past its cap and the server's descriptors.
            flood.extend(idle(port, "127.0.0.2", FLOOD))
            await asyncio.sleep(SETTLE)
            seen["one address: held"] = held(port, one)
            seen["one address: descriptors"] = served.descriptors()
            seen["one address: phone"] = await seat_state(served.url, cookie)
            seen["one address: another address"] = await page(served.url, "127.0.0.3")
            flood.append(trickling(port, "127.0.0.5"))
            # Many addresses, each to its cap: the total is reached.
            for address in sorted(many):
                flood.extend(idle(port, address, limits.per_address))
            await asyncio.sleep(SETTLE)
            seen["many: held"] = held(port, one | many | {"127.0.0.5"})
            seen["many: descriptors"] = served.descriptors()
            seen["many: phone"] = await seat_state(served.url, cookie)
            seen["many: a new address"] = await page(served.url, "127.0.0.4")
            # Nothing held once the headers' time is past, the trickle too.
            started = time.monotonic()
            while held(port, one | many | {"127.0.0.5"}):
                if time.monotonic() - started > limits.header_seconds + 5:
                    break
                await trickle_byte(flood[FLOOD])
                await asyncio.sleep(0.25)
            seen["all closed after (s)"] = round(time.monotonic() - started, 1)
            seen["after: held"] = held(port, one | many | {"127.0.0.5"})
            seen["after: descriptors"] = served.descriptors()
            seen["after: a new address"] = await page(served.url, "127.0.0.4")
            seen["after: phone"] = await seat_state(served.url, cookie)

        asyncio.run(scenario())
    finally:
        for s in flood:
            s.close()
        served.stop()
        report("idle flood", seen)
    before = seen["descriptors before"]
    assert seen["one address: phone"] == 200, seen
    assert seen["one address: another address"] == 200, seen
    assert seen["one address: held"] <= limits.per_address, seen
    assert seen["one address: descriptors"] <= before + limits.per_address + 2, seen
    assert seen["many: phone"] == 200, "the seated phone's address has the reserve"
    assert seen["many: a new address"] == 0, "past the total, a new address is turned away"
    assert seen["many: held"] <= limits.total, seen
    assert seen["many: descriptors"] <= before + limits.total + 2, seen
    assert seen["many: descriptors"] + limits.reserve < DESCRIPTORS, "the reserve is there"
    assert seen["after: held"] == 0, seen
    assert seen["all closed after (s)"] <= limits.header_seconds, seen
    assert seen["after: descriptors"] <= before + 2, seen
    assert seen["after: a new address"] == 200 and seen["after: phone"] == 200, seen
    journal = served.journal.read_text()
    assert "Traceback" not in journal, "a connection turned away costs the journal nothing"


def trickling(port: int, source: str) -> socket.socket:
    """A connection that sends its request's headers a byte at a time."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.setblocking(False)
    s.send(b"GET /table HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return s


async def trickle_byte(s: socket.socket) -> None:
    """One more byte of a header that never ends."""
    with contextlib.suppress(OSError):
        s.send(b"X")
