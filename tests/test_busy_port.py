"""A port something else holds (8080 on a desktop) never stops the table:
the phones are served on the next free port, which the QR codes carry and
the log names; when no port opens, the table plays without phones and says
so in one line, on the screen and in the log. `companion serve` alike.
Real sockets hold the ports; real processes and the kiosk's own objects."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack

import pytest
from ports import free_port

from companion.host import WebConfig
from companion.web.listen import TRIES


def hold(ports: ExitStack, count: int, free_after: bool = True) -> int:
    """Hold ``count`` ports in a row with listening sockets (and see that
    the one after them is free): the first of them."""
    while True:
        first = free_port()
        sockets = []
        try:
            for port in range(first, first + count):
                held = socket.socket()
                sockets.append(held)
                held.bind(("127.0.0.1", port))
                held.listen()
            if free_after:
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", first + count))
        except OSError:
            for held in sockets:
                held.close()
            continue
        for held in sockets:
            ports.callback(held.close)
        return first


def api_table(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=2) as answer:
            return json.loads(answer.read())
    except OSError:
        return None


def companion(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def serve_args(db, port: int, seconds: str) -> list[str]:
    return [
        "serve",
        "--db",
        str(db),
        "--game",
        "coup",
        "--players",
        "Ann,Ben",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--exit-after",
        seconds,
    ]


def test_serve_moves_to_the_next_free_port_and_says_so_in_one_line(tmp_path):
    with ExitStack() as ports:
        port = hold(ports, 1)
        process = companion(*serve_args(tmp_path / "g.sqlite3", port, "20"))
        try:
            line = process.stdout.readline()
            assert line.strip() == f"Serving the table at http://127.0.0.1:{port + 1}/table"
            public = api_table(port + 1)
            assert public is not None and public["game"] == "coup"
        finally:
            process.terminate()
            _, stderr = process.communicate(timeout=30)
    assert "Traceback" not in stderr
    said = [line for line in stderr.splitlines() if f"port {port} is in use" in line]
    assert len(said) == 1 and f"served on port {port + 1}" in said[0], stderr


def test_serve_on_port_0_names_the_port_the_system_chose(tmp_path):
    """``--port 0`` asks for any free port: the address printed, and the
    join links, carry the one taken, not 0."""
    process = companion(*serve_args(tmp_path / "g.sqlite3", 0, "20"), "--print-links")
    try:
        line = process.stdout.readline().strip()
        port = int(line.rsplit(":", 1)[1].split("/", 1)[0])
        assert port != 0, line
        links = [process.stdout.readline().strip() for _ in range(2)]
        assert all(f"http://127.0.0.1:{port}/join/" in link for link in links), links
        public = api_table(port)
        assert public is not None and public["game"] == "coup"
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_serve_says_in_one_line_when_no_port_opens(tmp_path):
    with ExitStack() as ports:
        port = hold(ports, TRIES, free_after=False)
        process = companion(*serve_args(tmp_path / "g.sqlite3", port, "5"))
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "Traceback" not in stderr
    assert stderr.strip() == (
        f"companion serve: the phones' port {port}-{port + TRIES - 1} could not be opened "
        "(Address already in use)"
    )


def run_args(db, port: int) -> list[str]:
    return [
        "run",
        "--db",
        str(db),
        "--game",
        "coup",
        "--players",
        "Ann,Ben",
        "--new",
        "--mock-pins",
        "--web-host",
        "127.0.0.1",
        "--web-port",
        str(port),
        "--exit-after",
        "6",
    ]


@pytest.mark.slow
def test_the_kiosk_serves_its_phones_on_the_next_free_port(tmp_path):
    with ExitStack() as ports:
        port = hold(ports, 1)
        process = companion(*run_args(tmp_path / "g.sqlite3", port))
        public = None
        deadline = time.monotonic() + 30
        while public is None and time.monotonic() < deadline and process.poll() is None:
            public = api_table(port + 1) or time.sleep(0.1)
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr[-2000:]
    assert public is not None and public["game"] == "coup"
    assert "Traceback" not in stderr
    moved = f"port {port} is in use (Address already in use): the phones are served on port"
    assert f"{moved} {port + 1}" in stderr


@pytest.mark.slow
def test_the_kiosk_plays_on_without_phones_when_no_port_opens(tmp_path):
    with ExitStack() as ports:
        port = hold(ports, TRIES, free_after=False)
        process = companion(*run_args(tmp_path / "g.sqlite3", port))
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr[-2000:]
    assert "Traceback" not in stderr
    assert (
        f"phones off: the phones' port {port}-{port + TRIES - 1} could not be opened "
        "(Address already in use)" in stderr
    )


def test_the_public_address_moves_with_the_port_it_named():
    default = WebConfig("0.0.0.0", 8080, "http://table.local:8080/")
    assert default.on_port(8081).public_url == "http://table.local:8081/"
    own_network = WebConfig("0.0.0.0", 80, "http://table.local/", captive=True)
    assert own_network.on_port(81).public_url == "http://table.local:81/"
    proxied = WebConfig("0.0.0.0", 8080, "https://cafe.example/table-7/")
    assert proxied.on_port(8081) == WebConfig("0.0.0.0", 8081, "https://cafe.example/table-7/")
    assert default.on_port(8080) is default


@pytest.fixture
def coup_kiosk(window, tmp_path):
    from companion.games.base import Fate, Setup
    from companion.table import EventStore, Table
    from companion.ui.kiosk import Kiosk

    setup = Setup(game="coup", seats=["Anna", "Ben", "Chloé"], options={"first": 0})
    table = Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=3))
    yield lambda lang: Kiosk(table.store, table, lang=lang)
    table.store.close()


def test_the_phones_panel_codes_carry_the_port_served(window, coup_kiosk):
    """The QR codes send phones to the port the server took, not the busy one."""
    from ui_helpers import frames, show

    from companion.host.phones import serve_phones
    from companion.ui.front import KioskScreen

    kiosk = show(window, coup_kiosk("en"), (800, 480))

    async def start(web: WebConfig):
        phones = await serve_phones(kiosk.session, web)
        assert await asyncio.to_thread(api_table, phones.web.port) is not None  # served there
        await phones.runner.cleanup()
        return phones

    with ExitStack() as ports:
        port = hold(ports, 1)
        phones = asyncio.run(start(WebConfig("127.0.0.1", port, f"http://companion.local:{port}/")))
    assert phones.web.port == port + 1
    screen = KioskScreen(kiosk)
    screen.offer_phones(phones.server, phones.web)
    frames(2)
    assert kiosk.table_screen.ids.bar.ids.phones.opacity == 1
    assert screen.phones_view is not None
    phones_view = screen.phones_view
    panel = phones_view()
    panel.open(animation=False)
    frames(2)
    panel.show_seat(0)
    assert panel.base_url == f"http://companion.local:{port + 1}"
    panel.dismiss(animation=False)


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
def test_the_screen_says_the_phones_are_off_in_one_line(window, coup_kiosk, lang, size):
    """No port opened: the table screen's line for what is missing says so,
    whole and inside the window, beside an absent Phones button; the
    settings' devices say it too."""
    from kiosk_helpers import window_shot
    from ui_helpers import fits_in_window, frames, show

    from companion.host import Host
    from companion.i18n import Messages
    from companion.ui.front import KioskScreen

    kiosk = show(window, coup_kiosk(lang), size)
    t = Messages(lang)

    class Shown(KioskScreen):
        """The kiosk in front of a host that runs for a moment."""

        async def run(self) -> None:
            await asyncio.sleep(0.3)

        async def ready(self) -> None:
            pass

        def stop(self) -> None:
            pass

    async def try_and_watch(web: WebConfig) -> None:
        host = Host(kiosk.session, web)
        assert await host.run(Shown(kiosk)) == 0
        assert host.phones is None and host.phones_off == web.port

    with ExitStack() as ports:
        port = hold(ports, TRIES, free_after=False)
        asyncio.run(try_and_watch(WebConfig("127.0.0.1", port, f"http://companion.local:{port}/")))
    frames(3)
    bar = kiosk.table_screen.ids.bar
    line = bar.ids.devices
    assert line.text == t("ui.phones_off", port=port)
    assert fits_in_window(line, window) and line.texture_size[1] <= bar.height  # whole
    # The game's name and line keep their room: the line takes a quarter at most.
    assert line.width <= bar.width / 4 + 1
    assert fits_in_window(bar.ids.title, window) and bar.ids.title.width > 0
    assert bar.ids.phones.opacity == 0 and bar.ids.phones.disabled
    assert t("settings.phones_off", port=port) in kiosk.device_lines(t)
    window_shot(window, f"phones-off-{lang}-{size[0]}x{size[1]}")
