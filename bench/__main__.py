"""Run every benchmark."""
from . import coup_playouts, rebuild

for bench in (coup_playouts, rebuild):
    bench.main()
