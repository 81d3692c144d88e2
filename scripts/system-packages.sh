#!/usr/bin/env bash
# Called by scripts/test: install the Debian packages the tests use when they
# are missing and this user may run apt-get (root, or sudo without a
# password): chromium for the phone pages' browser tests, and FriBiDi, which
# Pillow loads to lay out right-to-left Persian on the kiosk. Does nothing
# once they are there. Never fails the test run: without chromium the browser
# tests skip and say why; without FriBiDi the Persian kiosk tests fail and
# say what is missing.
set -uo pipefail
CHROMIUM=/usr/bin/chromium

wanted=()
[ -x "$CHROMIUM" ] || wanted+=(chromium)
ldconfig -p 2>/dev/null | grep -q 'libfribidi\.so\.0' || wanted+=(libfribidi0)
[ "${#wanted[@]}" -eq 0 ] && exit 0
say() { echo "system packages: $*" >&2; }

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    say "${wanted[*]} missing and installing needs root; the tests that need them will say so."
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    say "${wanted[*]} missing and there is no apt-get; the tests that need them will say so."
    exit 0
fi

log="$(mktemp -t system-packages.XXXXXX)"
apt() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get -qq -o DPkg::Lock::Timeout=120 "$@" >>"$log" 2>&1
}
say "installing ${wanted[*]} with apt-get (log: $log)"
if apt update && apt install -y --no-install-recommends "${wanted[@]}"; then
    rm -f "$log"
else
    say "could not install ${wanted[*]} (see $log)."
fi
exit 0
