"""The phones' work after a change is spread over the loop's turns: the
kiosk draws its frames in the same asyncio loop, so every seat's state is
worked out and sent in a turn of its own, and the loop (a frame that is
due) runs between any two of them."""

from __future__ import annotations

import asyncio
import contextlib

from web_helpers import join, served

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

SEATS = 10


def test_the_loop_turns_between_any_two_seats_states():
    async def scenario():
        setup = Setup(
            game="secret_hitler",
            seats=[f"P{i}" for i in range(SEATS)],
            mode="keeper",
            options={"first": 0},
        )
        table = Table.start(EventStore(":memory:"), setup, fate=Fate(seed=1))
        async with served(table) as (server, phone):
            sockets = []
            for seat in range(SEATS):
                client = await phone()
                assert (await join(client, server.links.token(table.game_id, seat))).status == 303
                sockets.append(await client.ws_connect("/ws?frames=binary"))
            for socket in sockets:  # each phone that joined changed the others' states
                await socket.receive(timeout=5)
                with contextlib.suppress(TimeoutError):
                    while True:
                        await socket.receive(timeout=0.3)
            server.sent = []
            turns: list[int] = []  # the states sent so far, at each turn of the loop

            async def every_turn() -> None:
                while True:
                    turns.append(len(server.sent))
                    await asyncio.sleep(0)

            ticker = asyncio.ensure_future(every_turn())
            await asyncio.sleep(0)
            table.execute({"type": "confirm", "seat": 0})  # public: every seat's state changes
            for socket in sockets:
                await socket.receive(timeout=5)
            ticker.cancel()
            for socket in sockets:
                await socket.close()
        return turns, len(server.sent)

    turns, sent = asyncio.run(scenario())
    assert sent == SEATS
    steps = [after - before for before, after in zip(turns, turns[1:])]
    assert max(steps) == 1, f"states sent in one turn of the loop: {steps}"
