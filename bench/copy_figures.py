"""The member's copy figures: `campaign verify-dice` of a member's copy of a campaign of 100k
events, every other ruling withheld (each of its rows checked from its digest), against
`verify-dice` of the whole export, the check it stands in for; and writing the copy (`export
--for`) against writing the whole export.

The store comes from ``bench.dataset``, as the verify figure's; its rulings are all public, so
the copy checked is the whole export with every other ruling's rows withheld, as `export --for`
writes a withheld row."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bench import dataset
from bench.common import Row, paired, say
from domain.audience import GMS, Member
from engine import Engine
from engine.store.mapper import canonical_json
from engine.transfer.player_check import verify_export


def withheld_every_other(lines: list[str], member: str) -> list[str]:
    """The whole export as ``member``'s copy with every even-numbered ruling withheld."""
    header = {**json.loads(lines[0]), "copy_for": member}
    out = [json.dumps(header)]
    for line in lines[1:]:
        data = json.loads(line)
        body = dict(data["event"])
        if body["ruling"] % 2 or body["ruling"] < 3:
            out.append(line)
            continue
        chain = body.pop("chain")
        digest = hashlib.sha256(canonical_json(body)).hexdigest()
        kept = {"digest": digest, "chain": chain}
        out.append(
            json.dumps({**{k: data[k] for k in ("stream", "version", "topic")}, "withheld": kept})
        )
    return out


def figures(work: Path, repeat: int, events: int) -> list[Row]:
    db = work / "copy.db"
    say(f"  building {events:,} events for the member's copy figures")
    dataset.build(db, events // 2)
    with Engine(str(db)) as engine:
        whole = list(engine.export(dataset.NAME, audience=GMS))
        copy = withheld_every_other(whole, "ana")
        reports = []

        def ours() -> None:
            reports.append(verify_export(copy)[1])

        def baseline() -> None:
            reports.append(verify_export(whole)[1])

        baseline()
        checked, plain = paired(ours, baseline, repeat)
        wrote, exported = paired(
            lambda: list(engine.member_copy(dataset.NAME, "ana", audience=Member("ana"))),
            lambda: list(engine.export(dataset.NAME, audience=GMS)),
            repeat,
        )
    mine, gm = verify_export(copy)[1], verify_export(whole)[1]
    if not (mine.intact and gm.intact and mine.digest == gm.digest):
        raise RuntimeError(f"the member's copy does not verify as the export: {mine}")
    withheld = sum('"withheld"' in line for line in copy)
    dataset.remove_db(db)
    return [
        Row(
            f"verify-dice of a member's copy of {gm.events:,} events, {withheld:,} withheld "
            "(each checked from its digest)",
            "s",
            checked,
            plain,
            "verify-dice of the whole export",
            "<= 1.2",
        ),
        Row(
            f"export --for a member of {gm.events:,} events (what they read, decided per row)",
            "s",
            wrote,
            exported,
            "export of the whole log",
            "<= 1.5",
        ),
    ]
