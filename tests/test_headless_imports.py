"""The layers a headless table runs (``companion serve``, the café's
console) and every game's rules and words import without Kivy: in a fresh
interpreter where any import of ``kivy`` fails, every module of those
packages imports, and so does each game's engine and words."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The packages every module of which a table without a screen may import;
# companion.host (the wiring both fronts share) too, where it exists.
HEADLESS = ["companion.table", "companion.web", "companion.fleet", "companion.console",
            "companion.devices", "companion.host"]  # fmt: skip

CHILD = """
import importlib, importlib.util, json, pkgutil, sys

class NoKivy:
    '''Kivy is not installed here, as on a headless table.'''
    def find_spec(self, name, path=None, target=None):
        if name == "kivy" or name.startswith("kivy."):
            raise ImportError(f"kivy is blocked: {name}")
        return None

sys.meta_path.insert(0, NoKivy())
packages, failed, imported, absent = json.loads(sys.argv[1]), {}, [], []

def load(name):
    try:
        importlib.import_module(name)
        imported.append(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"

for package in packages:
    if importlib.util.find_spec(package) is None:
        absent.append(package)
        continue
    load(package)
    module = sys.modules.get(package)
    for found in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
        load(found.name)
from companion.games import specs
rules = [path.partition(":")[0] for spec in specs() for path in (spec.engine_path, spec.words_path)]
for module in rules:
    load(module)
games = [spec.name for spec in specs()]
print(json.dumps({"failed": failed, "imported": imported, "absent": absent, "games": games,
                  "rules": rules,
                  "kivy": sorted(m for m in sys.modules if m.split(".")[0] == "kivy")}))
"""


def test_the_headless_layers_and_every_game_s_rules_and_words_import_without_kivy():
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(HEADLESS)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    assert seen["failed"] == {}
    assert seen["kivy"] == []
    assert set(seen["absent"]) <= {"companion.host"}, "only the host package may be missing yet"
    for package in set(HEADLESS) - set(seen["absent"]):
        assert package in seen["imported"]
    assert {"article27", "secret_hitler", "coup", "g54"} <= set(seen["games"])
    assert len(seen["rules"]) == 2 * len(seen["games"]), "each game's engine and words"
    assert set(seen["rules"]) <= set(seen["imported"])
    assert len(seen["imported"]) > 40, "every module of the packages, not only their __init__"


def test_the_blocker_does_block_kivy():
    """The child's blocker refuses Kivy (so the test above cannot pass by
    importing a module that does not need it while Kivy stays reachable)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(["companion.ui"])],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    failed = json.loads(done.stdout)["failed"]
    assert "ImportError: kivy is blocked" in failed["companion.ui.widgets.buttons"]
