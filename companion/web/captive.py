"""The captive portal of the Pi's own access point.

On its own network the Pi answers every DNS name with its own address
(``deploy/access-point/dnsmasq.conf``), so a phone that opens any address,
or checks whether the network reaches the internet (Android's
``generate_204``, Apple's ``hotspot-detect.html``), arrives at this server
with a Host header that is not ours. Those requests are sent, with a
redirect, to the server's public address; the phone's system then offers to
"sign in to the network", which opens the kiosk's landing page (``/``: the
seat's page for a phone that joined, the public table otherwise).

Requests for the server's own names or for an IP address are served as
usual, so nothing changes for phones that scanned a join code.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware


def own_hosts(home: str) -> frozenset[str]:
    """The host names that are this server's: the public address's, this
    machine's name and its mDNS name, and localhost."""
    name = socket.gethostname().lower()
    public = (urlsplit(home).hostname or "").lower()
    return frozenset(h for h in (public, name, f"{name}.local", "localhost") if h)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def host_name(header: str) -> str | None:
    """The host of a Host header, lower case, without its port or a final
    dot; None if it is not one (a browser never sends that)."""
    try:
        parts = urlsplit(f"//{header}")
        host = parts.hostname or ""
        parts.port  # noqa: B018 - raises if not a number
    except ValueError:
        return None
    return host.lower().rstrip(".")


def captive_redirect(home: Callable[[], str]) -> Middleware:
    """A middleware sending requests for other hosts to the root of the
    address ``home`` gives (asked each time: the port it names is known
    only once the server has opened one, see listen.py)."""
    hosts = own_hosts(home())

    @web.middleware
    async def redirect_other_hosts(request: web.Request, handler: Handler) -> web.StreamResponse:
        # The raw header: request.url raises on a malformed one (a 500).
        header = request.headers.get("Host", "")
        host = host_name(header)
        if header and (host is None or (host not in hosts and not _is_address(host))):
            raise web.HTTPFound(home().rstrip("/") + "/")
        return await handler(request)

    return redirect_other_hosts
