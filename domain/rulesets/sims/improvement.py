"""Characters Improvement: upgrades from successful campaigns (a campaign is a set of
adventures) and Upgrade Missions, Master+ and Rebirth (each taken "in the next upgrade", so each
spends one, PDQ-A15)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import EmptyText
from domain.plain import Plain
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import (
    check_alive,
    check_may_be_reborn,
    check_may_take_master_plus,
    check_player_character,
    own_quality,
)
from domain.rulesets.sims.creation import check_creation_sheet, check_unique
from domain.rulesets.sims.events import (
    AdventureCompleted,
    CharacterReborn,
    MasterPlusTaken,
    QualitySpec,
    QualityUpgraded,
    UpgradeGranted,
    UpgradeMissionAnnounced,
)
from domain.rulesets.sims.lookup import character, everyone, parse_quality
from domain.rulesets.sims.tables import (
    MASTER_PLUS_QUALITIES,
    REBIRTH_EXTRAS,
    Area,
    Rank,
    SheetKind,
)
from domain.seats import required_text


def _pc(view: View, ref: str) -> SimsCharacter:
    c = character(view, ref)
    check_alive(c, "improve")
    check_player_character(c)
    return c


def _spendable(c: SimsCharacter) -> None:
    if c.upgrades < 1:
        raise errors.NoUpgradeAvailable(name=c.name)


@frozen(kw_only=True)
class CompleteAdventure(Plain):
    """An adventure is over: recorded for every living player character. It earns nothing by
    itself; a campaign is a set of adventures, and the campaign's success earns the upgrade."""

    name: ClassVar[str] = "adventure complete"
    adventure: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        done = AdventureCompleted(adventure=required_text(self.adventure, "the adventure's name"))
        return tuple(
            Change(c.id, done) for c in everyone(view) if c.kind is SheetKind.PC and not c.killed
        )


@frozen(kw_only=True)
class SucceedCampaign(Plain):
    """The campaign succeeded: every living player character earns one upgrade."""

    name: ClassVar[str] = "campaign-success"

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        grant = UpgradeGranted(source="the campaign succeeded", mission=None)
        return tuple(
            Change(c.id, grant) for c in everyone(view) if c.kind is SheetKind.PC and not c.killed
        )


@frozen(kw_only=True)
class AnnounceMission(Plain):
    """The GM announces, in advance, that a mission is an Upgrade Mission for these characters."""

    name: ClassVar[str] = "mission announce"
    mission: str
    characters: tuple[str, ...]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        mission = self.mission.strip()
        if not mission:
            raise EmptyText(what="the mission's name")
        changes = []
        for who in self.characters:
            c = _pc(view, who)
            if mission in c.missions:
                raise errors.MissionAlreadyAnnounced(name=c.name, mission=mission)
            changes.append(Change(c.id, UpgradeMissionAnnounced(mission=mission)))
        return tuple(changes)


@frozen(kw_only=True)
class SucceedMission(Plain):
    """An announced Upgrade Mission succeeded: each character it was announced to earns one."""

    name: ClassVar[str] = "mission succeed"
    mission: str
    characters: tuple[str, ...] = ()

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        mission = self.mission.strip()
        grant = UpgradeGranted(source=f"Upgrade Mission {mission}", mission=mission)
        if self.characters:
            chosen = [_pc(view, who) for who in self.characters]
            for c in chosen:
                if mission not in c.missions:
                    raise errors.MissionNotAnnounced(name=c.name, mission=mission)
        else:
            chosen = [c for c in everyone(view) if mission in c.missions and not c.killed]
            if not chosen:
                raise errors.MissionNotAnnounced(name="any character", mission=mission)
        return tuple(Change(c.id, grant) for c in chosen)


@frozen(kw_only=True)
class UpgradeQuality(Plain):
    """Spend an upgrade: one quality one rank higher (a Good Boxer becomes an Expert Boxer),
    never above Master."""

    name: ClassVar[str] = "upgrade"
    character: str
    quality: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = _pc(view, self.character)
        q = own_quality(c, self.quality)
        if q.base is Rank.MASTER:
            raise errors.QualityAlreadyMaster(quality=q.name)
        _spendable(c)
        after = list(Rank)[q.base.level + 1]
        return (Change(c.id, QualityUpgraded(quality=q.name, before=q.base, after=after)),)


def _new_qualities(texts: Sequence[str], area: Area) -> tuple[QualitySpec, ...]:
    """Names, each optionally NAME:extraordinary; all Good."""
    specs = []
    for text in texts:
        name, _, flag = text.partition(":")
        if not name.strip():
            raise errors.UnreadableQuality(text=text)
        extraordinary = flag.strip().lower() in ("extraordinary", "psychic")
        chosen = Area.EXTRAORDINARY if extraordinary else area
        specs.append(QualitySpec(name=name.strip(), area=chosen, rank=Rank.GOOD))
    return tuple(specs)


@frozen(kw_only=True)
class TakeMasterPlus(Plain):
    """Master in three qualities: take the next upgrade as two new qualities, both Good."""

    name: ClassVar[str] = "master-plus"
    character: str
    qualities: tuple[str, ...]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = _pc(view, self.character)
        check_may_take_master_plus(c)
        _spendable(c)
        if len(self.qualities) != MASTER_PLUS_QUALITIES:
            raise errors.WrongExtraCount(
                what="Master+",
                required=MASTER_PLUS_QUALITIES,
                count=len(self.qualities),
                rule="Master +",
            )
        specs = tuple(
            QualitySpec(name=s.name, area=Area.MASTER_PLUS, rank=Rank.GOOD)
            for s in _new_qualities(self.qualities, Area.MASTER_PLUS)
        )
        check_unique(
            (*specs, *(QualitySpec(name=q.name, area=q.area, rank=q.base) for q in c.qualities))
        )
        return (Change(c.id, MasterPlusTaken(qualities=specs)),)


@frozen(kw_only=True)
class TakeRebirth(Plain):
    """Master in six qualities and no Master+: spend an upgrade on a whole new sheet by the
    creation rules, plus four Good qualities, one of which may be psychic or extraordinary."""

    name: ClassVar[str] = "rebirth"
    character: str
    qualities: tuple[str, ...]
    extra: tuple[str, ...]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = _pc(view, self.character)
        check_may_be_reborn(c)
        _spendable(c)
        sheet = tuple(parse_quality(text) for text in self.qualities)
        check_creation_sheet(sheet)
        if len(self.extra) != REBIRTH_EXTRAS:
            raise errors.WrongExtraCount(
                what="Rebirth", required=REBIRTH_EXTRAS, count=len(self.extra), rule="Rebirth"
            )
        extra = _new_qualities(self.extra, Area.REBIRTH)
        if sum(1 for q in extra if q.area is Area.EXTRAORDINARY) > 1:
            raise errors.TooManyExtraordinary()
        check_unique((*sheet, *extra))
        previous = tuple(QualitySpec(name=q.name, area=q.area, rank=q.base) for q in c.qualities)
        return (Change(c.id, CharacterReborn(qualities=(*sheet, *extra), previous=previous)),)
