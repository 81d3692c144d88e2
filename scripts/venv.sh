# shellcheck shell=bash
# Sourced by scripts/run, scripts/test and scripts/bench: create or reuse .venv,
# installed from pyproject.toml with the extras named in $EXTRAS. Reinstalls only
# when pyproject.toml or the extras change.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${COMPANION_VENV:-$ROOT/.venv}"

find_python() {
    for candidate in python3.11 python3.12 python3.13 python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 &&
           "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    echo "Table Companion needs Python 3.11 or newer." >&2
    return 1
}

if [ ! -x "$VENV/bin/python" ]; then
    "$(find_python)" -m venv "$VENV"
fi
STAMP="$VENV/.installed"
WANT="$(sha256sum < "$ROOT/pyproject.toml" | cut -c1-16)-${EXTRAS:-none}"
if [ ! -f "$STAMP" ] || ! grep -qx -- "$WANT" "$STAMP"; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    spec="$ROOT"
    [ -n "${EXTRAS:-}" ] && spec="${ROOT}[$EXTRAS]"
    "$VENV/bin/python" -m pip install --quiet -e "$spec"
    echo "$WANT" > "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
