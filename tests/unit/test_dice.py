"""Dice: d66, flip, pools, entered and recorded dice, and how the engine refuses bad faces."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.audience import GMS
from domain.dice import (
    Die,
    EnteredDice,
    PoolMode,
    PoolRoll,
    RecordingDice,
    d66,
    d66_ordinal,
    flip,
    is_d66,
    parse_faces,
    roll_pool,
)
from domain.errors import DomainError, InvalidDieFace, NotEnoughDice, TooManyDice, UnreadableDice
from domain.rulesets.code_green.commands import DeclareTest
from engine import Engine
from engine.dice.sources import ConflictingDiceOptions, DiceSpec, SeededDice
from tests.conftest import place, refused, scene_with_s1

faces = st.integers(min_value=1, max_value=6)
ALL_D66 = tuple(10 * tens + ones for tens in range(1, 7) for ones in range(1, 7))
valid_d66 = st.sampled_from(ALL_D66)


# --- d66 and flip --------------------------------------------------------------------------------


@given(tens=faces, ones=faces)
def test_d66_is_first_die_tens_second_die_ones(tens: int, ones: int) -> None:
    """Any two d6 faces read as d66 give 10 × first + second, a valid d66 result."""
    dice = EnteredDice((tens, ones))
    value = d66(dice)
    dice.check_all_used()
    assert 10 * tens + ones == value
    assert is_d66(value)


def test_only_36_values_are_d66_results() -> None:
    """Between 0 and 99 exactly the values whose two digits are 1..6 are d66 results."""
    assert ALL_D66 == tuple(v for v in range(100) if is_d66(v))


@given(valid_d66)
def test_flip_is_an_involution_on_d66(value: int) -> None:
    """Flipping twice gives the roll back, and a flipped d66 is still a d66 result."""
    assert is_d66(flip(value))
    assert value == flip(flip(value))


@pytest.mark.parametrize("double", [11, 22, 33, 44, 55, 66])
def test_doubles_flip_to_themselves(double: int) -> None:
    """A double such as 11 flips to itself (so a duplicate double always needs a re-roll)."""
    assert double == flip(double)


def test_d66_ordinal_orders_the_36_results() -> None:
    """d66 order numbers the 36 results 0 (for 11) to 35 (for 66) without gaps."""
    assert list(range(36)) == [d66_ordinal(v) for v in ALL_D66]


# --- Pools ---------------------------------------------------------------------------------------


@given(st.lists(faces, min_size=1, max_size=12))
def test_pool_keeps_the_highest_face(rolled: list[int]) -> None:
    """A pool of n ≥ 1 dice rolls n faces and its result is the highest of them."""
    dice = EnteredDice(tuple(rolled))
    pool = roll_pool(dice, len(rolled))
    dice.check_all_used()
    expected = PoolRoll(
        size=len(rolled), mode=PoolMode.HIGHEST, faces=tuple(rolled), result=max(rolled)
    )
    assert expected == pool
    assert pool.result is not None
    assert 1 <= pool.result <= 6


@given(size=st.integers(min_value=-5, max_value=0), first=faces, second=faces)
def test_pool_of_zero_or_fewer_keeps_the_lowest_of_two(size: int, first: int, second: int) -> None:
    """A pool of zero or fewer dice rolls exactly two and keeps the lowest."""
    dice = EnteredDice((first, second))
    pool = roll_pool(dice, size)
    dice.check_all_used()
    expected = PoolRoll(
        size=size, mode=PoolMode.LOWEST_OF_TWO, faces=(first, second), result=min(first, second)
    )
    assert expected == pool


# --- Entered and recorded dice -------------------------------------------------------------------


def test_entered_dice_are_handed_out_in_order() -> None:
    """Entered faces come out in the order they were typed."""
    dice = EnteredDice((3, 1, 4))
    assert [3, 1, 4] == [dice.roll(6) for _ in range(3)]
    dice.check_all_used()


@pytest.mark.parametrize("face", [0, 7, -1])
def test_entered_face_that_a_d6_cannot_show_is_refused(face: int) -> None:
    """A 7 (or 0) cannot come up on a d6: it is refused with INVALID_DIE_FACE."""
    with pytest.raises(InvalidDieFace) as raised:
        EnteredDice((face,)).roll(6)
    assert "INVALID_DIE_FACE" == raised.value.code
    assert {"sides": 6, "face": face} == raised.value.data


@given(st.integers().filter(lambda f: not 1 <= f <= 6))
def test_any_face_outside_1_to_6_is_refused_on_a_d6(face: int) -> None:
    """Whatever the bad face, a d6 refuses it."""
    with pytest.raises(InvalidDieFace):
        EnteredDice((face,)).roll(6)


def test_a_7_is_a_valid_face_of_a_d10() -> None:
    """The face check depends on the die's size: 7 is fine on a d10."""
    assert 7 == EnteredDice((7,)).roll(10)


