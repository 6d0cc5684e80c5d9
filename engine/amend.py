"""Amending a ruling: re-resolve it with corrected GM parameters and the dice actually rolled.

The ruling is decided again against the state just before it (as corrected since), taking the
recorded dice in order; only a die the original never rolled is drawn anew. Each stream it (or
the new resolution) touches gets a ``RulingAmended`` carrying the replacement events, which
replay applies at the ruling's place. Later rulings that no longer fit are named, as for undo.
"""

from __future__ import annotations

import json
import types
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin, get_type_hints
from uuid import UUID

import attrs
from attrs import define, field
from eventsourcing.utils import get_topic, resolve_topic

from domain.campaign import CampaignState, evolve_campaign
from domain.commands import Change
from domain.dice import DiceSource, Die, EnteredDice, RecordingDice
from domain.errors import (
    AmendmentConflicts,
    CannotAmend,
    ConcurrentWrites,
    EmptyText,
    InvalidParameter,
    UnknownParameter,
    UnknownRuling,
)
from domain.events import Event, RulingAmended, RulingMade
from engine.dice_sources import DiceSpec
from engine.mapper import canonical_json, converter
from engine.rulings import (
    AMEND,
    MAX_ATTEMPTS,
    NOT_UNDOABLE,
    dependents,
    own_versions,
    retractions_of,
    rulings_made,
    streams_of,
)
from engine.streams import corrections, fold
from engine.tail import Tail, reach, read_back

if TYPE_CHECKING:
    from domain.rulesets.base import Ruleset
    from engine.assembly import RulingResult
    from engine.service import Engine


@define
class ReplayedDice:
    """The dice a ruling recorded, in order; past them (or at a die of another size) new ones."""

    recorded: tuple[Die, ...]
    fresh: DiceSource
    used: list[Die] = field(factory=list)
    new: int = 0

    def roll(self, sides: int) -> int:
        position = len(self.used) - self.new
        if (
            self.new == 0
            and position < len(self.recorded)
            and self.recorded[position].sides == sides
        ):
            die = self.recorded[position]
        else:
            self.new += 1
            die = Die(sides=sides, face=self.fresh.roll(sides))
        self.used.append(die)
        return die.face


class PastView:
    """The state just before ruling ``tail.first``, with every later undo and amendment of the
    rulings before it applied."""

    def __init__(self, engine: Engine, campaign: CampaignState, tail: Tail, ruleset: Ruleset):
        self._engine = engine
        self._tail = tail
        self._ruleset = ruleset
        self._campaign: CampaignState = self._fold(campaign.id, evolve_campaign)

    def _fold(self, stream: UUID, evolve: Any) -> Any:
        before = self._tail.first
        start, records = self._tail.history(stream, evolve)
        fixes = corrections(records).before(before)
        return fold([r for r in records if r.ruling < before], evolve, start, fixes)

    @property
    def campaign(self) -> CampaignState:
        return self._campaign

    def character(self, character_id: UUID) -> Any:
        return self._fold(character_id, self._ruleset.evolve_character)

    def new_id(self) -> UUID:
        return self._engine.new_id()


def corrected_command(made: RulingMade, changes: Mapping[str, str]) -> tuple[Any, dict[str, str]]:
    """The ruling's command with the GM's corrections applied (each checked against its type)."""
    params = json.loads(made.params)
    cls = resolve_topic(params["topic"])
    hints = get_type_hints(cls)
    names = [a.name for a in attrs.fields(cls)]
    args = dict(params["args"])
    for key, text in changes.items():
        if key not in names:
            raise UnknownParameter(command=made.command, key=key, known=", ".join(names))
        args[key] = _parse(key, text, hints[key])
    return converter.structure(args, cls), dict(changes)


