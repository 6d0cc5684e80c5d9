"""The committed rolls that changed nothing, counted per session and per lane: each spent a
counter the GM's machine could foresee (nobody sealed it), so a run of them before a roll that
mattered is how a GM who reads his own seed steers which roll lands where. ``engine.audit.dice``
finds them in the log; this module says them, for `verify-dice`, `verify` and (the same words,
in ``web/static/dice_check.js``) the dice page."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.audit.report import IdleRoll

IDLE_UNDONE = "undone"
IDLE_HIDDEN = "hidden, never revealed"
IDLE_FREE = "free roll with no consequence"
RUNS = 50  # the runs of rulings a lane's line names one by one (the dice page says the same)


def idle_lines(idle: Iterable[IdleRoll]) -> list[str]:
    """The counts of ``idle`` per lane, as `verify-dice`, `verify` and the dice page say them:
    ``ana's lane: 27 (27 free rolls with no consequence: rulings 3-29)``."""
    lanes: dict[str, list[IdleRoll]] = {}
    for roll in idle:
        lanes.setdefault(roll.lane, []).append(roll)
    lines = []
    for whose, rolls in lanes.items():
        name = (
            "hidden rolls" if whose == "hidden" else f"{whose}'s lane" if whose else "the counter"
        )
        kinds: dict[str, list[int]] = {}
        for roll in rolls:
            kinds.setdefault(roll.why, []).append(roll.ruling)
        parts = [
            f"{len(numbers)} {_plural(why, len(numbers))}: {_ranges(numbers)}"
            for why, numbers in kinds.items()
        ]
        lines.append(f"{name}: {len(rolls)} ({'; '.join(parts)})")
    return lines


def _plural(why: str, count: int) -> str:
    if count == 1:
        return why
    return {IDLE_FREE: "free rolls with no consequence", IDLE_HIDDEN: "hidden, never revealed"}.get(
        why, why
    )


def _ranges(numbers: list[int]) -> str:
    """``rulings 3-29, 31`` of consecutive runs; ``ruling 4`` of one; past ``RUNS`` runs, the
    rest counted (``, and 7 more runs up to ruling 412``), so a line stays short however
    scattered its rolls."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    text = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:RUNS])
    if len(runs) > RUNS:
        text += f", and {len(runs) - RUNS} more runs up to ruling {runs[-1][1]}"
    return f"ruling {text}" if len(numbers) == 1 else f"rulings {text}"
