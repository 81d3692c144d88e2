"""``python -m bench`` runs every benchmark to the end: one that raises is
reported as the figure ``bench.<module>.failed`` with its reason on stderr,
the ones after it still report, and the run's result says one failed."""

from __future__ import annotations

import json
import types

from bench.report import figure
from bench.runner import run_all


def _benchmark(name: str, main) -> types.ModuleType:
    module = types.ModuleType(f"bench.{name}")
    module.main = main
    return module


def test_a_benchmark_that_raises_is_a_figure_and_the_next_still_runs(capsys):
    def breaks() -> None:
        figure("first.before_failing", 2, "ms", "lower")
        raise RuntimeError("the presses did not reach the table\n(a second line)")

    def reports() -> None:
        figure("after.figure", 3, "ms", "lower")

    failed = run_all([_benchmark("breaks", breaks), _benchmark("after", reports)])

    out, err = capsys.readouterr()
    figures = {line["name"]: line["value"] for line in map(json.loads, out.splitlines())}
    assert figures == {"first.before_failing": 2, "bench.breaks.failed": 1, "after.figure": 3}
    assert err.splitlines() == [
        "bench: breaks failed: RuntimeError: the presses did not reach the table"
    ]
    assert failed == 1


def test_a_run_where_none_fails_counts_no_failure(capsys):
    failed = run_all([_benchmark("fine", lambda: figure("fine.figure", 1, "ms", "lower"))])
    assert failed == 0
    assert "failed" not in capsys.readouterr().out
