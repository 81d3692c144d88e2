"""Opening the phones' port: the one asked for, else the next free one.

Something else often holds the port on a desktop (8080 is every developer's
test server). The table comes up regardless: its phones are served on the
next free port of a few after it (the QR codes carry the port they are on),
and when none of those opens, the table plays without phones and says so in
one line rather than stopping with a traceback."""

from __future__ import annotations

import asyncio
import errno
import logging
import os

from aiohttp import web

log = logging.getLogger(__name__)

TRIES = 10  # the port asked for and the nine after it


class PortUnavailable(OSError):
    """None of the ports tried could be opened: ``port`` is the one asked
    for, ``last`` the last tried, ``reason`` the system's word on the first."""

    def __init__(self, port: int, last: int, reason: OSError) -> None:
        super().__init__(reason.errno, reason.strerror)
        self.port, self.last, self.reason = port, last, reason

    def __str__(self) -> str:
        ports = str(self.port) if self.last == self.port else f"{self.port}-{self.last}"
        return f"the phones' port {ports} could not be opened ({_reason(self.reason)})"


async def start_site(runner: web.AppRunner, host: str, port: int, tries: int = TRIES) -> int:
    """Serve ``runner`` on ``host``:``port`` or, while that port is in use,
    the next one, up to ``tries`` ports: the port served. Another failure
    (no permission for a port below 1024, no such address) would be the
    same on every port, so only the one asked for is tried then.

    Raises :class:`PortUnavailable` when no port could be opened."""
    first: OSError | None = None
    candidate = port
    for candidate in range(port, min(port + tries, 65536)):
        site = web.TCPSite(runner, host, candidate)
        try:
            await site.start()
        except OSError as exc:
            await site.stop()  # a site that failed stays registered with its runner
            first = first or exc
            if exc.errno != errno.EADDRINUSE:
                break
            continue
        if candidate != port:
            log.warning(
                "port %d is in use (%s): the phones are served on port %d",
                port,
                _reason(first) if first else "",
                candidate,
            )
        return _bound_port(site) if candidate == 0 else candidate
    assert first is not None
    raise PortUnavailable(port, candidate, first)


def _bound_port(site: web.TCPSite) -> int:
    """The port the system chose for port 0 (``--port 0``: any free one)."""
    server = site._server  # aiohttp keeps the listening sockets only here
    assert isinstance(server, asyncio.base_events.Server)
    return int(server.sockets[0].getsockname()[1])


def _reason(error: OSError) -> str:
    """The system's short word for ``error`` (asyncio's names the address again)."""
    return os.strerror(error.errno) if error.errno else str(error)
