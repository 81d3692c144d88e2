"""deploy/install.sh against a scratch root (tests/deploy_helpers.py): the
files it writes, a second run that changes nothing, options that keep their
values, the access point, and the refusal to upgrade in the middle of a game."""

from __future__ import annotations

import re

import pytest
from deploy_helpers import CMDLINE, REPO, scratch_pi
from helpers import new_table

from companion.table import EventStore, Table
from companion.ui.system.kiosk_settings import KioskSettings

UNIT = "/etc/systemd/system/table-companion.service"
CONF = "/etc/table-companion/companion.conf"
AP = "/etc/NetworkManager/system-connections/table-companion-ap.nmconnection"
AP_DNS = "/etc/NetworkManager/dnsmasq-shared.d/table-companion.conf"
DATA = "/var/lib/table-companion"
GROUPS = "video,render,input,gpio,dialout,audio"


@pytest.fixture
def pi(tmp_path):
    return scratch_pi(tmp_path)


def sidecars_aside(tree: dict) -> dict:
    return {
        path: entry
        for path, entry in tree.items()
        if not path.endswith(("-wal", "-shm")) and path != DATA.lstrip("/")
    }


def installed(pi, *args):
    done = pi.install(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_a_fresh_install_writes_the_service_its_configuration_and_the_app(pi):
    installed(pi, "--rotation", "90", "--pad", "none", "--dim-after", "300")
    calls = pi.calls()

    # The system packages, the service user in its groups.
    apt = next(c for c in calls if c.startswith("apt-get -q install"))
    for package in (
        "python3-venv",
        "libegl1",
        "libgbm1",
        "libmtdev1",
        "libfribidi0",
        "avahi-daemon",
        "network-manager",
        "dnsmasq-base",
    ):
        assert f" {package}" in apt
    assert (
        f"useradd --system --user-group --groups {GROUPS} --home-dir {DATA} "
        "--no-create-home --shell /usr/sbin/nologin companion"
    ) in calls
    # The app in its own venv: exactly the locked set, hashes checked, then its
    # own wheel built from a copy of this checkout with nothing downloaded.
    assert f"python3 -m venv {pi.root}/opt/table-companion/venv" in calls
    pip = [
        c.split(" --no-input ", 1)[1]
        for c in calls
        if c.startswith("venv-python -m pip --disable-pip-version-check --no-input ")
    ]
    assert pip[0] == (
        f"install --quiet --require-hashes --no-deps -r {REPO}/deploy/requirements.lock"
    )
    assert re.fullmatch(
        r"wheel --quiet --no-deps --no-build-isolation --no-index "
        r"--wheel-dir (\S+)/dist \1",
        pip[1],
    )
    wheel_call = next(c for c in calls if " wheel --quiet " in c)
    listed = calls[calls.index(wheel_call) + 1].split()
    assert listed == ["LICENSE", "README.md", "companion", "dist", "hardware", "pyproject.toml"]
    assert re.fullmatch(
        r"install --quiet --no-deps --no-index --force-reinstall "
        r"\S+/dist/table_companion-0\.0\.0-py3-none-any\.whl",
        pip[2],
    )
    assert len(pip) == 3, "nothing unpinned: no pip upgrade, no other install"
    assert pi.exists("/opt/table-companion/venv/.installed")

    # The service and its start command, as they are in deploy/.
    assert pi.read(UNIT) == (REPO / "deploy/table-companion.service").read_text()
    for name in ("companion-start", "drm-card"):
        assert pi.read(f"/opt/table-companion/bin/{name}") == (REPO / "deploy" / name).read_text()
        assert pi.mode(f"/opt/table-companion/bin/{name}") == 0o755
    assert pi.config() == {
        "APP_DIR": "/opt/table-companion",
        "DATA_DIR": DATA,
        "PORT": "80",
        "PUBLIC_URL": "",
        "PINS": "",
        "PAD": "none",
        "TOUCH": "mtdev",
        "DIM_AFTER": "300",
        "ACCESS_POINT_SSID": "",
        "ACCESS_POINT_PASSWORD": "",
    }
    assert pi.mode(CONF) == 0o640
    assert "<port>80</port>" in pi.read("/etc/avahi/services/table-companion.service")
    rules = pi.read("/etc/udev/rules.d/70-table-companion.rules")
    assert "backlight" in rules
    assert re.search(r'KERNEL=="gpiochip\*".*GROUP="gpio", MODE="0660"', rules)
    assert "Storage=persistent" in pi.read("/etc/systemd/journald.conf.d/table-companion.conf")
    assert pi.read("/boot/firmware/cmdline.txt") == CMDLINE.rstrip("\n") + " consoleblank=0\n"
    assert KioskSettings(pi.root / DATA.lstrip("/") / "kiosk.ini").rotation == 90
    assert not pi.exists(AP) and not pi.exists(AP_DNS)

    for step in (
        "systemctl daemon-reload",
        "systemctl enable table-companion.service",
        "udevadm control --reload-rules",
        "udevadm settle --timeout=10",
        "systemctl restart table-companion.service",
    ):
        assert step in calls
    # The backlight exists before the rule does: the event replayed for it
    # must be one the rule matches, or dimming waits for the next boot.
    trigger = next(c for c in calls if c.startswith("udevadm trigger"))
    assert "--subsystem-match=backlight" in trigger
    assert "--subsystem-match=gpio" in trigger
    action = re.search(r"--action=(\w+)", trigger)
    rule = pi.read("/etc/udev/rules.d/70-table-companion.rules")
    matched = re.search(r'ACTION=="([^"]+)"', rule)
    assert matched and (action.group(1) if action else "change") in matched.group(1).split("|")
    assert (
        calls.index(trigger)
        < calls.index("udevadm settle --timeout=10")
        < calls.index("systemctl restart table-companion.service")
    )


def test_a_second_run_changes_nothing(pi):
    installed(pi, "--rotation", "90", "--port", "8080")
    before = pi.snapshot()
    done = installed(pi)
    assert pi.snapshot() == before  # contents, modes and times
    assert "already up to date: nothing changed" in done.stdout
    calls = pi.calls()
    assert not [c for c in calls if c.startswith(("venv-python -m pip", "python3 -m venv"))]
    assert "systemctl restart table-companion.service" not in calls
    assert "systemctl daemon-reload" not in calls
    installed(pi, "--rotation", "90", "--port", "8080")  # the same options again
    assert pi.snapshot() == before


def test_options_left_out_keep_their_values_and_a_change_restarts_the_service(pi):
    installed(pi, "--port", "8080", "--touch", "mtdev")
    installed(pi, "--dim-after", "60")
    config = pi.config()
    assert (config["PORT"], config["TOUCH"], config["DIM_AFTER"]) == ("8080", "mtdev", "60")
    assert "<port>8080</port>" in pi.read("/etc/avahi/services/table-companion.service")
    assert "systemctl restart table-companion.service" in pi.calls()
    assert not [c for c in pi.calls() if c.startswith("venv-python -m pip")]


def test_the_rotation_changes_only_its_own_line_of_the_kiosks_settings(pi):
    settings = pi.root / DATA.lstrip("/") / "kiosk.ini"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        "[kiosk]\npin = 4711\nlanguage = el\nvolume = 0.5\nrotation = 0\n\n"
        "[wifi]\nssid = Cafe\npassword = hunter22\n"
    )
    installed(pi, "--rotation", "270")
    kept = KioskSettings(settings)
    assert (kept.rotation, kept.language, kept.volume, kept.wifi) == (
        270,
        "el",
        0.5,
        ("Cafe", "hunter22"),
    )
    assert kept.check_pin("4711")
    assert settings.stat().st_mode & 0o777 == 0o600, "the PIN and Wi-Fi password are private"


