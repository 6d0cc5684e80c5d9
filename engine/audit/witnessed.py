"""The log against what its witnesses saw: the head of a campaign's log at any version of its
campaign stream (``HeadWalk``, fed the stream's headers and seals in order), and the check that
the log still holds every head a witness statement holds (``check_witnesses``). A log rewritten
and resealed verifies against itself; it no longer holds a head witnessed after the first ruling
it changed, and the first such head is its fork.

What is read: the campaign stream's headers and seals (picked by topic, a page at a time), one
row of another stream for each head a digest needs (its link), and the keys put on seats. What
is held: each stream's head at the point walked to, and the statements."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from uuid import UUID

from attrs import define, field, frozen
from eventsourcing.persistence import StoredEvent

from engine.audit.chain import KEY, MADE, SEALED, Withheld, as_int, heads_digest, stored_body
from engine.audit.rows import HeldRows, Rows, StoreRows
from engine.audit.witness import Head, Statement
from engine.store.chain import stored_link
from engine.store.records import DIRECTORY_ID as DIRECTORY

WALKED = (MADE, SEALED)
HOLDS, UNSIGNED, FORGED = "holds", "unsigned", "does not hold"


def link_at(rows: Rows, stream: UUID, version: int) -> str:
    """The stored link of ``stream`` at ``version`` ("" when there is no such row): one row read
    by its key from a store, looked up in rows held in memory."""
    found: Sequence[StoredEvent] = ()
    if isinstance(rows, StoreRows):
        found = rows.recorder.select_events(stream, gt=version - 1, lte=version, limit=1)
    elif isinstance(rows, HeldRows):
        held = rows.rows.get(stream, ())
        at = version - 1
        if not (0 <= at < len(held) and held[at].originator_version == version):
            at = bisect_left([r.originator_version for r in held], version)
        found = held[at : at + 1]
    else:
        found = next(iter(rows.pages(stream, gt=version - 1)), ())[:1]
    if not found or found[0].originator_version != version:
        return ""
    return stored_link(found[0].state)


@define
class Links:
    """Each stream's link at the version last asked for (a head moves forward as the log is
    walked, so one per stream is kept)."""

    rows: Rows
    kept: dict[UUID, tuple[int, str]] = field(factory=dict)

    def at(self, stream: UUID, version: int) -> str:
        known = self.kept.get(stream)
        if known is None or known[0] != version:
            known = self.kept[stream] = (version, link_at(self.rows, stream, version))
        return known[1]


@define
class HeadWalk:
    """A campaign stream's headers and seals fed in version order (``feed``): each other
    stream's head there (the last version the rulings so far wrote to it), the last seal, and
    the header read last."""

    campaign: UUID
    name: str
    ends: dict[UUID, int] = field(factory=dict)
    seals: list[tuple[int, int, str]] = field(factory=list)  # (version, session, digest)
    version: int = 0  # the last header's version
    ruling: int = 0
    _state: bytes = b""  # the last header's stored bytes, its link read when asked for
    _uuids: dict[str, UUID | None] = field(factory=dict)  # each stream's text, read once

    @property
    def link(self) -> str:
        """The last header's link."""
        return stored_link(self._state) if self._state else ""

    def feed(self, row: StoredEvent) -> bool:
        """Read one header or seal; whether it was a header that reads (or, in a member's
        copy, a withheld ruling's header: numbered after the last, its streams those of the
        rows recorded with it)."""
        if isinstance(row, Withheld):
            if row.topic != MADE:
                return False
            for spanned, _, last in row.touched:
                if spanned not in (self.campaign, DIRECTORY) and last > self.ends.get(spanned, 0):
                    self.ends[spanned] = last
            self.version, self.ruling, self._state = (
                row.originator_version,
                self.ruling + 1,
                row.state,
            )
            return True
        body = stored_body(row)
        event = body.get("event") if isinstance(body, dict) else None
        if not isinstance(event, dict):
            return False
        if row.topic == SEALED:
            number, digest = as_int(event.get("number")), event.get("digest")
            if number is not None and isinstance(digest, str):
                self.seals.append((row.originator_version, number, digest))
            return False
        number = as_int(event.get("number"))
        touched = event.get("touched")
        if row.topic != MADE or number is None or not isinstance(touched, list):
            return False
        ends, uuids = self.ends, self._uuids
        for span in touched:
            try:
                named, last = span["stream"], int(span["last"])
                stream = uuids[named] if named in uuids else self._stream(named)
            except (KeyError, TypeError, ValueError):
                continue  # verify names it
            if stream is not None and last > ends.get(stream, 0):
                ends[stream] = last
        self.version, self.ruling, self._state = row.originator_version, number, row.state
        return True

    def _stream(self, named: str) -> UUID | None:
        """The stream a header names (None: the campaign's own, or the directory)."""
        stream: UUID | None = UUID(str(named))
        if stream in (self.campaign, DIRECTORY):
            stream = None
        self._uuids[named] = stream
        return stream

    def head(self, links: Links) -> Head:
        """The head at the header read last."""
        return make_head(self, links, self.ends, (self.version, self.link, self.ruling))


