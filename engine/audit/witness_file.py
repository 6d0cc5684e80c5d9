"""What a member's machine witnessed, kept beside their key (``player-key.pem.witness.jsonl``,
as ``engine.dice.player_keys.sealed_journal`` keeps the rolls it sealed): each head its
`verify-dice` and `thread` were shown, signed with the key, and the statements it was given
(another member's file, the dice page's, the app's post in a Discord channel). `campaign witness`
lists, exports and imports them; `verify --witness` and `verify-dice --witness` check a log
against them."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from engine.audit.witness import Head, Statement, WitnessUnreadable, read_statements
from engine.dice.player_keys import sign_message
from engine.write import clock

Seen = tuple[str, int, str, str, str, str]  # what makes two statements one: see ``_same``


def witness_file(key: Path) -> Path:
    """Where the statements are kept: beside the key file."""
    return key.with_name(key.name + ".witness.jsonl")


def witness_stamp() -> str:
    """Now, as a statement writes it: UTC, to the second."""
    return clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")


def witness(key: Path, head: Head, *, by: str, seen: str) -> Statement:
    """Sign ``head`` as ``by`` saw it now in ``seen`` with the key in ``key``, and keep it
    (unless this member's statement of this very head is kept already)."""
    at = witness_stamp()
    unsigned = Statement(head=head, at=at, by=by, seen=seen)
    public, signature = sign_message(key, unsigned.text())
    statement = Statement(head=head, at=at, by=by, seen=seen, key=public, signature=signature)
    keep(key, [statement])
    return statement


def kept(key: Path) -> list[Statement]:
    """The statements kept beside ``key``, oldest first (a line cut short by a crash skipped:
    what it held was never shown)."""
    path = witness_file(key)
    if not path.exists():
        return []
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            found += read_statements([line], str(path))
        except WitnessUnreadable:
            continue
    return found


def keep(key: Path, statements: Iterable[Statement]) -> list[Statement]:
    """Add ``statements`` to those kept beside ``key``; those added (one already kept, the same
    head by the same member with the same key, is not added again)."""
    known = {_same(s) for s in kept(key)}
    added = []
    for statement in statements:
        if _same(statement) not in known:
            known.add(_same(statement))
            added.append(statement)
    if added:
        path = witness_file(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(descriptor, "a", encoding="utf-8") as handle:
            handle.writelines(s.line() + "\n" for s in added)
    return added


def _same(statement: Statement) -> Seen:
    head = statement.head
    return (head.campaign, head.version, head.link, head.digest, statement.by, statement.key)
