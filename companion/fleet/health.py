"""The machine's health as the status reports it: free disk for the store,
and on a Raspberry Pi its CPU temperature and throttling. Each is None where
the machine does not say. Read on the publisher's thread, never on the
table's loop (``vcgencmd`` is a subprocess)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

THERMAL_ZONE = Path("/sys/class/thermal/thermal_zone0/temp")
VCGENCMD_SECONDS = 2.0


def system_health(data_dir: Path) -> dict[str, Any]:
    return {
        "disk_free": disk_free(data_dir),
        "cpu_temp": cpu_temperature(),
        "throttled": throttled(),
    }


def disk_free(path: Path) -> int | None:
    """Bytes free on the file system that holds the game store."""
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return None


def cpu_temperature(zone: Path = THERMAL_ZONE) -> float | None:
    """Degrees Celsius, from the kernel's first thermal zone (millidegrees)."""
    try:
        return round(int(zone.read_text().strip()) / 1000, 1)
    except (OSError, ValueError):
        return None


def throttled() -> str | None:
    """The firmware's throttling flags as ``vcgencmd get_throttled`` prints
    them ("0x0": never; bit 0 under-voltage now, bit 2 throttled now, bits
    16-18 the same since boot), or None off a Raspberry Pi."""
    command = shutil.which("vcgencmd")
    if command is None:
        return None
    try:
        done = subprocess.run(
            [command, "get_throttled"],
            capture_output=True,
            text=True,
            timeout=VCGENCMD_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    key, _, value = done.stdout.strip().partition("=")
    return value if done.returncode == 0 and key == "throttled" and value else None
