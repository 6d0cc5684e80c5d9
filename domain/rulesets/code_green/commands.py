"""Code Green's commands: each decides, from the state and the dice, the events of one ruling."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource, PoolMode, d66, flip, roll_pool
from domain.errors import EmptyText
from domain.events import CharacterJoined, Event
from domain.rulesets.code_green import errors
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    Adapted,
    AssistanceGiven,
    AssistanceReceived,
    CharacterCreated,
    Incapacitated,
    InitialTokensPlaced,
    NameRolled,
    Recovered,
    StrainRolled,
    StrainSuffered,
    TestDeclared,
    TestRolled,
    TokenDisplaced,
    TokenPlaced,
    TokenRemoved,
    TraitRolled,
)
from domain.rulesets.code_green.settings import Settings, settings_from
from domain.rulesets.code_green.state import (
    CgCharacter,
    check_adaptation,
    check_can_assist,
    check_can_test,
    check_destination,
    check_move,
    check_no_displacement,
    evolve,
)
from domain.rulesets.code_green.tables import (
    Band,
    Form,
    Function,
    Square,
    Table,
    Trait,
    band_for,
    consulted_squares,
    find_trait,
    square_for,
    trait_for,
)

MAX_PLAYERS = 6
ROLL = "roll"
_REROLL_LIMIT = 100  # a runaway dice source is refused rather than looped on forever


def settings(view: View) -> Settings:
    return settings_from(view.campaign.house_rules)


def character(view: View, ref: str) -> CgCharacter:
    state: CgCharacter = view.character(view.campaign.find(ref).character_id)
    return state


def parse_square(c: CgCharacter, text: str) -> Square:
    """A square named as R1C2 or by its pair of traits (Legs/Invulnerable, Invulnerable Legs)."""
    cleaned = text.strip()
    if re.fullmatch(r"[Rr][1-3][Cc][1-3]", cleaned):
        return Square(cleaned.upper())
    words = [w for w in re.split(r"[\s/×x+,*-]+", cleaned) if w]
    if len(words) == 2:
        forms = [f for w in words if (f := find_trait(Table.FORM, w)) in c.form]
        functions = [f for w in words if (f := find_trait(Table.FUNCTION, w)) in c.function]
        if len(forms) == 1 and len(functions) == 1:
            return c.square_of(forms[0], functions[0])  # type: ignore[arg-type]
    raise errors.UnknownSquare(text=text)


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
    for _ in range(_REROLL_LIMIT):
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
class CreateCharacter:
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
class PlaceTokens:
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
    for _ in range(_REROLL_LIMIT):
        value = d66(dice)
        for candidate, flipped in ((value, False), (flip(value), True)):
            attempts.append(candidate)
            square = square_for(candidate, layout)  # type: ignore[arg-type]
            if square not in taken:
                return TokenPlaced(
                    square=square, rolled=True, attempts=tuple(attempts), flipped=flipped
                )
    raise errors.DuplicateSquare(square="every roll")


# --- Tests and assistance -----------------------------------------------------------------------


def _open_test_holder(view: View) -> CgCharacter | None:
    for entry in view.campaign.roster:
        c: CgCharacter = view.character(entry.character_id)
        if c.test is not None and not c.test.rolled:
            return c
    return None


def _rolled_test_holder(view: View) -> CgCharacter | None:
    for entry in view.campaign.roster:
        c: CgCharacter = view.character(entry.character_id)
        if c.adaptation_pending:
            return c
    return None


def _roll(c: CgCharacter, dice: DiceSource) -> TestRolled:
    test = c.test
    if test is None:
        raise errors.NoOpenTest(who=c.name)
    if test.rolled:
        raise errors.TestAlreadyRolled(name=c.name, test=test.number)
    if test.form is None and not test.assists:
        return TestRolled(
            test=test.number,
            pool=0,
            mode=PoolMode.NO_ROLL,
            dice=(),
            result=None,
            band=Band.LESS_THAN_HUMAN,
        )
    pool = roll_pool(dice, test.pool)
    return TestRolled(
        test=test.number,
        pool=test.pool,
        mode=pool.mode,
        dice=pool.faces,
        result=pool.result,
        band=band_for(pool.result),
    )


@frozen
class DeclareTest:
    """Declare a test with a Form and a Function trait (both None: no applicable pair).

    With ``roll`` the pool is rolled at once, in the same ruling (no assistance possible)."""

    name: ClassVar[str] = "test"
    character: str
    form: str | None
    function: str | None
    roll: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        check_can_test(c)
        other = _open_test_holder(view)
        if other is not None and other.test is not None:
            raise errors.AnotherTestOpen(name=other.name, test=other.test.number)
        declared = self._declaration(c)
        events: list[TestDeclared | TestRolled] = [declared]
        if self.roll:
            after = evolve(declared, c)
            events.append(_roll(after, dice))  # type: ignore[arg-type]
        return tuple(Change(c.id, e) for e in events)

    def _declaration(self, c: CgCharacter) -> TestDeclared:
        if self.form is None and self.function is None:
            return TestDeclared(
                test=c.tests + 1, form=None, function=None, consulted=(), own_tokens=0
            )
        given = f"{self.form or '-'} and {self.function or '-'}"
        if self.form is None or self.function is None:
            raise errors.PairMustBeFormAndFunction(given=given)
        form = find_trait(Table.FORM, self.form)
        function = find_trait(Table.FUNCTION, self.function)
        if form is None and function is None:
            # Given the other way round (Function first)?
            form = find_trait(Table.FORM, self.function)
            function = find_trait(Table.FUNCTION, self.form)
        if form is None or function is None:
            raise errors.PairMustBeFormAndFunction(given=given)
        if form not in c.form:
            own = ", ".join(c.form)
            raise errors.TraitNotOnSheet(name=c.name, table=Table.FORM, trait=form, own=own)
        if function not in c.function:
            own = ", ".join(c.function)
            raise errors.TraitNotOnSheet(name=c.name, table=Table.FUNCTION, trait=function, own=own)
        square = c.square_of(form, function)  # type: ignore[arg-type]
        consulted = consulted_squares(square.row, square.column)
        return TestDeclared(
            test=c.tests + 1,
            form=form,  # type: ignore[arg-type]
            function=function,  # type: ignore[arg-type]
            consulted=consulted,
            own_tokens=len(c.tokens & set(consulted)),
        )


@frozen
class AssistTest:
    """Hand one die to the declared test, using the pair under one of the helper's tokens."""

    name: ClassVar[str] = "assist"
    helper: str
    square: str
    justification: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        helper = character(view, self.helper)
        tester = _open_test_holder(view)
        if tester is None or tester.test is None:
            rolled = _rolled_test_holder(view)
            if rolled is not None and rolled.test is not None:
                raise errors.TestAlreadyRolled(name=rolled.name, test=rolled.test.number)
            raise errors.NoOpenTest(who="nobody")
        if tester.id == helper.id:
            raise errors.CannotAssistOwnTest(name=helper.name)
        square = parse_square(helper, self.square)
        check_can_assist(helper, square)
        if any(a.helper == helper.id for a in tester.test.assists):
            raise errors.AlreadyAssistedThisTest(name=helper.name)
        why = self.justification.strip()
        if not why:
            raise EmptyText(what="the explanation of how the helper's pair helps")
        form, function = helper.pair(square)
        number = tester.test.number
        received = AssistanceReceived(
            test=number,
            helper=helper.id,
            helper_name=helper.name,
            square=square,
            form=form,
            function=function,
            justification=why,
        )
        given = AssistanceGiven(
            tester=tester.id,
            tester_name=tester.name,
            test=number,
            square=square,
            form=form,
            function=function,
            justification=why,
        )
        return (Change(tester.id, received), Change(helper.id, given))


