"""`campaign verify`'s report and what it is made of: the first break in a stream's chain,
each session's seal and committed dice, and every other finding."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.plain import Plain


@frozen
class Break(Plain):
    """The first place a stream's chain does not hold."""

    stream: UUID
    version: int
    ruling: int | None
    problem: str


@frozen
class Seal(Plain):
    session: int
    digest: str
    intact: bool
    problem: str = ""  # why it is broken: a head that is not the stored one, or the digest


@frozen
class Finding(Plain):
    """Something besides a broken chain that does not hold, named by where it is as far as that
    is known. ``kind``: ``ruling`` (headers and the versions they claim), ``orphan`` (a row of
    no ruling), ``seal`` (a missing seal or a break in their chain), ``dice``, ``snapshot``,
    ``replay`` (a history that does not decode or apply), ``rewritten`` (rows whose links are
    no longer those a seal or snapshot recorded), ``directory``, ``unreadable`` (a row of a
    stream of no campaign's that does not decode), ``readmodel`` (a stored read model's
    document that is not what the log gives), ``policy`` (a ruling the table's policy as it
    stood then refuses its member: ``engine.audit.policy``)."""

    kind: str
    problem: str
    stream: UUID | None = None
    version: int | None = None
    ruling: int | None = None
    session: int | None = None


@frozen
class IdleRoll(Plain):
    """A committed roll nobody sealed that changed nothing (``why``: undone, hidden and never
    revealed, or a free roll with no consequence): its ruling, its lane (a member's, "hidden",
    or "" for protocol 1's one counter) and who made it."""

    ruling: int
    lane: str
    by: str
    why: str


@frozen
class DiceCheck(Plain):
    """A session's committed dice: how many rulings rolled them and whether they check out."""

    session: int
    rulings: int
    revealed: bool
    problems: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    seed_hash: str = ""  # the commitment the GM published when the session started
    entropy: tuple[tuple[str, str], ...] = ()  # (who, words) the players added after it
    counted: tuple[tuple[str, str, str], ...] = ()  # protocol 2: (who, words, key) signed
    protocol: int = 1
    sealed: tuple[tuple[int, str, str], ...] = ()  # protocol 3: (ruling, member, seal)
    # committed rolls nobody sealed: (ruling, whose lane or "hidden", who made it). The GM's
    # machine, which knows the seed, could foresee each of them.
    foreseeable: tuple[tuple[int, str, str], ...] = ()
    seats: tuple[tuple[str, str], ...] = ()  # each member's key on their seat at the last row
    idle: tuple[IdleRoll, ...] = ()  # the foreseeable rolls that changed nothing
    # the members whose seat's key (at the last row) was put there at the GM's keyboard, not
    # from their own signed-in client: from protocol 4 the entropy it signs is not counted
    keyboard: tuple[str, ...] = ()


@frozen
class Report(Plain):
    streams: int
    events: int
    seals: tuple[Seal, ...]
    breaks: tuple[Break, ...]
    dice: tuple[DiceCheck, ...] = ()
    digest: str = ""  # over every stream's head: a log and its copy give the same digest
    findings: tuple[Finding, ...] = ()
    replayed: int = 0  # streams folded with the rules (``verify`` on a store; not on an import)
    snapshots: int = 0  # stored snapshots compared with the replay
    models: tuple[str, ...] = ()  # the stored read models computed again and compared

    @property
    def intact(self) -> bool:
        return (
            not self.breaks
            and all(s.intact for s in self.seals)
            and all(not d.problems for d in self.dice)
            and not self.findings
        )
