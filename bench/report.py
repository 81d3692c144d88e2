"""The one output format every benchmark uses."""
from __future__ import annotations

import json
import sys


def figure(name: str, value: float, unit: str, better: str) -> None:
    assert better in ("lower", "higher")
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit,
                      "better": better}), file=sys.stdout, flush=True)
