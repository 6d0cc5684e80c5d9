"""A self-contained HTML page with one small SVG bar chart per die size and source."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from projections.dice_stats import FaceCounts

BAR, GAP, HEIGHT = 28, 6, 120


def chart(row: FaceCounts) -> str:
    """Bars for each face, a dashed line where a fair die would put them."""
    width = row.sides * (BAR + GAP) + GAP
    top = max(max(row.counts), 1)
    expected = row.rolls / row.sides
    bars = []
    for index, count in enumerate(row.counts):
        height = round(HEIGHT * count / top)
        x = GAP + index * (BAR + GAP)
        bars.append(
            f'<rect class="bar" data-face="{index + 1}" data-count="{count}" x="{x}" '
            f'y="{HEIGHT - height}" width="{BAR}" height="{height}"><title>face {index + 1}: '
            f"{count}</title></rect>"
            f'<text x="{x + BAR // 2}" y="{HEIGHT + 14}" text-anchor="middle">{index + 1}</text>'
        )
    fair = HEIGHT - round(HEIGHT * expected / top)
    line = f'<line class="fair" x1="0" x2="{width}" y1="{fair}" y2="{fair}"/>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT + 20}" '
        f'role="img" aria-label="d{row.sides} faces">{"".join(bars)}{line}</svg>'
    )


def page(title: str, rows: Sequence[FaceCounts]) -> str:
    sections = []
    for row in rows:
        verdict = (
            "too few rolls to judge"
            if not row.enough
            else f"chi² {row.chi_square:.2f}, p = {row.p_value:.3f}"
        )
        heading = escape(f"d{row.sides} · {row.source} · {row.rolls} rolls · {verdict}")
        sections.append(f"<section><h2>{heading}</h2>{chart(row)}</section>")
    body = "".join(sections) or "<p>No dice rolled yet.</p>"
    return (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        f"<title>{escape(title)}</title><style>"
        "body{font-family:sans-serif;margin:2em}.bar{fill:#4a7bd0}"
        ".fair{stroke:#c33;stroke-dasharray:4 3}text{font-size:11px}"
        f"</style><h1>{escape(title)}</h1>"
        "<p>Bars: how often each face came up. Dashed line: what fair dice would give.</p>"
        f"{body}</html>"
    )
