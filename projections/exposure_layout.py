"""Where everything of the Exposure chart goes, computed before any SVG is written: the plot's
frame, each hero's dots, a diamond per reveal, the sessions under the axis and the legend. A label
placement pass (``projections.chart_layout``) keeps every label clear of the others and of the
marks, trying beside a diamond, then just above it, and otherwise dropping the name (the diamond
keeps it as a tooltip)."""

from __future__ import annotations

from typing import Literal, TypedDict

from attrs import frozen

from projections.chart_layout import Box, Label, place, text_width
from projections.describe import spoken
from projections.views import HeroTimeline, Row

WIDTH, LEFT, RIGHT, PLOT_HEIGHT = 480, 44, 24, 200  # narrow: its text stays readable on a phone
FONT, TICK_FONT, STACK = 12, 11, 14  # STACK: from one diamond to the next above it
RAISED = 4  # how many rows above its diamond a reveal's name may go
GAP = 3  # the least room between a label and anything else: flush labels read as one
COLOURS = ("#1f6feb", "#d1242f", "#1a7f37", "#8250df", "#bf8700", "#0a7ea4")
NEUTRAL = "#57606a"
TOP_LEVEL = 10
Symbol = Literal["dot", "diamond", "hollow", "line"]


class _Point(TypedDict):
    """A point of a hero's line: Exposure after a ruling (the row; None where the hero started)."""

    ruling: int
    exposure: int
    voided: bool
    row: Row | None


@frozen
class Frame:
    """Where the plot sits in the chart: its top edge and how many rulings it spreads across."""

    top: float
    rulings: int

    @property
    def bottom(self) -> float:
        return self.top + PLOT_HEIGHT

    def x(self, index: float) -> float:
        span = WIDTH - LEFT - RIGHT
        return LEFT + (span * index / (self.rulings - 1) if self.rulings > 1 else span / 2)

    def y(self, value: int) -> float:
        return self.top + PLOT_HEIGHT * (TOP_LEVEL - value) / TOP_LEVEL


@frozen
class Dot:
    """Exposure after a ruling (or where a hero started): filled, or hollow if voided."""

    x: float
    y: float
    voided: bool
    ruling: int
    exposure: int


@frozen
class Mark:
    """A reveal's diamond: where it is, what it says on hover, and its name once placed."""

    hero: int
    x: float
    y: float
    detail: str
    level: int | None
    title: str
    voided: bool
    label: Label | None

    @property
    def box(self) -> Box:
        return Box(self.x - 6, self.y - 7, 12, 14)


@frozen
class Session:
    """A session's first ruling (a dashed line there) and its name under the axis, if placed."""

    number: int
    x: float
    label: Label | None


@frozen
class Key:
    """One entry of the legend: its symbol, drawn at ``x``, then its text."""

    symbol: Symbol
    colour: str
    x: float
    label: Label


@frozen
class Layout:
    """Everything the chart draws, placed."""

    height: float
    frame: Frame
    series: tuple[tuple[str, tuple[Dot, ...]], ...]
    marks: tuple[Mark, ...]
    sessions: tuple[Session, ...]
    legend: tuple[Key, ...]

    @property
    def labels(self) -> list[Label]:
        """Every piece of text placed by the layout pass (none of them, nor their leaders,
        overlaps another)."""
        found = [m.label for m in self.marks] + [s.label for s in self.sessions]
        return [x for x in found if x is not None] + [k.label for k in self.legend]


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


def _marks(number: int, point: _Point, x: float, y: float) -> list[Mark]:
    marks = []
    for offset, reveal in enumerate(point["row"]["reveals"] if point["row"] else []):
        level = "off the ladder" if reveal["level"] is None else f"level {reveal['level']}"
        when = "before play" if reveal["session"] is None else f"session {reveal['session']}"
        status = " (voided)" if point["voided"] else ""
        detail, cause = spoken(reveal["detail"]), spoken(reveal["cause"])
        title = f"{detail}: {reveal['value']} ({level}, {cause}, {when}){status}"
        ry = y - 12 - STACK * offset
        marks.append(
            Mark(number, x, ry, reveal["detail"], reveal["level"], title, point["voided"], None)
        )
    return marks