def test_the_access_point_and_back_to_the_cafes_wifi(pi):
    installed(pi, "--access-point", "Table 1", "--access-point-password", "it's $ecret")
    connection = pi.read(AP)
    for line in (
        "mode=ap",
        "ssid=Table 1",
        "key-mgmt=wpa-psk",
        "psk=it's $ecret",
        "method=shared",
        "address1=10.42.0.1/24",
        "autoconnect=true",
    ):
        assert line in connection.splitlines()
    assert pi.mode(AP) == 0o600  # NetworkManager ignores a readable keyfile
    assert "address=/#/10.42.0.1" in pi.read(AP_DNS).splitlines()
    config = pi.config()
    assert (config["ACCESS_POINT_SSID"], config["ACCESS_POINT_PASSWORD"]) == (
        "Table 1",
        "it's $ecret",
    )
    calls = pi.calls()
    # Last: the access point takes wlan0 (and an SSH session over it) away.
    assert calls[-1] == "nmcli connection up table-companion-ap"
    assert calls.index("systemctl restart table-companion.service") < len(calls) - 1

    installed(pi, "--no-access-point")
    assert not pi.exists(AP) and not pi.exists(AP_DNS)
    assert pi.config()["ACCESS_POINT_SSID"] == ""
    assert "nmcli connection reload" in pi.calls()


