"""Commands every system shares: creating a campaign, sessions, scenes and notes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar
from uuid import UUID

from attrs import frozen

from domain.campaign import (
    Directory,
    check_can_end_session,
    check_can_start_scene,
    check_can_start_session,
)
from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import (
    CampaignExists,
    EmptyText,
    EntropyWindowClosed,
    InvalidCampaignName,
    NoCommittedDice,
)
from domain.events import (
    CampaignCreated,
    CampaignRegistered,
    EntropyAdded,
    NoteAdded,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
)
from domain.plain import Plain
from domain.rulesets import ruleset_named


def create_campaign(
    directory: Directory,
    *,
    directory_id: UUID,
    campaign_id: UUID,
    name: str,
    system: str,
    gm: str,
    house_rules: Mapping[str, str],
) -> tuple[Change, ...]:
    """Register a new campaign in the store's directory and open its stream."""
    if not name.strip() or len(name) > 80 or not name.isprintable():
        raise InvalidCampaignName(name=name)
    if directory.named(name) is not None:
        raise CampaignExists(name=name)
    ruleset = ruleset_named(system)
    rules = ruleset.house_rules(house_rules)
    return (
        Change(directory_id, CampaignRegistered(campaign_id=campaign_id, name=name, system=system)),
        Change(
            campaign_id,
            CampaignCreated(
                campaign_id=campaign_id, name=name, system=system, gm=gm, house_rules=rules
            ),
        ),
    )


def _text(value: str, what: str) -> str:
    text = value.strip()
    if not text:
        raise EmptyText(what=what)
    return text


@frozen
class StartSession(Plain):
    """Start the next session: its dice seed is committed (the hash is published) before any
    player adds entropy (``AddEntropy``). ``entropy`` given here is how older logs mixed it in."""

    name: ClassVar[str] = "session start"
    entropy: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        check_can_start_session(campaign)
        return (Change(campaign.id, SessionStarted(number=campaign.sessions + 1)),)


@frozen
class AddEntropy(Plain):
    """A player's words mixed into the running session's committed dice: after the commitment
    is published, before the first committed roll closes the window."""

    name: ClassVar[str] = "entropy"
    words: str
    by: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        session = campaign.require_session()
        if campaign.commitment is None:
            raise NoCommittedDice(session=session)
        if campaign.first_committed_roll is not None:
            raise EntropyWindowClosed(session=session, ruling=campaign.first_committed_roll)
        added = EntropyAdded(
            session=session,
            by=_text(self.by, "who adds the entropy (--by)"),
            words=_text(self.words, "the entropy"),
        )
        return (Change(campaign.id, added),)


@frozen
class EndSession(Plain):
    name: ClassVar[str] = "session end"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        number = check_can_end_session(campaign)
        consequences = ruleset_named(campaign.system).end_session(view)
        return (*consequences, Change(campaign.id, SessionEnded(number=number)))


@frozen
class StartScene(Plain):
    name: ClassVar[str] = "scene start"
    stage: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        check_can_start_scene(campaign)
        stage = _text(self.stage, "the stage (what the scene is about)")
        return (Change(campaign.id, SceneStarted(number=campaign.scenes + 1, stage=stage)),)


@frozen
class EndScene(Plain):
    name: ClassVar[str] = "scene end"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        number = campaign.require_scene()
        consequences = ruleset_named(campaign.system).end_scene(view)
        return (Change(campaign.id, SceneEnded(number=number)), *consequences)


@frozen
class AddNote(Plain):
    name: ClassVar[str] = "note"
    text: str
    gm_only: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        note = NoteAdded(text=_text(self.text, "a note"), gm_only=self.gm_only)
        return (Change(view.campaign.id, note),)
