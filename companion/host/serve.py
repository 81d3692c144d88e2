"""``companion serve``: the host alone, for headless tables and tests."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..table import Session, Table
from ..web.listen import PortUnavailable
from .host import Host
from .phones import WebConfig

if TYPE_CHECKING:
    from ..fleet import StatusPublisher


async def serve(
    table: Table,
    host: str,
    port: int,
    print_links: bool = False,
    exit_after: float | None = None,
    fleet: StatusPublisher | None = None,
) -> int:
    """Serve ``table``'s phones until stopped; with ``fleet``, publish its
    status there too, and take the console's actions if it holds the key."""
    session = Session.around(table)
    served = Host(session, WebConfig(host, port), fleet=fleet)
    try:
        phones = await served.open_phones()
    except PortUnavailable as exc:
        print(f"companion serve: {exc}", file=sys.stderr, flush=True)
        return 2
    port = phones.web.port
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    print(f"Serving the table at {address}/table", flush=True)
    if print_links:
        for seat, name in enumerate(table.names):
            token = phones.server.links.token(table.game_id, seat)
            print(f"  {name}: {address}/join/{token}", flush=True)
    # Once the port is ours: a table that cannot serve never goes online.
    return await served.run(exit_after=exit_after)
