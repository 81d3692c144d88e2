"""Article 27's colours: the three votes (Yes blue, Veto orange, Abstain grey:
apart in hue and lightness under every colour-vision deficiency, unlike a
green Yes beside a red Veto), the agenda track's disks, and the countdown's
last stretch. Each comes with its word or shape: a vote's chip names it, a
failed agenda's disk is crossed out (⊘) where a passed one is full (●), the
countdown's caption says "Last 30 seconds!"."""

from __future__ import annotations

from ..palette import RGBA, Palette

YES: RGBA = (0.10, 0.40, 0.75, 1)
VETO: RGBA = (0.72, 0.26, 0.0, 1)
ABSTAIN: RGBA = (0.34, 0.34, 0.34, 1)
VOTES = {"yes": YES, "veto": VETO, "abstain": ABSTAIN}
DISK_UP: RGBA = (0.50, 0.85, 0.56, 1)  # a passed agenda's disk, face up ...
DISK_DOWN: RGBA = (0.57, 0.57, 0.55, 1)  # ... a failed one's, face down
DISK_UP_SIGN, DISK_DOWN_SIGN, DISK_LEFT_SIGN = "●", "⊘", "○"
DISK_SIGNS = (DISK_UP_SIGN, DISK_DOWN_SIGN, DISK_LEFT_SIGN)
LEGEND: RGBA = (0.6, 0.62, 0.6, 1)  # the track legend's words, and its open slot
COUNTDOWN: RGBA = (0.96, 0.96, 0.92, 1)
COUNTDOWN_WARNING: RGBA = (1, 0.42, 0.28, 1)

PALETTE = Palette(
    name="article27",
    colours={
        "yes": YES,
        "veto": VETO,
        "abstain": ABSTAIN,
        "disk_up": DISK_UP,
        "disk_down": DISK_DOWN,
        "countdown": COUNTDOWN,
        "countdown_warning": COUNTDOWN_WARNING,
    },
    pairs=(
        ("yes", "veto"),
        ("yes", "abstain"),
        ("veto", "abstain"),
        ("disk_up", "disk_down"),
        ("countdown", "countdown_warning"),
    ),
)
