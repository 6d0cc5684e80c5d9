"""Making a character and placing its tokens at the start of a scene."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource, d66, flip
from domain.errors import EmptyText
from domain.events import CharacterJoined
from domain.plain import Plain
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.events import (
    CharacterCreated,
    InitialTokensPlaced,
    NameRolled,
    TokenPlaced,
    TraitRolled,
)
from domain.rulesets.code_green.lookup import REROLL_LIMIT, ROLL, character, parse_square, settings
from domain.rulesets.code_green.tables import (
    Form,
    Function,
    Square,
    Table,
    Trait,
    find_trait,
    square_for,
    trait_for,
)

MAX_PLAYERS = 6

# --- Character creation -------------------------------------------------------------------------


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


@frozen
class CreateCharacter(Plain):
    """Roll or choose three Form and three Function traits (in slot order), then roll the name."""

    name: ClassVar[str] = "character create"
    player: str
    form: tuple[str, ...]
    function: tuple[str, ...]

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
            raise errors.NameTaken(name=name)
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
        return (*(Change(cid, e) for e in own), Change(campaign.id, joined))


# --- Token placement ----------------------------------------------------------------------------


@frozen
class PlaceTokens(Plain):
    """Place the three tokens at the start of a scene: each a square, or 'roll' for a d66."""

    name: ClassVar[str] = "place"
    character: str
    squares: tuple[str, ...]

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        if c.placed:
            raise errors.TokensAlreadyPlaced(name=c.name)
        if len(self.squares) != 3:
            raise errors.NotThreeTokens(count=len(self.squares))
        layout = settings(view).grid
        picks: list[Square | None] = []
        for text in self.squares:
            square = None if text.strip().lower() == ROLL else parse_square(c, text)
            if square is not None and square in picks:
                raise errors.DuplicateSquare(square=square)
            if square is not None and square in c.marks:
                raise errors.SquareMarked(square=square)
            picks.append(square)
        taken = {s for s in picks if s is not None} | set(c.marks)
        events: list[TokenPlaced] = []
        for square in picks:
            if square is not None:
                events.append(TokenPlaced(square=square, rolled=False, attempts=(), flipped=False))
                continue
            placed = _roll_square(taken, layout, dice)
            taken.add(placed.square)
            events.append(placed)
        squares = tuple(e.square for e in events)
        done = InitialTokensPlaced(squares=squares)
        return tuple(Change(c.id, e) for e in (*events, done))


def _roll_square(taken: set[Square], layout: object, dice: DiceSource) -> TokenPlaced:
    """Roll d66 for a token; on an occupied square flip, if still occupied roll again (CG-A7)."""
    attempts: list[int] = []
    for _ in range(REROLL_LIMIT):
        value = d66(dice)
        for candidate, flipped in ((value, False), (flip(value), True)):
            attempts.append(candidate)
            square = square_for(candidate, layout)  # type: ignore[arg-type]
            if square not in taken:
                return TokenPlaced(
                    square=square, rolled=True, attempts=tuple(attempts), flipped=flipped
                )
    raise errors.DuplicateSquare(square="every roll")
