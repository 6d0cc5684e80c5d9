"""What the SVG charts share: text boxes measured without a browser, a label placement pass that
keeps labels from overlapping (each label tries its places in order, or is dropped), round tick
values for a count axis, and their lines (coloured here too, for an SVG read without the
stylesheet, which overrides these)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Literal

from attrs import frozen

Anchor = Literal["start", "middle", "end"]
CHAR_WIDTH = 0.6  # an average character's width in ems, generous for system-ui and DejaVu Sans


@frozen
class Box:
    """A rectangle in the chart's coordinates: its top-left corner and size."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def grown(self, by: float) -> Box:
        """This box with ``by`` more on every side."""
        return Box(self.x - by, self.y - by, self.width + 2 * by, self.height + 2 * by)

    def inside(self, other: Box) -> bool:
        return (
            other.x <= self.x
            and other.y <= self.y
            and self.right <= other.right
            and self.bottom <= other.bottom
        )


@frozen
class Label:
    """A piece of text where it is drawn: ``y`` is its baseline, ``anchor`` as SVG's
    ``text-anchor``; ``leader``, the thin line tying it to what it names when it stands apart."""

    text: str
    x: float
    y: float
    size: float
    anchor: Anchor = "start"
    leader: Box | None = None

    @property
    def space(self) -> list[Box]:
        """What the label takes up: its text and its leader."""
        return [self.box] if self.leader is None else [self.box, self.leader]

    @property
    def box(self) -> Box:
        """The space the text takes (estimated: no font metrics without a browser)."""
        width = text_width(self.text, self.size)
        left = {"start": self.x, "middle": self.x - width / 2, "end": self.x - width}[self.anchor]
        return Box(left, self.y - self.size * 0.85, width, self.size * 1.1)


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


def place(
    candidates: Sequence[Sequence[Label]], obstacles: Iterable[Box], bounds: Box, gap: float = 0
) -> list[Label | None]:
    """For each label, the first of its candidate places that stays inside ``bounds`` and
    comes (with its leader) no nearer than ``gap`` to an obstacle or a label placed before it;
    None where every place does (the label is dropped)."""
    taken = list(obstacles)
    placed: list[Label | None] = []
    for options in candidates:
        chosen = next(
            (
                option
                for option in options
                if option.box.inside(bounds)
                and not any(mine.grown(gap).overlaps(b) for mine in option.space for b in taken)
            ),
            None,
        )
        if chosen is not None:
            taken += chosen.space
        placed.append(chosen)
    return placed


def ticks(top: float, most: int = 6) -> list[int]:
    """Round whole-number ticks from 0 up to the first one at or above ``top``, at most ``most``
    of them (steps of 1, 2 or 5 times a power of ten)."""
    top = max(top, 1.0)
    power = 1
    while True:
        for step in (power, 2 * power, 5 * power):
            count = math.ceil(top / step)
            if count + 1 <= most:
                return [step * i for i in range(count + 1)]
        power *= 10


STROKES = {
    "grid": 'stroke="#d0d7de"',
    "axis": 'stroke="#57606a"',
    "leader": 'stroke="#8c959f"',
    "boundary": 'stroke="#8c959f" stroke-dasharray="4 3"',
    "expected": 'stroke="#d1242f" stroke-dasharray="6 4"',
}


def line(cls: str, x1: float, y1: float, x2: float, y2: float) -> str:
    """An SVG line of one of the STROKES kinds."""
    return (
        f'<line class="{cls}" {STROKES[cls]} x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}"'
        f' y2="{y2:.1f}"/>'
    )
