"""Making sheets (player characters by the creation rules; GM sheets, NPCs and secondary NPCs)
and replacing an unused quality."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import EmptyText, NameTaken
from domain.events import CharacterJoined
from domain.plain import Plain
from domain.rulesets.sims import errors
from domain.rulesets.sims.checks import own_quality
from domain.rulesets.sims.events import CharacterCreated, QualityReplaced, QualitySpec
from domain.rulesets.sims.lookup import character, parse_quality
from domain.rulesets.sims.tables import CREATION_AREAS, Area, Rank, SheetKind, find_area
from domain.seats import seated_players

QUALITY_COUNT = 10
COMBAT_COUNT = 2
START_RANKS = Counter({Rank.GOOD: 2, Rank.POOR: 1, Rank.AVERAGE: 7})


def check_creation_sheet(qualities: Sequence[QualitySpec]) -> None:
    """Ten qualities: eight from the four general areas and two Combat qualities; two Good, one
    Poor, the rest Average (Qualities; Ranks; PDQ-A2)."""
    if len(qualities) != QUALITY_COUNT:
        raise errors.WrongQualityCount(count=len(qualities))
    for q in qualities:
        if q.area not in CREATION_AREAS:
            raise errors.WrongArea(quality=q.name, area=q.area)
    combat = sum(1 for q in qualities if q.area is Area.COMBAT)
    if combat != COMBAT_COUNT:
        raise errors.WrongCombatQualityCount(count=combat)
    ranks = Counter(q.rank for q in qualities)
    if ranks != START_RANKS:
        given = ", ".join(f"{n} {r}" for r, n in sorted(ranks.items(), key=lambda i: i[0].level))
        raise errors.WrongRankDistribution(given=given)


def check_unique(qualities: Sequence[QualitySpec]) -> None:
    seen: set[str] = set()
    for q in qualities:
        if q.name.lower() in seen:
            raise errors.DuplicateQualityName(quality=q.name)
        seen.add(q.name.lower())


@frozen(kw_only=True)
class CreateCharacter(Plain):
    """Make a sheet. Player characters follow the creation rules (ten qualities, two of them
    Combat; two Good, one Poor, the rest Average) unless 'custom' (the GM's path); NPCs have any
    sheet; a secondary NPC is a single Difficulty rank. Areas: Physical, Mental, Social,
    Professional, Combat. Ranks: Poor, Average, Good, Expert, Master."""

    name: ClassVar[str] = "character create"
    character: str
    player: str
    qualities: tuple[str, ...]
    kind: SheetKind = SheetKind.PC
    custom: bool = False
    strengths: tuple[str, ...] = ()
    weaknesses: tuple[str, ...] = ()
    seat_player: bool = False  # seat a player who has none (``domain.seats.seated_players``)

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        name = self.character.strip()
        if not name:
            raise EmptyText(what="the character's name")
        # An NPC is the GM's: played by the campaign's GM unless the sheet names someone.
        player = self.player.strip() or (campaign.gm if self.kind is not SheetKind.PC else "")
        if not player:
            raise EmptyText(what="the player's name")
        if any(e.name.lower() == name.lower() for e in campaign.roster):
            raise NameTaken(name=name, rule="Characters")
        default = Area.COMBAT if self.kind is SheetKind.SECONDARY else None
        specs = tuple(parse_quality(text, default_area=default) for text in self.qualities)
        if not specs:
            raise errors.NoQualities()
        check_unique(specs)
        if self.kind is SheetKind.SECONDARY and len(specs) != 1:
            raise errors.SecondaryNeedsOneRank(count=len(specs))
        validated = self.kind is SheetKind.PC and not self.custom
        if validated:
            check_creation_sheet(specs)
        cid = view.new_id()
        created = CharacterCreated(
            character_id=cid,
            name=name,
            player=player,
            kind=self.kind,
            qualities=specs,
            strengths=tuple(s.strip() for s in self.strengths if s.strip()),
            weaknesses=tuple(w.strip() for w in self.weaknesses if w.strip()),
            custom=not validated,
        )
        joined = CharacterJoined(character_id=cid, name=name, player=created.player)
        changes = (Change(cid, created), Change(campaign.id, joined))
        return seated_players(campaign, changes) if self.seat_player else changes


@frozen(kw_only=True)
class ReplaceQuality(Plain):
    """Swap a quality that sees no use for one that fits better, at the same rank, after talking
    to the GM (Master Chart note)."""

    name: ClassVar[str] = "replace"
    character: str
    quality: str
    new_name: str
    area: str | None = None
    gm_approved: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        old = own_quality(c, self.quality)
        new = self.new_name.strip()
        if not new:
            raise EmptyText(what="the new quality's name")
        if not self.gm_approved:
            raise errors.GmApprovalRequired()
        taken = c.quality(new)
        if taken is not None and taken is not old:
            raise errors.DuplicateQualityName(quality=new)
        area = old.area
        if self.area is not None:
            found = find_area(self.area)
            if found is None:
                raise errors.UnknownArea(area=self.area, known=", ".join(a.value for a in Area))
            area = found
        return (Change(c.id, QualityReplaced(old=old.name, new=new, area=area)),)
