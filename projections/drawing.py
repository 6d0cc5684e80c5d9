"""The pieces a drawn sheet is made of, and the turn panel's lines: plain frozen values each
system's presentation fills in (``Presentation.sheet_drawing``, ``Presentation.turns``) and
the shared templates render to HTML and inline SVG, naming no system. A piece carries its own
words (labels, notes, a ``text`` that reads out what a picture shows), so a page, a screen
reader and a test all read the same thing.

A sheet is a ``Drawing``: its parts in order, each one of a grid (rows and columns of cells with
marks), a bar (a value out of a maximum), rows (a label, a value, badges) or a ladder (levels
climbed, each with what it shows)."""

from __future__ import annotations

from typing import ClassVar

from attrs import field, frozen


@frozen
class Badge:
    """A short mark beside a value: ``tone`` is "" (plain), "good", "warn" or "bad"."""

    text: str
    tone: str = ""


@frozen
class Cell:
    """One square of a grid: its name, its marks and a note (a range, a count)."""

    name: str
    badges: tuple[Badge, ...] = ()
    note: str = ""


@frozen
class GridRow:
    label: str
    cells: tuple[Cell, ...]


@frozen
class Grid:
    """A table of cells: a row per ``rows`` label, a column per ``columns`` label; the legend
    says what the marks mean."""

    kind: ClassVar[str] = "grid"
    title: str
    columns: tuple[str, ...]
    rows: tuple[GridRow, ...]
    legend: tuple[Badge, ...] = ()


@frozen
class Bar:
    """A value out of a maximum (``value`` may fall below 0 or rise above it: drawn clamped,
    read as it is)."""

    kind: ClassVar[str] = "bar"
    title: str
    value: int
    maximum: int
    note: str = ""
    tone: str = ""

    @property
    def filled(self) -> float:
        """The share of the bar drawn filled, 0 to 1."""
        if self.maximum <= 0:
            return 0.0
        return min(1.0, max(0.0, self.value / self.maximum))

    @property
    def reading(self) -> str:
        """The value as read under the bar's title: ``8 of 12 (dying)``."""
        note = f" ({self.note})" if self.note else ""
        return f"{self.value} of {self.maximum}{note}"

    @property
    def text(self) -> str:
        """What the bar says, title and all: ``Resilience: 8 of 12 (dying)``."""
        return f"{self.title}: {self.reading}"


@frozen
class Row:
    """One line of a list: a label, its value, badges and a note."""

    label: str
    value: str = ""
    badges: tuple[Badge, ...] = ()
    note: str = ""


@frozen
class Rows:
    """A titled list of rows (stats, items, injuries); ``empty`` is what it says with none."""

    kind: ClassVar[str] = "rows"
    title: str
    rows: tuple[Row, ...]
    empty: str = "none"


@frozen
class Step:
    """A level of a ladder: what it shows, whether it is reached and what it made known."""

    level: int
    label: str
    reached: bool = False
    value: str = ""
    badges: tuple[Badge, ...] = ()


@frozen
class Ladder:
    """Levels from the bottom up; ``at`` the level stood on now, ``note`` what it means."""

    kind: ClassVar[str] = "ladder"
    title: str
    steps: tuple[Step, ...]
    at: int
    note: str = ""


Part = Grid | Bar | Rows | Ladder


@frozen
class Drawing:
    """A character's sheet as pages draw it: a heading line and its parts, in order."""

    summary: str
    parts: tuple[Part, ...] = field(factory=tuple)


@frozen
class Turn:
    """One line of the turn panel: who, what they are owed or owe, and whether it is theirs
    now (the one to act)."""

    who: str
    what: str
    now: bool = False


@frozen
class TurnGroup:
    """A titled list of the turn panel: an order (``ordered``: initiative, turn order) or what
    is owed (an open test, the end of session's rolls)."""

    title: str
    turns: tuple[Turn, ...]
    ordered: bool = False
