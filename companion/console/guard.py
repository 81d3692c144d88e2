"""Who is asking, and from which page: the console behind its TLS proxy.

Staff reach the console through a TLS reverse proxy (docs/cafe.md). To the
console every request then comes from the proxy's address, over plain HTTP,
so the login limit would lock every client out at once and no cookie would
be marked ``Secure``. With ``--trusted-proxy ADDRESS`` a request whose peer is
that address is taken as the proxy says: the client's address is the last
one in ``X-Forwarded-For`` (the one the proxy added; those before it are
the client's to invent), the scheme ``X-Forwarded-Proto``, the host
``X-Forwarded-Host`` (else ``Host``). From any other peer these headers are
ignored, so nobody can choose their own address."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def proxy_address(text: str) -> str:
    """The trusted proxy's address as given (``--trusted-proxy``), checked
    and written the one way: ValueError if it is no IP address."""
    return str(ipaddress.ip_address(text))


def forwarded(proxy: str | None) -> Middleware:
    """A middleware that takes a request from ``proxy`` as from the client it
    forwards (does nothing without a proxy)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if proxy is not None and _address(request.remote) == proxy:
            headers = request.headers
            scheme = _last(headers.getall("X-Forwarded-Proto", [])).lower()
            request = request.clone(
                remote=_address(_last(headers.getall("X-Forwarded-For", []))) or proxy,
                scheme=scheme if scheme in ("http", "https") else request.scheme,
                host=_last(headers.getall("X-Forwarded-Host", [])) or request.host,
            )
        return await handler(request)

    return middleware


def _last(values: list[str]) -> str:
    """The last entry of a header that may come as a list, or several times."""
    entries = ",".join(values).split(",")
    return entries[-1].strip()


def _address(text: str | None) -> str | None:
    try:
        return proxy_address(text or "")
    except ValueError:
        return None


def same_origin(request: web.Request) -> bool:
    """A request a browser sends from the console's own page: its Origin, if
    any, is the console's, scheme, host and port (a page of another site, or
    of another port of the same host, is not; nor is ``null``). A client that
    is no browser sends none, and carries no staff cookie by accident."""
    origin = request.headers.get("Origin")
    return origin is None or origin == f"{request.scheme}://{request.host}"
