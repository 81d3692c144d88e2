"""``companion serve``: the phone server alone, for headless tables and tests."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING

from ..games.base import RuleError
from ..table import OPERATOR, StoreError, Table
from .listen import PortUnavailable, start_site
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
    status there too, and take the console's actions if it holds the key."""
    server = TableServer(table)
    runner = server.runner()
    await runner.setup()
    try:
        port = await start_site(runner, host, port)
    except PortUnavailable as exc:
        await runner.cleanup()
        print(f"companion serve: {exc}", file=sys.stderr, flush=True)
        return 2
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    print(f"Serving the table at {address}/table", flush=True)
    if print_links:
        for seat, name in enumerate(table.names):
            print(f"  {name}: {address}/join/{server.links.token(table.game_id, seat)}", flush=True)
    reporter = health = None
    if fleet is not None:  # once the port is ours: a table that cannot serve never goes online
        from ..fleet import TableReporter
        from ..fleet.health import TableHealth

        health = TableHealth().watch()  # no pad, no header: both stay None
        reporter = TableReporter(
            fleet, fleet.topics.table, phones=server.connected_seats, health=health.fields
        )
        if fleet.action_key is not None:
            _take_actions(fleet, server, reporter)
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
        if health is not None:
            health.close()
    return 0


class HeadlessStation:
    """The console's actions on a table with no screen of its own."""

    def __init__(self, server: TableServer, reporter: TableReporter) -> None:
        self.server = server
        self.reporter = reporter

    @property
    def table(self) -> Table:
        return self.server.table

    def end_game(self) -> None:
        self.server.table.end()

    def next_game(self) -> Table:
        table = self.server.table.next_game(source=OPERATOR)
        self.server.set_table(table)
        self.reporter.follow(table)
        return table

    def repair(self, seat: int) -> None:
        # The new link goes nowhere: phones re-join by the links the
        # operator prints (--print-links) on a headless table.
        self.server.repair(seat)

    def show_message(self, text: str) -> None:
        from ..fleet.actions import NO_SCREEN
        from ..fleet.protocol import ActionRefused

        raise ActionRefused(NO_SCREEN)


def _take_actions(fleet: StatusPublisher, server: TableServer, reporter: TableReporter) -> None:
    from ..fleet.actions import ActionDesk

    assert fleet.action_key is not None
    desk = ActionDesk(
        fleet.action_key,
        fleet.topics.table,
        server.table.store,
        HeadlessStation(server, reporter),
        send=fleet.reply,
        follow=reporter.follow,
    )
    fleet.listen(desk.receive, asyncio.get_running_loop())


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
