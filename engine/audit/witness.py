"""A witness statement: what a member was shown of a campaign's log (the head of its campaign
stream, the digest over every stream's head at that point, the last seal before it), when, by
whom and where, signed with the member's own Ed25519 key. Heads leave the GM's machine as they
are made (the pages, a member's `verify-dice` and `thread`, a Discord channel); a log that no
longer holds a head someone witnessed was rewritten (``engine.audit.witnessed`` checks it).

The bytes signed and the file's lines are specified in docs/format.md ("Witness statements").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from attrs import frozen

from domain.errors import DomainError, ErrorKind
from domain.signatures import KEY_HEX, SIGNATURE_HEX, signature_holds
from engine.store.mapper import canonical_json

WITNESS = "campaign-log witness 1"  # the statement's first line, and its "statement" key
AT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")  # UTC, to the second
HEX64 = re.compile(r"^[0-9a-f]{64}$")
MAX_TEXT = 200  # a name or a place, in characters
MAX_LINE = 4096  # a statement's line, in bytes (a few hundred in practice)
APP = "campaign-log app"  # who posts a seal to a Discord channel (unsigned: the app has no key)


class WitnessUnreadable(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{source} line {line} is not a witness statement ({why}): a witness file holds the lines "
        "`campaign witness export` or the dice page write"
    )


@frozen(kw_only=True)
class Head:
    """A campaign's log at one point, as a witness is shown it: the head of its campaign stream
    (``version`` and its ``link``: the header of ruling ``ruling``), the export's digest over
    every stream's head there (``digest``) and the last seal recorded by then (``session`` and
    its digest ``seal``; None and "" before the first)."""

    campaign: str
    name: str
    ruling: int
    version: int
    link: str
    digest: str
    session: int | None
    seal: str


@frozen(kw_only=True)
class Statement:
    """One head as ``by`` saw it at ``at`` in ``seen`` (the table page, the dice page,
    `verify-dice`, `thread`, a Discord channel), signed by ``key`` (hex; "" and no signature:
    unsigned, as the app's post in Discord)."""

    head: Head
    at: str
    by: str
    seen: str
    key: str = ""
    signature: str = ""

    def text(self) -> bytes:
        """The bytes signed (docs/format.md, "Witness statements")."""
        return message(self.head, self.at, self.by, self.seen)

    def holds(self) -> bool:
        """Whether the signature is ``key``'s over ``text()``."""
        return bool(self.key) and signature_holds(self.key, self.text(), self.signature)

    def line(self) -> str:
        """The statement as one line of a witness file: canonical JSON."""
        return canonical_json(as_json(self)).decode()


def message(head: Head, at: str, by: str, seen: str) -> bytes:
    """Twelve lines joined by ``\\n`` (no ``\\n`` at the end), UTF-8: ``campaign-log witness
    1``, the campaign's id and name, the ruling, the version and link of the campaign stream's
    head, the digest, the last seal's session and digest (both empty before the first), when,
    who, where."""
    session = "" if head.session is None else str(head.session)
    lines = (
        WITNESS,
        head.campaign,
        head.name,
        str(head.ruling),
        str(head.version),
        head.link,
        head.digest,
        session,
        head.seal,
        at,
        by,
        seen,
    )
    return "\n".join(lines).encode()


def as_json(statement: Statement) -> dict[str, Any]:
    head = statement.head
    return {
        "statement": WITNESS,
        "campaign": head.campaign,
        "name": head.name,
        "ruling": head.ruling,
        "version": head.version,
        "link": head.link,
        "digest": head.digest,
        "session": head.session,
        "seal": head.seal,
        "at": statement.at,
        "by": statement.by,
        "seen": statement.seen,
        "key": statement.key,
        "signature": statement.signature,
    }


def read_statement(found: Any) -> Statement:
    """The statement a parsed line holds (``ValueError`` saying what is wrong)."""
    if not isinstance(found, dict) or found.get("statement") != WITNESS:
        raise ValueError(f'no "statement": "{WITNESS}"')
    head = Head(
        campaign=_uuid(found, "campaign"),
        name=_text(found, "name"),
        ruling=_whole(found, "ruling"),
        version=_whole(found, "version"),
        link=_hex(found, "link"),
        digest=_hex(found, "digest"),
        session=None if found.get("session") is None else _whole(found, "session"),
        seal=_hex(found, "seal") if found.get("seal") else "",
    )
    if (head.session is None) != (head.seal == ""):
        raise ValueError("a seal's session without its digest, or its digest without it")
    at = _text(found, "at")
    if AT.match(at) is None:
        raise ValueError('"at" is not a UTC time to the second (2026-11-29T19:30:00Z)')
    key, signature = found.get("key", ""), found.get("signature", "")
    if not isinstance(key, str) or not isinstance(signature, str):
        raise ValueError('"key" and "signature" are texts')
    if bool(key) != bool(signature):
        raise ValueError("a key without a signature, or a signature without a key")
    if key and (len(key) != KEY_HEX or len(signature) != SIGNATURE_HEX):
        raise ValueError(f"a key is {KEY_HEX} hex digits, a signature {SIGNATURE_HEX}")
    by, seen = _text(found, "by", empty=True), _text(found, "seen")
    return Statement(head=head, at=at, by=by, seen=seen, key=key, signature=signature)


def read_statements(lines: Iterable[str | bytes], source: str) -> list[Statement]:
    """The statements of a witness file (``source`` names it in a refusal). Blank lines and
    lines that are not JSON objects are skipped, so a message pasted whole (the app's post in
    Discord) reads too; an object that is not a statement is refused ``WITNESS_UNREADABLE``."""
    found = []
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE:
            raise WitnessUnreadable(source=source, line=number, why=f"over {MAX_LINE} bytes")
        try:
            text = raw.decode() if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            raise WitnessUnreadable(source=source, line=number, why="not UTF-8") from None
        text = text.strip()
        if not text.startswith("{"):
            continue
        try:
            parsed = json.loads(text)
        except ValueError:
            continue  # a line of prose that opens with a brace
        try:
            found.append(read_statement(parsed))
        except ValueError as error:
            raise WitnessUnreadable(source=source, line=number, why=str(error)) from None
    return found


def _text(found: dict[str, Any], key: str, *, empty: bool = False) -> str:
    value = found.get(key)
    if not isinstance(value, str) or (not value and not empty):
        raise ValueError(f'"{key}" is not a text')
    if len(value) > MAX_TEXT or not value.isprintable():
        raise ValueError(f'"{key}" is over {MAX_TEXT} characters, or holds a line break')
    return value


def _whole(found: dict[str, Any], key: str) -> int:
    value = found.get(key)
    if type(value) is not int or value < 0:
        raise ValueError(f'"{key}" is not a whole number')
    return value


def _hex(found: dict[str, Any], key: str) -> str:
    value = found.get(key)
    if not isinstance(value, str) or HEX64.match(value) is None:
        raise ValueError(f'"{key}" is not 64 lowercase hex digits')
    return value


def _uuid(found: dict[str, Any], key: str) -> str:
    value = _text(found, key)
    try:
        if str(UUID(value)) != value:
            raise ValueError(value)
    except ValueError:
        raise ValueError(f'"{key}" is not a UUID written lowercase with hyphens') from None
    return value