def test_an_upgrade_is_refused_while_a_game_is_in_progress_unless_forced(pi):
    installed(pi)
    db = pi.root / DATA.lstrip("/") / "companion.sqlite3"
    store = EventStore(db)
    new_table(store, ["Ann", "Ben", "Cy"])
    store.close()
    before = pi.snapshot()

    done = pi.install("--port", "8080")
    assert done.returncode == 1
    assert "A game of Coup for 3 players is in progress" in done.stderr
    assert "--force" in done.stderr
    # Nothing written, the store included: the question only reads it (SQLite
    # may leave its read-only connection's -wal and -shm files beside it).
    assert sidecars_aside(pi.snapshot()) == sidecars_aside(before)
    assert [c for c in pi.calls() if not c.startswith("venv-python")] == []

    installed(pi, "--port", "8080", "--force")
    assert pi.config()["PORT"] == "8080"
    assert "systemctl restart table-companion.service" in pi.calls()

    store = EventStore(db)
    Table.resume(store).end()
    store.close()
    installed(pi, "--port", "80")
    assert pi.config()["PORT"] == "80"


def test_the_game_in_progress_is_looked_for_where_the_kiosk_keeps_it(pi, tmp_path):
    installed(pi)
    store = EventStore(pi.root / DATA.lstrip("/") / "companion.sqlite3")
    new_table(store, ["Ann", "Ben", "Cy"])
    store.close()
    # Moving the store elsewhere is an upgrade like any other: the game in the
    # current store still holds it back.
    done = pi.install("--data-dir", "/srv/table")
    assert done.returncode == 1 and "is in progress" in done.stderr
    # Asked of the installed app, not of a checkout's `companion` package in
    # the directory the installer is run from (`python -m` would import it).
    checkout = tmp_path / "checkout"
    (checkout / "companion").mkdir(parents=True)
    (checkout / "companion" / "__init__.py").write_text("")
    (checkout / "companion" / "__main__.py").write_text("raise SystemExit(0)\n")
    done = pi.install("--port", "8080", cwd=checkout)
    assert done.returncode == 1 and "is in progress" in done.stderr
    assert pi.config()["DATA_DIR"] == DATA and pi.config()["PORT"] == "80"


def test_an_access_point_that_does_not_come_up_leaves_the_rest_installed(pi):
    # No Wi-Fi country set, say: NetworkManager refuses to bring it up now.
    nmcli = pi.stubs / "nmcli"
    nmcli.write_text(nmcli.read_text() + '[ "$2" = up ] && exit 4\nexit 0\n')
    done = installed(pi, "--access-point", "Table 1", "--access-point-password", "long enough")
    assert "warning: the access point did not come up" in done.stdout
    assert "systemctl restart table-companion.service" in pi.calls()
    assert pi.config()["ACCESS_POINT_SSID"] == "Table 1" and pi.mode(AP) == 0o600


@pytest.mark.parametrize(
    "args, message",
    [
        (["--port", "eighty"], "--port must be a port number"),
        (["--touch", "pen"], "--touch must be sdl, mtdev or hidinput"),
        (["--rotation", "45"], "--rotation must be 0, 90, 180 or 270"),
        (["--access-point", "Table"], "--access-point-password: 8 to 63"),
        (
            ["--access-point", "Table;1", "--access-point-password", "long enough"],
            "--access-point: 1 to 32 letters",
        ),
        (
            ["--access-point", "Table 1 ", "--access-point-password", "long enough"],
            "--access-point: 1 to 32 letters",
        ),
        (
            ["--access-point", "Tablé", "--access-point-password", "long enough"],
            "--access-point: 1 to 32 letters",
        ),
        # WPA takes ASCII only (NetworkManager refuses the rest), and the keyfile
        # drops a space at either end, which the kiosk's Wi-Fi QR would keep.
        (
            ["--access-point", "Table", "--access-point-password", "mötley crüe"],
            "--access-point-password: 8 to 63 ASCII",
        ),
        (
            ["--access-point", "Table", "--access-point-password", " long enough"],
            "--access-point-password: 8 to 63 ASCII",
        ),
        (
            ["--access-point", "Table", "--access-point-password", "x" * 64],
            "--access-point-password: 8 to 63 ASCII",
        ),
        (
            ["--access-point", "Table", "--access-point-password", "back\\slash"],
            "--access-point-password: 8 to 63 ASCII",
        ),
        (["--pins", "/no/such/pins.toml"], "cannot read the pin map"),
        (["--frobnicate", "1"], "unknown option --frobnicate"),
    ],
)
def test_bad_options_are_refused_before_anything_changes(pi, args, message):
    before = pi.snapshot()
    done = pi.install(*args)
    assert done.returncode == 1 and message in done.stderr
    assert pi.snapshot() == before and pi.calls() == []


