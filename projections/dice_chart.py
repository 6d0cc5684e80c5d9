"""The dice-statistics page: for each die size and source, a bar chart of how often each face came
up (a count axis with round ticks, the faces along the bottom, each bar's count written on it, a
dashed line labelled with what fair dice would give) and the chi-square test's result in words.
Under the shared stylesheet; its viewBox and ``width="100%"`` let each chart follow the page."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from projections.chart_layout import line, text_width, ticks
from projections.dice_stats import FaceCounts
from projections.stylesheet import e
from projections.stylesheet import page as html_page

WIDTH, HEIGHT = 400, 250  # small, so that its text stays readable on a phone
LEFT, RIGHT, TOP, BOTTOM = 48, 66, 22, 44  # RIGHT: room for the expected line's label
FONT, COUNT_FONT = 12, 11
SUSPECT, UNLIKELY = 0.05, 0.01


def number(value: float) -> str:
    """A count as people write it: 7, or 8.3 where it is not whole."""
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


@frozen
class Scale:
    """Where one die's chart puts a count (up its axis) and a face (along the bottom)."""

    sides: int
    ticks: tuple[int, ...]

    @property
    def bottom(self) -> float:
        return HEIGHT - BOTTOM

    @property
    def slot(self) -> float:
        """The width each face has; its bar takes three quarters of it."""
        return (WIDTH - LEFT - RIGHT) / self.sides

    def y(self, count: float) -> float:
        return self.bottom - (self.bottom - TOP) * count / self.ticks[-1]

    def x(self, face: int) -> float:
        """The middle of ``face``'s bar (faces count from 1)."""
        return LEFT + self.slot * (face - 0.5)

    def faces_named(self) -> list[int]:
        """The faces written under the axis: all of them, or every 2nd (1, 3, 5...), or 1 and
        every 5th, 10th... when the bars are too narrow for every number."""
        wide = text_width(str(self.sides), FONT) + 6
        step = next((s for s in (1, 2, 5, 10, 20, 25, 50) if self.slot * s >= wide), 100)
        if step <= 2:
            return list(range(1, self.sides + 1, step))
        return [1, *range(step, self.sides + 1, step)]


def scale(row: FaceCounts) -> Scale:
    return Scale(row.sides, tuple(ticks(max(max(row.counts), row.rolls / row.sides))))


def chart(row: FaceCounts) -> str:
    """Bars for each face with its count, a count axis, a dashed line where fair dice would put
    the bars, labelled with that count."""
    s = scale(row)
    right, expected = WIDTH - RIGHT, row.rolls / row.sides
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart dice-chart" width="100%"'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" role="img" font-family="system-ui, sans-serif"'
        f' aria-label="d{row.sides} faces">',
        f"<title>{e(_spoken(row))}</title>",
        '<g class="axes">',
    ]
    for tick in s.ticks:
        y = s.y(tick)
        parts.append(
            line("grid", LEFT, y, right, y)
            + f'<text class="tick y-tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end"'
            f' font-size="{FONT}">{tick}</text>'
        )
    middle = (TOP + s.bottom) / 2
    parts += [
        line("axis", LEFT, TOP, LEFT, s.bottom),
        line("axis", LEFT, s.bottom, right, s.bottom),
        *(
            f'<text class="tick x-tick" x="{s.x(face):.1f}" y="{s.bottom + 16}"'
            f' text-anchor="middle" font-size="{FONT}">{face}</text>'
            for face in s.faces_named()
        ),
        f'<text class="axis-title" x="14" y="{middle:.1f}" text-anchor="middle"'
        f' font-size="{FONT}" transform="rotate(-90 14 {middle:.1f})">rolls</text>',
        f'<text class="axis-title" x="{(LEFT + right) / 2:.1f}" y="{HEIGHT - 6}"'
        f' text-anchor="middle" font-size="{FONT}">face</text>',
        "</g>",
    ]
    bar, counts = s.slot * 0.75, []
    for face, count in enumerate(row.counts, start=1):
        top = s.y(count)
        parts.append(
            f'<rect class="bar" fill="#1f6feb" data-face="{face}" data-count="{count}"'
            f' x="{s.x(face) - bar / 2:.1f}" y="{top:.1f}" width="{bar:.1f}"'
            f' height="{s.bottom - top:.1f}"><title>face {face}: {count}</title></rect>'
        )
        if text_width(str(count), COUNT_FONT) + 3 <= s.slot:  # else the bar's tooltip says it
            counts.append(
                f'<text class="count label" x="{s.x(face):.1f}" y="{top - 4:.1f}"'
                f' text-anchor="middle" font-size="{COUNT_FONT}">{count}</text>'
            )
    fair, at = s.y(expected), right + 6
    parts += [
        line("expected", LEFT, fair, right, fair),
        *counts,
        f'<text class="expected-label" x="{at}" y="{fair - 3:.1f}" font-size="{FONT}">'
        f'expected <tspan x="{at}" dy="{FONT + 2}">{number(expected)}</tspan></text>',
        "</svg>",
    ]
    return "".join(parts)