def _label_places(mark: Mark) -> list[Label]:
    """Beside the diamond (right, then left), then above it (centred, or leaning left or right),
    raised a row at a time with a leader down to the diamond, up to RAISED rows."""
    x, y, text = mark.x, mark.y, spoken(mark.detail)
    places = [Label(text, x + 9, y + 4, FONT, "start"), Label(text, x - 9, y + 4, FONT, "end")]
    for row in range(RAISED + 1):
        base = y - 10 - STACK * row
        leader = Box(x - 0.5, base + 3, 1, STACK * row - GAP - 1) if row else None
        places += [
            Label(text, x, base, FONT, "middle", leader),
            Label(text, x + 6, base, FONT, "end", leader),
            Label(text, x - 6, base, FONT, "start", leader),
        ]
    return places


def _sessions(rulings: list[int], sessions: dict[int, int], frame: Frame) -> list[Session]:
    spans: dict[int, list[int]] = {}
    for index, ruling in enumerate(rulings):
        if (session := sessions.get(ruling)) is not None:
            spans.setdefault(session, []).append(index)
    wanted = []
    for session, indices in sorted(spans.items()):
        middle = (frame.x(indices[0]) + frame.x(indices[-1])) / 2
        below = frame.bottom + 16
        wanted.append(
            [
                Label(f"session {session}", middle, below, TICK_FONT, "middle"),
                Label(f"session {session}", middle, below + 14, TICK_FONT, "middle"),
                Label(str(session), middle, below, TICK_FONT, "middle"),
            ]
        )
    bounds = Box(0, frame.bottom, WIDTH, 34)
    placed = place(wanted, [], bounds)
    return [
        Session(number, frame.x(max(indices[0] - 0.5, 0)), label)
        for (number, indices), label in zip(sorted(spans.items()), placed, strict=True)
    ]


def _legend(heroes: list[str], top: float) -> list[Key]:
    single = len(heroes) == 1
    colour = COLOURS[0] if single else NEUTRAL
    entries: list[tuple[Symbol, str, str]] = [
        ("dot", colour, "Exposure"),
        ("diamond", colour, "reveal"),
        ("hollow", colour, "voided (hollow)"),
    ]
    if not single:
        entries += [("line", COLOURS[n % len(COLOURS)], hero) for n, hero in enumerate(heroes)]
    keys, x, y = [], float(LEFT), top
    for symbol, shade, text in entries:
        width = 18 + text_width(text, FONT)
        if x + width > WIDTH - 4 and x > LEFT:
            x, y = float(LEFT), y + 18
        keys.append(Key(symbol, shade, x, Label(text, x + 18, y + 4, FONT)))
        x += width + 16
    return keys


def layout(lines: list[HeroTimeline]) -> Layout:
    """Where everything of the chart of ``lines`` goes (as ``projections.timeline`` gives them)."""
    series = [(line["hero"], _points(line)) for line in lines]
    rulings = sorted({p["ruling"] for _, points in series for p in points})
    where = {ruling: index for index, ruling in enumerate(rulings)}
    stack = max((len(p["row"]["reveals"]) for _, ps in series for p in ps if p["row"]), default=1)
    frame = Frame(24 + STACK * max(stack - 1, 0), len(rulings))
    drawn: list[tuple[str, tuple[Dot, ...]]] = []
    marks: list[Mark] = []
    for number, (hero, points) in enumerate(series):
        dots = []
        for p in points:
            x, y = frame.x(where[p["ruling"]]), frame.y(p["exposure"])
            dots.append(Dot(x, y, p["voided"], p["ruling"], p["exposure"]))
            marks += _marks(number, p, x, y)
        drawn.append((hero, tuple(dots)))
    marks.sort(key=lambda m: (m.x, -m.y))  # log order, then up a stack
    turns = sorted(range(len(marks)), key=lambda i: marks[i].voided)  # standing reveals first
    placed = place(
        [_label_places(marks[i]) for i in turns],
        [*(Box(d.x - 5, d.y - 5, 10, 10) for _, ds in drawn for d in ds), *(m.box for m in marks)],
        Box(LEFT + 2, 2, WIDTH - LEFT - 4, frame.bottom - 2),
        gap=GAP,
    )
    labels = dict(zip(turns, placed, strict=True))
    sessions = {
        row["ruling"]: row["session"]
        for line in lines
        for row in line["rows"]
        if row["session"] is not None
    }
    legend = _legend([hero for hero, _ in series], frame.bottom + 66)
    return Layout(
        height=legend[-1].label.y + 10,
        frame=frame,
        series=tuple(drawn),
        marks=tuple(
            Mark(m.hero, m.x, m.y, m.detail, m.level, m.title, m.voided, labels[i])
            for i, m in enumerate(marks)
        ),
        sessions=tuple(_sessions(rulings, sessions, frame)),
        legend=tuple(legend),
    )