def make_head(
    walk: HeadWalk, links: Links, ends: dict[UUID, int], at: tuple[int, str, int]
) -> Head:
    """The head at the header ``at`` (its version, link and ruling) when the other streams'
    heads are ``ends``, with the last seal of ``walk`` before it."""
    version, link, ruling = at
    heads = {s: (v, links.at(s, v)) for s, v in ends.items() if v > 0}
    heads[walk.campaign] = (version, link)
    sealed = [s for s in walk.seals if s[0] < version]
    session, seal = (sealed[-1][1], sealed[-1][2]) if sealed else (None, "")
    return Head(
        campaign=str(walk.campaign),
        name=walk.name,
        ruling=ruling,
        version=version,
        link=link,
        digest=heads_digest(heads),
        session=session,
        seal=seal,
    )


def heads_at(
    rows: Rows, campaign: UUID, name: str, versions: Iterable[int]
) -> dict[int, Head | str]:
    """The log's head at each of ``versions`` of the campaign stream, or why it has none there
    (the version is past the stream's end, or holds no ruling's header)."""
    wanted = sorted(set(versions))
    found: dict[int, Head | str] = {}
    if not wanted:
        return found
    end = rows.end(campaign)
    walk, links = HeadWalk(campaign, name), Links(rows)
    pending = list(reversed(wanted))  # the next version wanted last
    for row in rows.picked(campaign, WALKED, lte=wanted[-1]):
        version = row.originator_version
        while pending and pending[-1] < version:
            found[pending.pop()] = NO_HEADER
        made = walk.feed(row)
        if pending and pending[-1] == version:
            found[pending.pop()] = walk.head(links) if made else NO_HEADER
    for version in pending:
        past = f"the log ends before it, at ruling {walk.ruling} (version {end})"
        found[version] = past if version > end else NO_HEADER
    return found


NO_HEADER = "that version of the campaign's stream holds no ruling's header"


@frozen
class Witnessed:
    """One statement checked: whether its signature holds (``HOLDS``, ``UNSIGNED``, ``FORGED``),
    whether its key is one the log put on its member's seat, and why the log does not hold the
    head it holds ("" when it does)."""

    statement: Statement
    signature: str
    seated: bool
    problem: str

    @property
    def fork(self) -> bool:
        """A head the log no longer holds, by a statement that is evidence (not one whose
        signature does not hold)."""
        return bool(self.problem) and self.signature != FORGED


@frozen
class WitnessCheck:
    """Every statement of the campaign checked, in the order of the heads they hold; how many
    were of other campaigns (not checked)."""

    checked: tuple[Witnessed, ...]
    others: int

    @property
    def fork(self) -> Witnessed | None:
        """The first head witnessed that the log no longer holds."""
        return next((w for w in self.checked if w.fork), None)

    @property
    def holds(self) -> bool:
        return self.fork is None


def check_witnesses(
    rows: Rows, campaign: UUID, name: str, statements: Iterable[Statement]
) -> WitnessCheck:
    """Hold the log (``rows``) to every statement of ``campaign``: the head it holds must be
    the log's at its version (the campaign stream's link there, the digest over every stream's
    head there, the last seal before it)."""
    mine: list[Statement] = []
    others = 0
    for statement in statements:
        if statement.head.campaign == str(campaign):
            mine.append(statement)
        else:
            others += 1
    mine.sort(key=lambda s: (s.head.version, s.at, s.by))
    logged = heads_at(rows, campaign, name, (s.head.version for s in mine))
    seated_keys = seats(rows, campaign) if any(s.key for s in mine) else set()
    checked = []
    for statement in mine:
        signature = _signature(statement)
        seated = (statement.by, statement.key.lower()) in seated_keys
        problem = _problem(statement, logged[statement.head.version])
        checked.append(Witnessed(statement, signature, seated, problem))
    return WitnessCheck(tuple(checked), others)


def _signature(statement: Statement) -> str:
    if not statement.key:
        return UNSIGNED
    return HOLDS if statement.holds() else FORGED


def seats(rows: Rows, campaign: UUID) -> set[tuple[str, str]]:
    """Every (member, key) the log put on a seat."""
    found = set()
    for row in rows.picked(campaign, (KEY,)):
        body = stored_body(row)
        event = body.get("event") if isinstance(body, dict) else None
        if isinstance(event, dict):
            found.add((str(event.get("name")), str(event.get("key", "")).lower()))
    return found


def _problem(statement: Statement, logged: Head | str) -> str:
    """Why the log does not hold ``statement``'s head ("": it does)."""
    seen = statement.head
    if isinstance(logged, str):
        return f"the log does not hold version {seen.version}: {logged}"
    if (logged.ruling, logged.link) != (seen.ruling, seen.link):
        return (
            f"the campaign's stream at version {seen.version} is not the one they saw (ruling "
            f"{logged.ruling}, link {logged.link[:16]}): it was rewritten at or before ruling "
            f"{min(seen.ruling, logged.ruling)}"
        )
    if logged.digest != seen.digest:
        return (
            f"the streams' heads at ruling {seen.ruling} are not those they saw (digest "
            f"{logged.digest[:16]}): a stream was rewritten at or before ruling {seen.ruling}"
        )
    if (logged.session, logged.seal) != (seen.session, seen.seal):
        return (
            f"the last seal before ruling {seen.ruling} is not the one they saw (session "
            f"{logged.session}, {logged.seal[:16] or 'none'})"
        )
    return ""
