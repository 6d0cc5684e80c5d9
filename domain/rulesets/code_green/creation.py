"""Character Creation: three Form and three Function traits, chosen or rolled, and a rolled name
(the only name a character has when play begins: it may take another later)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource, d66, flip
from domain.errors import EmptyText, NameTaken
from domain.events import CharacterJoined, RosterRenamed
from domain.plain import Plain
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.checks import check_new_name
from domain.rulesets.code_green.events import (
    CharacterCreated,
    CharacterRenamed,
    NameRolled,
    TraitRolled,
)
from domain.rulesets.code_green.lookup import REROLL_LIMIT, ROLL, character
from domain.rulesets.code_green.tables import Form, Function, Table, Trait, find_trait, trait_for
from domain.seats import seated_players

MAX_PLAYERS = 6


def _pick_traits(
    table: Table, picks: Sequence[str], dice: DiceSource
) -> tuple[tuple[Trait, ...], list[TraitRolled]]:
    if len(picks) != 3:
        raise errors.TraitCountInvalid(table=table, count=len(picks))
    entries = [t.value for t in (Form if table is Table.FORM else Function)]
    chosen: list[Trait | None] = []
    for pick in picks:
        if pick.strip().lower() == ROLL:
            chosen.append(None)
            continue
        trait = find_trait(table, pick)
        if trait is None:
            raise errors.UnknownTrait(table=table, trait=pick, known=", ".join(entries))
        if trait in chosen:
            raise errors.DuplicateTrait(table=table, trait=trait)
        chosen.append(trait)
    taken = {t for t in chosen if t is not None}
    rolls: list[TraitRolled] = []
    for slot, trait in enumerate(chosen):
        if trait is None:
            chosen[slot] = _roll_trait(table, taken, dice, rolls)
            taken.add(chosen[slot])  # type: ignore[arg-type]
    return tuple(t for t in chosen if t is not None), rolls


def _roll_trait(table: Table, taken: set[Trait], dice: DiceSource, log: list[TraitRolled]) -> Trait:
    """Roll; on a duplicate flip; if still a duplicate roll again (Character Creation)."""
    for _ in range(REROLL_LIMIT):
        value = d66(dice)
        for candidate, flipped in ((value, False), (flip(value), True)):
            trait = trait_for(table, candidate)
            duplicate = trait in taken
            log.append(
                TraitRolled(
                    table=table, d66=candidate, flipped=flipped, trait=trait, discarded=duplicate
                )
            )
            if not duplicate:
                return trait
    raise errors.DuplicateTrait(table=table, trait="every roll")


@frozen(kw_only=True)
class CreateCharacter(Plain):
    """Choose three Form and three Function traits (in slot order), then roll five d6 for the
    name. Each trait is named, or 'roll' for a d66; rolled duplicates are flipped, then re-rolled
    (Character Creation). The dice are drawn in the order rolled: two per d66 for each rolled
    trait, then the five name dice."""

    name: ClassVar[str] = "character create"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    player: str
    form: tuple[str, ...]
    function: tuple[str, ...]
    seat_player: bool = False  # seat a player who has none (``domain.seats.seated_players``)

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        if not self.player.strip():
            raise EmptyText(what="the player's name")
        if len(campaign.roster) >= MAX_PLAYERS:
            raise errors.PartyFull(count=len(campaign.roster))
        form, form_rolls = _pick_traits(Table.FORM, self.form, dice)
        function, function_rolls = _pick_traits(Table.FUNCTION, self.function, dice)
        name_dice = tuple(dice.roll(6) for _ in range(5))
        name = "".join(str(face) for face in name_dice)
        if any(e.name == name for e in campaign.roster):
            raise NameTaken(name=name, rule="Character Creation")
        cid = view.new_id()
        created = CharacterCreated(
            character_id=cid,
            name=name,
            player=self.player.strip(),
            form=form,  # type: ignore[arg-type]
            function=function,  # type: ignore[arg-type]
        )
        own = (*form_rolls, *function_rolls, NameRolled(dice=name_dice, name=name), created)
        joined = CharacterJoined(character_id=cid, name=name, player=created.player)
        changes = (*(Change(cid, e) for e in own), Change(campaign.id, joined))
        return seated_players(campaign, changes) if self.seat_player else changes


@frozen(kw_only=True)
class RenameCharacter(Plain):
    """Give a character a new name: its five rolled digits are only the name it has when play
    begins (Character Creation). The log keeps the old name; the roster knows it by the new name
    from then on."""

    name: ClassVar[str] = "character rename"
    character: str
    new_name: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        c = character(view, self.character)
        name = self.new_name.strip()
        if not name:
            raise EmptyText(what="the character's new name")
        check_new_name(c, name)
        if any(e.name.lower() == name.lower() and e.character_id != c.id for e in campaign.roster):
            raise NameTaken(name=name, rule="Character Creation")
        players = {e.player for e in campaign.roster} | {m.name for m in campaign.members}
        if name in players:
            raise errors.NameIsAPlayer(name=name)
        renamed = CharacterRenamed(previous=c.name, name=name)
        return (
            Change(c.id, renamed),
            Change(campaign.id, RosterRenamed(character_id=c.id, name=name)),
        )
