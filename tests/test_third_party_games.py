"""Games installed as distributions of their own: found through the
entry-point group ``table_companion.games``; one that cannot be played is
skipped with one line and never stops the companion; and Show of Hands
(tests/show_of_hands/, a distribution of its own) built into a wheel,
installed into a fresh venv beside the app's wheel, and played there on the
kiosk's home screen and table, and on a phone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
import venv
from pathlib import Path

import pytest
from ports import free_port

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "tests" / "show_of_hands"
# What the app's wheel is built from (as its sdist holds: MANIFEST.in).
APP_FILES = (
    "companion",
    "hardware",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "MANIFEST.in",
    "CHANGELOG.md",
)


def _dist_info(site: Path, name: str, entries: dict[str, str]) -> None:
    """A distribution installed in ``site`` as pip leaves one: its metadata
    and its entry points in the games' group."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = [f"{key} = {value}" for key, value in entries.items()]
    (info / "entry_points.txt").write_text("[table_companion.games]\n" + "\n".join(lines) + "\n")


def test_a_broken_installed_game_is_skipped_with_one_line_and_the_rest_play(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "broken_game.py").write_text("import no_such_module_anywhere\n")
    (site / "not_a_spec.py").write_text("SPEC = {'name': 'not_a_spec'}\n")
    (site / "clash.py").write_text(
        "from companion.games.spec import GameSpec\n"
        "SPEC = GameSpec(name='coup', order=0, engine_path='clash:E', words_path='clash:W',"
        " min_players=2, max_players=6)\n"
    )
    _dist_info(
        site,
        "cafe_games",
        {
            "broken": "broken_game:SPEC",
            "not_a_spec": "not_a_spec:SPEC",
            "coup": "clash:SPEC",
            "show_of_hands": "show_of_hands:SPEC",
        },
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(GAME / "src")]))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "g.sqlite3"),
         "--game", "show_of_hands", "--players", "Ann,Bob", "--host", "127.0.0.1",
         "--port", "0", "--exit-after", "0.5"],
        capture_output=True, text=True, timeout=60, env=env, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Serving the table at" in done.stdout
    skipped = [line for line in done.stderr.splitlines() if "is skipped" in line]
    assert skipped == [
        "the installed game 'broken' from broken_game:SPEC (cafe_games 1.0) is skipped: it "
        "cannot be imported: ModuleNotFoundError: No module named 'no_such_module_anywhere'",
        "the installed game 'not_a_spec' from not_a_spec:SPEC (cafe_games 1.0) is skipped: "
        "it names a dict, not a GameSpec",
        "the installed game 'coup' from clash:SPEC (cafe_games 1.0) is skipped: a game named "
        "'coup' is already known",
    ]
    assert "Traceback" not in done.stderr
    from companion.table import EventStore

    store = EventStore(tmp_path / "g.sqlite3")
    assert store.active_game().game == "show_of_hands", "the good game of the same lot plays"
    store.close()


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Path:
    """A fresh venv (made once a session) with the app's wheel, built from
    this checkout, and Show of Hands' wheel installed; the app's
    dependencies come from the environment running the tests (a line in a
    .pth file, as --system-site-packages would give a system's). Returns
    its bin directory."""
    work = tmp_path_factory.mktemp("third-party")
    app, game = work / "app", work / "game"
    built = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    app.mkdir()
    for name in APP_FILES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, app / name, ignore=built)
        else:
            shutil.copy(ROOT / name, app)
    shutil.copytree(GAME, game, ignore=built)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    for source in (app, game):
        subprocess.run([*pip, "wheel", "--no-deps", "-w", work / "wheels", source], check=True)
    env = work / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    python = env / "bin" / "python"
    child_site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    Path(child_site, "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wheels = sorted((work / "wheels").glob("*.whl"))
    assert [w.name.split("-")[0] for w in wheels] == [
        "table_companion",
        "table_companion_show_of_hands",
    ]
    subprocess.run([*pip, "--python", python, "install", "--no-deps", *wheels], check=True)
    return env / "bin"


def _seat_links(process: subprocess.Popen, seats: int) -> tuple[str, list[str]]:
    """The table's address and each seat's join link, as `companion serve
    --print-links` prints them."""
    assert process.stdout is not None
    address, links = "", []
    while len(links) < seats:
        line = process.stdout.readline()
        assert line, "companion serve stopped before printing its links"
        if line.startswith("Serving the table at "):
            address = line.split()[-1].removesuffix("/table")
        elif "/join/" in line:
            links.append(line.split()[-1])
    return address, links


@pytest.mark.slow
def test_a_game_installed_from_its_own_wheel_plays_on_the_kiosk_and_a_phone(
    installed, tmp_path, phones
):
    from browser import SHOTS as PHONE_SHOTS
    from browser import shot, take_seat
    from playwright.sync_api import expect
    from ui_helpers import SHOTS

    db = tmp_path / "g.sqlite3"
    kiosk = subprocess.run(
        [installed / "python", "-P", ROOT / "tests" / "third_party_kiosk.py", db,
         SHOTS.resolve(), "show_of_hands", "en", "800x480"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert kiosk.returncode == 0, kiosk.stderr[-3000:]
    seen = json.loads(kiosk.stdout.splitlines()[-1])
    venv_dir = installed.parent.resolve()
    assert Path(seen["companion"]).resolve().is_relative_to(venv_dir), "the app from its wheel"
    assert Path(seen["game"]).resolve().is_relative_to(venv_dir), "the game from its wheel"
    assert seen["games"][-1] == "Show of Hands", "the home screen lists it after the built-ins"
    assert len(seen["games"]) == 5
    assert seen["variants"] == ["Rounds: 3"], "its own words, from its own catalogs"
    assert seen["screen_title"] == "Show of Hands"
    assert seen["started"] == "Round 1 of 3: ask the question aloud, then tap Ask."
    assert seen["after_command"] == "Round 1 of 3: everyone answers Yes or No in secret."

    server = subprocess.Popen(
        [installed / "companion", "serve", "--db", db, "--host", "127.0.0.1",
         "--port", str(free_port()), "--print-links", "--exit-after", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    try:
        address, links = _seat_links(server, 3)
        bob = phones()
        take_seat(bob, links[1])
        expect(bob.locator("#status")).to_have_text(
            "Round 1 of 3: everyone answers Yes or No in secret."
        )
        expect(bob.locator("#actions button")).to_have_text(["Yes", "No"])
        bob.locator("#actions button").nth(0).click()
        expect(bob.locator("#message")).to_have_text("Sent.")
        shot(bob, "third-party-seat")
        with urllib.request.urlopen(f"{address}/api/table") as response:
            public = json.loads(response.read())
        assert public["game"] == "show_of_hands"
        assert public["status"] == "Round 1 of 3: everyone answers Yes or No in secret."
        assert public["public"]["ballot"]["voted"] == [1], "Bob's vote, from his phone"
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=30)
    assert "Traceback" not in stderr, stderr[-2000:]
    assert (PHONE_SHOTS / "third-party-seat.png").exists()
