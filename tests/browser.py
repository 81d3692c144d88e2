"""Real-browser testing of the phone pages: Playwright drives Debian's chromium
(/usr/bin/chromium, installed by scripts/test), never a browser of its own.

conftest.py loads this module as a plugin, so its fixtures are there for every
test: ``browser`` (one headless chromium for the session), ``phone`` (a page in
a fresh phone-sized browser context) and ``phones`` (makes more such pages,
each with its own cookies). Tests import the helpers ``serve_in_thread`` (an
aiohttp app on 127.0.0.1 in a thread of its own), ``take_seat`` (open a join
link and tap its button) and ``shot`` (a screenshot under
screenshots/phone/), and ``axe_violations`` (what axe-core finds serious or
critical on a page). Browser tests run after all others and carry the
``browser`` marker, so ``-m "not browser"`` leaves them out (see
pytest_collection_modifyitems). Without chromium or Playwright, tests that use
the fixtures skip and say why.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from aiohttp import web

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
# Playwright adds --headless and a fresh, empty --user-data-dir of its own.
# Without the background-networking flags chromium keeps trying to reach
# Google's hosts, which a closed network refuses.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
# Generous, as CI machines can be busy; passing waits return at once.
WAIT_MS = 15_000
NO_PLAYWRIGHT = (
    "no browser: the Python package playwright is not installed (it is in the test extra)"
)
SHOTS = Path(os.environ.get("COMPANION_SCREENSHOTS", "screenshots")) / "phone"
# axe-core as tests/axe/package-lock.json pins it (scripts/test installs it).
AXE = Path(__file__).with_name("axe") / "node_modules" / "axe-core" / "axe.min.js"
AXE_IMPACTS = ("serious", "critical")
# Every finding, the best-practice rules' (mostly "moderate") among them.
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")
# A test using any of these fixtures drives the real chromium.
BROWSER_FIXTURES = {"browser", "phone", "phones"}


def uses_browser(item: pytest.Item) -> bool:
    return not BROWSER_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))


@pytest.hookimpl(tryfirst=True)  # marked before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests carry the ``browser`` marker and run last. While
    Playwright's sync API is alive, the main thread counts as running
    Playwright's event loop, so asyncio.run() fails there: in other tests, and
    in browser tests too (serve apps in a thread)."""
    for item in items:
        if uses_browser(item):
            item.add_marker(pytest.mark.browser)
    items.sort(key=uses_browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"no browser: {CHROMIUM} is missing (./scripts/test installs "
            "Debian's chromium when it may run apt-get)"
        )
    sync_api = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
    sync_api.expect.set_options(timeout=WAIT_MS)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def phones(browser: Browser) -> Iterator[Callable[[], Page]]:
    """Calling it opens a page in a new phone-sized context: a separate phone,
    with its own cookies, storage and language (``locale``, which the
    browser sends as Accept-Language). All are closed after the test."""
    contexts = []

    def open_phone(locale: str = "en-GB") -> Page:
        context = browser.new_context(**PHONE, locale=locale)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def phone(phones: Callable[[], Page]) -> Page:
    return phones()


def take_seat(page: Page, link: str) -> None:
    """Join as a person does: open a seat's join link, tap its button."""
    page.goto(link)
    page.locator(".take-seat button").click()


def shot(page: Page, name: str) -> Path:
    """Save the whole page as screenshots/phone/<name>.png; returns the path."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    return path


class Served(str):
    """The base URL of an app served in a thread ("http://127.0.0.1:PORT"),
    and ``on_loop(function)``: run a function on the server's loop (where the
    app's state may change) and return its result."""

    on_loop: Callable[[Callable[[], object]], object]


@contextmanager
def serve_in_thread(app: web.Application) -> Iterator[Served]:
    """Serve ``app`` on 127.0.0.1 at a free port, from a thread running its own
    event loop; yields its base URL (see Served). Leaving the block stops the
    server, cutting what is still open (a page's websocket) at once."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="test-http", daemon=True)
    thread.start()
    runner = web.AppRunner(app, shutdown_timeout=0.1)

    def run(coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=30)

    async def start() -> int:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return runner.addresses[0][1]

    async def call(function):
        return function()

    served = Served(f"http://127.0.0.1:{run(start())}")
    served.on_loop = lambda function: run(call(function))
    try:
        yield served
    finally:
        run(runner.cleanup())
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def axe_violations(page: Page, impacts: tuple[str, ...] = AXE_IMPACTS) -> list[dict[str, object]]:
    """Run axe-core in ``page`` as it is now (every rule but the
    experimental ones, best practices included); return the violations it
    rates with one of ``impacts`` (serious or critical unless told), each
    as its rule's ``id``, ``impact``, ``help`` and the ``targets`` (CSS
    selectors) of the elements at fault. The pages' CSP allows no inline
    script, so axe's source is evaluated through the browser's own protocol
    (as Playwright evaluates anything), which a page's CSP does not govern."""
    if not AXE.exists():
        pytest.skip(
            f"no axe-core: {AXE} is missing (./scripts/test installs tests/axe's "
            "npm packages when npm is there)"
        )
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    results = page.evaluate(
        """async () => {
            const found = await window.axe.run(document, { resultTypes: ["violations"] });
            return found.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.map((node) => node.target.join(" ")),
            }));
        }"""
    )
    return [v for v in results if v["impact"] in impacts]
