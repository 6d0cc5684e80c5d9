"""Commands every system shares: creating a campaign, sessions, scenes and notes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar
from uuid import UUID

from attrs import frozen

from domain.campaign import (
    CampaignState,
    Directory,
    Member,
    check_can_end_session,
    check_can_start_scene,
    check_can_start_session,
    check_entropy_window,
)
from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import (
    CampaignExists,
    EntropyAlreadyCounted,
    EntropyNotAPlayer,
    EntropyNotOpen,
    EntropySignatureInvalid,
    EntropySignatureNotCanonical,
    InvalidCampaignName,
)
from domain.events import (
    CampaignCreated,
    CampaignRegistered,
    EntropyAdded,
    EntropyClosed,
    MemberAdded,
    NoteAdded,
    Role,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionStarted,
)
from domain.plain import Plain
from domain.rulesets import ruleset_named
from domain.seats import required_text, seat
from domain.signatures import entropy_message, signature_holds, signature_text_problem


def create_campaign(
    directory: Directory,
    *,
    directory_id: UUID,
    campaign_id: UUID,
    name: str,
    system: str,
    gm: str,
    house_rules: Mapping[str, str],
    members: Mapping[str, Role] | None = None,
) -> tuple[Change, ...]:
    """Register a new campaign in the store's directory and open its stream, with the table's
    first ``members`` (name -> role) seated beside its GM."""
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
        *(
            Change(campaign_id, MemberAdded(name=seat(who, gm), role=Role(role)))
            for who, role in (members or {}).items()
        ),
    )


@frozen(kw_only=True)
class StartSession(Plain):
    """Start the next session: its dice seed is committed (the hash is published) before any
    player adds entropy (`campaign entropy`). 'physical_dice': the table rolls real dice, and
    players may type the faces they rolled (listed by the players' check as not committed).
    'entropy' given here is how older logs mixed it in.

    The entropy a player adds is an ``AddEntropy``."""

    name: ClassVar[str] = "session start"
    entropy: str = ""
    physical_dice: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        check_can_start_session(campaign)
        started = SessionStarted(number=campaign.sessions + 1, physical_dice=self.physical_dice)
        return (Change(campaign.id, started),)


@frozen(kw_only=True)
class AddEntropy(Plain):
    """A player's words mixed into the running session's committed dice: after the commitment
    is published, before the first committed roll closes the window. Only a player adds them;
    a player with a key on their seat signs them ('signature': Ed25519 over the words' one
    canonical text, 128 lowercase hex digits), and only signed words are counted, one
    contribution per player per session.

    The canonical text is ``domain.signatures.entropy_message``."""

    name: ClassVar[str] = "entropy"
    words: str
    by: str
    signature: str = ""

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        session = check_entropy_window(campaign)
        by = required_text(self.by, "who adds the entropy (--by)")
        words = required_text(self.words, "the entropy")
        check_canonical_signature(by, self.signature)
        if campaign.dice_protocol >= 2:
            member = self._check_signed(campaign, by, words)
            if self.signature and campaign.counts_key(member):
                check_first_counted(campaign, by, session)
        added = EntropyAdded(session=session, by=by, words=words, signature=self.signature)
        return (Change(campaign.id, added),)

    def _check_signed(self, campaign: CampaignState, by: str, words: str) -> Member:
        member = campaign.member(by)
        if member is None or member.role is not Role.PLAYER:
            what = "not seated at the table" if member is None else f"a {member.role}"
            raise EntropyNotAPlayer(by=by, what=what)
        if not member.key and self.signature:
            problem = "signed, but no key is on their seat to check it by (`campaign member key`)"
            raise EntropySignatureInvalid(by=by, problem=problem)
        if member.key and not self.signature:
            raise EntropySignatureInvalid(by=by, problem="unsigned, and their seat has a key")
        message = entropy_message(campaign.commitment or "", by, words)
        if member.key and not signature_holds(member.key, message, self.signature):
            problem = "signed, but not by the key on their seat over these words and this session"
            raise EntropySignatureInvalid(by=by, problem=problem)
        return member


def check_canonical_signature(by: str, signature: str) -> None:
    """A signature is recorded only as its one canonical text (``domain.signatures``): the dice
    mix the text, so a signature spelled another way (upper case, spaces) would be another mix
    of the same signed words, and a GM holding one genuine signature could pick among them."""
    problem = signature_text_problem(signature) if signature else None
    if problem is not None:
        raise EntropySignatureNotCanonical(by=by, problem=problem)


def check_first_counted(campaign: CampaignState, by: str, session: int) -> None:
    """One counted (signed) contribution per player in a session's commitment: each one more
    would be another mix to pick from, the same signed words recorded again included. Replay
    applies what a log holds as it was recorded (``domain.campaign``), so older logs that hold
    more still mix them all."""
    if any(who == by for who, _, _ in campaign.signed):
        raise EntropyAlreadyCounted(by=by, session=session)


@frozen(kw_only=True)
class CloseEntropy(Plain):
    """Close the running session's entropy window before every player with a key has added
    words (the GM's call, saying why): the first committed roll waits for them otherwise
    (protocol 3). The ruling names who was left out.

    The window closes by itself at the first committed roll once nobody is waited for."""

    name: ClassVar[str] = "session close-entropy"
    reason: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        session = check_entropy_window(campaign)
        reason = required_text(self.reason, "why the window closes (--reason)")
        if campaign.entropy_closed:
            raise EntropyNotOpen(session=session, why="the GM closed it already")
        left_out = campaign.waiting_for_entropy()
        closed = EntropyClosed(session=session, reason=reason, left_out=left_out)
        return (Change(campaign.id, closed),)


@frozen(kw_only=True)
class EndSession(Plain):
    """End the running session: its secret dice seed is revealed and its log sealed."""

    name: ClassVar[str] = "session end"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        number = check_can_end_session(campaign)
        consequences = ruleset_named(campaign.system).end_session(view)
        return (*consequences, Change(campaign.id, SessionEnded(number=number)))


@frozen(kw_only=True)
class StartScene(Plain):
    """Start a scene in the running session, on a stage (what the scene is about)."""

    name: ClassVar[str] = "scene start"
    stage: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        check_can_start_scene(campaign)
        stage = required_text(self.stage, "the stage (what the scene is about)")
        return (Change(campaign.id, SceneStarted(number=campaign.scenes + 1, stage=stage)),)


@frozen(kw_only=True)
class EndScene(Plain):
    """End the running scene; what the system does at a scene's end happens with it."""

    name: ClassVar[str] = "scene end"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        number = campaign.require_scene()
        consequences = ruleset_named(campaign.system).end_scene(view)
        return (Change(campaign.id, SceneEnded(number=number)), *consequences)


@frozen(kw_only=True)
class AddNote(Plain):
    """Write a note into the log; a GM-only one never reaches a public recap."""

    name: ClassVar[str] = "note"
    text: str
    gm_only: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        note = NoteAdded(text=required_text(self.text, "a note"), gm_only=self.gm_only)
        return (Change(view.campaign.id, note),)
