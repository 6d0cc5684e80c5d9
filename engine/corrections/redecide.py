"""Re-deciding what came after a correction: does each later ruling still stand?

Undoing or amending ruling T changes the history every later ruling was decided on. A ruling's
events record a decision, and the decision read state that T may have changed, so replaying
the later events is not enough. Each later ruling in force is decided again, in order, from its
recorded command (as amended since) with its own recorded dice, against the corrected state so
far. Its outcome:

- it **stands**: the same events, and they fit;
- it **changed**: other events (a modifier, a pool, a price read another state);
- it is **refused**: the rules refuse it now, or its events no longer fit the state;
- it **needs dice** it never rolled: it cannot be decided again honestly.

One walk says what **depends** on T, for every way of correcting it: each ruling that changed
goes on with its new decision, each one refused (or needing dice) is left out, and those that do
not stand are T's dependants. A plain correction is refused naming them. ``--redecide`` amends
the changed ones with T's correction and undoes the refused ones that resolve what an earlier
ruling opened (an assist of a test, an allocation of a hit), and is refused by any other refused
one (``CannotRedecide``). ``--with-dependents`` undoes the dependants with T: a second walk
leaves them out, and with them every later ruling that does not stand once they are gone (the
adaptation of an undone roll).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from attrs import define, field, frozen

from domain.campaign import CampaignState, evolve_campaign
from domain.commands import Change
from domain.dice import Die
from domain.errors import (
    CannotRedecide,
    DomainError,
    EntropyStands,
    ReplayMismatch,
    SealedSessionChanged,
)
from domain.events import (
    AMEND,
    CORRECTIONS,
    DiceCommitted,
    DiceRevealed,
    Event,
    HiddenDiceRevealed,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    SessionSealed,
)
from domain.plain import Plain
from engine.corrections.tail import Tail
from engine.corrections.undo import ENTROPY, SEALING
from engine.store.mapper import converter
from engine.store.records import Recorded
from engine.store.streams import Corrections, Evolve, corrections, fold
from engine.store.topics import resolve

if TYPE_CHECKING:
    from domain.rulesets.base import Ruleset
    from engine.write.ledger import Ledger

# Events the engine adds to a ruling beside its command's decision (the header, the dice
# commitment and reveal, a session's seal): not part of the decision, kept with it.
BOOKKEEPING = (RulingMade, DiceCommitted, DiceRevealed, HiddenDiceRevealed, SessionSealed)


class Outcome(enum.StrEnum):
    STANDS = "stands"
    CHANGED = "changed"
    REFUSED = "refused"
    NEEDS_DICE = "needs dice"


class _OutOfDice(Exception):
    """A decision asked for a die its ruling never rolled."""


@define
class RecordedDice:
    """The dice a ruling recorded, in order: asking for one more (or another size) stops it."""

    recorded: tuple[Die, ...]
    used: int = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self.recorded) or self.recorded[self.used].sides != sides:
            raise _OutOfDice()
        die = self.recorded[self.used]
        self.used += 1
        return die.face


@frozen
class Decision(Plain):
    """A later ruling decided again: its outcome, and for a changed one the events that now stand
    for it per stream (bookkeeping kept) and the dice they used."""

    ruling: int
    command: str
    outcome: Outcome
    events: Mapping[UUID, tuple[Event, ...]] = field(factory=dict)
    dice: tuple[Die, ...] = ()
    why: str = ""


@frozen
class Plan(Plain):
    """What a correction does to the rulings after it: those undone with it, and (re-deciding)
    those amended with their new decision and those it cannot decide again."""

    dropped: frozenset[int]
    changed: tuple[Decision, ...] = ()
    refused: tuple[Decision, ...] = ()

    @property
    def dependants(self) -> frozenset[int]:
        """The later rulings that do not stand, listed ascending where a refusal names them."""
        return self.dropped | {d.ruling for d in (*self.changed, *self.refused)}


def listed(rulings: Iterable[int]) -> str:
    """Rulings as a refusal names them: their numbers, ascending."""
    return ", ".join(str(n) for n in sorted(rulings))


class _Misfit(Exception):
    """Events that do not fit the corrected state (its strict replay refuses them)."""


class Redecider:
    """The corrected history from ruling ``tail.first`` on, walked ruling by ruling. It is the
    view the rulings are decided again on; before :meth:`walk`, the state just before ruling
    ``tail.first`` (every correction of the earlier rulings applied), on which an amendment of
    that ruling decides."""

    def __init__(self, ledger: Ledger, campaign: CampaignState, tail: Tail, ruleset: Ruleset[Any]):
        self._ledger = ledger
        self._ruleset = ruleset
        self._again = (ledger, campaign, tail, ruleset)
        self._campaign_id = campaign.id
        self._retracted = campaign.retracted  # as recorded now
        first = tail.first
        self.states: dict[UUID, Any] = {}
        self._fixes: dict[UUID, Corrections] = {}
        self._records: dict[int, dict[UUID, list[Recorded]]] = {}
        self._replaced: dict[int, list[UUID]] = {}
        self._new: list[UUID] = []
        for stream in tail.streams():
            evolve = self._evolver(stream)
            start, records = tail.history(stream, evolve)
            fixes = corrections(records)
            before = [r for r in records if r.ruling < first]
            self.states[stream] = fold(before, evolve, start, fixes.before(first))
            self._fixes[stream] = fixes
            for r in records:
                if r.ruling >= first:
                    self._records.setdefault(r.ruling, {}).setdefault(stream, []).append(r)
            for ruling in fixes.replacements:
                if ruling >= first:
                    self._replaced.setdefault(ruling, []).append(stream)

    def _evolver(self, stream: UUID) -> Evolve:
        return evolve_campaign if stream == self._campaign_id else self._ruleset.evolve_character

    # --- the View commands decide on -------------------------------------------------------

    @property
    def campaign(self) -> CampaignState:
        state: CampaignState = self.states[self._campaign_id]
        return state

    def character(self, character_id: UUID) -> Any:
        if character_id not in self.states:  # nothing wrote to it from ruling ``first`` on
            loaded = self._ledger.streams.load(character_id, self._evolver(character_id))
            self.states[character_id] = loaded.state
        return self.states[character_id]

    def new_id(self) -> UUID:
        """The stream the ruling decided again created (so that its events compare equal);
        a new one where it created none."""
        return self._new.pop(0) if self._new else self._ledger.new_id()

    # --- the walk ------------------------------------------------------------------------------

    def plan(
        self,
        made: Sequence[RulingMade],
        target: RulingMade,
        replacement: Mapping[UUID, Sequence[Event]] | None = None,
        *,
        redecide: bool = False,
        with_dependents: bool = False,
    ) -> Plan:
        """What undoing (``replacement`` None) or amending ``target`` with ``replacement`` does
        to the later rulings. Re-deciding them says which depend on it (``Plan.dependants``):
        plain, the caller refuses when there are any; ``redecide``, a refused one that is no
        resolution refuses the correction; ``with_dependents``, they are undone with it, and so
        is every later ruling that does not stand without them."""
        plan = self.walk(made, target, replacement)
        if redecide and plan.refused:
            first = plan.refused[0]
            raise CannotRedecide(
                ruling=target.number,
                dependent=first.ruling,
                command=first.command,
                why=first.why,
                dependents=listed(plan.dependants),
            )
        if not with_dependents or not plan.dependants:
            return plan
        again = Redecider(*self._again)
        return again.walk(made, target, replacement, undone=plan.dependants)

    def walk(
        self,
        made: Sequence[RulingMade],
        target: RulingMade,
        replacement: Mapping[UUID, Sequence[Event]] | None = None,
        *,
        undone: frozenset[int] | None = None,
    ) -> Plan:
        """Walk from ``target`` on: undone (``replacement`` None) or amended with
        ``replacement``, each later ruling in force decided again. Re-deciding (``undone``
        None), one that changed goes on with its new decision and one refused is left out
        (``dropped`` where it is a resolution of its system, ``refused`` otherwise). Undoing
        with dependants, the rulings ``undone`` are left out, and so is any that does not
        stand then (``dropped``, every one of them)."""
        commands = _commands_in_force(made, self._retracted)
        dropped: set[int] = set()
        changed: list[Decision] = []
        refused: list[Decision] = []
        for m in made:
            if m.number == target.number:
                self._apply(m.number, replacement or {})
            elif m.number < target.number or m.number not in commands:
                self.states.update(self._evolved(self._in_force(m.number), strict=False))
            elif undone is not None and m.number in undone:
                dropped.add(m.number)
                self._apply(m.number, {})
            else:
                decision = self._decide(m, *commands[m.number])
                if decision.outcome is Outcome.STANDS:
                    continue
                if m.command == SEALING:
                    raise SealedSessionChanged(
                        ruling=target.number, dependent=m.number, why=decision.why
                    )
                if m.command == ENTROPY and self._mixing(self.campaign):
                    raise EntropyStands(ruling=target.number, dependent=m.number, why=decision.why)
                if undone is None and decision.outcome is Outcome.CHANGED:
                    self._apply(m.number, decision.events)
                    changed.append(decision)
                    continue
                if undone is None and m.command not in self._ruleset.resolutions:
                    refused.append(decision)
                else:
                    dropped.add(m.number)
                self._apply(m.number, {})
        return Plan(dropped=frozenset(dropped), changed=tuple(changed), refused=tuple(refused))

    def _mixing(self, then: CampaignState) -> bool:
        """Whether words added in ``then``'s session still go into dice to come: its commitment
        stands in the corrected history and the session is still running (once it ended, its
        dice were revealed and checked with every word recorded)."""
        now = self._again[1]
        return then.commitment is not None and now.session == then.session

    def _decide(self, m: RulingMade, params: Mapping[str, Any], dice: tuple[Die, ...]) -> Decision:
        """Decide ruling ``m`` again; where it stands, its events are applied."""

        def outcome(outcome: Outcome, why: str = "", **more: Any) -> Decision:
            return Decision(ruling=m.number, command=m.command, outcome=outcome, why=why, **more)

        in_force = self._in_force(m.number)
        source = RecordedDice(dice)
        self._new = [span.stream for span in m.touched if span.first == 1]
        try:
            command = converter.structure(params["args"], resolve(params["topic"]))
            decided = _by_stream(command.decide(self, source))
        except _OutOfDice:
            return outcome(Outcome.NEEDS_DICE, "it would need dice it never rolled")
        except DomainError as refusal:
            return outcome(Outcome.REFUSED, str(refusal))
        finally:
            self._new = []
        recorded = {s: d for s, events in in_force.items() if (d := _decision(events))}
        try:
            if decided == recorded:
                self.states.update(self._evolved(in_force))
                return outcome(Outcome.STANDS)
            new = self._ruleset.rederived(recorded, decided)
            kept = {s: _bookkeeping(events) for s, events in in_force.items()}
            events = {s: (*new.get(s, ()), *kept.get(s, ())) for s in {*new, *kept}}
            events = {s: e for s, e in events.items() if e}
            self._evolved(self._with_header(m.number, events))
        except _Misfit as misfit:
            return outcome(Outcome.REFUSED, str(misfit))
        why = "decided again on the corrected history, it yields other events"
        return outcome(Outcome.CHANGED, why, events=events, dice=dice[: source.used])

    def _in_force(self, ruling: int) -> dict[UUID, tuple[Event, ...]]:
        """The events of ``ruling`` that replay applies now, per stream, in replay's order: its
        records not voided, then what its latest amendment put in their place."""
        found: dict[UUID, list[Event]] = {}
        for stream, records in self._records.get(ruling, {}).items():
            voided = self._fixes[stream].voided
            found[stream] = [
                r.event
                for r in records
                if r.originator_version not in voided and not isinstance(r.event, RulingAmended)
            ]
        for stream in self._replaced.get(ruling, ()):
            found.setdefault(stream, []).extend(self._fixes[stream].replacements[ruling])
        return {stream: tuple(events) for stream, events in found.items()}

    def _with_header(
        self, ruling: int, replacement: Mapping[UUID, Sequence[Event]]
    ) -> dict[UUID, tuple[Event, ...]]:
        """The ruling's header (never voided), then ``replacement`` in place of its events."""
        events: dict[UUID, tuple[Event, ...]] = {}
        for stream, records in self._records.get(ruling, {}).items():
            events[stream] = tuple(r.event for r in records if isinstance(r.event, RulingMade))
        for stream, replaced in replacement.items():
            events[stream] = (*events.get(stream, ()), *replaced)
        return events

    def _apply(self, ruling: int, replacement: Mapping[UUID, Sequence[Event]]) -> None:
        self.states.update(self._evolved(self._with_header(ruling, replacement), strict=False))

    def _evolved(
        self, events: Mapping[UUID, Sequence[Event]], *, strict: bool = True
    ) -> dict[UUID, Any]:
        """Each stream's state with ``events`` applied (not stored). ``strict``: a misfit raises
        ``_Misfit``; otherwise the history is broken and it raises as replay does."""
        after: dict[UUID, Any] = {}
        for stream, applied in events.items():
            evolve = self._evolver(stream)
            state = self.character(stream) if stream != self._campaign_id else self.campaign
            for event in applied:
                if isinstance(event, RulingAmended):
                    continue
                try:
                    state = evolve(event, state)
                except (DomainError, ReplayMismatch) as problem:
                    if not strict:
                        raise
                    raise _Misfit(str(problem)) from problem
            after[stream] = state
        return after


