"""Making a hero (the rule text's Hero Creation section is missing; DIGEST R-TC-01, TC-A19..21)
and bringing in an NPC (DIGEST 4.1 TcNpc)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import EmptyText
from domain.events import CharacterJoined
from domain.plain import Plain
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.checks import check_objective_score
from domain.rulesets.the_code.events import HeroCreated, NpcCreated
from domain.rulesets.the_code.lookup import parse_details, settings
from domain.rulesets.the_code.ruling import HeroRuling
from domain.rulesets.the_code.tables import MAX_SCORE, STARTING_POPULARITY, Detail, RevealCause
from domain.seats import seated_players


def _text(value: str, field: str) -> str:
    text = value.strip()
    if not text:
        raise errors.MissingHeroField(field=field)
    return text


def _score(value: int, what: str) -> int:
    if not 0 <= value <= MAX_SCORE:
        raise errors.ScoreOutOfRange(what=what, value=value)
    return value


@frozen(kw_only=True)
class CreateHero(Plain):
    """A hero with every detail the Exposure ladder can reveal and the starting scores.
    Motivation starts full at half the Objective score (rounded down). A hero starting at
    Exposure 2 or more has the ladder's details for those levels public already.

    ``reveal``: the GM's choices of those details instead, in level order. A public identity
    has its secret identity public from the start."""

    name: ClassVar[str] = "character create"
    player: str
    code_name: str
    secret_identity: str
    physical_description: str
    profession: str
    advantages: tuple[str, ...]
    weakness: str
    objective: str
    objective_score: int
    modus_operandi: str
    public_identity: bool = False
    exposure: int = 0
    popularity: int = STARTING_POPULARITY
    reward_points: int = 0
    violent: bool = False
    secretive: bool = False
    reveal: tuple[str, ...] = ()
    seat_player: bool = False  # seat a player who has none (``domain.seats.seated_players``)

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        rules = settings(view)
        created = self._created(view, rules.half(self.objective_score))
        if any(e.name == created.code_name for e in campaign.roster):
            raise errors.HeroNameTaken(name=created.code_name, rule="Hero Creation")
        choices = parse_details(self.reveal)
        ruling = HeroRuling(None, rules, campaign.session)
        ruling.add(created)
        if created.public_identity:
            ruling.reveal(
                Detail.SECRET_IDENTITY,
                RevealCause.PUBLIC_IDENTITY,
                level=None,
                suggested=None,
                source="HeroCreated",
            )
        levels = list(range(2, created.exposure + 1))
        if len(choices) > len(levels):
            raise errors.RevealChoiceUnused(given=len(choices), levels=len(levels))
        ruling.reveal_levels(levels, RevealCause.CREATION, choices, source="HeroCreated")
        joined = CharacterJoined(
            character_id=created.character_id, name=created.code_name, player=created.player
        )
        changes = (*ruling.changes(), Change(campaign.id, joined))
        return seated_players(campaign, changes) if self.seat_player else changes

    def _created(self, view: View, motivation: int) -> HeroCreated:
        check_objective_score(self.objective_score)
        if self.reward_points < 0:
            raise errors.NegativeRewardPoints(value=self.reward_points)
        advantages = tuple(a.strip() for a in self.advantages if a.strip())
        if not advantages:
            raise errors.MissingHeroField(field="at least one Advantage")
        return HeroCreated(
            character_id=view.new_id(),
            code_name=_text(self.code_name, "a code name"),
            player=_text(self.player, "a player"),
            secret_identity=_text(self.secret_identity, "a secret identity (a real name)"),
            public_identity=self.public_identity,
            physical_description=_text(self.physical_description, "a physical description"),
            profession=_text(self.profession, "a Profession"),
            advantages=advantages,
            weakness=_text(self.weakness, "a Weakness"),
            objective=_text(self.objective, "an Objective"),
            objective_score=self.objective_score,
            modus_operandi=_text(self.modus_operandi, "a Modus Operandi (MO)"),
            motivation=motivation,
            exposure=_score(self.exposure, "Exposure"),
            popularity=_score(self.popularity, "Popularity"),
            reward_points=self.reward_points,
            violent=self.violent,
            secretive=self.secretive,
        )


@frozen(kw_only=True)
class CreateNpc(Plain):
    """The GM brings in a non-player character: a villain, a rival, a crook. Its Profession,
    Advantages and Weakness are what the Ability Sequence reads (each optional); 'motivation'
    is its Motivation score, None for "a person without a Motivation score". An NPC's Motivation
    is spent in contests and comes back with days off, as a hero's does. `character show`
    shows it."""

    name: ClassVar[str] = "npc"
    character: str
    profession: str = ""
    advantages: tuple[str, ...] = ()
    weakness: str = ""
    motivation: int | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        name = self.character.strip()
        if not name:
            raise EmptyText(what="the NPC's name")
        if any(e.name == name for e in campaign.roster):
            raise errors.HeroNameTaken(name=name, rule="NPCs")
        if self.motivation is not None and self.motivation < 0:
            raise errors.MotivationOutOfRange(value=self.motivation)
        created = NpcCreated(
            character_id=view.new_id(),
            name=name,
            profession=self.profession.strip(),
            advantages=tuple(a.strip() for a in self.advantages if a.strip()),
            weakness=self.weakness.strip(),
            motivation=self.motivation,
        )
        joined = CharacterJoined(character_id=created.character_id, name=name, player=campaign.gm)
        return (Change(created.character_id, created), Change(campaign.id, joined))
