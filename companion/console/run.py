"""``companion console``: the page and the broker's link on one loop, and
``--set-password``, which writes the staff password's hash."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from ..fleet.broker import Broker, read_password_file
from ..fleet.protocol import read_action_key
from ..secret_hash import hash_pin, is_pin_hash

if TYPE_CHECKING:
    from .server import Console


def set_password(path: Path) -> int:
    if sys.stdin.isatty():
        first = getpass.getpass("New staff password: ")
        if getpass.getpass("Again: ") != first:
            print("companion console: the two passwords differ", file=sys.stderr)
            return 2
    else:
        first = sys.stdin.readline().rstrip("\n")
    if len(first) < 8:
        print("companion console: a staff password has at least 8 characters", file=sys.stderr)
        return 2
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(hash_pin(first) + "\n")
    return 0


def run(args: argparse.Namespace) -> int:
    from .server import Console
    from .stats import Stats

    password = None
    if args.broker_password_file is not None:
        password = read_password_file(args.broker_password_file)
    broker = Broker.from_url(args.broker, args.broker_user, password)
    key = read_action_key(args.action_key_file)
    stored = args.staff_password_file.read_text(encoding="utf-8").strip()
    if not is_pin_hash(stored):
        print(
            f"companion console: {args.staff_password_file} holds no password hash "
            "(make it with --set-password)",
            file=sys.stderr,
        )
        return 2
    console = Console(stored, key, Stats(args.db))
    web.run_app(
        linked_app(console, broker, trusted_proxy=args.trusted_proxy),
        host=args.host,
        port=args.port,
        # Called once the port is the console's, in place of aiohttp's banner.
        print=lambda _banner: print(f"Console at {page_address(args.host, args.port)}", flush=True),
    )
    return 0


def page_address(host: str, port: int) -> str:
    """The address staff open: on this machine when the console listens on
    every interface (as ``companion serve`` says its own)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def linked_app(
    console: Console,
    broker: Broker,
    client_id: str | None = None,
    trusted_proxy: str | None = None,
) -> web.Application:
    """The console's page with its link to the broker, started and stopped
    with the app. Each console is its own client (two consoles on one broker,
    the café PC's and a manager's, must not take each other's connection).
    ``trusted_proxy``: the TLS proxy's address (see guard.py)."""
    from .link import ConsoleLink
    from .server import make_app

    client_id = client_id or f"companion-console-{secrets.token_hex(4)}"
    link = ConsoleLink(broker, console.receive, client_id, linked=console.broker_link)
    console.send = link.send
    app = make_app(console, trusted_proxy)

    async def connect(_app: web.Application):
        link.start(asyncio.get_running_loop())
        yield
        link.stop()
        console.stats.close()

    app.cleanup_ctx.append(connect)
    return app
