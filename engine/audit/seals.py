"""Session seals, as ``verify`` checks them: each seal's heads and digest, the chain of seals,
the seal every ended session has; and the streams rewritten since a seal (or a snapshot)
recorded their links (``Anchors``, fed as a stream is walked)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any
from uuid import UUID

from engine.audit.chain import as_int
from engine.audit.report import Finding, Seal
from engine.store.chain import seal

if TYPE_CHECKING:
    from engine.audit.ledger import RulingLedger

Anchor = tuple[int, str, str]  # a recorded link: version, link, who recorded it


def sealed_links(ledger: RulingLedger) -> dict[UUID, set[int]]:
    """The versions whose links the seals name, by stream (taken as the streams are walked)."""
    wanted: dict[UUID, set[int]] = {}
    for _, event in ledger.sealed:
        try:
            for head in event.get("heads", []):
                wanted.setdefault(UUID(head["stream"]), set()).add(int(head["version"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return wanted


def check_seal(event: dict[str, Any], links: Mapping[tuple[UUID, int], str]) -> Seal:
    """A seal holds when every head it lists is the stored one (``links``: the stored link at
    each version a seal names) and its digest is over them and the seal before it
    (``previous``)."""
    heads: dict[UUID, tuple[int, str]] = {}
    problem = ""
    number = event.get("number", 0)
    digest = str(event.get("digest", ""))
    try:
        for head in event.get("heads", []):
            stream, version, chain = UUID(head["stream"]), int(head["version"]), head["chain"]
            heads[stream] = (version, chain)
            if not problem and links.get((stream, version), "") != chain:
                problem = f"stream {stream} version {version} is not the event it sealed"
        expected = seal(heads, str(event.get("previous", "")))
    except (KeyError, TypeError, ValueError, AttributeError):
        return Seal(number, digest, False, "the seal does not read")
    if not problem and expected != digest:
        problem = "its digest is not over the heads it lists"
    return Seal(number if isinstance(number, int) else 0, digest, not problem, problem)


def seal_chain(ledger: RulingLedger) -> Iterator[Finding]:
    """Each seal's ``previous`` is the digest of the seal before it in the log, and the first
    seal names none. A seal whose ``previous`` was blanked names none either, and its digest
    recomputed over its heads alone still holds: only the seal before it shows it. (Version
    0.1.0 wrote seals that name none; a log of its with two sealed sessions shows the same.)"""
    prior: str | None = None
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
        elif prior is not None and previous != prior:
            names = f"names {previous[:16]}" if previous else "names no seal before it"
            problem = (
                f"session {number}'s seal does not follow the seal before it: it {names}, "
                f"the log holds {prior[:16]}"
            )
            yield Finding("seal", problem, ledger.campaign_id, version, owner(version), number)
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


def seal_anchors(ledger: RulingLedger) -> dict[UUID, list[Anchor]]:
    """The links the seals recorded, by stream, in version order."""
    recorded: dict[UUID, list[Anchor]] = {}
    for _, event in ledger.sealed:
        for head in event.get("heads") or []:
            try:
                stream, version = UUID(str(head["stream"])), int(head["version"])
            except (KeyError, TypeError, ValueError):
                continue
            source = f"session {event.get('number')}'s seal"
            recorded.setdefault(stream, []).append((version, str(head.get("chain")), source))
    return {stream: sorted(listed) for stream, listed in recorded.items()}


class Anchors:
    """A stream whose chain holds but whose links are no longer those a seal (or a snapshot)
    recorded was rewritten and chained again: between the last recorded link that still holds
    and the first that does not. (A recorded link that fails below one that holds is that
    record's fault, not the stream's: a chain rewritten at a version changes every link after.)

    Fed each version's recorded links with the stored link there, in version order; keeps only
    the last that held and the first that failed after it."""

    def __init__(self) -> None:
        self.held = 0
        self.failed: tuple[int, str, str] | None = None  # version, link, who recorded it
        self.fed = False

    def feed(self, version: int, recorded: list[Anchor], stored: str) -> None:
        """The links recorded at one ``version`` and the one ``stored`` there ("": none)."""
        self.fed = self.fed or bool(recorded)
        if any(chain == stored for _, chain, _ in recorded):
            self.held = max(self.held, version)
            if self.failed is not None and self.failed[0] <= self.held:
                self.failed = None
            return
        if recorded and self.failed is None and version > self.held:
            self.failed = min(recorded)

    def finding(self, stream: UUID, ledger: RulingLedger) -> Finding | None:
        if self.failed is None:
            return None
        version, _, source = self.failed
        held = self.held
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
        return Finding("rewritten", problem, stream, held + 1, first)
