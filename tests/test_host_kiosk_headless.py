"""The kiosk and a headless table are one host (companion/host/): the same
script of commands, played on a table with the kiosk in front (a real
Kivy window) and on one served alone, gives the café's fleet the same
statuses (through a real Mosquitto) and every seat's phone the same state
(from the real aiohttp server), step by step, across a next game."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from mqtt_helpers import Recorder
from ports import free_port

from companion.fleet import Broker, StatusPublisher
from companion.games.base import Fate, Setup
from companion.host import Host, WebConfig
from companion.table import OPERATOR, EventStore, Session, Table
from companion.web.server import COOKIE, CSRF_HEADER, csrf_token

pytest.importorskip("kivy.base")
from kiosk_helpers import window_shot  # noqa: E402
from ui_helpers import frames, show  # noqa: E402

from companion.ui.front import KioskScreen  # noqa: E402

SEATS = 5
DEAL = {
    "roles": ["liberal", "fascist", "liberal", "hitler", "liberal"],
    "deck": ["liberal", "fascist", "fascist"] * 5 + ["liberal", "fascist"],
}
# What a status says of the machine it came from, not of the table.
MACHINE = ("table", "screen", "started_at", "version")


def chosen(kind: str, seat: Callable[[dict[str, Any]], int]) -> Callable[[Table], Any]:
    """The first legal ``kind`` command of the seat ``seat(view)`` names."""

    def pick(table: Table) -> tuple[int, dict[str, Any]]:
        at = seat(table.public_view())
        return at, next(c for c in table.legal_commands() if c["type"] == kind and c["seat"] == at)

    return pick


# (who sends it: "phone" or "kiosk", the command the table offers now),
# or "next game": the operator starts the next game.
SCRIPT: list[Any] = [
    *[("phone", chosen("confirm", lambda _v, s=s: s)) for s in range(SEATS)],
    ("kiosk", chosen("nominate", lambda v: v["candidate"])),
    *[("phone", chosen("vote", lambda _v, s=s: s)) for s in range(SEATS)],
    ("phone", chosen("discard", lambda v: v["president"])),
    ("phone", chosen("enact", lambda v: v["chancellor"])),
    "next game",
    ("phone", chosen("confirm", lambda _v: 2)),
]


class KioskInFront(KioskScreen):
    """The kiosk in front of the host, its frames drawn on the host's loop
    (as Kivy's own async loop draws them) until stopped."""

    stopped = False

    async def run(self) -> None:
        while not self.stopped:
            frames(1)
            await asyncio.sleep(0.01)

    async def ready(self) -> None:
        pass

    def stop(self) -> None:
        self.stopped = True


def public_status(status: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: v for k, v in status.items() if k not in MACHINE},
        "health": {"phones": status["health"]["phones"]},
    }


def seated(host: Host, seat: int) -> Any:
    """The phone that holds ``seat`` in the host's game (joined when first asked)."""
    table, links = host.session.table, host.phones.server.links
    key = (table.game_id, seat)
    if key not in PHONES.setdefault(id(host), {}):
        PHONES[id(host)][key] = links.join(links.token(*key), None)
    return PHONES[id(host)][key]


PHONES: dict[int, dict[tuple[int, int], Any]] = {}


async def play(host: Host, publisher: StatusPublisher, recorder: Recorder, topic: str, kiosk):
    """Play SCRIPT at the host's table: after each step, the fleet's latest
    status and each seat's phone state."""
    while host.phones is None:
        await asyncio.sleep(0.01)
    base = f"http://127.0.0.1:{host.phones.web.port}"
    seen: list[Any] = []
    async with aiohttp.ClientSession() as http:
        for step in SCRIPT:
            table = host.session.table
            assert table is not None
            if step == "next game":  # as the console's action starts it (with the same deal)
                host.session.next_game(source=OPERATOR, fate=Fate(seed=4, script=DEAL))
            elif step[0] == "kiosk":
                _seat, command = step[1](table)
                if kiosk is not None:
                    assert kiosk.table_screen.send(command)
                else:
                    table.execute(command, source=OPERATOR)
            else:
                seat, command = step[1](table)
                phone = seated(host, seat)
                sent = await http.post(
                    f"{base}/api/command",
                    data=json.dumps({k: v for k, v in command.items() if k != "seat"}),
                    headers={
                        "Content-Type": "application/json",
                        "Cookie": f"{COOKIE}={phone.cookie}",
                        CSRF_HEADER: csrf_token(phone),
                    },
                )
                assert sent.status == 200, await sent.text()
            seen.append(await _look(host, publisher, recorder, topic, http, base))
    return seen


