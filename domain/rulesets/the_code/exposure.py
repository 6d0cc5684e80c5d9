"""Exposure and Popularity between and around tasks: the end-of-session roll, lowering
Exposure, blabbed traits and reaction rolls (R-TC-10, R-TC-11, R-TC-13)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import EmptyText
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.checks import check_exposure_unsettled, check_motivation_dice
from domain.rulesets.the_code.events import (
    ExposureRolled,
    MoFollowed,
    MotivationSpent,
    PopularityReactionRolled,
    ReactionResolved,
    SessionTakenOff,
    TraitBlabbed,
)
from domain.rulesets.the_code.lookup import hero, parse_details, settings
from domain.rulesets.the_code.rolls import any_even, roll
from domain.rulesets.the_code.ruling import HeroRuling
from domain.rulesets.the_code.tables import (
    MAX_SCORE,
    REACTION_DIE,
    ExposureCause,
    MotivationUse,
    PopularityCause,
    RevealCause,
)


@frozen(kw_only=True)
class RollExposure(Plain):
    """The end-of-session Exposure roll, made for every hero before the session ends
    (`campaign session end`): one die per point of Exposure, one more if the MO was
    followed ('mo_followed' records the GM's call if it was not made during the session). Any
    even die gains 1 (2 for a public identity); with no gain from any source all session,
    Exposure drops by 1. 'off': the hero took the session off (no roll; 'reduce' lowers
    Exposure by 1). Each new level above 1 reveals a detail ('reveal': the GM's choice of
    details for new levels)."""

    name: ClassVar[str] = "exposure"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    hero: str
    mo_followed: bool = False
    off: bool = False
    reduce: bool = False
    reveal: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        check_exposure_unsettled(c, session)
        flags = c.flags_for(session)
        choices = parse_details(self.reveal)
        if self.reduce and not self.off:
            raise errors.ReduceNeedsSessionOff()
        rules = settings(view)
        ruling = HeroRuling(c, rules, session)
        if self.off:
            if self.mo_followed or flags.mo_followed:
                raise errors.MoFollowedOnSessionOff(name=c.name)
            reduced = self.reduce and c.exposure > 0
            ruling.add(SessionTakenOff(session=session, reduced=reduced))
            if reduced:
                ruling.change_exposure(-1, ExposureCause.SESSION_OFF)
            if choices:
                raise errors.RevealChoiceUnused(given=len(choices), levels=0)
            return ruling.changes()
        if self.mo_followed and not flags.mo_followed:
            ruling.add(MoFollowed(session=session, description=c.modus_operandi))
        mo_die = self.mo_followed or flags.mo_followed
        faces = roll(dice, c.exposure + int(mo_die), rules.die_sides)
        even = any_even(faces)
        gain = (2 if c.public_identity else 1) if even else 0
        ruling.add(
            ExposureRolled(
                session=session,
                dice=faces,
                exposure=c.exposure,
                mo_die_included=mo_die,
                any_even=even,
                gain=gain,
                public_identity=c.public_identity,
            )
        )
        if gain:
            ruling.change_exposure(gain, ExposureCause.SESSION_ROLL, choices)
            return ruling.changes()
        if choices:
            raise errors.RevealChoiceUnused(given=len(choices), levels=0)
        if flags.exposure_gains == 0 and c.exposure > 0:
            ruling.change_exposure(-1, ExposureCause.NO_EXPOSURE_GAINED)
        return ruling.changes()


@frozen(kw_only=True)
class LowerExposure(Plain):
    """Give up a point of Popularity to lower Exposure by one (nothing public is unrevealed)."""

    name: ClassVar[str] = "lower-exposure"
    hero: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        if c.exposure == 0:
            raise errors.ExposureZero(name=c.name)
        if c.popularity == 0:
            raise errors.PopularityZero(name=c.name)
        ruling = HeroRuling(c, settings(view), view.campaign.session)
        ruling.change_popularity(-1, PopularityCause.LOWER_EXPOSURE)
        ruling.change_exposure(-1, ExposureCause.LOWER_EXPOSURE)
        return ruling.changes()


@frozen(kw_only=True)
class Blab(Plain):
    """Someone the hero told their traits blabbed: each newly public detail is revealed and
    costs a point of Exposure (no ladder reveal on top, TC-A12)."""

    name: ClassVar[str] = "blab"
    hero: str
    details: tuple[str, ...]
    confidant: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        session = view.campaign.require_session()
        confidant = self.confidant.strip()
        if not confidant:
            raise EmptyText(what="who blabbed")
        named = parse_details(self.details)
        if not named:
            raise EmptyText(what="the details blabbed")
        fresh = tuple(dict.fromkeys(d for d in named if not c.is_revealed(d)))
        if not fresh:
            raise errors.DetailAlreadyPublic(name=c.name, detail=", ".join(named))
        public = tuple(dict.fromkeys(d for d in named if c.is_revealed(d)))
        ruling = HeroRuling(c, settings(view), session)
        ruling.add(
            TraitBlabbed(details=fresh, already_public=public, confidant=confidant, session=session)
        )
        ruling.change_exposure(len(fresh), ExposureCause.BLAB)
        for detail in fresh:
            ruling.reveal(
                detail, RevealCause.BLAB, level=None, suggested=None, source="TraitBlabbed"
            )
        return ruling.changes()


@frozen(kw_only=True)
class RollReaction(Plain):
    """How the public, the media or the authorities react: one d10, favourable at or under
    Popularity (10 always favourable, 0 always not). 'extra_dice' Motivation points buy a die
    each when the GM rules the Profession or Advantage helps ('justification'); they are lost
    whatever happens. 'conflict': at Popularity 10, the GM rules an extreme personality
    conflict."""

    name: ClassVar[str] = "reaction"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    hero: str
    audience: str
    extra_dice: int = 0
    justification: str = ""
    conflict: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = hero(view, self.hero)
        audience = self.audience.strip()
        if not audience:
            raise EmptyText(what="who reacts (the public, the media, the authorities)")
        why = self.justification.strip()
        if self.extra_dice > c.motivation:
            raise errors.InsufficientMotivation(
                name=c.name,
                cost=self.extra_dice,
                dice=self.extra_dice,
                current=c.motivation,
                why="a point for each extra reaction die",
                rule="Dealing with Popularity",
            )
        check_motivation_dice(c, self.extra_dice, least=0)
        if self.extra_dice and not why:
            raise errors.AugmentNotJustified(name=c.name)
        extreme = c.popularity in (0, MAX_SCORE)
        if self.extra_dice and extreme:
            raise errors.AugmentPointlessAtExtremes(popularity=c.popularity)
        if extreme:
            favorable = c.popularity == MAX_SCORE and not self.conflict
            reason = _extreme_reason(c.popularity, self.conflict)
            resolved = ReactionResolved(audience=audience, favorable=favorable, reason=reason)
            return (Change(c.id, resolved),)
        ruling = HeroRuling(c, settings(view), view.campaign.session)
        if self.extra_dice:
            ruling.add(
                MotivationSpent(
                    amount=self.extra_dice,
                    use=MotivationUse.POPULARITY_AUGMENT,
                    before=c.motivation,
                    after=c.motivation - self.extra_dice,
                )
            )
        faces = roll(dice, 1 + self.extra_dice, REACTION_DIE)
        ruling.add(
            PopularityReactionRolled(
                audience=audience,
                dice=faces,
                target=c.popularity,
                augment=self.extra_dice,
                justification=why,
                favorable=any(f <= c.popularity for f in faces),
            )
        )
        return ruling.changes()


def _extreme_reason(popularity: int, conflict: bool) -> str:
    if popularity == 0:
        return "Popularity 0: always an unfavourable reaction"
    if conflict:
        return "Popularity 10, but an extreme personality conflict (GM ruling)"
    return "Popularity 10: always a favourable reaction"
