"""The phones' port's door: how many connections it lets in, before a
request is read.

Every TCP connection holds a descriptor from the moment it is accepted,
whether or not it ever sends a request, and the service has a fixed number
of them (``LimitNOFILE``). So the caps are counted on connections, when they
are made, not on requests or upgraded sockets:

- one address holds at most ``per_address`` connections (a phone's browser
  opens six or so, a screen a few more);
- all addresses together at most ``total``, and the addresses of phones
  that hold a seat (:meth:`TableServer.seated`) ``reserve`` more, so a flood
  from addresses that hold no seat leaves the players' phones room;
- a connection must have sent a whole request line and headers within
  ``header_seconds`` of its opening (or of its last answer, for a kept-alive
  one), or it is closed: a connection that says nothing, or trickles its
  headers a byte at a time, does not keep its descriptor.

A connection past a cap is closed at once, unread (the browser says so in
its own words; no request has told us the phone's language). aiohttp has no
hook between accepting a connection and reading it, so :class:`GateRunner`
makes its server a :class:`GatedServer`, built as the application's own.
"""

from __future__ import annotations

import asyncio
import resource
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web


@dataclass(frozen=True)
class ConnectionLimits:
    """The door's caps (see the module's docstring). The defaults are far
    more than a table's phones and screens use and far fewer than the
    service's 8,192 descriptors (``LimitNOFILE``), which the store, the
    devices and the fleet's connection share."""

    per_address: int = 32
    total: int = 1024
    reserve: int = 256
    header_seconds: float = 10.0

    @classmethod
    def for_descriptors(cls, descriptors: int) -> ConnectionLimits:
        """The defaults, or less for a process that may open fewer
        descriptors: ``total`` a quarter of them at most and ``reserve`` a
        quarter of that, so every cap is met long before they run out."""
        total = max(8, min(cls.total, descriptors // 4))
        return cls(total=total, reserve=min(cls.reserve, total // 4))

    @classmethod
    def for_this_process(cls) -> ConnectionLimits:
        """The caps for this process's descriptors (``RLIMIT_NOFILE``)."""
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        return cls() if soft == resource.RLIM_INFINITY else cls.for_descriptors(soft)


class GatedServer(web.Server):
    """aiohttp's server, with the door's caps checked as each connection is
    made: one past a cap is closed before anything of it is read."""

    def __init__(
        self,
        limits: ConnectionLimits,
        seated: Callable[[str], bool],
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits
        self.seated = seated
        self._addresses: dict[web.RequestHandler, str] = {}
        self._by_address: dict[str, int] = defaultdict(int)
        self.turned_away = 0  # connections closed unread, so far

    def connection_made(self, handler: web.RequestHandler, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) else str(peer)
        if not self._admits(address):
            self.turned_away += 1
            # Cut once the handler has started waiting for a request (it
            # starts after this returns), so it ends as one whose headers
            # never came: quietly, its descriptor freed.
            asyncio.get_running_loop().call_soon(transport.abort)
            return
        self._addresses[handler] = address
        self._by_address[address] += 1
        super().connection_made(handler, transport)

    def _admits(self, address: str) -> bool:
        limits = self.limits
        if self._by_address.get(address, 0) >= limits.per_address:
            return False
        room = limits.total + (limits.reserve if self.seated(address) else 0)
        return len(self._addresses) < room

    def connection_lost(
        self, handler: web.RequestHandler, exc: BaseException | None = None
    ) -> None:
        address = self._addresses.pop(handler, None)
        if address is not None:
            self._by_address[address] -= 1
            if self._by_address[address] <= 0:
                del self._by_address[address]
        super().connection_lost(handler, exc)

    def open_connections(self) -> int:
        return len(self._addresses)


class GateRunner(web.AppRunner):
    """An :class:`aiohttp.web.AppRunner` whose server is a
    :class:`GatedServer`; ``seated(address)``: whether a phone that holds a
    seat was last seen at ``address`` (it may use the reserve)."""

    def __init__(
        self,
        app: web.Application,
        limits: ConnectionLimits,
        seated: Callable[[str], bool] = lambda address: False,
        **kwargs: Any,
    ) -> None:
        # aiohttp's keep-alive timer runs from a connection's opening and
        # after each answer, and closes it if no whole request has come by
        # then: the headers' timeout.
        super().__init__(app, keepalive_timeout=limits.header_seconds, **kwargs)
        self.limits = limits
        self.seated = seated

    async def _make_server(self) -> web.Server:
        plain = await super()._make_server()  # the application started, its server made
        return GatedServer(
            self.limits,
            self.seated,
            plain.request_handler,
            request_factory=plain.request_factory,
            handler_cancellation=plain.handler_cancellation,
            loop=asyncio.get_running_loop(),
            **plain._kwargs,
        )