def _parse(key: str, text: str, tp: Any) -> Any:
    options = get_args(tp) if get_origin(tp) in (Union, types.UnionType) else (tp,)
    if type(None) in options and text.strip().lower() in ("", "none", "-"):
        return None
    for option in options:
        if option is bool:
            lowered = text.strip().lower()
            if lowered in ("true", "yes", "1", "false", "no", "0"):
                return lowered in ("true", "yes", "1")
        elif option is int:
            try:
                return int(text)
            except ValueError:
                continue
        elif get_origin(option) is tuple:
            return [item.strip() for item in text.split(",")]
        elif option is str:
            return text
    raise InvalidParameter(key=key, value=text, expected=str(tp))


def amend(
    engine: Engine,
    campaign_name: str,
    ruling: int,
    changes: Mapping[str, str],
    *,
    reason: str,
    actor: str | None = None,
    dice: DiceSpec | None = None,
    with_dependents: bool = False,
) -> RulingResult:
    """Re-resolve ``ruling`` with ``changes`` to its parameters, keeping its recorded dice."""
    why = reason.strip()
    if not why:
        raise EmptyText(what="the reason for amending")
    spec = dice or DiceSpec()
    campaign_id = engine.find_campaign(campaign_name).campaign_id
    for _ in range(MAX_ATTEMPTS):
        loaded = engine.streams.load(campaign_id, evolve_campaign)
        campaign: CampaignState = loaded.state
        records = read_back(engine, campaign_id, partial(reach, ruling=ruling))
        target = _target(rulings_made(records), campaign, ruling)
        tail = Tail(engine, campaign_id, target.number, records)
        made = tail.made
        command, changed = corrected_command(target, changes)
        ruleset = engine.ruleset(campaign)
        view = PastView(engine, campaign, tail, ruleset)
        fresh = spec.fresh()
        replayed = ReplayedDice(recorded=target.dice, fresh=fresh)
        decided = command.decide(view, RecordingDice(replayed))
        if isinstance(fresh, EnteredDice):
            fresh.check_all_used()
        new_events: dict[UUID, list[Event]] = {}
        for change in decided:
            new_events.setdefault(change.stream, []).append(change.event)
        replacement = {stream: tuple(events) for stream, events in new_events.items()}
        later = dependents(engine, campaign, target, tail, amendment=replacement)
        if later and not with_dependents:
            listed = ", ".join(str(n) for n in sorted(later))
            raise AmendmentConflicts(ruling=target.number, dependents=listed)
        streams = streams_of(made).get(target.number, set()) | set(replacement) | {campaign_id}
        amended = [
            Change(
                stream,
                RulingAmended(
                    ruling=target.number,
                    reason=why,
                    versions=own_versions(target, stream),
                    events=replacement.get(stream, ()),
                ),
            )
            for stream in sorted(streams, key=lambda s: (s != campaign_id, str(s)))
        ]
        undone = retractions_of(made, later, campaign_id, why) if later else []
        params = {
            "ruling": target.number,
            "command": {"topic": get_topic(type(command)), "args": converter.unstructure(command)},
            "changed": changed,
            "reason": why,
            "new_dice": replayed.new,
            "unused_dice": max(0, len(target.dice) - (len(replayed.used) - replayed.new)),
            "with": sorted(later),
        }
        result = engine.record(
            loaded,
            [*undone, *amended],
            command=AMEND,
            params=canonical_json(params).decode(),
            actor=actor or campaign.gm,
            dice=tuple(replayed.used),
            provenance=spec.provenance if replayed.new else target.provenance,
            seed=spec.seed if replayed.new else target.seed,
        )
        if result is not None:
            return result
    raise ConcurrentWrites(attempts=MAX_ATTEMPTS)


def _target(made: list[RulingMade], campaign: CampaignState, ruling: int) -> RulingMade:
    found = next((m for m in made if m.number == ruling), None)
    if found is None:
        raise UnknownRuling(ruling=ruling)
    if found.command in NOT_UNDOABLE:
        raise CannotAmend(ruling=ruling, command=found.command, why=NOT_UNDOABLE[found.command])
    if ruling in campaign.retracted:
        raise CannotAmend(ruling=ruling, command=found.command, why="it was undone")
    return found
