"""Run every benchmark."""
from . import coup_playouts, rebuild, secret_hitler_playouts

for bench in (coup_playouts, secret_hitler_playouts, rebuild):
    bench.main()
