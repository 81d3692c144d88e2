"""systemd's notification protocol (sd_notify(3)), with the standard library
only: a datagram to the unix socket named by ``$NOTIFY_SOCKET``.

The kiosk's service (``deploy/table-companion.service``) is ``Type=notify``
with a watchdog: the kiosk says ``READY=1`` once its first frame is drawn,
then ``WATCHDOG=1`` from Kivy's Clock, so a frozen UI loop stops the pings
and systemd restarts it. Outside systemd (no ``$NOTIFY_SOCKET``) every call
does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


def notify(message: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``) to the service manager. True
    when it was sent; False outside systemd or when the socket refused it
    (logged: a missed ping is systemd's to judge, not a reason to stop)."""
    address = environ.get("NOTIFY_SOCKET", "")
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    elif not address.startswith("/"):  # unset, or a transport we do not speak
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode(), address)
    except OSError as exc:
        log.warning("sd_notify %s: %s", message.split("=")[0], exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] = os.environ) -> float | None:
    """Seconds between watchdog pings: half of ``$WATCHDOG_USEC``, as
    sd_watchdog_enabled(3) advises; None when no watchdog watches this
    process (unset, or ``$WATCHDOG_PID`` names another process)."""
    try:
        usec = int(environ.get("WATCHDOG_USEC", "0"))
        pid = int(environ.get("WATCHDOG_PID") or os.getpid())
    except ValueError:
        return None
    if usec <= 0 or pid != os.getpid():
        return None
    return usec / 2_000_000
