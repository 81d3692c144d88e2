"""Where the phones are served: the waiting page before the first game, then
the table's phone server (companion/web/server.py), on the port asked for or
the next free one."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from ..table import Session
from ..web.gate import ConnectionLimits, GateRunner
from ..web.listen import start_site
from ..web.server import TableServer

log = logging.getLogger(__name__)

DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class WebConfig:
    """Where the phone server listens, the address phones are sent to (the
    QR codes), the Wi-Fi its QR joins when the Pi runs its own network, and
    whether it acts as that network's captive portal."""

    host: str = "0.0.0.0"
    port: int = 8080
    public_url: str = "http://companion.local:8080"
    wifi: tuple[str, str | None] | None = None
    captive: bool = False  # redirect other hosts to public_url (own access point)

    def on_port(self, port: int) -> WebConfig:
        """Where the phones are when served on ``port`` (the one asked for
        was in use): the public address moves with it when it named the
        port asked for (else it is another machine's, a proxy's, and stays)."""
        if port == self.port:
            return self
        url = urlsplit(self.public_url)
        if (url.port or DEFAULT_PORTS.get(url.scheme)) != self.port:
            return replace(self, port=port)
        host = url.netloc.rsplit(":", 1)[0] if url.port else url.netloc
        return replace(self, port=port, public_url=url._replace(netloc=f"{host}:{port}").geturl())


@dataclass
class Phones:
    """The phone server, its runner, and where it is served."""

    server: TableServer
    runner: Any
    web: WebConfig


async def serve_waiting(web: WebConfig) -> tuple[Any, WebConfig]:
    """The waiting page on the phones' port (or the next free one), before
    the first game: its runner and where it is served. PortUnavailable (the
    runner cleaned up) when no port could be opened."""
    from ..web.waiting import waiting_app

    # The table's caps on connections (gate.py); no phone holds a seat yet.
    runner = GateRunner(waiting_app(), ConnectionLimits.for_this_process())
    await runner.setup()
    return runner, await _open_port(runner, web)


async def serve_phones(session: Session, web: WebConfig) -> Phones:
    """The phone server for the session's games, on this loop, where ``web``
    says or on the next free port. PortUnavailable (the runner cleaned up)
    when no port could be opened."""
    server = TableServer(session, captive_home=web.public_url if web.captive else None)
    runner = server.runner()
    await runner.setup()
    served = await _open_port(runner, web)
    if served.captive:
        server.captive_home = served.public_url
    return Phones(server, runner, served)


async def _open_port(runner: Any, web: WebConfig) -> WebConfig:
    try:
        port = await start_site(runner, web.host, web.port)
    except BaseException:
        await runner.cleanup()
        raise
    return web.on_port(port)
