"""The machine's health as the status reports it: free disk for the store,
and on a Raspberry Pi its CPU temperature and throttling. Each is None where
the machine does not say. Read on the publisher's thread, never on the
table's loop (``vcgencmd`` is a subprocess).

:class:`TableHealth` holds what the loop knows instead: the serial pad's
link, the GPIO header, and the last error the companion logged. The
reporter adds it to each status it offers."""

from __future__ import annotations

import logging
import shutil
import subprocess
from datetime import UTC, datetime
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


MAX_ERROR = 200  # characters of the last error's message


class LastError(logging.Handler):
    """Keeps the newest ERROR-or-worse record of the companion's loggers:
    when, and its message's first line (no traceback). Any thread may log;
    the record is replaced whole, so a reader sees one or the other."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.latest: dict[str, str] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage().splitlines()[0] if record.getMessage() else ""
        except Exception:  # noqa: BLE001 - a bad format string must not break logging
            message = str(record.msg)
        self.latest = {
            "at": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="seconds"),
            "message": message[:MAX_ERROR],
        }


class TableHealth:
    """The table's own health: ``pad`` "connected" / "lost" (None: no serial
    pad, or none heard since the table started), ``gpio`` whether the seat
    buttons' header is in use (None: none configured), set by the kiosk's
    loop; and the last error logged while it watches (:meth:`watch` ...
    :meth:`close`)."""

    def __init__(self, logger: str = "companion") -> None:
        self.pad: str | None = None
        self.gpio: bool | None = None
        self.errors = LastError()
        self._logger = logging.getLogger(logger)

    def watch(self) -> TableHealth:
        self._logger.addHandler(self.errors)
        return self

    def close(self) -> None:
        self._logger.removeHandler(self.errors)

    def fields(self) -> dict[str, Any]:
        return {"pad": self.pad, "gpio": self.gpio, "last_error": self.errors.latest}

    def see_devices(self, statuses: list[dict[str, Any]]) -> None:
        """The pad's link, from the kiosk's device statuses: None while no
        pad has been heard (a table without one is not missing one)."""
        pads = [status for status in statuses if status.get("device") == "pad"]
        self.pad = pads[0].get("link") if pads else None
