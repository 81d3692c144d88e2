"""What `companion run --fullscreen --touch ...` sets in Kivy before the
window exists: one touch source, never two (a doubled touch presses twice)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = """
import json, os, sys
from companion.ui.app import configure_kivy
configure_kivy((800, 480), fullscreen=sys.argv[2] == "yes", touch=sys.argv[1])
from kivy.config import Config
print(json.dumps({"input": dict(Config.items("input")),
                  "fullscreen": Config.get("graphics", "fullscreen"),
                  "sdl_touch_mouse": os.environ.get("SDL_TOUCH_MOUSE_EVENTS")}))
"""


def kivy_config(touch: str, fullscreen: bool) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, touch, "yes" if fullscreen else "no"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, KIVY_NO_CONSOLELOG="1"),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_sdl_is_the_only_touch_source_by_default():
    config = kivy_config("sdl", fullscreen=True)
    assert config["input"] == {"mouse": "mouse,multitouch_on_demand"}
    assert config["fullscreen"] == "auto" and config["sdl_touch_mouse"] is None


def test_kivys_own_provider_replaces_sdls_touch():
    for provider in ("mtdev", "hidinput"):
        config = kivy_config(provider, fullscreen=False)
        assert config["input"] == {
            "mouse": "mouse,multitouch_on_demand",
            "touch_%(name)s": f"probesysfs,provider={provider}",
        }
        assert config["sdl_touch_mouse"] == "0" and config["fullscreen"] == "0"
