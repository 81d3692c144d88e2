"""The options every game on the claim framework takes, as
their specs declare them: a ruleset's own defaults for the rules its
rulebook leaves open, the rest the same everywhere."""

from __future__ import annotations

from ..spec import FIRST, Option


def claim_options(direction: str, redraw: str) -> tuple[Option, ...]:
    """``direction``: the way play passes; ``redraw``: whether a defender who
    shows the claimed card must return it and draw another ("mandatory") or
    may keep it ("optional"); ``response_seconds``: a claim nobody
    challenges in that many seconds stands (None: the table closes the
    window)."""
    return (
        Option(
            "direction",
            direction,
            "coup.option.direction",
            choices=("clockwise", "counterclockwise"),
        ),
        FIRST,
        Option("redraw", redraw, "coup.option.redraw", choices=("optional", "mandatory")),
        Option(
            "response_seconds",
            None,
            "coup.option.response_seconds",
            kind="number",
            optional=True,
        ),
    )
