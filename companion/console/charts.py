"""Labelled horizontal bar charts as inline SVG, drawn on the server (every
label escaped: table names are the tables' own).

Each chart is a figure: its title a caption in the page's own text (so it
takes the page's direction and wraps), then the bars, or a sentence saying
there is nothing to draw yet. The drawing is one image to a screen reader,
named by its title and every bar's label and value, so the figures are
heard as well as seen."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

ROW, LABEL_W, BAR_W = 22, 150, 190
ISOLATE = "\u2068{}\u2069"  # a label read in its own direction (a Persian table name)


def bar_chart(
    title: str, bars: Sequence[tuple[str, float, str]], rtl: bool = False, empty: str = ""
) -> str:
    """``bars``: (label, value, the value as words); ``empty``: what to say
    when there are none."""
    caption = f"<figcaption>{escape(title)}</figcaption>"
    if not bars:
        return f'<figure class="chart">{caption}<p class="chart-empty">{escape(empty)}</p></figure>'
    width = LABEL_W + BAR_W + 60
    height = ROW * len(bars) + 6
    top = max(value for _l, value, _t in bars) or 1
    spoken = "; ".join(f"{ISOLATE.format(label)}: {words}" for label, _v, words in bars)
    # In a right-to-left drawing "start" is a text's right end: labels start
    # at the right edge, bars grow leftwards, each value starts left of its bar.
    parts = [
        f'<svg role="img" viewBox="0 0 {width} {height}" width="100%"'
        f' direction="{"rtl" if rtl else "ltr"}" aria-label="{escape(f"{title}: {spoken}")}">'
    ]
    for index, (label, value, words) in enumerate(bars):
        y = ROW * index + 4
        length = BAR_W * value / top
        label_x = width - 4 if rtl else 4
        bar_x = width - LABEL_W - length if rtl else LABEL_W
        value_x = bar_x - 4 if rtl else bar_x + length + 4
        parts.append(
            f'<text x="{label_x}" y="{y + 14}" text-anchor="start">'
            f"{escape(ISOLATE.format(label))}</text>"
            f'<rect x="{bar_x:.1f}" y="{y + 3}" width="{length:.1f}" height="14"/>'
            f'<text x="{value_x:.1f}" y="{y + 14}" text-anchor="start">{escape(words)}</text>'
        )
    parts.append("</svg>")
    return f'<figure class="chart">{caption}{"".join(parts)}</figure>'
