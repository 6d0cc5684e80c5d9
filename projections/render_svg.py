"""The Exposure chart: an inline, script-free SVG of Exposure (0..10) over the rulings that moved
it, one line per hero, every reveal marked with a diamond, voided changes drawn hollow, and a
legend saying so. Its viewBox and ``width="100%"`` let it follow the page; where things go is
``projections.exposure_layout``'s to say."""

from __future__ import annotations

from html import escape

from projections.chart_layout import Label, line
from projections.exposure_layout import (
    COLOURS,
    LEFT,
    RIGHT,
    TICK_FONT,
    TOP_LEVEL,
    WIDTH,
    Key,
    Layout,
    layout,
)
from projections.views import HeroTimeline


def _text(label: Label, cls: str) -> str:
    leader = ""
    if (tie := label.leader) is not None:
        x = tie.x + tie.width / 2
        leader = line("leader", x, tie.y, x, tie.bottom)
    return (
        f'{leader}<text class="{cls}" x="{label.x:.1f}" y="{label.y:.1f}"'
        f' font-size="{label.size}" text-anchor="{label.anchor}">{escape(label.text)}</text>'
    )


def _diamond(x: float, y: float, fill: str, colour: str, size: float = 6) -> str:
    return (
        f'<path d="M{x:.1f} {y - size:.1f} L{x + size * 5 / 6:.1f} {y:.1f} L{x:.1f} {y + size:.1f}'
        f' L{x - size * 5 / 6:.1f} {y:.1f} Z" fill="{fill}" stroke="{colour}" stroke-width="1.5"/>'
    )


def _axes(chart: Layout) -> list[str]:
    frame, right = chart.frame, WIDTH - RIGHT
    parts = ['<g class="axes">']
    for level in range(0, TOP_LEVEL + 1, 2):
        y = frame.y(level)
        parts.append(
            line("grid", LEFT, y, right, y)
            + f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end"'
            f' font-size="{TICK_FONT}">{level}</text>'
        )
    middle = (frame.top + frame.bottom) / 2
    parts += [
        line("axis", LEFT, frame.top, LEFT, frame.bottom),
        line("axis", LEFT, frame.bottom, right, frame.bottom),
        f'<text class="axis-title" x="14" y="{middle:.1f}" font-size="{TICK_FONT}"'
        f' text-anchor="middle" transform="rotate(-90 14 {middle:.1f})">Exposure</text>',
        f'<text class="axis-title" x="{right}" y="{frame.bottom + 47}" font-size="{TICK_FONT}"'
        ' text-anchor="end">rulings, in log order</text>',
        "</g>",
    ]
    for s in chart.sessions:
        parts.append(
            f'<g class="session" data-session="{s.number}">'
            + line("boundary", s.x, frame.top, s.x, frame.bottom)
            + (_text(s.label, "tick") if s.label else "")
            + "</g>"
        )
    return parts


def _key(key: Key) -> str:
    x, y = key.x + 6, key.label.y - 4
    symbol = {
        "dot": f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{key.colour}"/>',
        "diamond": _diamond(x, y, key.colour, key.colour),
        "hollow": f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="white" stroke="{key.colour}"'
        ' stroke-dasharray="2 2"/>',
        "line": f'<line x1="{x - 6:.1f}" y1="{y:.1f}" x2="{x + 6:.1f}" y2="{y:.1f}"'
        f' stroke="{key.colour}" stroke-width="3"/>',
    }[key.symbol]
    return (
        f'<g class="key" data-symbol="{key.symbol}">{symbol}{_text(key.label, "legend-text")}</g>'
    )


def chart(lines: list[HeroTimeline]) -> str:
    """The SVG for one or more hero timelines (as ``projections.timeline`` gives them)."""
    plan = layout(lines)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart exposure-chart" width="100%"'
        f' viewBox="0 0 {WIDTH} {plan.height:.0f}" role="img" font-family="system-ui, sans-serif">',
        "<title>Exposure over time, reveals marked</title>",
        *_axes(plan),
    ]
    for number, (hero, dots) in enumerate(plan.series):
        colour = COLOURS[number % len(COLOURS)]
        path = " ".join(f"{d.x:.1f},{d.y:.1f}" for d in dots if not d.voided)
        parts.append(f'<g class="hero" data-hero="{escape(hero)}">')
        parts.append(
            f'<polyline class="exposure" points="{path}" fill="none" stroke="{colour}"'
            ' stroke-width="2"/>'
        )
        for d in dots:
            cls, fill = ("point voided", "white") if d.voided else ("point", colour)
            dash = ' stroke-dasharray="2 2"' if d.voided else ""
            parts.append(
                f'<circle class="{cls}" data-ruling="{d.ruling}" cx="{d.x:.1f}" cy="{d.y:.1f}"'
                f' r="4" fill="{fill}" stroke="{colour}"{dash}><title>ruling {d.ruling}:'
                f" Exposure {d.exposure}{' (voided)' if d.voided else ''}</title></circle>"
            )
        for m in (m for m in plan.marks if m.hero == number):
            parts.append(
                f'<g class="{"reveal voided" if m.voided else "reveal"}"'
                f' data-detail="{escape(m.detail)}"'
                f' data-level="{m.level if m.level is not None else ""}">'
                f"<title>{escape(m.title)}</title>"
                + _diamond(m.x, m.y, "white" if m.voided else colour, colour)
                + (_text(m.label, "label") if m.label else "")
                + "</g>"
            )
        parts.append("</g>")
    parts += ['<g class="legend">', *(_key(k) for k in plan.legend), "</g>", "</svg>"]
    return "".join(parts)
