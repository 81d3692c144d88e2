"""Shared fixtures. Kivy reads its environment when first imported, so it is
set here, before any test module can import Kivy; the ``window`` fixture
imports Kivy only when a test asks for it. Helpers live in the helper modules
(helpers.py, ui_helpers.py, kiosk_helpers.py, ...), never in test modules."""

from __future__ import annotations

import os
import tempfile

os.environ.update(
    KIVY_NO_ARGS="1",
    KIVY_NO_CONSOLELOG="1",
    KIVY_NO_FILELOG="1",
    KIVY_LOG_MODE="PYTHON",
    KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"),
    # What the app makes again (the kiosk's sounds) stays out of the user's cache.
    XDG_CACHE_HOME=tempfile.mkdtemp(prefix="companion-cache-"),
)
from companion.ui.app import prepare_kivy_environment  # noqa: E402

prepare_kivy_environment()  # the app's own text provider, and the rest

import pytest  # noqa: E402

# Assertions in the helper modules read like the tests' own when they fail.
pytest.register_assert_rewrite(
    "a27_helpers",
    "a27_kiosk_helpers",
    "claim_playouts",
    "damage_helpers",
    "deploy_helpers",
    "g54_helpers",
    "helpers",
    "kiosk_helpers",
    "mqtt_helpers",
    "sh_helpers",
    "sh_kiosk_helpers",
    "ui_helpers",
    "web_fuzz_helpers",
    "web_helpers",
)

from companion.table import EventStore  # noqa: E402

# The real-browser fixtures (browser, phone, phones): see tests/browser.py;
# a broker of its own and its recorder (broker, recorder): tests/mqtt_helpers.py.
pytest_plugins = ["browser", "mqtt_helpers"]


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


@pytest.fixture(scope="module")
def window():
    """The Kivy window (headless, Mesa), with the app's fonts."""
    pytest.importorskip("kivy.base")
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    from companion.ui.text.fonts import use_dejavu

    use_dejavu()
    return EventLoop.window
