"""``companion serve``: the phone server alone, for headless tables and tests."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from aiohttp import web

from ..games.base import RuleError
from ..table import StoreError, Table
from .server import TableServer

if TYPE_CHECKING:
    from ..fleet import StatusPublisher, TableReporter

log = logging.getLogger(__name__)
TICK = 0.25  # seconds between looks at the clock, as the kiosk's


async def serve(
    table: Table,
    host: str,
    port: int,
    print_links: bool = False,
    exit_after: float | None = None,
    fleet: StatusPublisher | None = None,
) -> int:
    """Serve ``table``'s phones until stopped; with ``fleet``, publish its
    status there too."""
    server = TableServer(table)
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    print(f"Serving the table at {address}/table", flush=True)
    if print_links:
        for seat, name in enumerate(table.names):
            print(f"  {name}: {address}/join/{server.links.token(table.game_id, seat)}", flush=True)
    reporter = None
    if fleet is not None:  # once the port is ours: a table that cannot serve never goes online
        from ..fleet import TableReporter

        reporter = TableReporter(fleet, fleet.topics.table, phones=server.connected_seats)
        fleet.start()
        reporter.follow(table)
    clock = asyncio.ensure_future(_let_time_act(server, reporter))
    try:
        if exit_after is None:
            await asyncio.Event().wait()
        else:
            await asyncio.sleep(exit_after)
    finally:
        clock.cancel()
        await runner.cleanup()
        if fleet is not None:
            await asyncio.to_thread(fleet.close)
    return 0


async def _let_time_act(server: TableServer, reporter: TableReporter | None) -> None:
    """What the kiosk does every quarter second: time acts at the table (a
    claim's countdown running out, a negotiation's time up) with nobody
    touching it, and the fleet hears of the time left."""
    while True:
        try:
            server.table.tick()
        except (RuleError, StoreError) as exc:
            log.warning("the table could not act on time: %s", exc)
        if reporter is not None:
            reporter.tick()
        await asyncio.sleep(TICK)
