"""A whole café, end to end, with real parts only: the shipped Mosquitto
configuration (password file and ACL made by deploy/fleet-credentials.sh),
20 ``companion serve --fleet`` table processes each resuming a game scripted
into its store, and ``companion console``, driven by staff in Chromium.

Staff see every table with its game and players; they end a game, re-pair a
seat and pause a negotiation's timer from the page, and each takes effect on
the table itself (its store, its join links, its public view) and shows on
the console. Then the faults: the broker stopped and started mid-game, a
table killed and restarted, the console restarted."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cafe_helpers import CafeTable, env, scripted_store
from mqtt_helpers import CREDENTIALS_SCRIPT, Mosquitto
from ports import free_port
from status_lines import status_lines

from companion.games.base import Fate, Setup
from companion.i18n import catalog
from companion.table import EventStore, Table

pytestmark = pytest.mark.slow

TABLES = 20
STAFF_PASSWORD = "espresso at nine"
# Each table's game, seats and where its script leaves it (all keeper mode).
GAMES = (
    ("coup", ["Anna", "Ben", "Chloé"], []),
    ("g54", ["Dara", "Eli", "Femi", "Gus"], []),
    ("secret_hitler", ["Hana", "Ivo", "Jun", "Kai", "Lea"], []),
    ("article27", ["Mia", "Noa", "Oto"], [{"type": "gavel", "seat": 0}]),  # the timer runs
)
CONSOLE_WORDS = json.loads(
    (Path(__file__).parents[1] / "companion/console/catalogs/en.json").read_text(encoding="utf-8")
)


def table_name(number: int) -> str:
    return f"table-{number:02d}"


class Cafe:
    """The broker, the tables and the console, in ``directory``."""

    def __init__(self, directory: Path, tables: int) -> None:
        self.directory = directory
        self.secrets = directory / "credentials"
        self.passwords = directory / "companion.passwd"
        for number in range(1, tables + 1):
            self.credentials("add-table", table_name(number))
        self.credentials("add-console")
        self.key = directory / "action.key"
        self.credentials("new-action-key", str(self.key))
        self.broker = Mosquitto(directory, shipped=True, password_file=self.passwords)
        self.broker.start()
        self.tables = []
        for number in range(1, tables + 1):
            name = table_name(number)
            game, seats, script = GAMES[(number - 1) % len(GAMES)]
            table = CafeTable(
                directory, name, self.broker.url, self.secrets / f"{name}.password", self.key
            )
            scripted_store(
                table.db, game, seats, "keeper", lambda t, s=script: [t.execute(c) for c in s]
            )
            self.tables.append(table)
        self.console_port = free_port()
        self.console: subprocess.Popen[bytes] | None = None
        self.staff_hash = directory / "staff.hash"
        subprocess.run(
            [sys.executable, "-m", "companion", "console", "--set-password", str(self.staff_hash)],
            input=f"{STAFF_PASSWORD}\n".encode(),
            check=True,
            env=env(),
        )

    def credentials(self, *args: str) -> None:
        done = subprocess.run(
            ["bash", str(CREDENTIALS_SCRIPT), *args],
            env={
                **env(),
                "FLEET_PASSWORD_FILE": str(self.passwords),
                "FLEET_CREDENTIALS_DIR": str(self.secrets),
            },
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr

    def start_tables(self) -> None:
        for table in self.tables:
            table.start()
        for table in self.tables:
            table.wait_serving()

    def start_console(self) -> None:
        self.console = subprocess.Popen(
            [
                sys.executable, "-m", "companion", "console", "--broker", self.broker.url,
                "--broker-user", "console",
                "--broker-password-file", str(self.secrets / "console.password"),
                "--action-key-file", str(self.key),
                "--staff-password-file", str(self.staff_hash),
                "--host", "127.0.0.1", "--port", str(self.console_port),
                "--db", str(self.directory / "console.sqlite3"),
            ],
            env=env(),
            stderr=subprocess.PIPE,
        )  # fmt: skip

    def stop_console(self) -> str:
        assert self.console is not None
        self.console.terminate()
        self.console.wait(10)
        assert self.console.stderr is not None
        return self.console.stderr.read().decode()

    def close(self) -> None:
        for table in self.tables:
            table.stop()
        if self.console is not None and self.console.poll() is None:
            self.stop_console()
        self.broker.stop()


@pytest.fixture
def cafe(tmp_path):
    made = Cafe(tmp_path, TABLES)
    try:
        yield made
    finally:
        made.close()
    for table in made.tables:
        assert "Traceback" not in "".join(table.errors), table.errors


def log_in(page, cafe: Cafe) -> None:
    base = f"http://127.0.0.1:{cafe.console_port}"
    deadline = time.monotonic() + 30
    while True:  # the console process may not be listening yet
        try:
            page.goto(base + "/")
            break
        except Exception:  # noqa: BLE001 - Playwright's connection refused
            assert cafe.console is not None
            if cafe.console.poll() is not None:
                pytest.fail(f"the console stopped before serving its page:\n{cafe.stop_console()}")
            assert time.monotonic() < deadline, "the console never served its page"
            time.sleep(0.2)
    page.fill("input[type=password]", STAFF_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("#cards")


def card(page, name: str):
    return page.locator(f'article[data-table="{name}"]')


def wait_text(page, name: str, text: str, timeout: float = 15_000) -> None:
    # Bidi isolates (round a name in Persian) are left out of the comparison.
    page.wait_for_function(
        "([name, text]) => { const bare = (t) => t.replace(/[\\u2066-\\u2069]/g, '');"
        " const card = document.querySelector("
        '`article[data-table="${name}"]`);'
        " return card && bare(card.innerText).includes(bare(text)); }",
        arg=[name, text],
        timeout=timeout,
    )


def test_staff_see_every_table_and_act_on_it_from_the_console(cafe, browser):
    cafe.start_tables()
    cafe.start_console()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, cafe)
    page.wait_for_function(
        f"document.querySelectorAll('article[data-table]').length === {TABLES}", timeout=60_000
    )
    en = catalog("en")
    for number, table in enumerate(cafe.tables, 1):
        game, seats, _script = GAMES[(number - 1) % len(GAMES)]
        wait_text(page, table.name, en[f"game.{game}"])
        text = card(page, table.name).inner_text()
        assert CONSOLE_WORDS["console.state.playing"] in text, text
        assert all(seat in text for seat in seats), text

    # Where each game is, in the table's own words and the staff's language:
    # the kiosk's status line, as a table of the same script has it.
    for number in (2, 3):  # G54, Secret Hitler
        game, seats, _script = GAMES[number - 1]
        twin = Table.start(
            EventStore(":memory:"), Setup(game, seats, "keeper"), Fate(seed=len(seats))
        )
        lines = status_lines(twin, twin.public_view(), twin.names)
        wait_text(page, table_name(number), lines["en"])
        page.goto(f"http://127.0.0.1:{cafe.console_port}/?lang=fa")
        wait_text(page, table_name(number), lines["fa"])
        page.goto(f"http://127.0.0.1:{cafe.console_port}/?lang=en")

    # End the Coup game at table-01: the table's store says it ended.
    ended = cafe.tables[0]
    game_id = EventStore(ended.db).active_game().id
    card(page, ended.name).locator("details summary").first.click()
    card(page, ended.name).locator(".act-end_game button").click()  # the confirmation
    wait_text(page, ended.name, CONSOLE_WORDS["console.reply.done.end_game"])
    wait_text(page, ended.name, CONSOLE_WORDS["console.state.idle"])
    assert EventStore(ended.db).active_game() is None
    assert EventStore(ended.db).game(game_id).status != "active"

    # Re-pair Ben's seat at table-05 (Coup): his old link no longer offers
    # the seat, Anna's still does.
    repaired = cafe.tables[4]
    assert repaired.join_status(repaired.links["Ben"]) == 200
    actions = card(page, repaired.name).locator(".act-repair_seat")
    actions.locator("select").select_option(label="Ben")
    actions.locator("button").click()
    wait_text(page, repaired.name, CONSOLE_WORDS["console.reply.done.repair_seat"])
    assert repaired.join_status(repaired.links["Ben"]) != 200
    assert repaired.join_status(repaired.links["Anna"]) == 200

    # Pause the negotiation at table-04 (Article 27): the table's public view
    # shows its timer paused, and so does the card.
    negotiating = cafe.tables[3]
    assert negotiating.public()["public"]["timer"]["running"] is True
    card(page, negotiating.name).locator(".act-pause_timer button").click()
    wait_text(page, negotiating.name, CONSOLE_WORDS["console.reply.done.pause_timer"])
    assert negotiating.public()["public"]["timer"]["paused"] is True
    card(page, negotiating.name).locator(".act-resume_timer").wait_for()
    page.screenshot(path=str(cafe.directory / "console-cafe.png"), full_page=True)
    page.close()


def test_the_console_rides_out_a_broker_restart_a_killed_table_and_its_own_restart(cafe, browser):
    del cafe.tables[4:]  # four tables are enough for the faults
    cafe.start_tables()
    cafe.start_console()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, cafe)
    page.wait_for_function("document.querySelectorAll('article[data-table]').length === 4")
    online, offline = CONSOLE_WORDS["console.online"], CONSOLE_WORDS["console.offline"]
    for table in cafe.tables:
        wait_text(page, table.name, online)

    # The broker stops mid-game: the tables play on, the console says it
    # cannot see them; back (with nothing retained: persistence is off), the
    # tables' own reconnects bring every card back, with their state now.
    negotiating = cafe.tables[3]
    cafe.broker.stop()
    page.wait_for_selector(".broker-lost")
    for table in cafe.tables:
        wait_text(page, table.name, offline)
    before = negotiating.public()["public"]["timer"]["remaining"]
    time.sleep(1.5)
    assert negotiating.public()["public"]["timer"]["remaining"] < before  # plays on
    cafe.broker.start()
    page.wait_for_selector(".broker-lost", state="detached", timeout=20_000)
    for table in cafe.tables:
        wait_text(page, table.name, online, timeout=40_000)
        assert CONSOLE_WORDS["console.state.playing"] in card(page, table.name).inner_text()

    # A table killed: its last will shows it offline; restarted, it resumes
    # its game and says so.
    killed = cafe.tables[1]
    killed.kill()
    wait_text(page, killed.name, offline, timeout=20_000)
    killed.start()
    killed.wait_serving()
    wait_text(page, killed.name, online, timeout=20_000)
    wait_text(page, killed.name, catalog("en")["game.g54"])

    # The console restarted: it rebuilds every card from retained messages.
    cafe.stop_console()
    cafe.start_console()
    log_in(page, cafe)
    page.wait_for_function("document.querySelectorAll('article[data-table]').length === 4")
    for table in cafe.tables:
        wait_text(page, table.name, online)
        assert CONSOLE_WORDS["console.state.playing"] in card(page, table.name).inner_text()
    page.close()
