"""The GM's calls that mark a hero's session (R-TC-14): the MO followed, the Weakness in play,
and the hero ruled violent or secretive."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.the_code.checks import check_mo_unfollowed
from domain.rulesets.the_code.events import ConductRuled, MoFollowed, WeaknessCameIntoPlay
from domain.rulesets.the_code.lookup import hero, parse_task


@frozen(kw_only=True)
class FollowMo(Plain):
    """The GM rules that the hero followed their MO this session (an extra Exposure die; a
    bonus die when the Objective is accomplished). The GM's call (R-TC-14, TC-A27); a player
    records it for their own hero only in a campaign made with the house rule
    playersRecordMo=true."""

    name: ClassVar[str] = "mo"
    hero: str
    description: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        check_mo_unfollowed(c, session)
        what = self.description.strip() or c.modus_operandi
        return (Change(c.id, MoFollowed(session=session, description=what)),)


@frozen(kw_only=True)
class RuleWeaknessInPlay(Plain):
    """The GM rules that the hero's Weakness came into play this session."""

    name: ClassVar[str] = "weakness"
    hero: str
    task: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        return (Change(c.id, WeaknessCameIntoPlay(session=session, task=parse_task(self.task))),)


@frozen(kw_only=True)
class RuleConduct(Plain):
    """The GM rules whether the hero is violent or secretive (they lose Popularity on no evens)."""

    name: ClassVar[str] = "conduct"
    hero: str
    violent: bool
    secretive: bool

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        return (Change(c.id, ConductRuled(violent=self.violent, secretive=self.secretive)),)
