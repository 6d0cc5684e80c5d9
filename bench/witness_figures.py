"""The witnesses figure: `campaign verify --witness` over a campaign of 100k events, with a
member's statement of one head in every hundred rulings (signed), against plain `verify` of the
same store, the check it adds to (every head read where its ruling's header is, the digest over
every stream's head there computed, each signature checked).

The store comes from ``bench.dataset``, as the verify figure's."""

from __future__ import annotations

from pathlib import Path

import attrs
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from bench import dataset
from bench.common import Row, paired, say
from domain.audience import GMS
from engine import Engine, Head, Statement

EVERY = 100  # rulings between two heads witnessed


def statements(engine: Engine) -> list[Statement]:
    """ana's signed statement of the head after every ``EVERY``th ruling, and of the last."""
    private = Ed25519PrivateKey.from_private_bytes(bytes(32))
    key = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    versions = [h.originator_version for h in engine.headers(dataset.NAME, audience=GMS)]
    chosen = [*versions[::EVERY], versions[-1]]
    found = engine.heads_at(dataset.NAME, chosen, audience=GMS)
    signed = []
    for head in found.values():
        assert isinstance(head, Head)
        unsigned = Statement(head=head, at="2026-11-29T20:00:00Z", by="ana", seen="the table page")
        signature = private.sign(unsigned.text()).hex()
        signed.append(attrs.evolve(unsigned, key=key, signature=signature))
    return signed


def figures(work: Path, repeat: int, events: int) -> list[Row]:
    db = work / "witnessed.db"
    say(f"  building {events:,} events for the witnesses figure")
    dataset.build(db, events // 2)
    with Engine(str(db)) as engine:
        witnessed = statements(engine)
        checks = []

        def ours() -> None:
            report = engine.verify(dataset.NAME)
            checks.append((report, engine.check_witnesses(dataset.NAME, witnessed)))

        def baseline() -> None:
            engine.verify(dataset.NAME)

        baseline()  # warmed: the first verify of a process reads what later ones find cached
        took, plain = paired(ours, baseline, repeat)
    report, check = checks[-1]
    if not report.intact or not check.holds or len(check.checked) != len(witnessed):
        raise RuntimeError(f"the bench campaign does not hold its witnesses: {check}")
    dataset.remove_db(db)
    return [
        Row(
            f"verify of a {report.events:,}-event campaign with {len(witnessed)} witnessed "
            "heads (each head and its digest, each signature)",
            "s",
            took,
            plain,
            "plain verify of the same store",
            "<= 1.2",
        )
    ]
