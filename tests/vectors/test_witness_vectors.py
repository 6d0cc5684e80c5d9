"""docs/format.md's "Witness statements", its vectors and the code say the same: every value of
docs/vectors/witness.json (each head after a ruling of the vectors' campaign, the heads its
digest is over, the bytes a statement signs, its signature) is recomputed by a second
implementation written from the page alone (``tests.vectors.second_witness``), which finds the
same fork in docs/vectors/witness.jsonl as the engine and `campaign verify-dice --witness`; and
the engine, run again, writes both files byte for byte."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cli.main import campaign
from engine import file_lines, read_statements, verify_witnessed
from tests.vectors import second_witness as second
from tests.vectors.witness_build import STATEMENTS, VALUES, written

VECTORS = Path(__file__).parents[2] / "docs" / "vectors"


@cache
def text(name: str) -> str:
    return (VECTORS / name).read_text(encoding="utf-8")


@cache
def vectors() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(text(VALUES))
    return loaded


def test_the_second_implementation_gives_every_value() -> None:
    """Each statement's head is the log's at its version by the page's rules (the heads its
    digest is over, the digest), and the bytes it signs are the page's twelve lines."""
    logged = second.heads(text("campaign.jsonl"))
    statements = second.statements(text(STATEMENTS))
    assert len(vectors()["statements"]) == len(statements) > 20
    for value, s in zip(vectors()["statements"], statements, strict=True):
        text_signed = second.statement_text(s)
        assert (value["text"].encode(), value["text_hex"]) == (text_signed, text_signed.hex())
        assert value["holds"] == second.signature_holds(s["key"], text_signed, s["signature"])
        head = logged[value["version"]]
        assert value["heads"] == head.heads
        assert value["digest_input"].encode() == second.canonical(head.heads)
        assert second.digest_of(head.heads) == head.digest
        if value["line"] != vectors()["fork"]["line"]:
            assert (head.digest, head.ruling) == (s["digest"], s["ruling"])


def test_both_find_the_same_fork() -> None:
    checked = second.check(text("campaign.jsonl"), text(STATEMENTS))
    forked = second.fork(checked)
    assert forked is not None
    statements = second.statements(text(STATEMENTS))
    assert vectors()["fork"]["line"] == statements.index(forked) + 1
    assert ["the streams' heads"] == [why for _, _, why in checked if why]
    unsigned = [s for s, holds, _ in checked if not s["key"]]
    assert 2 == len(unsigned)  # the app's posts of the two seals
    with (VECTORS / "campaign.jsonl").open("rb") as handle:
        engine = verify_witnessed(
            file_lines(handle), read_statements(text(STATEMENTS).splitlines(), "vectors")
        )
    assert engine.witnesses.fork is not None
    assert forked["signature"] == engine.witnesses.fork.statement.signature
    assert vectors()["fork"]["problem"] == engine.witnesses.fork.problem


def test_verify_dice_names_the_fork_of_the_witness_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        campaign,
        [
            "verify-dice",
            str(VECTORS / "campaign.jsonl"),
            "--witness",
            str(VECTORS / STATEMENTS),
        ],
        env={"CAMPAIGN_KEY": str(tmp_path / "none.pem")},  # no key: nothing kept
    )
    assert 1 == result.exit_code, result.output
    assert "FORK: ruling 13 (version 27), seen by bo at 2026-11-29T22:00:00Z" in result.output


def test_the_engine_writes_the_witness_vectors_byte_for_byte() -> None:
    """Run `python -m tests.vectors.witness_build` after a deliberate change, and review."""
    for name, written_now in written():
        assert text(name) == written_now, name
