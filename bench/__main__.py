"""Run every benchmark."""
from . import article27_playouts, coup_playouts, g54_playouts, rebuild, secret_hitler_playouts

for bench in (coup_playouts, g54_playouts, secret_hitler_playouts, article27_playouts, rebuild):
    bench.main()
