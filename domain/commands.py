"""What a command is: plain data that decides, from the state it reads and the dice it is given,
which events to record on which streams. The engine loads, calls ``decide`` and saves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol
from uuid import UUID

from attrs import frozen

from domain.campaign import CampaignState
from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain


@frozen
class Change(Plain):
    """One event to record on one stream (the campaign's or a character's)."""

    stream: UUID
    event: Event


class View(Protocol):
    """Read access to the current state, as the engine loaded it for one ruling."""

    @property
    def campaign(self) -> CampaignState: ...

    def character(self, character_id: UUID) -> Any: ...

    def new_id(self) -> UUID: ...


class Command(Protocol):
    """An imperative request (``StartScene``, ``DeclareTest``): ``name`` is what the log shows.
    A command whose own fields say more of who acts than the policy's tables (a post: its
    speaker, its recipients) also has ``check_actor(campaign)``, which refuses what its author
    may not do (``domain.policy.check_ruling`` calls it)."""

    name: ClassVar[str]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]: ...
