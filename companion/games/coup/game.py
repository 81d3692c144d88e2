"""Coup's engine: the claim machinery with Coup's five characters."""

from .engine import ClaimEngine
from .rules import COUP

# The Greek rulebook: play passes counter-clockwise, and a defender "may"
# return and redraw the shown card. ``response_seconds``: a claim nobody
# challenges in that many seconds stands (None: the table closes the window).
ENGINE = ClaimEngine(
    "coup",
    COUP,
    lambda options: COUP,
    defaults={
        "direction": "counterclockwise",
        "first": "random",
        "redraw": "optional",
        "response_seconds": None,
    },
)
