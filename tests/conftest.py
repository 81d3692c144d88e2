"""Shared fixtures. Kivy reads its environment when first imported, so it is
set here, before any test module can import Kivy."""
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

prepare_kivy_environment()      # the app's own text provider, and the rest

import pytest  # noqa: E402

from companion.table import EventStore  # noqa: E402

# The real-browser fixtures (browser, phone, phones): see tests/browser.py.
pytest_plugins = ["browser"]


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()

