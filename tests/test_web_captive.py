"""The captive portal of the Pi's own access point: a phone asking the real
phone server (on 127.0.0.1) for any other host is sent to the public
address; the server's own names and addresses are served as usual."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
from aiohttp import web
from helpers import new_table

from companion.web.server import TableServer

HOME = "http://table.local/"


async def _get(server: TableServer, host: str, path: str) -> tuple[int, str, str]:
    """(status, Location, body) of GET ``path`` with the Host header ``host``,
    sent to the real server listening on 127.0.0.1."""
    runner = web.AppRunner(server.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(
                f"http://127.0.0.1:{port}{path}", headers={"Host": host}, allow_redirects=False
            ) as response:
                return (
                    response.status,
                    response.headers.get("Location", ""),
                    await response.text(),
                )
    finally:
        await runner.cleanup()


def get(server: TableServer, host: str, path: str) -> tuple[int, str, str]:
    return asyncio.run(_get(server, host, path))


def test_any_other_host_is_sent_to_the_public_address(store):
    server = TableServer(new_table(store, ["Ann", "Ben", "Cy"]), captive_home=HOME)
    # Android's and Apple's connectivity checks, and a page the player typed.
    for host, path in [
        ("connectivitycheck.gstatic.com", "/generate_204"),
        ("captive.apple.com", "/hotspot-detect.html"),
        ("example.org:8080", "/some/page?q=1"),
        ("Example.ORG.", "/"),
        # Not host names at all: a redirect too, not an error page.
        ("10.42.0.1:abc", "/api/table"),
        ("[::1", "/api/table"),
    ]:
        status, location, _ = get(server, host, path)
        assert (status, location) == (302, HOME), host


def test_the_servers_own_names_and_addresses_are_served(store):
    server = TableServer(new_table(store, ["Ann", "Ben", "Cy"]), captive_home=HOME)
    name = socket.gethostname()
    for host in [
        "table.local",
        "TABLE.local:80",
        name,
        f"{name}.local",
        "localhost:8080",
        "10.42.0.1",
        "[fe80::1]:80",
    ]:
        status, _, body = get(server, host, "/api/table")
        assert status == 200 and '"game":"coup"' in body.replace(" ", ""), host
    # The landing page a redirected phone opens: the public table.
    status, location, _ = get(server, "table.local", "/")
    assert (status, location) == (303, "/table")


def test_without_the_access_point_every_host_is_served(store):
    server = TableServer(new_table(store, ["Ann", "Ben", "Cy"]))
    status, _, _ = get(server, "connectivitycheck.gstatic.com", "/api/table")
    assert status == 200
