"""``companion serve``: the phone server alone, for headless tables and tests."""

from __future__ import annotations

import asyncio

from aiohttp import web

from ..table import Table
from .server import TableServer


async def serve(
    table: Table, host: str, port: int, print_links: bool = False, exit_after: float | None = None
) -> int:
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
    try:
        if exit_after is None:
            await asyncio.Event().wait()
        else:
            await asyncio.sleep(exit_after)
    finally:
        await runner.cleanup()
    return 0
