"""A table publishes its public status to a real Mosquitto on 127.0.0.1:
retained, following its commands and its timer, with a last will; a broker
that is gone or hung never slows the table, and gets the newest status when
it is back."""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import subprocess
import sys
import time

import pytest
from a27_helpers import FakeClock
from mqtt_helpers import Mosquitto, Publishing, Recorder
from ports import free_port
from web_helpers import join, served

from companion import __version__
from companion.fleet.reporter import QUIET_REFRESH
from companion.games.base import Fate, Setup
from companion.table import Table

STATUS, ONLINE = "companion/t1/status", "companion/t1/online"


def coup_table(store, clock=None, **options) -> Table:
    setup = Setup(
        game="coup", seats=["Anna", "Ben", "Chloé"], mode="keeper", options={"first": 0, **options}
    )
    if clock is None:
        return Table.start(store, setup, fate=Fate(seed=3))
    return Table.start(store, setup, fate=Fate(seed=3), clock=clock)


def play(table: Table, commands: int) -> list[float]:
    """Play ``commands`` commands (the first legal one each time, an income
    or the like: the game goes on); the time each execute took."""
    took = []
    for _ in range(commands):
        command = dict(table.legal_commands()[0])
        start = time.perf_counter()
        table.execute(command)
        took.append(time.perf_counter() - start)
    return took


def test_the_status_is_retained_and_follows_the_tables_commands(store, broker, recorder):
    table = coup_table(store)
    with Publishing(table, broker):
        play(table, 3)
        status = recorder.wait_for(STATUS, lambda s: s.get("turn") == table.public_view()["turn"])
        assert status["table"] == "t1" and status["version"] == __version__
        assert status["state"] == "playing" and status["game"] == "coup"
        assert status["mode"] == "keeper" and status["game_id"] == table.game_id
        assert status["phase"] == table.public_view()["phase"]
        assert status["players"] == {"count": 3, "names": ["Anna", "Ben", "Chloé"]}
        assert status["timer"] is None and status["started_at"].endswith("+00:00")
        assert status["health"]["phones"] == []
        assert recorder.wait_for(ONLINE, lambda s: True) == {"online": True}
        play(table, 2)
        recorder.wait_for(STATUS, lambda s: s["turn"] == table.public_view()["turn"])
        # Someone who subscribes later (the console, restarted) is told at once.
        late = Recorder(broker.port)
        try:
            late.wait_for(STATUS, lambda s: s["turn"] == table.public_view()["turn"])
            assert {retained for topic, _p, retained in late.messages} == {True}
        finally:
            late.close()
    # A table that stops says goodbye.
    assert recorder.wait_for(ONLINE, lambda s: s == {"online": False})


def test_a_running_timer_is_published_every_second_as_it_counts_down(store, broker, recorder):
    clock = FakeClock()
    table = coup_table(store, clock=clock, response_seconds=20)
    with Publishing(table, broker, clock=clock) as fleet:
        table.execute({"type": "tax", "seat": 0})  # a claim, open to challenge for 20 s
        running = {"running": True, "paused": False, "remaining": 20.0}
        recorder.wait_for(STATUS, lambda s, running=running: s["timer"] == running)
        clock.advance(0.5)
        fleet.reporter.tick()  # not yet a second since the last status
        clock.advance(0.5)
        fleet.reporter.tick()
        running = {"running": True, "paused": False, "remaining": 19.0}
        recorder.wait_for(STATUS, lambda s, running=running: s["timer"] == running)
        clock.advance(7.2)
        fleet.reporter.tick()
        recorder.wait_for(STATUS, lambda s: s["timer"]["remaining"] == 11.8)
    statuses = [p for topic, p, _r in recorder.messages if topic == STATUS]
    assert not any('"remaining": 19.5' in p for p in statuses), "a second apart, not every tick"


def test_a_hung_broker_never_slows_the_table_and_only_the_newest_status_waits(
    store, broker, recorder
):
    table = coup_table(store)
    with Publishing(table, broker) as fleet:
        baseline = play(table, 10)
        # The newest status acknowledged, none on its way: a status of the
        # same turn may be one older than the newest, which would still be
        # going out (and be answered) as the broker stops.
        fleet.settle()
        broker.pause()  # connections open, nothing answered: a slow broker at its worst
        try:
            before = fleet.publisher.sent
            play(table, 1)  # this status goes into the socket and waits for its PUBACK
            deadline = time.monotonic() + 5  # its turn comes (statuses are spaced), then it goes
            while fleet.publisher.sent == before and time.monotonic() < deadline:
                time.sleep(0.01)
            sent = fleet.publisher.sent
            assert sent == before + 1, "the status went out"
            hung = play(table, 25)
            time.sleep(0.2)
            assert fleet.publisher.sent == sent, "nothing more goes out while one is unanswered"
        finally:
            broker.resume()
        recorder.wait_for(STATUS, lambda s: s["turn"] == table.public_view()["turn"])
        assert fleet.publisher.sent <= sent + 2, "the 25 statuses coalesced into the newest"
    assert max(hung) < 0.25
    assert statistics.median(hung) < 3 * statistics.median(baseline) + 0.005


