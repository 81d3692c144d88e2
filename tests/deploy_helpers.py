"""A scratch Raspberry Pi for deploy/install.sh: a root directory with a
boot partition, and stubs, first on PATH, of the commands that would change
the running system (apt-get, useradd, systemctl, nmcli, udevadm...). Each
stub records its arguments in a log; ``getent`` finds no user or group.

``python3 -m venv DIR`` is stubbed too: it makes ``DIR/bin/python``, which
records pip's command lines instead of downloading anything (``pip wheel``
lists the source directory it was given and leaves a wheel of that name)
and runs everything else, such as ``python -m companion status``, with this
checkout's code."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INSTALL = REPO / "deploy" / "install.sh"
LOGGED = ("apt-get", "groupadd", "useradd", "usermod", "systemctl", "udevadm", "nmcli", "sysctl")
CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=5e3da3da-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait\n"
)


@dataclass
class Pi:
    root: Path
    stubs: Path
    log: Path

    def install(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        """Run the installer against the scratch root (from ``cwd``); the log
        holds this run's calls."""
        self.log.write_text("")
        # A UTF-8 locale, as `sudo` has on a Pi (the option checks must not
        # depend on it).
        env = dict(
            os.environ, PATH=f"{self.stubs}{os.pathsep}{os.environ['PATH']}", LC_ALL="C.UTF-8"
        )
        return subprocess.run(
            ["bash", str(INSTALL), "--root", str(self.root), *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            cwd=cwd,
        )

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()

    def read(self, path: str) -> str:
        return (self.root / path.lstrip("/")).read_text()

    def exists(self, path: str) -> bool:
        return (self.root / path.lstrip("/")).exists()

    def mode(self, path: str) -> int:
        return stat.S_IMODE((self.root / path.lstrip("/")).stat().st_mode)

    def config(self) -> dict[str, str]:
        """companion.conf as companion-start sees it: sourced by bash."""
        conf = self.root / "etc/table-companion/companion.conf"
        keys = (
            "APP_DIR DATA_DIR PORT PUBLIC_URL PINS PAD TOUCH DIM_AFTER "
            "ACCESS_POINT_SSID ACCESS_POINT_PASSWORD"
        ).split()
        script = f". '{conf}'; " + "; ".join(f'printf "%s\\0" "${key}"' for key in keys)
        values = subprocess.run(
            ["bash", "-c", script], capture_output=True, text=True, check=True
        ).stdout.split("\0")
        return dict(zip(keys, values))

    def snapshot(self) -> dict[str, tuple]:
        """Every file and directory under the root: content, mode, mtime."""
        tree = {}
        for path in sorted(self.root.rglob("*")):
            info = path.lstat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
            tree[str(path.relative_to(self.root))] = (digest, info.st_mode, info.st_mtime_ns)
        return tree


def _script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def scratch_pi(tmp_path: Path) -> Pi:
    root, stubs, log = tmp_path / "root", tmp_path / "stubs", tmp_path / "calls.log"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "cmdline.txt").write_text(CMDLINE)
    stubs.mkdir()
    for name in LOGGED:
        _script(stubs / name, f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
    _script(stubs / "getent", f'#!/bin/sh\necho "getent $*" >> "{log}"\nexit 2\n')
    venv_python = f"""#!/bin/sh
echo "venv-python $*" >> "{log}"
if [ "$1 $2" = "-m pip" ]; then
    case " $* " in *" wheel "*)
        for last; do :; done                # the source directory, pip's last argument
        ls "$last" | tr '\\n' ' ' >> "{log}"; echo >> "{log}"
        while [ $# -gt 0 ]; do
            [ "$1" = --wheel-dir ] && touch "$2/table_companion-0.0.0-py3-none-any.whl"
            shift
        done ;;
    esac
    exit 0
fi
PYTHONPATH="{REPO}" exec "{sys.executable}" "$@"
"""
    _script(
        stubs / "python3",
        f"""#!/bin/sh
echo "python3 $*" >> "{log}"
if [ "$1 $2" = "-m venv" ]; then
    mkdir -p "$3/bin"
    cat > "$3/bin/python" <<'EOF'
{venv_python}EOF
    chmod 755 "$3/bin/python"
    exit 0
fi
exec "{sys.executable}" "$@"
""",
    )
    return Pi(root, stubs, log)
