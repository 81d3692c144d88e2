"""The app's log, set up once at start: every ``companion.*`` message and
Kivy's own in one stream on stderr.

Under systemd, whose journal reads the service's stderr, each line starts
with its syslog priority (``<4>`` for a warning, sd-daemon(3)), so
``journalctl -p warning`` finds it; the journal adds the time itself.
Elsewhere (a terminal) a line reads ``12:04:05 WARNING companion.cli: ...``.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error")
DEFAULT_LEVEL = "info"

# sd-daemon(3): <3> error, <4> warning, <6> info, <7> debug.
_PRIORITIES = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message``, the priority on every line of a
    message that spans several (a traceback), so none reads as an info."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        priority = _PRIORITIES.get(record.levelno, 6 if record.levelno < logging.WARNING else 3)
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines())


class RepeatLimit(logging.Filter):
    """At most ``burst`` records of one kind (logger, level and message) per
    ``window`` seconds; the rest are counted, and the first one let through
    after the window says how many were held back. One error repeating in a
    tight loop (every accept failing at the descriptor limit) thus writes a
    few lines a minute to the journal, not millions."""

    KINDS = 1000  # kinds remembered at most (then forgotten, all at once)

    def __init__(
        self, burst: int = 10, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.burst, self.window, self.clock = burst, window, clock
        self._kinds: dict[tuple[str, int, str], list[float | int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        kind = self._kinds.get(key)
        if kind is None or now - kind[0] >= self.window:
            if len(self._kinds) >= self.KINDS:
                self._kinds.clear()
            held = 0 if kind is None else int(kind[2])
            self._kinds[key] = [now, 1, 0]  # since, let through, held back
            if held:
                record.msg = f"{record.msg} [{held} more like this held back]"
            return True
        kind[1] += 1
        if kind[1] <= self.burst:
            return True
        kind[2] += 1
        return False


class _CompanionHandler(logging.StreamHandler):
    """The one handler this module installs (so a second call replaces it)."""


def to_journal(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``stream`` is the journal's: systemd sets ``$JOURNAL_STREAM``
    to the device and inode of the stream it connected (systemd.exec(5))."""
    try:
        device, inode = (int(part) for part in environ["JOURNAL_STREAM"].split(":"))
        info = os.fstat(stream.fileno())
    except (KeyError, ValueError, OSError, AttributeError):
        return False
    return (info.st_dev, info.st_ino) == (device, inode)


def configure_logging(
    level: str = DEFAULT_LEVEL,
    stream: TextIO | None = None,
    environ: Mapping[str, str] = os.environ,
) -> logging.Handler:
    """Send every message at ``level`` or above to ``stream`` (stderr),
    journal-style when systemd reads it. Calling it again replaces the
    handler (a level read later from the settings)."""
    if level not in LEVELS:
        raise ValueError(f"no log level {level!r}")
    stream = stream if stream is not None else sys.stderr
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _CompanionHandler)]:
        root.removeHandler(old)
    handler = _CompanionHandler(stream)
    handler.addFilter(RepeatLimit())
    if to_journal(stream, environ):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
        )
    number = getattr(logging, level.upper())
    handler.setLevel(number)
    root.addHandler(handler)
    root.setLevel(number)
    # Kivy sets its logger's own level when first imported; it follows ours.
    logging.getLogger("kivy").setLevel(number)
    return handler