@frozen
class RollTest:
    """Roll the declared test's pool (the character's, or whichever test is waiting)."""

    name: ClassVar[str] = "roll"
    character: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        if self.character is None:
            c = _open_test_holder(view)
            if c is None:
                raise errors.NoOpenTest(who="nobody")
        else:
            c = character(view, self.character)
        return (Change(c.id, _roll(c, dice)),)


# --- Strain, displacement, adaptation, recovery ----------------------------------------------


def _displace(c: CgCharacter, destination: str) -> TokenDisplaced:
    if c.displacement is None:
        raise errors.NoDisplacementPending(name=c.name)
    square = parse_square(c, destination)
    check_destination(c, square)
    return TokenDisplaced(source=c.displacement, destination=square)


@frozen
class SufferStrain:
    """The GM rules that the character's last test causes strain: roll d66 for the square struck.

    ``destination`` (optional) is where a struck token goes, if it must move."""

    name: ClassVar[str] = "strain"
    character: str
    destination: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        c = character(view, self.character)
        rules = settings(view)
        if c.incapacitated:
            raise errors.AlreadyIncapacitated(name=c.name)
        check_no_displacement(c)
        test = c.test.number if c.adaptation_pending and c.test else None
        if test is None and not rules.environmental_strain:
            raise errors.NoTestForStrain(name=c.name)
        if c.test is not None and test is not None:
            limit = rules.max_strain_per_test
            if limit and c.test.strains >= limit:
                raise errors.StrainLimitReached(test=test, count=c.test.strains, limit=limit)
        value = d66(dice)
        square = square_for(value, rules.grid)
        events: list[Event] = [StrainRolled(test=test, d66=value, square=square)]
        if square in c.marks:
            events.append(Incapacitated(square=square, d66=value))
        else:
            events.append(StrainSuffered(square=square, marks=len(c.marks) + 1))
            if square in c.tokens:
                if len(Square) - (len(c.marks) + 1) < 3:
                    events.append(TokenRemoved(square=square))
                elif self.destination is not None:
                    after: CgCharacter | None = c
                    for event in events:
                        after = evolve(event, after)
                    assert after is not None
                    events.append(_displace(after, self.destination))
        return tuple(Change(c.id, e) for e in events)


@frozen
class DisplaceToken:
    """Move the token strain struck to an empty, unmarked square of the player's choice."""

    name: ClassVar[str] = "displace"
    character: str
    destination: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        return (Change(c.id, _displace(c, self.destination)),)


@frozen
class Adapt:
    """After a test, move one token to a different free square (no squares: nothing can move)."""

    name: ClassVar[str] = "adapt"
    character: str
    source: str | None = None
    destination: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        test = check_adaptation(c)
        moves = c.legal_moves()
        if not moves:
            # "... unless no valid destinations are available": the tokens stay where they are.
            reason = "no tokens" if not c.tokens else "no valid destination"
            return (Change(c.id, AdaptationImpossible(test=test.number, reason=reason)),)
        if self.source is None or self.destination is None:
            example = " ".join(moves[0]) if moves else "R1C1 R1C2"
            raise errors.AdaptationChoiceRequired(name=c.name, example=example)
        source = parse_square(c, self.source)
        destination = parse_square(c, self.destination)
        check_move(c, source, destination)
        return (Change(c.id, Adapted(test=test.number, source=source, destination=destination)),)


@frozen
class Recover:
    """The GM rules that an incapacitated character recovers."""

    name: ClassVar[str] = "recover"
    character: str

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        c = character(view, self.character)
        if not c.incapacitated:
            raise errors.NotIncapacitated(name=c.name)
        return (Change(c.id, Recovered(reason="GM ruling")),)
