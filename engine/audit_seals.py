"""Session seals, as ``verify`` checks them: each seal's heads and digest, the chain of seals,
the seal every ended session has; and the streams rewritten since a seal (or a snapshot)
recorded their links."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from engine.audit_chain import as_int, link_at
from engine.audit_report import Break, Finding, Seal
from engine.chain import seal

if TYPE_CHECKING:
    from engine.audit_ledger import RulingLedger


def check_seal(event: dict[str, Any], rows: Mapping[UUID, Sequence[StoredEvent]]) -> Seal:
    """A seal holds when every head it lists is the stored one and its digest is over them and
    the seal before it (``previous``)."""
    heads: dict[UUID, tuple[int, str]] = {}
    problem = ""
    number = event.get("number", 0)
    digest = str(event.get("digest", ""))
    try:
        for head in event.get("heads", []):
            stream, version, chain = UUID(head["stream"]), int(head["version"]), head["chain"]
            heads[stream] = (version, chain)
            if not problem and link_at(rows.get(stream, ()), version) != chain:
                problem = f"stream {stream} version {version} is not the event it sealed"
        expected = seal(heads, str(event.get("previous", "")))
    except (KeyError, TypeError, ValueError, AttributeError):
        return Seal(number, digest, False, "the seal does not read")
    if not problem and expected != digest:
        problem = "its digest is not over the heads it lists"
    return Seal(number if isinstance(number, int) else 0, digest, not problem, problem)


def seal_chain(ledger: RulingLedger) -> Iterator[Finding]:
    """Each seal names the digest of the seal before it (logs written before seals were
    chained name none, until the first that does)."""
    prior: str | None = None
    chained = False
    owner = ledger.owner(ledger.campaign_id)
    for version, event in ledger.sealed:
        number = as_int(event.get("number"))
        previous = str(event.get("previous") or "")
        if prior is None and previous:
            problem = (
                f"session {number}'s seal follows a seal ({previous[:16]}) that is not in "
                "the log: an earlier session's end was removed"
            )
            yield Finding("seal", problem, ledger.campaign_id, version, owner(version), number)
        elif prior is not None and previous != prior and (previous or chained):
            problem = (
                f"session {number}'s seal does not follow the seal before it: it names "
                f"{previous[:16] or 'none'}, the log holds {prior[:16]}"
            )
            yield Finding("seal", problem, ledger.campaign_id, version, owner(version), number)
        chained = chained or bool(previous)
        prior = str(event.get("digest", ""))


def missing_seals(ledger: RulingLedger) -> Iterator[Finding]:
    """A session that ended, or that a later session followed, has a seal."""
    sealed = {event.get("number") for _, event in ledger.sealed}
    ended = {n for n, _ in ledger.ended if isinstance(n, int)}
    started = [n for n in ledger.started if isinstance(n, int)]
    latest = max(started, default=0)
    for number in sorted((ended | {n for n in started if n < latest}) - sealed):
        problem = (
            f"session {number} ended but its seal is missing"
            if number in ended
            else f"session {number} has no end and no seal, yet session {latest} started"
        )
        yield Finding("seal", problem, ledger.campaign_id, session=number)


def rewritten(
    rows: Mapping[UUID, Sequence[StoredEvent]],
    ledger: RulingLedger,
    breaks: Sequence[Break],
    extra: Mapping[UUID, Sequence[tuple[int, str, str]]],
) -> list[Finding]:
    """A stream whose chain holds but whose links are no longer those a seal (or a snapshot)
    recorded was rewritten and chained again: between the last recorded link that still holds
    and the first that does not. (A recorded link that fails below one that holds is that
    record's fault, not the stream's: a chain rewritten at a version changes every link after.)"""
    broken = {b.stream for b in breaks}
    ends = {s: found[-1].originator_version if found else 0 for s, found in rows.items()}
    recorded: dict[UUID, list[tuple[int, str, str]]] = {  # a snapshot past the end: its finding
        s: [a for a in listed if a[0] <= ends.get(s, 0)] for s, listed in extra.items()
    }
    for _, event in ledger.sealed:
        for head in event.get("heads") or []:
            try:
                stream, version = UUID(str(head["stream"])), int(head["version"])
            except (KeyError, TypeError, ValueError):
                continue
            source = f"session {event.get('number')}'s seal"
            recorded.setdefault(stream, []).append((version, str(head.get("chain")), source))
    findings = []
    for stream, listed in recorded.items():
        if stream in broken or stream not in rows:
            continue
        found = rows[stream]
        checked = [(v, link_at(found, v) == chain, source) for v, chain, source in sorted(listed)]
        held = max((v for v, ok, _ in checked if ok), default=0)
        failed = next(((v, source) for v, ok, source in checked if not ok and v > held), None)
        if failed is None:
            continue
        version, source = failed
        owner = ledger.owner(stream)
        first, last = owner(held + 1), owner(version)
        named = (
            ""
            if first is None
            else f" (ruling {first})"
            if first == last or last is None
            else f" (rulings {first}..{last})"
        )
        problem = (
            f"versions {held + 1}..{version}{named} were rewritten or removed and the chain "
            f"computed again: version {version} no longer has the link {source} recorded"
        )
        findings.append(Finding("rewritten", problem, stream, held + 1, first))
    return findings
