"""The verify figure: `campaign verify` over a campaign of 100k events (every chain, ruling, seal
and committed roll checked, every stream replayed with the rules and every snapshot compared)
against reading and decoding the same rows, the least any replay of them costs.

The store comes from ``bench.dataset`` (Sprawl Goons, imported roll rulings: a header on the
campaign stream and a roll on Tanner's per ruling, a snapshot of each after every save).
"""

from __future__ import annotations

from pathlib import Path

from bench import dataset
from bench.common import Row, paired, say
from engine import Engine


def figures(work: Path, repeat: int, events: int) -> list[Row]:
    db = work / "verify.db"
    say(f"  building {events:,} events for the verify figure")
    dataset.build(db, events // 2)
    with Engine(str(db)) as engine:
        t = dataset.table(engine)
        streams = (t.campaign_id, t.character_id)
        recorder, decode = engine.store.recorder, engine.store.mapper.to_domain_event
        reports = []

        def ours() -> None:
            reports.append(engine.verify(dataset.NAME))

        def baseline() -> None:
            for stream in streams:
                for row in recorder.select_events(stream):
                    decode(row)

        took, read = paired(ours, baseline, repeat)
    report = reports[-1]
    if not report.intact:
        raise RuntimeError(f"the bench campaign does not verify: {report}")
    dataset.remove_db(db)
    return [
        Row(
            f"verify of a {report.events:,}-event campaign (chains, rulings, seals, dice, "
            f"replay, {report.snapshots} snapshots)",
            "s",
            took,
            read,
            "reading and decoding the same rows",
            "<= 3",
        )
    ]
