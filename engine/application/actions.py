"""The actions the rules allow a member now (``Engine.actions``): the verbs the table's policy
lets them issue (``domain.policy``) that the state, as they may know it, does not refuse for
the character they act as, the ones it waits for first (``domain.moves``, each system's
``moves``). The table page lists them beside its composer and ``GET .../actions`` gives them as
they are: a convenience, never the guard (a verb posted anyway is decided as ever)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from attrs import frozen

from domain.audience import Member
from domain.campaign import CampaignState, RosterEntry
from domain.errors import NotAllowed
from domain.events import Role
from domain.moves import moves_now
from domain.plain import Plain
from domain.policy import OBSERVERS, acting_member, players_may_in
from domain.registry import verbs
from engine.application.core import Store


@frozen(kw_only=True)
class ActionView(Plain):
    """A verb the member may issue now; ``expected``: one the state waits for."""

    verb: str
    expected: bool


@frozen(kw_only=True)
class ActionsView(Plain):
    """The member's actions now, for ``character`` (None: any they may act as), with the
    characters they may choose between (``characters``), the expected ones first."""

    character: str | None
    characters: list[str]
    actions: list[ActionView]


class KnownView:
    """The state as one reader may know it, read-only (``domain.commands.View``)."""

    def __init__(self, store: Store, campaign: CampaignState, reader: str) -> None:
        self._store = store
        self._campaign = campaign
        self._reader = reader
        self._states: dict[UUID, Any] = {}

    @property
    def campaign(self) -> CampaignState:
        return self._campaign

    def character(self, character_id: UUID) -> Any:
        if character_id not in self._states:
            known = self._store._known(self._campaign, character_id, Member(self._reader))
            self._states[character_id] = known
        return self._states[character_id]

    def new_id(self) -> UUID:
        raise TypeError("the actions' view reads the state; it records nothing")


def allowed_verbs(campaign: CampaignState, reader: str) -> list[str]:
    """The verbs the table's policy lets ``reader`` issue (each for some character)."""
    member = acting_member(campaign, reader)
    found = verbs(campaign.system)
    if member.role is Role.GM:
        return list(found)
    may = OBSERVERS if member.role is Role.OBSERVER else players_may_in(campaign)
    return [name for name in found if name in may]


def choosable(campaign: CampaignState, reader: str) -> list[RosterEntry]:
    """The characters ``reader`` may act as: every one for a GM, their own for a player."""
    member = acting_member(campaign, reader)
    if member.role is Role.GM:
        return list(campaign.roster)
    if member.role is Role.OBSERVER:
        return []
    own = campaign.own_characters(member)
    return [e for e in campaign.roster if e.character_id in own]


class Actions(Store):
    def actions(
        self, campaign_name: str, *, reader: str, character: str | None = None
    ) -> ActionsView:
        """The actions the rules allow ``reader`` now, for ``character`` (default: a player's
        one character, else any they may act as); a character not theirs is refused."""
        campaign = self.campaign(campaign_name)
        member = acting_member(campaign, reader)
        allowed = allowed_verbs(campaign, reader)
        mine = choosable(campaign, reader)
        entries = mine
        if character:
            entry = campaign.find(character)
            if entry not in mine:
                rule = "a player acts as the characters they play"
                what = f"act as {entry.name}"
                raise NotAllowed(who=reader, role=member.role, what=what, rule=rule)
            entries = [entry]
        elif member.role is Role.PLAYER and len(mine) == 1:
            character = mine[0].name
        view = KnownView(self, campaign, reader)
        states = [view.character(e.character_id) for e in entries]
        moves = moves_now(self.ruleset(campaign).moves, view, allowed, states)
        return ActionsView(
            character=entries[0].name if character else None,
            characters=[e.name for e in mine],
            actions=[ActionView(verb=m.verb, expected=m.expected) for m in moves],
        )
