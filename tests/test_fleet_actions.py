"""The console's actions, as a headless table (``companion serve``'s own
``serve``) takes them from a real Mosquitto: signed actions published as the
console will, each applied once (also across a restart of the table), its
effect on the table's public status, and refusals for actions that are
forged, stale, for another table or another game, or garbled."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from a27_helpers import keeper4
from mqtt_helpers import Mosquitto
from paho.mqtt.enums import CallbackAPIVersion
from ports import free_port

from companion.fleet import Broker, StatusPublisher
from companion.fleet import protocol as p
from companion.fleet.actions import KEEP
from companion.games.base import Fate, Setup
from companion.host.serve import serve
from companion.table import EventStore, Table
from companion.table.damage import resume_active

KEY = b"a-cafe-action-key-0123456789abcdef"
NAME = "t1"
STATUS, REPLY = f"companion/{NAME}/status", f"companion/{NAME}/reply"


@pytest.fixture
def console(mqtt_client):
    """The café console's side of the broker: it publishes the actions."""
    return mqtt_client


class Served:
    """``serve(table, fleet=...)`` on a loop of its own thread, as
    ``companion serve --fleet ... --fleet-key-file ...`` runs it."""

    def __init__(self, table: Table, broker: Mosquitto, key: bytes | None = KEY) -> None:
        self.table = table
        self.fleet = StatusPublisher(
            Broker.from_url(broker.url), NAME, reconnect=(1, 1), action_key=key
        )
        self.loop = asyncio.new_event_loop()
        self.task: asyncio.Task[int] | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        async def main() -> None:
            self.task = asyncio.current_task()  # type: ignore[assignment]
            await serve(self.table, "127.0.0.1", free_port(), fleet=self.fleet)

        with contextlib.suppress(asyncio.CancelledError):  # stopped by close()
            self.loop.run_until_complete(main())

    def listening(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not (self.fleet._connected and self.fleet._listener is not None):
            assert time.monotonic() < deadline, "the table never listened for actions"
            time.sleep(0.01)
        time.sleep(0.1)  # the SUBSCRIBE reaches the broker

    def close(self) -> None:
        while self.task is None:
            time.sleep(0.01)
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)
        self.loop.close()

    def __enter__(self) -> Served:
        self.listening()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def send(
    console,
    recorder,
    action: dict[str, Any] | bytes,
    identity: str | None = None,
    timeout: float = 5.0,
):
    """Publish ``action`` as the console does; the table's reply to it,
    checked signed with the café's key and read without its signature."""
    payload = action if isinstance(action, bytes) else json.dumps(action).encode()
    identity = identity or (action["id"] if isinstance(action, dict) else None)
    before = len(recorder.messages)
    console.publish(f"companion/{NAME}/command", payload, qos=1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for topic, text, retained in recorder.messages[before:]:
            if topic == REPLY and json.loads(text)["id"] == identity:
                assert not retained
                reply = json.loads(text)
                assert p.signed_by(KEY, p.REPLY, reply, NAME), "signed by the table"
                return {name: value for name, value in reply.items() if name != "sig"}
        time.sleep(0.01)
    raise AssertionError(f"no reply to {identity}")


def coup(store) -> Table:
    setup = Setup(game="coup", seats=["Anna", "Ben", "Chloé"], mode="keeper", options={"first": 0})
    return Table.start(store, setup, fate=Fate(seed=3))


def test_end_game_ends_it_and_the_status_goes_idle(store, broker, recorder, console):
    table = coup(store)
    with Served(table, broker):
        recorder.wait_for(STATUS, lambda s: s["state"] == "playing")
        reply = send(console, recorder, p.make_action(KEY, NAME, p.END_GAME, table.game_id))
        assert reply == {
            "id": reply["id"],
            "table": NAME,
            "ok": True,
            "key": None,
            "args": {},
            "result": {},
            "repeated": False,
        }
        status = recorder.wait_for(STATUS, lambda s: s["state"] == "idle", timeout=2)
        assert status["game_id"] is None
        assert p.signed_by(KEY, p.STATUS, status, NAME), "its statuses signed with the key"
        assert not p.signed_by(KEY, p.STATUS, status, "t2"), "as this table's only"
    assert table.ended and store.game(table.game_id).status == "abandoned"


def test_an_action_sent_twice_is_applied_once_even_across_a_restart(
    tmp_path, broker, recorder, console
):
    path = tmp_path / "games.sqlite3"
    store = EventStore(path)
    table = coup(store)
    table.end()
    first = table.game_id
    action = p.make_action(KEY, NAME, p.NEXT_GAME, None)
    with Served(table, broker):
        reply = send(console, recorder, action)
        assert reply["ok"] and not reply["repeated"]
        new = reply["result"]["game_id"]
        assert new != first
        recorder.wait_for(STATUS, lambda s: s["game_id"] == new and s["state"] == "playing")
        again = send(console, recorder, action)
        assert again == {**reply, "repeated": True}
    store.close()
    store = EventStore(path)  # the table restarts
    resumed, _ = resume_active(store)
    assert resumed is not None and resumed.game_id == new
    with Served(resumed, broker):
        assert send(console, recorder, action) == {**reply, "repeated": True}
    assert [record.id for record in store.history()].count(new) == 1
    assert len(store.history()) == 2  # no third game
    store.close()


def test_next_game_only_when_the_game_is_over_or_ended(store, broker, recorder, console):
    table = coup(store)
    with Served(table, broker):
        reply = send(console, recorder, p.make_action(KEY, NAME, p.NEXT_GAME, table.game_id))
        assert (reply["ok"], reply["key"]) == (False, "fleet.refused.not_over")
    assert len(store.history()) == 1


def test_the_timer_pauses_and_resumes_where_the_game_has_one(store, broker, recorder, console):
    table = keeper4(store)
    assert table.timer_command(resume=False) is None, "no timer before the gavel"
    table.execute({"type": "gavel"})  # the negotiation and its timer begin
    assert table.timer_command(resume=False) is not None, "negotiation has its timer"
    with Served(table, broker):
        reply = send(console, recorder, p.make_action(KEY, NAME, p.PAUSE_TIMER, table.game_id))
        assert reply["ok"], reply
        recorder.wait_for(STATUS, lambda s: s["timer"] and not s["timer"]["running"])
        assert table.public_view()["timer"]["paused"]
        again = send(console, recorder, p.make_action(KEY, NAME, p.PAUSE_TIMER, table.game_id))
        assert again["key"] == "fleet.refused.no_timer"
        reply = send(console, recorder, p.make_action(KEY, NAME, p.RESUME_TIMER, table.game_id))
        assert reply["ok"], reply
        recorder.wait_for(STATUS, lambda s: s["timer"]["running"])


def test_a_game_without_a_timer_refuses_to_pause(store, broker, recorder, console):
    table = coup(store)
    with Served(table, broker):
        reply = send(console, recorder, p.make_action(KEY, NAME, p.PAUSE_TIMER, table.game_id))
        assert reply["key"] == "fleet.refused.no_timer"


def test_repair_gives_the_seat_a_new_link_and_the_reply_holds_no_token(
    store, broker, recorder, console
):
    table = coup(store)
    with Served(table, broker) as served:
        server_links = store.seat_links(table.game_id)
        before = {seat: link["token"] for seat, link in server_links.items()}
        reply = send(
            console, recorder, p.make_action(KEY, NAME, p.REPAIR_SEAT, table.game_id, {"seat": 1})
        )
        assert reply["ok"], reply
        after = store.seat_link(table.game_id, 1)
        assert after is not None and after["token"] != before.get(1)
        for _topic, text, _retained in recorder.messages:
            assert after["token"] not in text
        bad = send(
            console, recorder, p.make_action(KEY, NAME, p.REPAIR_SEAT, table.game_id, {"seat": 3})
        )
        assert bad["key"] == "fleet.refused.no_seat"
        assert served.table is table


def test_a_headless_table_has_no_screen_for_a_message(store, broker, recorder, console):
    table = coup(store)
    with Served(table, broker):
        assert recorder.wait_for(STATUS, lambda _s: True)["screen"] is False, "says so"
        reply = send(console, recorder, p.make_action(KEY, NAME, p.MESSAGE, None, {"text": "Hi"}))
        assert reply["key"] == "fleet.refused.no_screen"
        empty = send(console, recorder, p.make_action(KEY, NAME, p.MESSAGE, None, {"text": " "}))
        assert empty["key"] == "fleet.refused.bad_message"
        long = "x" * (p.MAX_MESSAGE + 1)
        assert (
            send(console, recorder, p.make_action(KEY, NAME, p.MESSAGE, None, {"text": long}))[
                "key"
            ]
            == "fleet.refused.bad_message"
        )


def test_forged_stale_misaddressed_and_wrong_game_actions_are_refused(
    store, broker, recorder, console, caplog
):
    table = coup(store)
    with Served(table, broker):
        refusals = {
            "fleet.refused.forged": p.make_action(
                b"another-key-0123456789", NAME, p.END_GAME, table.game_id
            ),
            "fleet.refused.stale": p.make_action(
                KEY, NAME, p.END_GAME, table.game_id, now=time.time() - p.WINDOW - 5
            ),
            "fleet.refused.other_table": p.make_action(KEY, "t2", p.END_GAME, table.game_id),
            "fleet.refused.other_game": p.make_action(KEY, NAME, p.END_GAME, table.game_id + 1),
        }
        for key, action in refusals.items():
            reply = send(console, recorder, action)
            assert (reply["ok"], reply["key"]) == (False, key)
        tampered = p.make_action(KEY, NAME, p.END_GAME, table.game_id)
        tampered["action"] = p.NEXT_GAME
        assert send(console, recorder, tampered)["key"] == "fleet.refused.forged"
        garbled = send(console, recorder, b'{"id": "abc", "table": 3}', identity="abc")
        assert garbled["key"] == "fleet.refused.garbled"
        # No id: nothing to answer; the table ignores it and plays on.
        console.publish(f"companion/{NAME}/command", b"not json {", qos=1)
        reply = send(console, recorder, p.make_action(KEY, NAME, p.END_GAME, table.game_id))
        assert reply["ok"]
    ignored = [r for r in caplog.records if "no id" in r.getMessage()]
    assert len(ignored) == 1


def test_without_a_key_the_table_takes_no_actions(store, broker, recorder, console):
    table = coup(store)
    served = Served(table, broker, key=None)
    try:
        status = recorder.wait_for(STATUS, lambda s: s["state"] == "playing")
        assert "sig" not in status, "nothing to sign with"
        console.publish(
            f"companion/{NAME}/command",
            json.dumps(p.make_action(KEY, NAME, p.END_GAME, table.game_id)),
            qos=1,
        )
        time.sleep(0.5)
        assert not table.ended
        assert [m for m in recorder.messages if m[0] == REPLY] == []
    finally:
        served.close()


def test_the_status_carries_the_tables_own_health(store, broker, recorder, console):
    table = coup(store)
    with Served(table, broker):
        status = recorder.wait_for(STATUS, lambda s: "pad" in s["health"])
        assert status["health"]["pad"] is None and status["health"]["gpio"] is None
        assert status["health"]["last_error"] is None
        import logging

        logging.getLogger("companion.test").error("the pad's cable is loose\nsecond line")
        status = recorder.wait_for(STATUS, lambda s: s["health"]["last_error"] is not None)
        error = status["health"]["last_error"]
        assert error["message"] == "the pad's cable is loose"
        assert error["at"].endswith("+00:00") and len(error["at"]) == 25


def test_old_replies_are_forgotten(store):
    store.remember_fleet_action("a", 1000.0, {"id": "a"}, KEEP)
    assert store.fleet_reply("a") == {"id": "a"}
    store.remember_fleet_action("b", 1000.0 + KEEP + 1, {"id": "b"}, KEEP)
    assert store.fleet_reply("a") is None and store.fleet_reply("b") == {"id": "b"}


def test_a_key_file_the_table_cannot_use_stops_it_before_it_serves(tmp_path, capsys):
    from companion.cli import main

    common = ["--db", str(tmp_path / "g.sqlite3"), "--game", "coup", "--exit-after", "0"]
    fleet = ["--fleet", "mqtt://127.0.0.1:1"]
    missing = tmp_path / "none"
    assert main(["serve", *common, *fleet, "--fleet-key-file", str(missing)]) == 2
    assert "cannot read the action key" in capsys.readouterr().err
    short = tmp_path / "short.key"
    short.write_text("tooshort\n")
    assert main(["run", *common, *fleet, "--fleet-key-file", str(short)]) == 2
    assert "at least 16 characters" in capsys.readouterr().err


@contextlib.contextmanager
def kiosk_taking_actions(tmp_path, broker, *options: str):
    """``companion run`` with the café's action key, its window on Mesa; a
    console's client beside it. Yields the client; the kiosk must exit 0."""
    key_file = tmp_path / "action.key"
    key_file.write_text(KEY.decode() + "\n")
    kiosk = subprocess.Popen(
        [
            sys.executable, "-m", "companion", "run", "--db", str(tmp_path / "games.sqlite3"),
            "--mock-pins", "--pad", "none", *options, "--fleet", broker.url,
            "--table-name", NAME, "--fleet-key-file", str(key_file),
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )  # fmt: skip
    console = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"console-{tmp_path.name}")
    try:
        console.connect("127.0.0.1", broker.port)
        console.loop_start()
        try:
            yield console
        finally:
            console.disconnect()
            console.loop_stop()
    finally:
        _out, err = kiosk.communicate(timeout=30)
    assert kiosk.returncode == 0, err[-2000:]


def first_message_answered(console, recorder, text: str) -> dict[str, Any]:
    """A message sent until the kiosk answers: it subscribes once its window
    is built."""
    deadline = time.monotonic() + 20
    while True:
        action = p.make_action(KEY, NAME, p.MESSAGE, None, {"text": text})
        try:
            return send(console, recorder, action, timeout=1)
        except AssertionError:
            assert time.monotonic() < deadline, "the kiosk never answered"


@pytest.mark.slow
def test_the_kiosk_takes_a_message_and_reports_its_header_and_pad(tmp_path, broker, recorder):
    playing = ("--game", "coup", "--new", "--web-port", "0", "--exit-after", "8")
    with kiosk_taking_actions(tmp_path, broker, *playing) as console:
        status = recorder.wait_for(
            STATUS,
            lambda s: s["state"] == "playing" and s["health"]["gpio"] is not None,
            timeout=20,
        )
        # Mock pins: the header is simulated, not in use; no pad configured.
        assert status["health"]["gpio"] is False and status["health"]["pad"] is None
        assert status["screen"] is True, "the console offers its messages"
        reply = first_message_answered(console, recorder, "Last orders")
        assert reply["ok"], reply


@pytest.mark.slow
def test_a_kiosk_at_home_takes_a_message_and_has_no_game_to_end(tmp_path, broker, recorder):
    with kiosk_taking_actions(tmp_path, broker, "--exit-after", "10") as console:
        recorder.wait_for(STATUS, lambda s: s["state"] == "idle", timeout=20)
        reply = first_message_answered(console, recorder, "Welcome")
        assert reply["ok"], reply
        ended = send(console, recorder, p.make_action(KEY, NAME, p.END_GAME, None))
        assert ended["key"] == "fleet.refused.no_game"