def test_the_table_plays_on_without_its_broker_and_republishes_when_it_returns(
    store, broker, tmp_path
):
    table = coup_table(store)
    with Publishing(table, broker):
        play(table, 2)
        broker.stop()
        gone = play(table, 30)
        assert max(gone) < 0.25, "Table.execute never waits on the network"
        newest = table.public_view()["turn"]
        broker.start()  # no persistence: the broker remembers nothing of before
        back = Recorder(broker.port)
        try:
            status = back.wait_for(STATUS, lambda s: s["turn"] == newest, timeout=10)
            assert status["state"] == "playing"
            assert back.wait_for(ONLINE, lambda s: True) == {"online": True}
        finally:
            back.close()


def test_the_last_will_marks_a_killed_table_offline(tmp_path):
    broker = Mosquitto(tmp_path, users={"t9": "s3cret pass", "console": "c"})
    broker.start()
    password = tmp_path / "fleet-password"
    password.write_text("s3cret pass\n")
    recorder = Recorder(broker.port, user=("console", "c"))
    command = [
        sys.executable, "-m", "companion", "serve",
        "--db", str(tmp_path / "games.sqlite3"), "--game", "coup", "--mode", "keeper",
        "--players", "Anna,Ben,Chloé", "--host", "127.0.0.1", "--port", str(free_port()),
        "--fleet", broker.url, "--fleet-user", "t9", "--fleet-password-file", str(password),
        "--table-name", "t9",
    ]  # fmt: skip
    table = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        status = recorder.wait_for("companion/t9/status", lambda s: True, timeout=30)
        assert status["game"] == "coup" and status["players"]["count"] == 3
        assert recorder.wait_for("companion/t9/online", lambda s: True) == {"online": True}
        table.send_signal(signal.SIGKILL)
        table.wait(5)
        assert recorder.wait_for("companion/t9/online", lambda s: s == {"online": False})
        later = Recorder(broker.port, user=("console", "c"))
        try:  # retained: a console that starts now sees it offline too
            assert later.wait_for("companion/t9/online", lambda s: True) == {"online": False}
        finally:
            later.close()
    finally:
        if table.poll() is None:
            table.kill()
        table.wait(5)
        recorder.close()
        broker.stop()
    assert b"Traceback" not in table.stderr.read()


def test_a_broker_that_refuses_the_table_never_stops_it(store, tmp_path, caplog):
    broker = Mosquitto(tmp_path, users={"t1": "right", "console": "c"})
    broker.start()
    recorder = Recorder(broker.port, user=("console", "c"))
    table = coup_table(store)
    try:
        with Publishing(table, broker, user=("t1", "wrong")):
            took = play(table, 10)
            time.sleep(0.3)
        assert max(took) < 0.25
        assert "the broker refused the table" in caplog.text
        assert recorder.messages == []
    finally:
        recorder.close()
        broker.stop()


def test_the_status_says_which_seats_have_a_phone_open(store, broker, recorder):
    clock = FakeClock()
    table = coup_table(store)

    async def scenario():
        async with served(table) as (server, phone):
            with Publishing(table, broker, clock=clock) as fleet:
                fleet.reporter.phones = server.connected_seats
                recorder.wait_for(STATUS, lambda s: s["health"]["phones"] == [])
                client = await phone()
                assert (await join(client, server.links.token(table.game_id, 1))).status == 303
                socket = await client.ws_connect("/ws?frames=binary")
                await socket.receive()  # its first state: the seat's page is open
                clock.advance(QUIET_REFRESH)
                fleet.reporter.tick()  # no commit: the loop's tick looks again
                recorder.wait_for(STATUS, lambda s: s["health"]["phones"] == [1])
                await socket.close()

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_kiosk_publishes_its_table_and_says_goodbye_when_it_closes(tmp_path, broker, recorder):
    done = subprocess.run(
        [
            sys.executable, "-m", "companion", "run", "--db", str(tmp_path / "games.sqlite3"),
            "--game", "coup", "--new", "--mock-pins", "--pad", "none", "--web-port", "0",
            "--exit-after", "3", "--fleet", broker.url, "--table-name", "kiosk-1",
        ],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": os.getcwd()},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    status = recorder.latest("companion/kiosk-1/status")
    assert status is not None and status["game"] == "coup" and status["state"] == "playing"
    assert recorder.latest("companion/kiosk-1/online") == {"online": False}
    assert ("companion/kiosk-1/online", '{"online": true}', False) in recorder.messages


def test_a_game_before_its_first_round_publishes_no_round(store, broker, recorder):
    """Article 27's set-up (physical, 4 players: the unused agendas are put
    away) is "round 0" in its view: the console is told no round until the
    first begins, then "round 1"."""
    from a27_helpers import a27_table

    table = a27_table(store, 4, mode="physical")
    assert table.public_view()["round"] == 0
    with Publishing(table, broker):
        status = recorder.wait_for(STATUS, lambda s: s.get("phase") == "unused")
        assert "round" not in status and status["rounds"] == 4
        table.execute(dict(table.legal_commands()[0]))  # the unused agendas put away
        status = recorder.wait_for(STATUS, lambda s: s.get("phase") != "unused")
        assert status["round"] == 1 and status["rounds"] == 4
