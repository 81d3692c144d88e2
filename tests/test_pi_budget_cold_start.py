"""bench/pi_budget.py's cold start is counted with a cache of its own,
prepared before counting as a kiosk has it after its first start: the child
synthesises no sound and renders no line, and never reads or writes the
machine's ``~/.cache`` (a first run on a machine once synthesised the sounds
there within the count, +1.35 G instructions)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import pi_budget

pytest.importorskip("kivy")

ROOT = Path(__file__).resolve().parents[1]


def _files(directory: Path) -> dict[Path, int]:
    return {path: path.stat().st_mtime_ns for path in directory.rglob("*") if path.is_file()}


@pytest.mark.slow
def test_the_cold_start_makes_nothing_in_its_cache_nor_in_the_machines(tmp_path):
    machine = tmp_path / "machine-cache"  # the ~/.cache of the machine the bench runs on
    counted = tmp_path / "counted"
    counted.mkdir()
    env = pi_budget.child_env(counted, "cold_start")
    cache = Path(env["XDG_CACHE_HOME"])
    prepared = _files(cache)
    assert any(path.suffix == ".wav" and path.parent.name == "sounds" for path in prepared)
    assert any(path.parent.name == "speech" for path in prepared)

    # The child as callgrind runs it (here without valgrind: it counts nothing).
    child = subprocess.run(
        [sys.executable, "-m", "bench.pi_budget", "cold_start", str(counted)],
        cwd=ROOT,
        env={**os.environ, "XDG_CACHE_HOME": str(machine), "MESA_SHADER_CACHE_DISABLE": "1", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, child.stderr[-3000:]

    assert not (machine / "table-companion").exists()
    made = {path for path in _files(cache) if path.parent.name in ("sounds", "speech")}
    assert made == {path for path in prepared if path.parent.name in ("sounds", "speech")}
    assert {path: _files(cache)[path] for path in made} == {path: prepared[path] for path in made}
