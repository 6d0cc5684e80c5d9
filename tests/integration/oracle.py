"""The oracle for undo and amend: play the story again without the ruling (or with the corrected
command), each command with the dice it rolled the first time, and compare whole states.

A story is a list of steps (a command and the faces it rolled). ``play`` records it on an engine;
``again`` plays it once more on a fresh one, leaving steps out or replacing their commands, the
way a table would have played it: a step the rules now refuse, or that would need dice it never
rolled, is skipped when it is a resolution of its system (an allocation whose hit is gone) and
ends the story otherwise (``Refused``). ``whole_state`` is what is compared: the
campaign (without its ruling bookkeeping) and every character, with ids named.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

import attrs
from attrs import frozen

from domain.audience import GMS
from domain.commands import Command
from domain.errors import DomainError, TooManyDice
from domain.rulesets import ruleset_named
from engine import Engine
from engine.dice.sources import DiceSpec

CAMPAIGN = "Lab"
# The campaign's ruling bookkeeping, which a correction changes by design (its own ruling, the
# retracted set) or which is drawn afresh per store (the committed seed).
BOOKKEEPING = {
    "id",
    "rulings",
    "retracted",
    "commitment",
    "commitment_entropy",
    "dice_counter",
    "hidden_root",
}


@frozen
class Step:
    """One command of a story and the faces it rolled (in order)."""

    command: Command
    faces: tuple[int, ...] = ()


@frozen
class Refused:
    """Played again, step ``index`` is refused (or would need new dice): a correction that
    re-decides the story must be refused too."""

    index: int
    why: str


def play(engine: Engine, system: str, story: Sequence[Step]) -> list[int]:
    """Record the story on ``engine`` (a campaign named Lab); the ruling number of each step."""
    engine.create_campaign(CAMPAIGN, system, gm="GM")
    return [
        engine.execute(CAMPAIGN, step.command, dice=DiceSpec(faces=step.faces)).number
        for step in story
    ]


def again(
    system: str,
    story: Sequence[Step],
    *,
    without: frozenset[int] | set[int] = frozenset(),
    replaced: Mapping[int, Command] | None = None,
) -> Engine | Refused:
    """Play the story again on a fresh store, leaving out the steps numbered in ``without``
    (indexes into ``story``) and deciding the ``replaced`` ones with their new command."""
    resolutions = ruleset_named(system).resolutions
    engine = Engine()
    engine.create_campaign(CAMPAIGN, system, gm="GM")
    for index, step in enumerate(story):
        if index in without:
            continue
        command = (replaced or {}).get(index, step.command)
        try:
            _execute(engine, command, step.faces)
        except DomainError as refusal:  # NotEnoughDice among them: it needs new dice
            if command.name in resolutions:
                continue
            return Refused(index, str(refusal))
    return engine


def _execute(engine: Engine, command: Command, faces: tuple[int, ...]) -> None:
    """Execute with the faces given; a command that now rolls fewer takes the first ones."""
    try:
        engine.execute(CAMPAIGN, command, dice=DiceSpec(faces=faces))
    except TooManyDice as fewer:
        engine.execute(CAMPAIGN, command, dice=DiceSpec(faces=faces[: fewer.data["used"]]))


def whole_state(engine: Engine) -> dict[str, Any]:
    """The campaign and its characters (by name) as plain data, ids replaced by names."""
    campaign = engine.campaign(CAMPAIGN)
    names: dict[UUID, str] = {e.character_id: f"character {e.name}" for e in campaign.roster}
    names[campaign.id] = "the campaign"
    characters = engine.characters(CAMPAIGN, audience=GMS)
    shown = {k: v for k, v in _plain(campaign, names).items() if k not in BOOKKEEPING}
    return {
        "campaign": shown,
        "characters": {
            e.name: _plain(c, names) for e, c in zip(campaign.roster, characters, strict=True)
        },
    }


def _plain(value: Any, names: Mapping[UUID, str]) -> Any:
    if attrs.has(type(value)):
        return {f.name: _plain(getattr(value, f.name), names) for f in attrs.fields(type(value))}
    if isinstance(value, UUID):
        return names.get(value, "an id no character of the roster has")
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v, names) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_plain(v, names) for v in value), key=repr)
    if isinstance(value, dict):
        return {repr(_plain(k, names)): _plain(v, names) for k, v in value.items()}
    return value
