"""Free rolls as they were recorded while a free roll only added and subtracted terms (events of
``class_version`` 1: ``FreeRollMade``, and the rolls of a ``PostWritten``), brought up to how a
roll is recorded now: every face in the order drawn, and the breakdown.

A version-1 roll held its ``terms``, each ``{"count", "sides", "kept", "keep", "faces",
"dropped", "value", "subtracted"}``: dice (``count`` of them, the positions ``dropped`` by a
keep-highest or -lowest) or a whole number (``count`` 0). Its terms were drawn in the order
written, so their faces one after the other are the faces in the order drawn; and the
breakdown ``domain.dice_rolling`` writes for such an expression is the terms written out as the
log wrote them (``[6,~1~,5,3] - 2``). So the roll reads as it did, and its expression rolled
again over its faces (an amendment, an undo deciding later rulings again) gives the same event.
"""

from __future__ import annotations

from typing import Any


def upcast_roll(roll: dict[str, Any]) -> None:
    """A version-1 roll (a ``FreeRollMade`` payload, or a roll of a post) in place: its terms
    become its faces and breakdown."""
    terms = roll.pop("terms", [])
    roll["faces"] = [face for term in terms for face in term["faces"]]
    roll["breakdown"] = " ".join(_term(term, first=not i) for i, term in enumerate(terms))


def _term(term: dict[str, Any], *, first: bool) -> str:
    minus = term["subtracted"]
    sign = ("-" if minus else "") if first else ("- " if minus else "+ ")
    if not term["count"]:
        return f"{sign}{term['value']}"
    dropped = set(term["dropped"])
    shown = (f"~{f}~" if i in dropped else str(f) for i, f in enumerate(term["faces"]))
    return f"{sign}[{','.join(shown)}]"
