#!/bin/sh
# Copy the vote pad's firmware to a Raspberry Pi Pico that runs MicroPython.
# Needs mpremote (pip install mpremote). PORT=/dev/ttyACM0 picks the board
# when more than one is plugged in. If the firmware is already running, hold
# the Pico's BOOTSEL button for a second first: that hands the board back to
# the REPL, which mpremote needs.
set -e
cd "$(dirname "$0")"
if [ -n "${PORT:-}" ]; then set -- connect "$PORT"; else set --; fi
mpremote "$@" mkdir :votepad 2>/dev/null || true
mpremote "$@" cp __init__.py protocol.py debounce.py pad.py :votepad/
mpremote "$@" cp main.py :main.py
mpremote "$@" reset
echo "Installed. The pad now sends a heartbeat (\$H,...) every half second."
