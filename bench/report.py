"""The one output format every benchmark uses."""

from __future__ import annotations

import json
import statistics
import sys


def figure(name: str, value: float, unit: str, better: str) -> None:
    assert better in ("lower", "higher")
    print(
        json.dumps({"name": name, "value": round(value, 3), "unit": unit, "better": better}),
        file=sys.stdout,
        flush=True,
    )


def latency_figures(name: str, seconds: list[float]) -> None:
    """``name.p50`` and ``name.p99`` of a list of durations, in milliseconds."""
    ms = sorted(x * 1000 for x in seconds)
    figure(f"{name}.p50", statistics.median(ms), "ms", "lower")
    figure(f"{name}.p99", ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))], "ms", "lower")