async def _look(host, publisher, recorder, topic, http, base) -> dict[str, Any]:
    deadline = time.monotonic() + 5
    while not publisher.idle():
        assert time.monotonic() < deadline, "the status never reached the broker"
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)  # the broker passes it on to the recorder
    phones = []
    for seat in range(SEATS):
        phone = seated(host, seat)
        got = await http.get(f"{base}/api/seat", headers={"Cookie": f"{COOKIE}={phone.cookie}"})
        assert got.status == 200, await got.text()
        phones.append({k: v for k, v in (await got.json()).items() if k != "csrf"})
    public = await (await http.get(f"{base}/api/table")).json()
    return {"status": public_status(recorder.latest(topic)), "phones": phones, "table": public}


def run_host(table: Table, broker, recorder, name: str, kiosk=None) -> list[Any]:
    publisher = StatusPublisher(Broker.from_url(broker.url), name, reconnect=(1, 1))
    session = kiosk.session if kiosk is not None else Session.around(table)
    host = Host(session, WebConfig("127.0.0.1", free_port()), fleet=publisher)
    front = None if kiosk is None else KioskInFront(kiosk)

    async def main() -> list[Any]:
        running = asyncio.ensure_future(host.run(front))
        try:
            return await play(host, publisher, recorder, f"companion/{name}/status", kiosk)
        finally:
            if front is not None:
                front.stop()
            else:
                host.stop()
            await running

    return asyncio.run(main())


def test_the_kiosk_and_a_headless_table_tell_the_fleet_and_phones_the_same(
    window, tmp_path, broker, recorder
):
    from companion.ui.kiosk import Kiosk

    stores = [EventStore(tmp_path / "kiosk.sqlite3"), EventStore(tmp_path / "headless.sqlite3")]
    setup = Setup("secret_hitler", ["Anna", "Ben", "Carla", "Dimitri", "Elena"], "keeper")
    tables = [Table.start(store, setup, fate=Fate(seed=3, script=DEAL)) for store in stores]
    kiosk = show(window, Kiosk(stores[0], tables[0]), (1280, 720))
    with_kiosk = run_host(tables[0], broker, recorder, "kiosk", kiosk)
    headless = run_host(tables[1], broker, recorder, "headless")
    assert len(with_kiosk) == len(SCRIPT)
    for step, (shown, alone) in enumerate(zip(with_kiosk, headless)):
        assert shown == alone, f"step {step}: {SCRIPT[step]}"
    # The script played what it says: a government formed, then a next game.
    end_of_first = with_kiosk[-3]["status"]
    assert end_of_first["game_id"] == tables[0].game_id and end_of_first["state"] == "playing"
    assert (
        with_kiosk[-2]["status"]["game_id"]
        == with_kiosk[-1]["status"]["game_id"]
        != (tables[0].game_id)
    )
    assert kiosk.table is kiosk.session.table is not tables[0]
    assert kiosk.table_screen.table is kiosk.table  # the screen followed the next game
    window_shot(window, "host-kiosk-next-game")
    assert any(p["private"].get("hand") for p in with_kiosk[SEATS + SEATS]["phones"])
    # What differs is the machine: the kiosk has a screen for the staff's
    # messages, the headless table none.
    screens = {
        topic.split("/")[1]: json.loads(text)["screen"]
        for topic, text, _retained in recorder.messages
        if topic.endswith("/status") and json.loads(text)["state"] != "offline"
    }
    assert screens == {"kiosk": True, "headless": False}
    for store in stores:
        store.close()
