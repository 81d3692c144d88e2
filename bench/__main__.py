"""Run every benchmark: one that fails is reported as the figure
``bench.<module>.failed`` and the others still run (bench/runner.py); the
exit code is 1 if any failed, else 0."""

import sys

from . import (
    article27_playouts,
    commit_cost,
    coup_playouts,
    fleet_console,
    fleet_publish,
    g54_playouts,
    kiosk_start,
    pad_link,
    phone_bytes,
    phone_push,
    pi_budget,
    press_latency,
    rebuild,
    secret_hitler_playouts,
    store_check,
)
from .runner import run_all

BENCHMARKS = (
    coup_playouts,
    g54_playouts,
    secret_hitler_playouts,
    article27_playouts,
    rebuild,
    store_check,
    press_latency,
    pad_link,
    phone_push,
    phone_bytes,
    commit_cost,
    fleet_publish,
    fleet_console,
    kiosk_start,
    pi_budget,
)
sys.exit(1 if run_all(BENCHMARKS) else 0)