def test_entered_dice_running_out_is_refused() -> None:
    """Asking for more dice than were entered is refused with NOT_ENOUGH_DICE."""
    dice = EnteredDice((4,))
    dice.roll(6)
    with pytest.raises(NotEnoughDice) as raised:
        dice.roll(6)
    assert ("NOT_ENOUGH_DICE", {"given": 1}) == (raised.value.code, raised.value.data)


def test_entered_dice_left_over_are_refused() -> None:
    """Faces entered but not used are refused with TOO_MANY_DICE."""
    dice = EnteredDice((4, 2, 6))
    dice.roll(6)
    with pytest.raises(TooManyDice) as raised:
        dice.check_all_used()
    assert ("TOO_MANY_DICE", {"given": 3, "used": 1}) == (raised.value.code, raised.value.data)


def test_recording_dice_remember_every_die_in_order() -> None:
    """A recording source keeps each die's size and face in the order rolled."""
    dice = RecordingDice(EnteredDice((3, 5, 7)))
    assert 35 == d66(dice)
    dice.roll(10)
    assert [Die(sides=6, face=3), Die(sides=6, face=5), Die(sides=10, face=7)] == dice.rolled


def test_recording_dice_refuse_a_bad_face_from_any_source() -> None:
    """Even a source that skips the check cannot slip a 7 onto a d6 through the recorder."""

    class Loaded:
        def roll(self, sides: int) -> int:
            return 7

    with pytest.raises(InvalidDieFace):
        RecordingDice(Loaded()).roll(6)


@pytest.mark.parametrize(
    ("text", "expected"), [("3,5", (3, 5)), ("3 5", (3, 5)), (" 6 , 1 ", (6, 1))]
)
def test_typed_faces_are_read(text: str, expected: tuple[int, ...]) -> None:
    """Faces are typed separated by commas or spaces."""
    assert expected == parse_faces(text)


def test_unreadable_faces_are_refused() -> None:
    """A face that is not a whole number is refused with UNREADABLE_DICE."""
    with pytest.raises(UnreadableDice) as raised:
        parse_faces("3,x")
    assert "UNREADABLE_DICE" == raised.value.code
    assert raised.value.reason.endswith("(e.g. --dice 3,5); got '3,x'")


def test_a_face_too_long_to_read_names_what_was_typed() -> None:
    """Digits past what Python reads as a number are refused naming the text typed."""
    typed = "3," + "9" * 5000
    with pytest.raises(UnreadableDice) as raised:
        parse_faces(typed)
    assert typed == raised.value.data["text"]


@pytest.mark.parametrize("faces", [(7, 2), (2, 7)])
def test_a_zero_pool_rolls_two_d6_not_a_d7(faces: tuple[int, int]) -> None:
    """DIGEST §1.2 pool(n) n <= 0: two d6 keep the lowest; a 7 on either die is refused."""
    with pytest.raises(InvalidDieFace):
        roll_pool(EnteredDice(faces), 0)


def test_faces_and_seed_together_are_refused() -> None:
    """A ruling's dice are either entered faces or seeded digital dice, not both."""
    with pytest.raises(ConflictingDiceOptions):
        DiceSpec(faces=(1,), seed=1)


@given(st.integers(min_value=0, max_value=2**32))
def test_seeded_dice_repeat_and_stay_in_range(seed: int) -> None:
    """The same seed gives the same d6 faces, each 1..6."""
    one, other = SeededDice(seed), SeededDice(seed)
    run = [one.roll(6) for _ in range(20)]
    assert run == [other.roll(6) for _ in range(20)]
    assert all(1 <= face <= 6 for face in run)


# --- Through the engine --------------------------------------------------------------------------


def _ready(engine: Engine) -> str:
    """S1 with tokens R1C1, R2C2, R3C3: an Invulnerable Legs test rolls a pool of 2."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    return who


def test_engine_records_the_dice_rolled(engine: Engine) -> None:
    """A ruling records each die it used, size and face, in roll order."""
    who = _ready(engine)
    result = engine.execute(
        "Lab",
        DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True),
        dice=DiceSpec(faces=(2, 5)),
    )
    assert (Die(sides=6, face=2), Die(sides=6, face=5)) == result.dice


@pytest.mark.parametrize(
    ("entered", "error", "code"),
    [
        pytest.param((2, 7), InvalidDieFace, "INVALID_DIE_FACE", id="a-7-on-a-d6"),
        pytest.param((5,), NotEnoughDice, "NOT_ENOUGH_DICE", id="one-face-for-a-pool-of-2"),
        pytest.param((2, 5, 6), TooManyDice, "TOO_MANY_DICE", id="three-faces-for-a-pool-of-2"),
    ],
)
def test_engine_refuses_bad_entered_dice_and_appends_nothing(
    engine: Engine, entered: tuple[int, ...], error: type[DomainError], code: str
) -> None:
    """Entered dice that do not fit the roll refuse the whole ruling; nothing is recorded."""
    who = _ready(engine)
    command = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
    assert code == refused(engine, command, error, faces=entered).code  # also: nothing appended
    assert not engine.character("Lab", who, audience=GMS).adaptation_pending
