#!/usr/bin/env bash
# Called by scripts/test: install the Debian packages some tests need when they
# are missing and this user may run apt-get (root, or sudo without a password):
#   chromium  the phone pages' browser tests (/usr/bin/chromium)
#   systemd   systemd-analyze, which verifies the kiosk's unit (deploy/)
#   libfribidi0  FriBiDi, which Pillow loads to lay out Persian on the kiosk
#   faketime  libfaketime, which steps a process's wall clock for the timer tests
#   mosquitto  the MQTT broker the fleet's tests start on loopback (never its service),
#              and mosquitto_passwd, which deploy/fleet-credentials.sh calls
#   openssl    the fleet's test CA and certificates (TLS), and the script's passwords
#   espeak-ng  the narration's voice: every spoken line is rendered in the tests
#   valgrind   callgrind, which counts the instructions of the Pi's budget
#              (bench/pi_budget.py) and of its creep test
#   strace     kills a process as it enters its n-th rename or unlink: the
#              damaged store's recovery cut at each step
# Does nothing once they are there. Never fails the test run: without a
# package its tests skip or fail, and say what is missing.
set -uo pipefail

# "file the package provides" "package" "the tests that need it"
NEEDED=("/usr/bin/chromium" "chromium" "the browser tests"
        "/usr/bin/systemd-analyze" "systemd" "the unit's check"
        "/usr/bin/faketime" "faketime" "the wall-clock step tests"
        "/usr/sbin/mosquitto" "mosquitto" "the fleet's tests"
        "/usr/bin/openssl" "openssl" "the fleet's TLS and credentials tests"
        "/usr/bin/espeak-ng" "espeak-ng" "the narration's tests"
        "/usr/bin/valgrind" "valgrind" "the instruction counts' test"
        "/usr/bin/strace" "strace" "the recovery's kill tests")

missing=()
needs=()
for ((i = 0; i < ${#NEEDED[@]}; i += 3)); do
    if [ ! -x "${NEEDED[i]}" ]; then
        missing+=("${NEEDED[i + 1]}")
        needs+=("${NEEDED[i + 2]}")
    fi
done
if ! ldconfig -p 2>/dev/null | grep -q 'libfribidi\.so\.0'; then
    missing+=("libfribidi0")
    needs+=("Persian on the kiosk")
fi
[ ${#missing[@]} -eq 0 ] && exit 0
say() { echo "test packages: $*" >&2; }
joined="$(IFS=,; echo "${needs[*]}")"
what="${missing[*]} (for ${joined//,/, })"

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    say "missing $what; installing needs root: those tests will say so."
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    say "missing $what and there is no apt-get: those tests will say so."
    exit 0
fi

log="$(mktemp -t test-packages.XXXXXX)"
apt() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get -qq -o DPkg::Lock::Timeout=120 "$@" >>"$log" 2>&1
}
say "installing $what with apt-get (log: $log)"
if apt update && apt install -y --no-install-recommends "${missing[@]}"; then
    rm -f "$log"
else
    say "could not install them all (see $log); the tests that need one will skip."
fi
exit 0
