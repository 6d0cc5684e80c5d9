"""Committed dice, as ``verify`` checks them: each session's commitments, the entropy the
players added, the rolls drawn and the reveal, recomputed from the revealed seed; and the rulings'
headers, which name a counter exactly when they drew committed dice.

The commitments, entropy and reveals (a few rows a session) are read first, so each committed
roll is checked as its ruling's header is read and nothing is kept of it but the counter the next
one should use."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import StoredEvent

from domain.dice import Provenance
from domain.events import CORRECTIONS
from engine.audit_chain import COMMITTED, ENTROPY, MADE, REVEALED, as_int, stored_body
from engine.audit_report import DiceCheck, Finding
from engine.committed_dice import commitment, key, mixed, replay

if TYPE_CHECKING:
    from engine.audit_ledger import RulingLedger

SECRETS = (COMMITTED, ENTROPY, REVEALED)  # the rows read before the rest (``SessionDice.first``)


class _Commitment:
    """One commitment of a session's dice (a session started again has several): its hash, the
    entropy given with it and added after it, its reveal, and what its rolls showed so far."""

    def __init__(self, session: int, seed_hash: str, entropy: str) -> None:
        self.session = session
        self.seed_hash = seed_hash
        self.given = entropy
        self.added: list[tuple[str, str]] = []
        self.seed: str | None = None
        self.counters: int | None = None  # the counters used in all, as the reveal says
        self.rolls = 0
        self.expected = 0  # the counter the next roll should start at
        self.problems: list[str] = []  # counters out of sequence, in log order
        self.unfollowed: list[str] = []  # rolls that do not follow from the seed
        self.failure: Exception | None = None  # a roll that could not be checked at all
        self._key: bytes | None = None

    def secret(self) -> bytes | None:
        """The revealed seed, when it is hex and the one committed."""
        try:
            secret = bytes.fromhex(self.seed) if self.seed is not None else None
        except (TypeError, ValueError):
            return None
        return secret if secret is not None and commitment(secret) == self.seed_hash else None

    def roll(self, made: dict[str, Any]) -> None:
        """One committed roll, checked as it is read: its counters follow the last roll's, and
        with the seed revealed, its dice follow from it."""
        self.rolls += 1
        if self.failure is not None:
            return
        try:
            if made["counter"] != self.expected:
                self.problems.append(
                    f"ruling {made['number']}: committed dice from counter {made['counter']}, "
                    f"expected {self.expected} (counters run 0, 1, 2... without gaps or repeats)"
                )
            self.expected = made["counter"] + made["draws"]
            secret = self.secret()
            if secret is None:
                return
            if self._key is None:
                self._key = key(secret, mixed(self.given, self.added))
            sides = tuple(d["sides"] for d in made["dice"])
            faces, draws = replay(self._key, made["counter"], sides)
            if faces != tuple(d["face"] for d in made["dice"]) or draws != made["draws"]:
                self.unfollowed.append(
                    f"ruling {made['number']}: the dice do not follow from the seed"
                )
        except Exception as error:  # raised when the report is made, as a whole check would
            self.failure = error


class SessionDice:
    """Each session's commitments (in log order) with the entropy added to each and their
    reveals (``first``), then each committed roll checked as its header is read (``read``)."""

    def __init__(self) -> None:
        self.commitments: list[_Commitment] = []
        self.current: dict[int, _Commitment] = {}  # the latest commitment of each session
        self._ahead: dict[int, _Commitment] = {}  # version of its row: a commitment read first

    def first(self, rows: Iterable[StoredEvent]) -> None:
        """Read the commitments, entropy and reveals ahead of the rest (rows that do not read
        are named when ``read`` meets them)."""
        current: dict[int, _Commitment] = {}
        for row in rows:
            body = stored_body(row)
            event: Any = body.get("event", {}) if isinstance(body, dict) else None
            try:
                if row.topic == COMMITTED:
                    made = _Commitment(event["session"], event["seed_hash"], event["entropy"])
                    self._ahead[row.originator_version] = made
                    current[made.session] = made
                elif row.topic == ENTROPY and event.get("session") in current:
                    current[event["session"]].added.append((event["by"], event["words"]))
                elif row.topic == REVEALED and event.get("session") in current:
                    current[event["session"]].seed = event["seed"]
                    current[event["session"]].counters = event.get("counters")
            except (KeyError, TypeError, ValueError, AttributeError):
                continue

    def read(self, version: int, topic: str, body: dict[str, Any]) -> None:
        event = body.get("event", {})
        if topic == COMMITTED:
            committed = self._ahead.pop(version, None) or _Commitment(
                event["session"], event["seed_hash"], event["entropy"]
            )
            self.commitments.append(committed)
            self.current[committed.session] = committed
        elif topic == ENTROPY and event.get("session") in self.current:
            _ = event["by"], event["words"]  # taken ahead: a row without them is named here
        elif topic == REVEALED and event.get("session") in self.current:
            _ = event["seed"]  # taken ahead: a row without it is named here
        elif topic == MADE and event.get("counter") is not None:
            session = body.get("session") or 0
            if session in self.current:
                self.current[session].roll(event)

    def checks(self) -> tuple[DiceCheck, ...]:
        checks = [self._check(c) for c in self.commitments]
        return tuple(sorted(checks, key=lambda c: c.session))

    def _check(self, c: _Commitment) -> DiceCheck:
        if c.failure is not None:
            raise c.failure
        warnings = []
        if c is not self.current[c.session] and c.added:
            warnings.append(
                f"session {c.session} was started again after players added entropy: its "
                "first seed was set aside"
            )
        problems = list(c.problems)
        if c.counters is not None and c.counters != c.expected:
            problems.append(
                f"the reveal says the session's committed dice used {c.counters} counters; the "
                f"rolls recorded used {c.expected}"
            )

        def check(revealed: bool) -> DiceCheck:
            return DiceCheck(
                c.session,
                c.rolls,
                revealed,
                tuple(problems),
                tuple(warnings),
                c.seed_hash,
                tuple(c.added),
            )

        if c.seed is None:
            return check(False)
        try:
            secret = bytes.fromhex(c.seed)
        except (TypeError, ValueError):
            problems.append("the revealed seed is not a hex string")
            return check(True)
        if commitment(secret) != c.seed_hash:
            problems.append("the revealed seed is not the one committed")
            return check(True)
        problems += c.unfollowed
        return check(True)


class HeaderDice:
    """A ruling names a committed-dice counter exactly when it drew committed dice, in a
    session that committed to a seed (an amendment names the dice of the ruling it amends,
    drawing none); a session that ended revealed it. Fed each header as it is read."""

    def __init__(self, campaign_id: Any) -> None:
        self.campaign_id = campaign_id
        self.found: list[Finding | tuple[Any, Finding]] = []  # (session, finding): unless it
        self.rolled: dict[Any, int] = {}  # committed after all

    def read(self, version: int, number: Any, session: Any, event: dict[str, Any]) -> None:
        committed = Provenance.COMMITTED.value
        provenance, counter = event.get("provenance"), event.get("counter")
        where = (self.campaign_id, version, as_int(number), as_int(session))
        drew = event.get("command") not in CORRECTIONS  # corrections re-use recorded dice
        if provenance == committed and counter is None and drew:
            problem = f"ruling {number}'s dice are committed ones but it names no counter"
            self.found.append(Finding("dice", problem, *where))
        elif counter is not None and provenance != committed:
            problem = (
                f"ruling {number} names committed-dice counter {counter} but its dice "
                f"are {provenance or 'none'}"
            )
            self.found.append(Finding("dice", problem, *where))
        elif counter is not None:
            problem = (
                f"ruling {number} drew committed dice in session {session}, which "
                "committed to no seed"
            )
            self.found.append((session, Finding("dice", problem, *where)))
        if counter is not None:
            self.rolled[session] = self.rolled.get(session, 0) + 1

    def findings(self, ledger: RulingLedger) -> Iterator[Finding]:
        for entry in self.found:
            if isinstance(entry, Finding):
                yield entry
            elif entry[0] not in ledger.committed:
                yield entry[1]
        owner = ledger.owner(ledger.campaign_id)
        for session, count in self.rolled.items():
            since = ledger.committed.get(session)
            ends = [v for n, v in ledger.ended if n == session and since is not None and v > since]
            if ends and ledger.revealed.get(session, 0) < (since or 0):
                problem = (
                    f"session {session} ended without revealing its seed: its {count} "
                    "committed rulings cannot be checked"
                )
                yield Finding("dice", problem, ledger.campaign_id, ends[0], owner(ends[0]), session)
