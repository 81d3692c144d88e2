#!/usr/bin/env bash
# Called by scripts/test: install Debian's chromium for the browser tests when
# it is missing and this user may run apt-get (root, or sudo without a
# password). Does nothing once chromium is there. Never fails the test run:
# without chromium the browser tests skip and say why.
set -uo pipefail
CHROMIUM=/usr/bin/chromium

[ -x "$CHROMIUM" ] && exit 0
say() { echo "browser tests: $*" >&2; }

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    say "$CHROMIUM is missing and installing it needs root; they will skip."
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    say "$CHROMIUM is missing and there is no apt-get; they will skip."
    exit 0
fi

log="$(mktemp -t chromium-install.XXXXXX)"
apt() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get -qq -o DPkg::Lock::Timeout=120 "$@" >>"$log" 2>&1
}
say "installing Debian's chromium with apt-get (log: $log)"
if apt update && apt install -y --no-install-recommends chromium && [ -x "$CHROMIUM" ]; then
    rm -f "$log"
else
    say "could not install chromium (see $log); they will skip."
fi
exit 0