def test_a_pin_map_is_copied_into_the_configuration(pi, tmp_path):
    pins = tmp_path / "my-pins.toml"
    pins.write_text((REPO / "companion/devices/pinmap.default.toml").read_text())
    installed(pi, "--pins", str(pins))
    assert pi.read("/etc/table-companion/pins.toml") == pins.read_text()
    assert pi.config()["PINS"] == "/etc/table-companion/pins.toml"


LOCKED_DOWN = {
    "/etc/systemd/logind.conf.d/table-companion.conf": ("NAutoVTs=0", "ReserveVT=0"),
    "/etc/sysctl.d/90-table-companion.conf": ("kernel.sysrq = 0",),
}


def test_the_kiosk_is_locked_down_its_console_the_other_consoles_sysrq_and_ctrl_alt_del(pi):
    done = installed(pi)
    for path, lines in LOCKED_DOWN.items():
        for line in lines:
            assert line in pi.read(path).splitlines(), (path, line)
    unit = pi.read(UNIT).splitlines()
    for line in (
        "TTYPath=/dev/tty1",
        "StandardInput=tty",
        "StandardOutput=journal",
        "StandardError=journal",
        "Conflicts=getty@tty1.service",
    ):
        assert line in unit
    calls = pi.calls()
    assert "systemctl mask ctrl-alt-del.target" in calls
    assert f"sysctl -q -p {pi.root}/etc/sysctl.d/90-table-companion.conf" in calls
    assert "reboot once" in done.stdout, "the consoles' settings are read at boot"


def fake_machine(pi, machine: str, userland: str) -> None:
    for name, answer in (("uname", machine), ("dpkg", userland)):
        stub = pi.stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{pi.log}"\necho {answer}\n')
        stub.chmod(0o755)


@pytest.mark.parametrize(
    "machine, userland",
    [("armv7l", "armhf"), ("aarch64", "armhf"), ("i686", "i386"), ("riscv64", "riscv64")],
)
def test_a_32_bit_or_unknown_system_is_refused_before_anything_changes(pi, machine, userland):
    fake_machine(pi, machine, userland)
    before = pi.snapshot()
    done = pi.install()
    assert done.returncode == 1
    assert f"this is a {userland} system ({machine})" in done.stderr
    assert "64-bit" in done.stderr and "Kivy" in done.stderr
    assert pi.snapshot() == before
    assert [c for c in pi.calls() if not c.startswith(("uname", "dpkg"))] == []


def test_arm64_is_installed_like_x86_64(pi):
    fake_machine(pi, "aarch64", "arm64")
    installed(pi)
    assert pi.exists("/opt/table-companion/venv/.installed")


def test_uninstall_removes_what_the_installer_wrote_and_keeps_the_games(pi, tmp_path):
    pins = tmp_path / "pins.toml"
    pins.write_text((REPO / "companion/devices/pinmap.default.toml").read_text())
    installed(
        pi,
        "--pins",
        str(pins),
        "--rotation",
        "90",
        "--access-point",
        "Table 1",
        "--access-point-password",
        "bluff-well",
    )
    db = pi.root / DATA.lstrip("/") / "companion.sqlite3"
    store = EventStore(db)
    new_table(store, ["Ann", "Ben", "Cy"])
    store.close()
    written = [
        UNIT,
        CONF,
        AP,
        AP_DNS,
        "/etc/table-companion/pins.toml",
        "/etc/udev/rules.d/70-table-companion.rules",
        "/etc/systemd/journald.conf.d/table-companion.conf",
        "/etc/avahi/services/table-companion.service",
        *LOCKED_DOWN,
    ]
    assert all(pi.exists(path) for path in written)

    refused = pi.install("--uninstall")
    assert refused.returncode == 1 and "is in progress" in refused.stderr
    assert all(pi.exists(path) for path in written), "nothing removed mid-game"

    done = installed(pi, "--uninstall", "--force")
    assert not [path for path in written if pi.exists(path)]
    assert not pi.exists("/opt/table-companion") and not pi.exists("/etc/table-companion")
    assert pi.exists(f"{DATA}/companion.sqlite3") and pi.exists(f"{DATA}/kiosk.ini")
    assert EventStore(db).active_game() is not None, "the game is kept"
    calls = pi.calls()
    for step in (
        "systemctl disable --now table-companion.service",
        "systemctl unmask ctrl-alt-del.target",
        "systemctl daemon-reload",
        "nmcli connection reload",
    ):
        assert step in calls
    assert not [c for c in calls if c.startswith(("apt-get", "useradd", "venv-python -m pip"))]
    assert f"stay in {DATA}" in done.stdout
