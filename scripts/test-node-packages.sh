#!/usr/bin/env bash
# Called by scripts/test: install the npm packages some tests need, exactly as
# their lock files pin them, when they are missing and npm is there:
#   tests/axe  axe-core, the accessibility checks the browser tests run in the
#              phone pages and the console (tests/test_accessibility.py)
# Does nothing once they are there. Never fails the test run: without them
# those tests skip and say what is missing.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { echo "test packages: $*" >&2; }

DIRS=("$ROOT/tests/axe")
for dir in "${DIRS[@]}"; do
    [ -d "$dir/node_modules" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ] &&
        continue
    if ! command -v npm >/dev/null 2>&1; then
        say "missing the npm packages of ${dir#"$ROOT"/} and there is no npm: those tests will say so."
        continue
    fi
    log="$(mktemp -t test-npm.XXXXXX)"
    if npm ci --prefix "$dir" --no-audit --no-fund --silent >"$log" 2>&1; then
        rm -f "$log"
    else
        say "could not install the npm packages of ${dir#"$ROOT"/} (see $log); those tests will skip."
    fi
done
exit 0
