"""The Exposure chart: an inline, script-free SVG of Exposure (0..10) over the rulings that moved
it, one line per hero, with every reveal marked and voided changes drawn hollow."""

from __future__ import annotations

from html import escape
from typing import TypedDict

from projections.views import HeroTimeline, Row

WIDTH, HEIGHT = 760, 320
LEFT, RIGHT, TOP, BOTTOM = 44, 110, 40, 36
COLOURS = ("#1f6feb", "#d1242f", "#1a7f37", "#8250df", "#bf8700", "#0a7ea4")
TOP_LEVEL = 10


def _x(index: int, count: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + (span * index / (count - 1) if count > 1 else span / 2)


def _y(value: int) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (TOP_LEVEL - value) / TOP_LEVEL


class _Point(TypedDict):
    """A point of a hero's line: Exposure after a ruling (the row; None where the hero started)."""

    ruling: int
    exposure: int
    voided: bool
    row: Row | None


def _points(line: HeroTimeline) -> list[_Point]:
    """A hero's points: where it started, then each row that changed Exposure or revealed."""
    points: list[_Point] = [
        {"ruling": line["created"], "exposure": line["start"], "voided": False, "row": None}
    ]
    exposure = line["start"]
    for row in line["rows"]:
        after = row["changes"][-1]["after"] if row["changes"] else exposure
        voided = row["voided"] is not None
        points.append({"ruling": row["ruling"], "exposure": after, "voided": voided, "row": row})
        if not voided:
            exposure = after
    return points


def _axes(rulings: list[int], sessions: dict[int, int]) -> list[str]:
    parts = []
    for level in range(0, TOP_LEVEL + 1, 2):
        y = _y(level)
        parts.append(
            f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"'
            ' stroke="#d0d7de" stroke-width="1"/>'
            f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{level}</text>'
        )
    spans: dict[int, list[int]] = {}
    for index, ruling in enumerate(rulings):
        session = sessions.get(ruling)
        if session is not None:
            spans.setdefault(session, []).append(index)
    for session, indices in sorted(spans.items()):
        first, last = _x(indices[0], len(rulings)), _x(indices[-1], len(rulings))
        start = indices[0] - 0.5 if indices[0] else 0
        x = LEFT + (WIDTH - LEFT - RIGHT) * start / max(len(rulings) - 1, 1)
        parts.append(
            f'<g class="session" data-session="{session}"><line x1="{x:.1f}" y1="{TOP}"'
            f' x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" stroke="#8c959f" stroke-dasharray="4 3"/>'
            f'<text x="{(first + last) / 2:.1f}" y="{HEIGHT - BOTTOM + 16}" font-size="11"'
            f' text-anchor="middle">session {session}</text></g>'
        )
    parts.append(
        f'<text x="12" y="{TOP - 12}" font-size="11">Exposure</text>'
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 4}" font-size="11" text-anchor="end">'
        "rulings, in log order</text>"
    )
    return parts


def _reveal_marks(point: _Point, x: float, y: float, colour: str) -> list[str]:
    parts = []
    for offset, reveal in enumerate(point["row"]["reveals"] if point["row"] else []):
        level = "off the ladder" if reveal["level"] is None else f"level {reveal['level']}"
        when = "before play" if reveal["session"] is None else f"session {reveal['session']}"
        status = " (voided)" if point["voided"] else ""
        title = (
            f"{reveal['detail']}: {reveal['value']} ({level}, {reveal['cause']}, {when}){status}"
        )
        cls = "reveal voided" if point["voided"] else "reveal"
        ry = y - 12 - 12 * offset
        fill = "none" if point["voided"] else colour
        parts.append(
            f'<g class="{cls}" data-detail="{escape(reveal["detail"])}"'
            f' data-level="{reveal["level"] if reveal["level"] is not None else ""}">'
            f"<title>{escape(title)}</title>"
            f'<path d="M{x:.1f} {ry - 6:.1f} L{x + 5:.1f} {ry:.1f} L{x:.1f} {ry + 6:.1f}'
            f' L{x - 5:.1f} {ry:.1f} Z" fill="{fill}" stroke="{colour}" stroke-width="1.5"/>'
            f'<text x="{x + 8:.1f}" y="{ry + 4:.1f}" font-size="10">'
            f"{escape(reveal['detail'])}</text></g>"
        )
    return parts


def chart(lines: list[HeroTimeline]) -> str:
    """The SVG for one or more hero timelines (as ``projections.timeline`` gives them)."""
    series = [(line["hero"], _points(line)) for line in lines]
    rulings = sorted({p["ruling"] for _, points in series for p in points})
    where = {ruling: index for index, ruling in enumerate(rulings)}
    sessions = {
        row["ruling"]: row["session"]
        for line in lines
        for row in line["rows"]
        if row["session"] is not None
    }
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="exposure-chart" width="{WIDTH}"'
        f' height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        ' font-family="system-ui, sans-serif">',
        "<title>Exposure over time, reveals marked</title>",
        *_axes(rulings, sessions),
    ]
    for number, (hero, points) in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        standing = [p for p in points if not p["voided"]]
        path = " ".join(
            f"{_x(where[p['ruling']], len(rulings)):.1f},{_y(p['exposure']):.1f}" for p in standing
        )
        parts.append(f'<g class="hero" data-hero="{escape(hero)}">')
        parts.append(
            f'<polyline class="exposure" points="{path}" fill="none" stroke="{colour}"'
            ' stroke-width="2"/>'
        )
        for p in points:
            x, y = _x(where[p["ruling"]], len(rulings)), _y(p["exposure"])
            cls = "point voided" if p["voided"] else "point"
            fill = "white" if p["voided"] else colour
            dash = ' stroke-dasharray="2 2"' if p["voided"] else ""
            parts.append(
                f'<circle class="{cls}" data-ruling="{p["ruling"]}" cx="{x:.1f}" cy="{y:.1f}"'
                f' r="4" fill="{fill}" stroke="{colour}"{dash}><title>ruling {p["ruling"]}:'
                f" Exposure {p['exposure']}{' (voided)' if p['voided'] else ''}</title></circle>"
            )
            parts.extend(_reveal_marks(p, x, y, colour))
        parts.append("</g>")
    if len(series) > 1:
        for number, (hero, _) in enumerate(series):
            colour = COLOURS[number % len(COLOURS)]
            x = LEFT + 90 + 150 * number
            parts.append(
                f'<g class="legend"><rect x="{x}" y="{TOP - 30}" width="10" height="10"'
                f' fill="{colour}"/><text x="{x + 14}" y="{TOP - 21}" font-size="11">'
                f"{escape(hero)}</text></g>"
            )
    parts.append("</svg>")
    return "".join(parts)
