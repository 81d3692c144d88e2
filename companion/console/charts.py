"""Labelled horizontal bar charts, drawn on the server as HTML tables (every
label escaped: table names are the tables' own).

Each chart is a section: its title a heading, then a table named by the
title, one row per bar (its label, the bar, the value in words), or a
sentence saying there is nothing to draw yet. A table wraps its labels in
the page's direction and a screen reader reads it row by row; only the bar
itself is a drawing (an inline SVG whose width is an attribute: the page's
CSP allows no inline style), hidden from screen readers, as the value
beside it says the same."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def bar_chart(
    title: str, bars: Sequence[tuple[str, float, str]], rtl: bool = False, empty: str = ""
) -> str:
    """``bars``: (label, value, the value as words); ``empty``: what to say
    when there are none. A label is set apart (<bdi>): it may hold a name
    written the other way from the page."""
    heading = f"<h3>{escape(title)}</h3>"
    if not bars:
        said = f'<p class="chart-empty">{escape(empty)}</p>'
        return f'<section class="chart">{heading}{said}</section>'
    top = max(value for _l, value, _t in bars) or 1
    rows = []
    for label, value, words in bars:
        length = 100 * value / top
        # In a right-to-left page a bar grows from the right.
        x = 100 - length if rtl else 0
        rows.append(
            f'<tr><th scope="row"><bdi>{escape(label)}</bdi></th>'
            '<td class="bar"><svg aria-hidden="true" viewBox="0 0 100 10"'
            ' preserveAspectRatio="none">'
            f'<rect x="{x:.1f}" width="{length:.1f}" height="10"/></svg></td>'
            f"<td>{escape(words)}</td></tr>"
        )
    # The table is named by the chart's title: a screen reader's list of
    # tables says which figures each holds.
    table = f'<table aria-label="{escape(title)}">{"".join(rows)}</table>'
    return f'<section class="chart">{heading}{table}</section>'