def _by_stream(changes: Iterable[Change]) -> dict[UUID, tuple[Event, ...]]:
    found: dict[UUID, list[Event]] = {}
    for change in changes:
        found.setdefault(change.stream, []).append(change.event)
    return {stream: tuple(events) for stream, events in found.items()}


def _decision(events: Iterable[Event]) -> tuple[Event, ...]:
    """The events a command decided, without what the engine or a correction added."""
    return tuple(
        e for e in events if not isinstance(e, (*BOOKKEEPING, RulingRetracted, RulingAmended))
    )


def _bookkeeping(events: Iterable[Event]) -> tuple[Event, ...]:
    """What the engine added beside the decision (the header aside): kept with a new one."""
    return tuple(e for e in events if isinstance(e, BOOKKEEPING) and not isinstance(e, RulingMade))


def _commands_in_force(
    made: Iterable[RulingMade], retracted: frozenset[int]
) -> dict[int, tuple[dict[str, Any], tuple[Die, ...]]]:
    """The rulings in force that a command decided (not a correction, not the campaign's
    creation), each with its command as its latest amendment left it, and its dice: those
    rolled at the table, as an amendment takes them (the ones it used first, then any it drew
    anew; the rest of the recorded ones stay available)."""
    found: dict[int, tuple[dict[str, Any], tuple[Die, ...]]] = {}
    rolled: dict[int, tuple[Die, ...]] = {}
    for m in made:
        params = json.loads(m.params)
        if m.command == AMEND:
            number = params["ruling"]
            if number in found:
                left = () if params.get("new_dice") else rolled[number][len(m.dice) :]
                found[number] = (params["command"], (*m.dice, *left))
        elif m.command not in CORRECTIONS and m.number not in retracted and "topic" in params:
            found[m.number] = (params, m.dice)
            rolled[m.number] = m.dice
    return found
