"""A witness statement (docs/format.md, "Witness statements"): the twelve lines signed, the one
JSON line a witness file holds, and what a reader refuses."""

from __future__ import annotations

import json

import attrs
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.errors import DomainError
from engine import Head, Statement, read_statements

HEAD = Head(
    campaign="54f31a35-b038-4995-8747-bb6e489be269",
    name="Vector Lab",
    ruling=12,
    version=30,
    link="ab" * 32,
    digest="cd" * 32,
    session=1,
    seal="ef" * 32,
)


def signed(statement: Statement) -> Statement:
    private = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    key = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    return attrs.evolve(statement, key=key, signature=private.sign(statement.text()).hex())


def test_the_bytes_signed_are_twelve_lines() -> None:
    """The statement's first line, the campaign's id and name, the ruling, the version and link
    of the campaign stream's head, the digest, the last seal's session and digest, when, who
    and where: joined by a line feed, none at the end."""
    statement = Statement(head=HEAD, at="2026-11-29T20:00:00Z", by="ana", seen="the table page")
    expected = (
        "campaign-log witness 1\n54f31a35-b038-4995-8747-bb6e489be269\nVector Lab\n12\n30\n"
        f"{'ab' * 32}\n{'cd' * 32}\n1\n{'ef' * 32}\n2026-11-29T20:00:00Z\nana\nthe table page"
    ).encode()
    assert expected == statement.text()
    before = attrs.evolve(statement, head=attrs.evolve(HEAD, session=None, seal=""))
    assert b"\n\n\n2026-11-29T20:00:00Z" in before.text()  # no seal yet: two empty lines


def test_a_line_reads_back_as_the_statement_and_its_signature_holds() -> None:
    statement = signed(Statement(head=HEAD, at="2026-11-29T20:00:00Z", by="ana", seen="thread"))
    (read,) = read_statements([statement.line()], "w.jsonl")
    assert statement == read
    assert read.holds()
    assert not attrs.evolve(read, by="bo").holds()
    assert list(json.loads(statement.line())) == sorted(json.loads(statement.line()))


def test_a_message_pasted_whole_reads() -> None:
    """Lines that are not JSON objects (a Discord message's prose, its code fences) are
    skipped."""
    line = Statement(head=HEAD, at="2026-11-29T20:00:00Z", by="campaign-log app", seen="x").line()
    message = f"**Vector Lab: session 1 sealed.**\n{{not json\n```json\n{line}\n```\n"
    (read,) = read_statements(message.splitlines(), "pasted")
    assert not read.key
    assert not read.holds()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"statement": "campaign-log witness 2"}, 'no "statement"'),
        ({"link": "AB" * 32}, '"link" is not 64 lowercase hex digits'),
        ({"ruling": -1}, '"ruling" is not a whole number'),
        ({"ruling": True}, '"ruling" is not a whole number'),
        ({"campaign": "54F31A35-B038-4995-8747-BB6E489BE269"}, '"campaign" is not a UUID'),
        ({"at": "2026-11-29 20:00"}, '"at" is not a UTC time'),
        ({"by": "ana\nbo"}, '"by" is over 200 characters, or holds a line break'),
        ({"seal": ""}, "a seal's session without its digest"),
        ({"signature": ""}, "a key without a signature"),
        ({"key": "ab"}, "a key is 64 hex digits"),
    ],
)
def test_a_line_that_is_not_a_statement_is_refused_naming_it(
    change: dict[str, object], why: str
) -> None:
    base = json.loads(
        signed(Statement(head=HEAD, at="2026-11-29T20:00:00Z", by="a", seen="b")).line()
    )
    with pytest.raises(DomainError) as refused:
        read_statements(["", json.dumps({**base, **change})], "w.jsonl")
    assert "WITNESS_UNREADABLE" == refused.value.code
    assert "w.jsonl line 2" in refused.value.message
    assert why in refused.value.message
