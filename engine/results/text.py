"""A ruling as text: the lines the CLI prints for what a command recorded and for a ruling of
the log, and the lines a chat message shows. Every front end that writes a ruling as text takes
these lines from the one ruling value (``engine.results.ruling``); the terminal cleans and wraps
each as it prints it."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from engine.results.log_lines import dispute_line, where
from engine.results.ruling import LogEntry, RulingView

if TYPE_CHECKING:
    from engine.results.views import HistoryEntry, ReplayStep


def faces(view: RulingView | LogEntry) -> str:
    """The dice and their faces: ``d6:4, d6:2``."""
    return ", ".join(f"d{d.sides}:{d.face}" for d in view.dice)


COMMITTED = "digital-committed"


def dice_source(view: RulingView | LogEntry) -> str:
    """Where the dice came from, honestly: committed dice its player sealed (nobody could
    foresee them) or that nobody sealed (the GM's machine, which knows the seed, could)."""
    return f"{view.provenance}{sealing(view)}"


def sealing(view: RulingView | LogEntry) -> str:
    """``, sealed by ana`` (``, sealed by ana (through Discord)``) of committed dice their
    player sealed, ``, foreseeable by the GM, entered for ana`` of those recorded in a player's
    name that nobody sealed (at the GM's keyboard with ``--as``, or her own roll unsealed),
    ``, foreseeable by the GM`` of the GM's own, an NPC's or a hidden roll; "" of dice not
    committed."""
    if view.provenance != COMMITTED:
        return ""
    if view.sealed_by is not None:
        through = f" (through {view.sealed_through})" if view.sealed_through else ""
        return f", sealed by {view.sealed_by}{through}"
    if view.entered_for is not None:
        return f", foreseeable by the GM, entered for {view.entered_for}"
    return ", foreseeable by the GM"


def stamp(at: str) -> str:
    """A ruling's time as the log prints it: ``2026-12-06 10:50``."""
    return datetime.fromisoformat(at).strftime("%Y-%m-%d %H:%M")


def place(view: RulingView | LogEntry) -> str:
    """Where in the campaign it was made: ``session 2, scene 3`` ("" before any session)."""
    return where(view.session, view.scene)


def result_lines(view: RulingView) -> list[str]:
    """What a command recorded, as the CLI prints it: ``ruling 12: roll (committed dice)``, its
    narration quoted, and each line of what changed."""
    dice = f" ({view.provenance} dice{sealing(view)})" if view.dice else ""
    lines = [f"ruling {view.ruling}: {view.command}{dice}"]
    if view.say:
        lines.append(f'  "{view.say}"')
    lines.extend(f"  {line}" for line in view.lines)
    return lines


def entry_lines(entry: LogEntry) -> list[str]:
    """A ruling of the log as `campaign log` prints it: its header, narration, undo, disputes,
    the lines it recorded (marked ``~`` once something replaced them) and each amendment with
    what now stands (``>``)."""
    context = f" [{place(entry)}]" if place(entry) else ""
    lines = [f"#{entry.ruling} {stamp(entry.at)} {entry.actor}: {entry.command}{context}"]
    if entry.say:
        mark = "~ " if any(a.say is not None for a in entry.amended) else ""
        lines.append(f'  {mark}"{entry.say}"')
    if entry.undone is not None:
        u = entry.undone
        lines.append(f"  UNDONE by #{u.by} ({u.actor}): {u.reason}")
    lines.extend(f"  {dispute_line(d)}" for d in entry.disputes)
    mark = "~ " if entry.replaced else ""
    lines.extend(f"  {mark}{line}" for line in entry.lines)
    redraws = 0
    for amendment in entry.amended:
        redraws += bool(amendment.new_dice)
        drew = f" ({redrawn(redraws)} so far)" if amendment.new_dice else ""
        lines.append(
            f"  {amendment.kind.upper()} by #{amendment.by} ({amendment.actor}): "
            f"{amendment.reason}{drew}"
        )
        if amendment.say is not None:
            lines.append(f'  > "{amendment.say}"')
        lines.extend(f"  > {line}" for line in amendment.lines)
    return lines


def redrawn(count: int) -> str:
    """How many times a ruling's dice were re-drawn by amendments, in words."""
    return f"dice re-drawn {'once' if count == 1 else f'{count} times'}"


def entry_brief(entry: LogEntry) -> str:
    """A ruling of the log in one line (a chat's ``/log``): ``#12 ana: roll (undone): ...``."""
    mark = f" ({entry.status})" if entry.status else ""
    return f"#{entry.ruling} {entry.actor}: {entry.command}{mark}: {'; '.join(entry.lines)}"


def history_lines(entry: HistoryEntry) -> list[str]:
    """A ruling that changed a character, as `campaign history` prints it: its header and how
    it stands, its disputes, and what it recorded for the character."""
    mark = f" ({entry.status})" if entry.status else ""
    lines = [f"#{entry.ruling} {stamp(entry.at)} {entry.actor}: {entry.command}{mark}"]
    lines.extend(f"  {dispute_line(d)}" for d in entry.disputes)
    lines.extend(f"  {line}" for line in entry.lines)
    return lines


def replay_lines(step: ReplayStep) -> list[str]:
    """A ruling as `campaign replay` narrates it: its header, its narration, what stands for
    it, and each character after it."""
    status = f" ({step.status})" if step.status else ""
    lines = [
        f"#{step.ruling} {step.actor}: {step.command}{status} [{where(step.session, step.scene)}]"
    ]
    lines.extend(f"  > {line}" for line in step.say.splitlines())
    lines.extend(f"  {line}" for line in step.lines)
    lines.extend(f"  after: {character}: {state}" for character, state in step.after.items())
    return lines
