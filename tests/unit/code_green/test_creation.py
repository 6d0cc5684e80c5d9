"""Code Green's character creation (creation.py, R-CG-01): the traits picked or rolled from Table
1 and Table 2, the name rolled on five d6, a party of up to six, and renaming."""

from __future__ import annotations

from uuid import UUID

import pytest
from attrs import evolve as replace

from domain.errors import DomainError
from domain.events import CharacterJoined
from domain.rulesets.code_green import errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import CreateCharacter, RenameCharacter
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import Form
from tests.conftest import S1_FORM, S1_FUNCTION
from tests.unit.code_green.conftest import S1, decide, me, view_of


@pytest.mark.parametrize(
    ("form", "error"),
    [
        pytest.param(("Legs", "Tail"), errors.TraitCountInvalid, id="two-form-traits"),
        pytest.param(("Legs", "Tail", "Wheels"), errors.UnknownTrait, id="not-on-the-table"),
        pytest.param(("Legs", "Tail", "legs"), errors.DuplicateTrait, id="chosen-twice"),
        pytest.param(("Legs", "Tail", "Cryptic"), errors.UnknownTrait, id="function-as-form"),
    ],
)
def test_create_character_refuses_bad_picks(
    form: tuple[str, ...], error: type[DomainError]
) -> None:
    """Three different Form traits from Table 1 are needed (Character Creation)."""
    command = CreateCharacter(player="alice", form=form, function=S1_FUNCTION)
    with pytest.raises(error):
        decide(command, view_of(), (3, 1, 4, 1, 5))


def test_an_unknown_function_trait_lists_the_function_table() -> None:
    """R-CG-01 (Table 2): an unknown Function pick is refused with the Function table's entries."""
    create = CreateCharacter(player="cy", form=S1_FORM, function=("Toxic", "Cryptic", "Laser"))
    with pytest.raises(DomainError) as raised:
        decide(create, view_of())
    expected = (
        "UNKNOWN_TRAIT: 'Laser' is not on the function table; choose one of: Accelerated, "
        "Autonomous, Auxiliary, Cryogenic, Cryptic, Elastic, Electric, Entropic, Invasive, "
        "Invulnerable, Kinetic, Magnetic, Phasing, Polymorphic, Projectile, Pyrogenic, "
        "Telescopic, Toxic (Character Creation)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_trait_that_rolls_duplicates_forever_is_refused() -> None:
    """R-CG-01: a duplicate is flipped, then re-rolled; a dice source that never stops giving
    duplicates is refused after 100 re-rolls rather than looped on."""
    create = CreateCharacter(player="cy", form=("Blood", "Bones", "roll"), function=S1_FUNCTION)
    with pytest.raises(DomainError) as raised:
        decide(create, view_of(), (1,) * 200)
    expected = (
        "DUPLICATE_TRAIT: every roll is chosen twice; your three form traits must differ "
        "(Character Creation)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_second_rolled_pick_may_not_repeat_the_first() -> None:
    """R-CG-01 (G-CG-16): 11 (Blood) rolled for the first pick; the second rolls 11 again:
    a duplicate, its flip too, so it re-rolls 13 (Bones)."""
    create = CreateCharacter(player="cy", form=("roll", "roll", "Legs"), function=S1_FUNCTION)
    events = decide(create, view_of(), (1, 1, 1, 1, 1, 3, 3, 1, 4, 1, 5))
    created = next(e for e in events if isinstance(e, cg.CharacterCreated))
    assert (Form.BLOOD, Form.BONES, Form.LEGS) == created.form
    rolled = [(e.d66, e.flipped, e.discarded) for e in events if isinstance(e, cg.TraitRolled)]
    assert [(11, False, False), (11, False, True), (11, True, True), (13, False, False)] == rolled


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ((3, 1, 4, 1, 7), "INVALID_DIE_FACE: a d6 has faces 1 to 6; 7 cannot come up"),
        (
            (3, 1, 4, 1, 5),
            "NAME_TAKEN: '31415' is already a character's name in this campaign "
            "(Character Creation)",
        ),
    ],
    ids=["d7", "taken"],
)
def test_the_rolled_name_is_five_d6_not_taken(faces: tuple[int, ...], message: str) -> None:
    """R-CG-01 (G-CG-14): the name is five d6 in roll order; a name another character has
    already is refused."""
    create = CreateCharacter(player="cy", form=S1_FORM, function=S1_FUNCTION)
    with pytest.raises(DomainError) as raised:
        decide(create, view_of(me()), faces)
    assert message == f"{raised.value.code}: {raised.value.reason}"


def test_a_seventh_character_is_refused() -> None:
    """Code Green is for up to six players: a seventh character is refused with PARTY_FULL."""
    six = [
        CgCharacter(
            id=UUID(int=n), name=f"1111{n}", player=f"p{n}", form=S1.form, function=S1.function
        )
        for n in range(1, 7)
    ]
    command = CreateCharacter(player="gus", form=S1_FORM, function=S1_FUNCTION)
    with pytest.raises(errors.PartyFull) as raised:
        decide(command, view_of(*six), (3, 1, 4, 1, 5))
    assert "PARTY_FULL" == raised.value.code
    sixth = decide(command, view_of(*six[:5]), (3, 1, 4, 1, 5))
    assert ["31415"] == [e.name for e in sixth if isinstance(e, CharacterJoined)]


def test_a_seventh_character_is_refused_with_the_count() -> None:
    """Campaign: one GM and up to six players (PartyFull)."""
    party = [
        evolve(replace(S1, character_id=UUID(int=10 + n), name=f"1111{n}", player=f"p{n}"), None)
        for n in range(1, 7)
    ]
    create = CreateCharacter(player="cy", form=S1_FORM, function=S1_FUNCTION)
    with pytest.raises(DomainError) as raised:
        decide(create, view_of(*[p for p in party if p is not None]), (1, 1, 1, 1, 1))
    expected = (
        "PARTY_FULL: Code Green is for up to six players; this campaign has 6 characters already"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_new_name_may_be_80_characters() -> None:
    """R-CG-01 (CharacterRenamed): a name of 1 to 80 printable characters; 80 is allowed."""
    events = decide(RenameCharacter(character="31415", new_name="x" * 80), view_of(me()))
    assert ["x" * 80] == [e.name for e in events if isinstance(e, cg.CharacterRenamed)]
