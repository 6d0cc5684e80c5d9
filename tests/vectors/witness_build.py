"""Builds the witness vectors of docs/format.md ("Witness statements") from the campaign of
docs/vectors/campaign.jsonl: a witness file (``docs/vectors/witness.jsonl``) of ana's statement
of the head after every ruling, the app's unsigned statement of each session's seal, and bo's
statement of a head the log does not hold (its digest over another Tanner); and every value a
checker computes (``docs/vectors/witness.json``): each statement's head, the heads its digest is
over, the bytes signed and the signature; the fork. Computed with the engine's own functions
(the digest's input from the export's rows, held to the engine's digest). Run it after the
campaign's vectors change, and review the diff:

    .venv/bin/python -m tests.vectors.witness_build
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import attrs
from eventsourcing.persistence import StoredEvent

from engine import APP, Head, Statement, verify_witnessed
from engine.audit.rows import HeldRows
from engine.audit.witnessed import heads_at
from engine.store.mapper import canonical_json
from engine.transfer.file import read_export
from tests.vectors.build import EXPORT, FOLDER, fixed, private_key, public_hex

STATEMENTS = "witness.jsonl"
VALUES = "witness.json"
SAW = "2026-11-29T21:{:02}:00Z"  # ana saw ruling N at 21:N


def signed(head: Head, at: str, by: str, seen: str) -> Statement:
    unsigned = Statement(head=head, at=at, by=by, seen=seen)
    private = private_key(by)
    signature = private.sign(unsigned.text()).hex()
    return attrs.evolve(unsigned, key=public_hex(private), signature=signature)


def logged_heads(lines: list[str]) -> tuple[list[Head], dict[int, list[list[Any]]]]:
    """The log's head after each ruling (the engine's), and the digest's input of each (the
    export's rows up to it), held to each other."""
    header, rows, _ = read_export(lines)
    streams: dict[UUID, list[StoredEvent]] = {}
    for row in rows:
        streams.setdefault(UUID(str(row.originator_id)), []).append(row)
    campaign = UUID(header["campaign_id"])
    parsed = [json.loads(line) for line in lines[1:]]
    made = [
        r for r in parsed if r["stream"] == str(campaign) and r["topic"].endswith(":RulingMade")
    ]
    found = heads_at(HeldRows(streams), campaign, header["name"], [r["version"] for r in made])
    heads, inputs = [], {}
    for row in made:
        head = found[row["version"]]
        assert isinstance(head, Head)
        listed = sorted(
            [[r["stream"], r["version"], r["event"]["chain"]] for r in _until(parsed, row)]
        )
        assert hashlib.sha256(canonical_json(listed)).hexdigest() == head.digest
        heads.append(head)
        inputs[head.version] = listed
    return heads, inputs


def _until(parsed: list[dict[str, Any]], made: dict[str, Any]) -> list[dict[str, Any]]:
    """Each stream's last row up to ``made``'s ruling (rows are written ruling by ruling)."""
    last: dict[str, dict[str, Any]] = {}
    for row in parsed[: parsed.index(made) + 1]:
        if row["stream"] != "4a9a64e6-57b2-5dc2-acda-fb4ca6f53d53":
            last[row["stream"]] = row
    return list(last.values())


def witnessed(lines: list[str]) -> tuple[list[Statement], dict[int, list[list[Any]]]]:
    heads, inputs = logged_heads(lines)
    statements = [signed(h, SAW.format(h.ruling), "ana", "the table page") for h in heads]
    for head in heads:
        if head.session is not None and head.ruling == _sealed_at(heads, head.session):
            seen = "the Discord channel 1100000000000000001"
            statements.append(Statement(head=head, at=SAW.format(head.ruling), by=APP, seen=seen))
    other = fixed("campaign-log vectors another Tanner").hex()
    forged = attrs.evolve(heads[12], digest=hashlib.sha256(other.encode()).hexdigest())
    statements.append(signed(forged, "2026-11-29T22:00:00Z", "bo", "campaign thread"))
    return statements, inputs


def _sealed_at(heads: list[Head], session: int) -> int:
    return min(h.ruling for h in heads if h.session == session)


def values(lines: list[str]) -> dict[str, Any]:
    statements, inputs = witnessed(lines)
    text = "".join(f"{s.line()}\n" for s in statements)
    checked = verify_witnessed(lines, statements).witnesses
    assert checked.fork is not None
    return {
        "about": (
            f"Every value a checker of docs/vectors/{STATEMENTS} against docs/vectors/{EXPORT} "
            "computes, as docs/format.md's 'Witness statements' says; written by `python -m "
            "tests.vectors.witness_build`, recomputed from the page alone by "
            "tests/vectors/test_witness_vectors.py."
        ),
        "statements": [
            {
                "line": number,
                "ruling": s.head.ruling,
                "version": s.head.version,
                "heads": inputs[s.head.version],
                "digest_input": canonical_json(inputs[s.head.version]).decode(),
                "digest": s.head.digest,
                "text": s.text().decode(),
                "text_hex": s.text().hex(),
                "signed_by": s.key,
                "signature": s.signature,
                "holds": s.holds(),
            }
            for number, s in enumerate(statements, start=1)
        ],
        "fork": {
            "line": statements.index(checked.fork.statement) + 1,
            "problem": checked.fork.problem,
        },
        "file": text,
    }


def written() -> Iterator[tuple[str, str]]:
    lines = (FOLDER / EXPORT).read_text(encoding="utf-8").splitlines()
    found = values(lines)
    yield STATEMENTS, found.pop("file")
    yield VALUES, json.dumps(found, ensure_ascii=False, indent=1) + "\n"


def main() -> int:
    for name, text in written():
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(f"wrote {FOLDER / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