def _spoken(row: FaceCounts) -> str:
    faces = ", ".join(f"{face}: {count}" for face, count in enumerate(row.counts, start=1))
    return f"d{row.sides} ({row.source}), {row.rolls} rolls; how often each face came up: {faces}"


def p_text(p: float) -> str:
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def verdict(row: FaceCounts) -> tuple[str, str]:
    """The test's result in words, and how it reads: fair, uneven, unfair (or "" when there
    are too few rolls to judge)."""
    dof = row.sides - 1
    said = (
        f"chi-square {row.chi_square:.1f} with {dof} degree{'s' if dof != 1 else ''} of freedom,"
        f" {p_text(row.p_value)}"
    )
    if not row.enough:
        return "", said
    if row.p_value < UNLIKELY:
        return "unfair", f"{said}: unlikely to be fair (p < {UNLIKELY})"
    if row.p_value < SUSPECT:
        return "uneven", f"{said}: uneven enough to watch (p < {SUSPECT}), though chance can do it"
    return "fair", f"{said}: consistent with fair dice"


def too_few(row: FaceCounts) -> str | None:
    """Why the test means little yet, if it does: under five expected rolls per face."""
    if row.enough:
        return None
    return (
        f"Too few rolls for the test to mean much: fair dice would give each face"
        f" {number(row.rolls / row.sides)} times, and the test needs at least 5"
        f" ({5 * row.sides} rolls of a d{row.sides})."
    )


def _unbroken(html: str) -> str:
    """Keeps "p = 0.52" and "p < 0.01" on one line."""
    return html.replace("p = ", "p&nbsp;=&nbsp;").replace("p &lt; ", "p&nbsp;&lt;&nbsp;")


def section(row: FaceCounts) -> list[str]:
    shade, said = verdict(row)
    note = too_few(row)
    source = row.source or "unknown source"
    return [
        f'<section class="die" data-sides="{row.sides}">',
        f"<h2>d{row.sides}, {e(source)}: {row.rolls} roll{'s' if row.rolls != 1 else ''}</h2>",
        f'<figure class="chart">{chart(row)}</figure>',
        f'<p class="{f"verdict {shade}".strip()}">{_unbroken(e(said))}</p>',
        *([f'<p class="note">{e(note)}</p>'] if note else []),
        "</section>",
    ]


def page(title: str, rows: Sequence[FaceCounts]) -> str:
    """The whole page: a chart and a verdict per die size and source."""
    body = [
        f"<h1>{e(title)}</h1>",
        '<p class="meta">Bars: how often each face came up. Dashed line: how often fair dice would'
        " show each face. The chi-square test says how likely a spread this uneven is from fair"
        " dice (p: small is suspicious).</p>",
    ]
    if rows:
        body += ['<div class="dice">', *(part for row in rows for part in section(row)), "</div>"]
    else:
        body.append("<p>No dice rolled yet.</p>")
    return html_page(title, body)
