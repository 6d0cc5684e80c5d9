"""Code Green's rule tests share these: the S1 character (Legs, Tail, Teeth x Cryptic,
Invulnerable, Phasing) and the histories it is replayed from, a second character of player bob,
and ``FakeView`` (a campaign in a running scene and its characters, held in memory) to decide
commands on with entered dice.

Domain tests read: given events -> when command -> then events (or a refusal)."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from attrs import define
from attrs import evolve as replace

from domain.campaign import CampaignState, RosterEntry
from domain.commands import Command
from domain.dice import EnteredDice, PoolMode
from domain.events import Event
from domain.rulesets.code_green import RULESET
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import DeclareTest
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    Adapted,
    AssistanceReceived,
    CharacterCreated,
    Incapacitated,
    InitialTokensPlaced,
    StrainRolled,
    StrainSuffered,
    TokenDisplaced,
    TokenPlaced,
    TokenRemoved,
)
from domain.rulesets.code_green.settings import house_rules
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import Band, Form, Function, Square

R1C1, R1C2, R1C3 = Square.R1C1, Square.R1C2, Square.R1C3
R2C1, R2C2, R2C3 = Square.R2C1, Square.R2C2, Square.R2C3
R3C1, R3C2, R3C3 = Square.R3C1, Square.R3C2, Square.R3C3

# DIGEST CG-A1: four consecutive d66 results a square, row by row.
CONTIGUOUS = {
    R1C1: (11, 12, 13, 14), R1C2: (15, 16, 21, 22), R1C3: (23, 24, 25, 26),
    R2C1: (31, 32, 33, 34), R2C2: (35, 36, 41, 42), R2C3: (43, 44, 45, 46),
    R3C1: (51, 52, 53, 54), R3C2: (55, 56, 61, 62), R3C3: (63, 64, 65, 66),
}  # fmt: skip

CID = UUID(int=1)
HELPER = UUID(int=2)
S1 = CharacterCreated(
    character_id=CID,
    name="31415",
    player="alice",
    form=(Form.LEGS, Form.TAIL, Form.TEETH),
    function=(Function.CRYPTIC, Function.INVULNERABLE, Function.PHASING),
)


def history(*events: Event, start: CgCharacter | None = None) -> CgCharacter:
    state = start
    for event in (S1, *events) if start is None else events:
        state = evolve(event, state)
    assert state is not None
    return state


def placed(*squares: Square) -> tuple[Event, ...]:
    tokens = tuple(TokenPlaced(square=s, rolled=False, attempts=(), flipped=False) for s in squares)
    return (*tokens, InitialTokensPlaced(squares=squares))


def rolled_test(number: int) -> tuple[Event, ...]:
    """A test with no applicable pair, rolled (nothing rolled): adaptation is due."""
    return (
        cg.TestDeclared(test=number, form=None, function=None, consulted=(), own_tokens=0),
        cg.TestRolled(
            test=number,
            pool=0,
            mode=PoolMode.NO_ROLL,
            dice=(),
            result=None,
            band=Band.LESS_THAN_HUMAN,
        ),
    )


def strained(test: int | None, value: int, square: Square, marks: int) -> tuple[Event, ...]:
    return (
        StrainRolled(test=test, d66=value, square=square),
        StrainSuffered(square=square, marks=marks),
    )


PLACED = placed(R1C1, R2C2, R3C3)


def seven_marks_struck_r3c2() -> CgCharacter:
    rows_1_and_2 = (R1C1, R1C2, R1C3, R2C1, R2C2, R2C3)
    strains: list[Event] = []
    for n, square in enumerate(rows_1_and_2, start=1):
        strains += strained(None, CONTIGUOUS[square][0], square, n)
    return history(
        *placed(R3C1, R3C2, R3C3),
        *strains,
        *rolled_test(1),
        *strained(1, 55, R3C2, 7),
        TokenRemoved(square=R3C2),
    )


def adapt(test: int, source: Square, destination: Square) -> Adapted:
    return Adapted(test=test, source=source, destination=destination)


def displace(source: Square, destination: Square) -> TokenDisplaced:
    return TokenDisplaced(source=source, destination=destination)


def received(square: Square) -> AssistanceReceived:
    """This character's test 1 got a die from HELPER, using HELPER's square ``square``."""
    form, function = history().pair(square)
    return AssistanceReceived(
        test=1,
        helper=HELPER,
        helper_name="26535",
        square=square,
        form=form,
        function=function,
        justification="j",
    )


DECLARED = (*PLACED, rolled_test(1)[0])
PENDING = (*PLACED, *rolled_test(1))
MARKED_R1C2 = (*PENDING, *strained(1, 15, R1C2, 1))
DISPLACING = (*PENDING, *strained(1, 11, R1C1, 1))

INCAPACITATED = (
    *MARKED_R1C2,
    adapt(1, R1C1, R1C3),
    *rolled_test(2),
    StrainRolled(test=2, d66=16, square=R1C2),
    Incapacitated(square=R1C2, d66=16),
)

NO_MOVE_LEFT = AdaptationImpossible(test=1, reason="no valid destination")


@define
class FakeView:
    """A campaign in a running scene and its characters, held in memory."""

    campaign: CampaignState
    characters: dict[UUID, CgCharacter]

    def character(self, character_id: UUID) -> Any:
        return self.characters[character_id]

    def new_id(self) -> UUID:
        return uuid4()


def view_of(*characters: CgCharacter, **rules: str) -> FakeView:
    campaign = CampaignState(
        id=UUID(int=0),
        name="Lab",
        system="code-green",
        gm="GM",
        house_rules=house_rules(rules),
        roster=tuple(
            RosterEntry(character_id=c.id, name=c.name, player=c.player) for c in characters
        ),
        session=1,
        sessions=1,
        scene=1,
        scenes=1,
        stage="The lab wakes up",
    )
    return FakeView(campaign=campaign, characters={c.id: c for c in characters})


def decide(command: Command, view: FakeView, faces: tuple[int, ...] = ()) -> tuple[Event, ...]:
    """The events the command decides on, having used exactly the faces given."""
    dice = EnteredDice(faces)
    changes = command.decide(view, dice)
    dice.check_all_used()
    return tuple(change.event for change in changes)


def end_scene(view: FakeView) -> tuple[Event, ...]:
    return tuple(change.event for change in RULESET.end_scene(view))


def struck_and_incapacitated() -> CgCharacter:
    return history(*INCAPACITATED, Adapted(test=2, source=R1C3, destination=R2C1))


def bob(*events: Event) -> CgCharacter:
    """A second S1 character, '26535' of player bob, with its own history."""
    state = evolve(replace(S1, character_id=HELPER, name="26535", player="bob"), None)
    for event in events:
        state = evolve(event, state)
    assert state is not None
    return state


def me(*events: Event) -> CgCharacter:
    """The S1 character '31415' of player alice, after ``events``."""
    return history(*events)


WELL = (*PLACED,)

BOB_PLACED = placed(R1C1, R2C2, R3C3)


def declare(form: str | None, function: str | None) -> DeclareTest:
    return DeclareTest(character="31415", form=form, function=function)
