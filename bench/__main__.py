"""Run every benchmark."""

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

for bench in (
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
):
    bench.main()
