"""The dice read model: face counts per die size and source, per session and per stream, kept
as the rulings come, so `dice-stats --session N` reads one document instead of every header.

Documents (keys within the model): ``dice/<campaign id>/<session>/<stream>``, where
``<session>`` is a session's number, ``none`` (rulings made outside a session) or ``all``, and
``<stream>`` a stream the rulings touched or ``all``. Each holds ``counts``, the dice of the
rulings that are not GM-only notes, and ``gm``, the dice of those that are (a player never
reads them); each maps ``<sides>/<source>`` to how many dice (``n``) and each face's count.
An amendment reuses its ruling's dice, so it adds none (as ``dice_stats.tally`` counts).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.dice import Die, Provenance
from domain.events import AMEND, RulingMade
from projections.dice_stats import FaceCounts
from projections.ids import id_text

if TYPE_CHECKING:  # light at run time: `headers` asks this module what a GM-only note is
    from projections.documents import Documents
    from projections.recap_facts import Envelope

Counts = dict[str, dict[str, Any]]  # "<sides>/<source>" -> {"n": dice, "faces": {face: n}}
Tally = list[tuple[str, int, dict[str, int]]]  # a ruling's dice: (kind, dice, {face: n}) each
ALL = "all"


def dice_key(campaign_id: UUID | str, session: int | str | None, stream: UUID | str) -> str:
    scope = "none" if session is None else session
    return f"dice/{campaign_id}/{scope}/{stream}"


def gm_note(made: RulingMade) -> bool:
    """A GM-only note's ruling (also in a log written before such rulings were marked the GM's)."""
    return bool(made.command == "note" and json.loads(made.params)["args"].get("gm_only"))


def add(counts: Counts, dice: Iterable[Die], source: Provenance | None, sign: int = 1) -> None:
    """Count ``dice`` in (``sign`` -1: out of) ``counts``."""
    for die in dice:
        kind = counts.setdefault(f"{die.sides}/{source or ''}", {"n": 0, "faces": {}})
        kind["n"] += sign
        kind["faces"][str(die.face)] = kind["faces"].get(str(die.face), 0) + sign


def merged(*parts: Counts) -> Counts:
    total: Counts = {}
    for part in parts:
        for kind, found in part.items():
            into = total.setdefault(kind, {"n": 0, "faces": {}})
            into["n"] += found["n"]
            for face, n in found["faces"].items():
                into["faces"][face] = into["faces"].get(face, 0) + n
    return total


def face_counts(counts: Counts) -> list[FaceCounts]:
    """The counts as ``dice_stats.tally`` gives them: one row per die size and source that
    came up, ordered by size and source."""
    rows = []
    for kind, found in counts.items():
        if found["n"] <= 0:
            continue
        sides_text, _, source_text = kind.partition("/")
        sides = int(sides_text)
        source = Provenance(source_text) if source_text else None
        faces = found["faces"]
        rows.append(
            FaceCounts(sides, source, tuple(faces.get(str(f), 0) for f in range(1, sides + 1)))
        )
    return sorted(rows, key=lambda r: (r.sides, str(r.source)))


class DiceModel:
    """Dice counts of every campaign in the store, per session and stream."""

    name = "dice"
    version = 1

    def apply(self, docs: Documents, records: Sequence[Envelope]) -> None:
        header = next(r for r in records if isinstance(r.event, RulingMade))
        made = header.event
        assert isinstance(made, RulingMade)
        if made.command == AMEND or not made.dice:
            return
        cid = id_text(header.originator_id)
        bucket = "gm" if gm_note(made) else "counts"
        rolled = _tallied(made.dice, made.provenance)  # counted once, added to each document
        touched = [id_text(s.stream) for s in made.touched]
        streams = [ALL, *(touched if len(touched) < 2 else dict.fromkeys(touched))]
        for session in ("none" if header.session is None else header.session, ALL):
            for stream in streams:
                key = f"dice/{cid}/{session}/{stream}"
                doc = docs.get(key) or {"counts": {}, "gm": {}}
                _added(doc[bucket], rolled)
                docs.put(key, doc)


def _tallied(dice: Iterable[Die], source: Provenance | None) -> Tally:
    """``dice`` as ``add`` counts them: each kind (``<sides>/<source>``) with how many dice and
    each face's count, kinds in the order they first come."""
    kinds: dict[str, tuple[list[int], dict[str, int]]] = {}
    suffix = f"/{source or ''}"
    for die in dice:
        kind = f"{die.sides}{suffix}"
        found = kinds.get(kind)
        if found is None:
            found = kinds[kind] = ([0], {})
        found[0][0] += 1
        face = str(die.face)
        found[1][face] = found[1].get(face, 0) + 1
    return [(kind, n[0], faces) for kind, (n, faces) in kinds.items()]


def _added(counts: Counts, rolled: Tally) -> None:
    """``add``, of dice already counted (``_tallied``)."""
    for kind, n, faces in rolled:
        into = counts.get(kind)
        if into is None:
            into = counts[kind] = {"n": 0, "faces": {}}
        into["n"] += n
        counted = into["faces"]
        for face, times in faces.items():
            counted[face] = counted.get(face, 0) + times
