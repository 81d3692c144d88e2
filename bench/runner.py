"""Every benchmark in turn, each one's failure a figure of its own.

A benchmark that raises (a machine too loaded for a timeout, a missing
tool) must not cost the figures of those after it: :func:`run_all` reports
``bench.<module>.failed`` (value 1) and a one-line reason on stderr, and goes
on to the next. It returns how many failed, which ``python -m bench`` turns
into its exit code (non-zero when any did), so a script or a person running
it still learns that a figure is missing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import ModuleType

from .report import figure


def run_all(benchmarks: Iterable[ModuleType]) -> int:
    """Call each module's ``main()``; the number that raised."""
    failed = 0
    for benchmark in benchmarks:
        try:
            benchmark.main()
        except Exception as error:  # any failure: a figure, and the next one runs
            failed += 1
            name = benchmark.__name__.rpartition(".")[2]
            reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
            print(f"bench: {name} failed: {type(error).__name__}: {reason}", file=sys.stderr)
            figure(f"bench.{name}.failed", 1, "failures", "lower")
    return failed
