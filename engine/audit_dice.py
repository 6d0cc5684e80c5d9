"""Committed dice, as ``verify`` checks them: each session's commitments, the entropy the
players added, the rolls drawn and the reveal, recomputed from the revealed seed; and the rulings'
headers, which name a counter exactly when they drew committed dice."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from domain.dice import Provenance
from domain.events import CORRECTIONS
from engine.audit_chain import COMMITTED, ENTROPY, MADE, REVEALED, as_int
from engine.audit_report import DiceCheck, Finding
from engine.committed_dice import commitment, key, mixed, replay

if TYPE_CHECKING:
    from engine.audit_ledger import RulingLedger


class _Commitment:
    """One commitment of a session's dice (a session started again has several): its hash, the
    entropy given with it and added after it, its committed rolls and its reveal."""

    def __init__(self, session: int, seed_hash: str, entropy: str) -> None:
        self.session = session
        self.seed_hash = seed_hash
        self.given = entropy
        self.added: list[tuple[str, str]] = []
        self.rolls: list[dict[str, Any]] = []
        self.seed: str | None = None
        self.counters: int | None = None  # the counters used in all, as the reveal says


class SessionDice:
    """Collects each session's commitments (in log order), the entropy added to each, their
    committed rolls and reveals, then recomputes them."""

    def __init__(self) -> None:
        self.commitments: list[_Commitment] = []
        self.current: dict[int, _Commitment] = {}  # the latest commitment of each session

    def read(self, topic: str, body: dict[str, Any]) -> None:
        event = body.get("event", {})
        if topic == COMMITTED:
            committed = _Commitment(event["session"], event["seed_hash"], event["entropy"])
            self.commitments.append(committed)
            self.current[committed.session] = committed
        elif topic == ENTROPY and event.get("session") in self.current:
            self.current[event["session"]].added.append((event["by"], event["words"]))
        elif topic == REVEALED and event.get("session") in self.current:
            self.current[event["session"]].seed = event["seed"]
            self.current[event["session"]].counters = event.get("counters")
        elif topic == MADE and event.get("counter") is not None:
            session = body.get("session") or 0
            if session in self.current:
                self.current[session].rolls.append(event)

    def checks(self) -> tuple[DiceCheck, ...]:
        checks = [self._check(c) for c in self.commitments]
        return tuple(sorted(checks, key=lambda c: c.session))

    def _check(self, c: _Commitment) -> DiceCheck:
        warnings = []
        if c is not self.current[c.session] and c.added:
            warnings.append(
                f"session {c.session} was started again after players added entropy: its "
                "first seed was set aside"
            )
        problems = _counters(c.rolls, c.counters)

        def check(revealed: bool) -> DiceCheck:
            return DiceCheck(
                c.session,
                len(c.rolls),
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
        derived = key(secret, mixed(c.given, c.added))
        for made in c.rolls:
            sides = tuple(d["sides"] for d in made["dice"])
            faces, draws = replay(derived, made["counter"], sides)
            if faces != tuple(d["face"] for d in made["dice"]) or draws != made["draws"]:
                problems.append(f"ruling {made['number']}: the dice do not follow from the seed")
        return check(True)


def _counters(rolls: Sequence[dict[str, Any]], used: int | None) -> list[str]:
    """A commitment's rolls use its counters 0, 1, 2... in log order, each once, up to the
    number its reveal says were used: every gap or repeat is named (undone rulings keep their
    headers, so they count too)."""
    problems = []
    expected = 0
    for made in rolls:
        if made["counter"] != expected:
            problems.append(
                f"ruling {made['number']}: committed dice from counter {made['counter']}, "
                f"expected {expected} (counters run 0, 1, 2... without gaps or repeats)"
            )
        expected = made["counter"] + made["draws"]
    if used is not None and used != expected:
        problems.append(
            f"the reveal says the session's committed dice used {used} counters; the rolls "
            f"recorded used {expected}"
        )
    return problems


def dice_findings(ledger: RulingLedger) -> Iterator[Finding]:
    """A ruling names a committed-dice counter exactly when it drew committed dice, in a
    session that committed to a seed (an amendment names the dice of the ruling it amends,
    drawing none); a session that ended revealed it."""
    committed = Provenance.COMMITTED.value
    rolled: dict[Any, int] = {}
    for h in ledger.headers:
        provenance, counter = h.event.get("provenance"), h.event.get("counter")
        where = (ledger.campaign_id, h.version, as_int(h.number), as_int(h.session))
        drew = h.event.get("command") not in CORRECTIONS  # corrections re-use recorded dice
        if provenance == committed and counter is None and drew:
            problem = f"ruling {h.number}'s dice are committed ones but it names no counter"
            yield Finding("dice", problem, *where)
        elif counter is not None and provenance != committed:
            problem = (
                f"ruling {h.number} names committed-dice counter {counter} but its dice "
                f"are {provenance or 'none'}"
            )
            yield Finding("dice", problem, *where)
        elif counter is not None and h.session not in ledger.committed:
            problem = (
                f"ruling {h.number} drew committed dice in session {h.session}, which "
                "committed to no seed"
            )
            yield Finding("dice", problem, *where)
        if counter is not None:
            rolled[h.session] = rolled.get(h.session, 0) + 1
    owner = ledger.owner(ledger.campaign_id)
    for session, count in rolled.items():
        since = ledger.committed.get(session)
        ends = [v for n, v in ledger.ended if n == session and since is not None and v > since]
        if ends and ledger.revealed.get(session, 0) < (since or 0):
            problem = (
                f"session {session} ended without revealing its seed: its {count} "
                "committed rulings cannot be checked"
            )
            yield Finding("dice", problem, ledger.campaign_id, ends[0], owner(ends[0]), session)
