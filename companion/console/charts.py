"""Labelled horizontal bar charts as inline SVG, drawn on the server (every
label escaped: table names are the tables' own)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

ROW, LABEL_W, BAR_W = 22, 150, 190


def bar_chart(title: str, bars: Sequence[tuple[str, float, str]], rtl: bool = False) -> str:
    """``bars``: (label, value, the value as words)."""
    width = LABEL_W + BAR_W + 60
    height = ROW * (len(bars) + 1) + 6
    top = max((value for _l, value, _t in bars), default=0) or 1
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="100%"'
        f' aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<text x="{width - 4 if rtl else 4}" y="15" class="chart-title"'
        f' text-anchor="{"end" if rtl else "start"}">{escape(title)}</text>'
    ]
    for index, (label, value, words) in enumerate(bars):
        y = ROW * (index + 1) + 4
        length = BAR_W * value / top
        label_x = width - 4 if rtl else 4
        bar_x = width - LABEL_W - length if rtl else LABEL_W
        value_x = bar_x - 4 if rtl else bar_x + length + 4
        anchor, value_anchor = ("end", "end") if rtl else ("start", "start")
        parts.append(
            f'<text x="{label_x}" y="{y + 14}" text-anchor="{anchor}">{escape(label)}</text>'
            f'<rect x="{bar_x:.1f}" y="{y + 3}" width="{length:.1f}" height="14"/>'
            f'<text x="{value_x:.1f}" y="{y + 14}" text-anchor="{value_anchor}">'
            f"{escape(words)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
