#!/bin/sh
# The Pi's GPIO header in the booted guest, for scripts/pi-system-check: the
# kernel module pi_header_sim (pi_header_sim.c beside this file), a GPIO
# chip of 58 lines named GPIO0 to GPIO57 like a Pi 4's pinctrl-bcm2711. It is
# gpiochip0 because the check's device tree disables QEMU's own PL061, and
# gpiozero's lgpio factory opens gpiochip0 on a Pi 4 and addresses the lines
# by BCM number. Runs as root in the guest (POSIX sh).
#
#   header.sh build            build the module against the running kernel
#                              (installs gcc, make and its headers)
#   header.sh load MODULE      load it (at boot, before the kiosk)
#   header.sh press LINE MS..  press the button on LINE as a switch to ground
#                              does: low MS, high MS, low MS, ... then high;
#                              "3 2 4 2 250" bounces twice, then holds 250 ms
set -eu
HERE="$(cd "$(dirname "$0")" && pwd)"
LEVELS=/sys/kernel/debug/pi-header

case "${1:-}" in
build)
    DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends \
        gcc make libc6-dev "linux-headers-$(uname -r)"
    make -C "/lib/modules/$(uname -r)/build" M="$HERE" modules
    ;;
load)
    [ $# -eq 2 ] || { echo "usage: $0 load MODULE" >&2; exit 2; }
    insmod "$2"
    udevadm settle --timeout=30    # the chip's group (gpio) before the kiosk opens it
    echo "pi_header_sim loaded; GPIO chips: $(ls /dev/gpiochip*)"
    ;;
press)
    [ $# -ge 3 ] || { echo "usage: $0 press LINE MS..." >&2; exit 2; }
    line="$2"
    shift 2
    # Python times the phases: a shell's sleep and echo, forked under
    # emulation, take longer than a contact bounces.
    python3 - "$LEVELS/GPIO$line" "$@" <<'PRESS'
import os, sys, time
path, phases = sys.argv[1], [int(ms) for ms in sys.argv[2:]]
level = os.open(path, os.O_WRONLY)
for index, ms in enumerate(phases):
    os.pwrite(level, b"0" if index % 2 == 0 else b"1", 0)  # closed: pulled to ground
    time.sleep(ms / 1000)
os.pwrite(level, b"1", 0)
os.close(level)
PRESS
    ;;
*)
    echo "usage: $0 build | load MODULE | press LINE MS..." >&2
    exit 2
    ;;
esac
