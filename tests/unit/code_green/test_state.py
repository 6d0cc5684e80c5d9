"""Code Green's strict replay (state.py, with the d66 checks of checks.py): a character's events
fold into its state, and an event the state could not have produced is refused."""

from __future__ import annotations

import pytest

from domain.dice import PoolMode
from domain.errors import DomainError, ReplayMismatch
from domain.events import Event, NoteAdded
from domain.rulesets.code_green import errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.events import (
    Adapted,
    AssistanceGiven,
    Incapacitated,
    NameRolled,
    Recovered,
    StrainRolled,
    TokenDisplaced,
    TokenPlaced,
    TokenRemoved,
    TokensReturned,
    TraitRolled,
)
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import Band, Form, Function, Square, Table, consulted_squares
from tests.unit.code_green.conftest import (
    DECLARED,
    DISPLACING,
    HELPER,
    INCAPACITATED,
    MARKED_R1C2,
    NO_MOVE_LEFT,
    PENDING,
    PLACED,
    R1C1,
    R1C2,
    R1C3,
    R2C1,
    R2C2,
    R2C3,
    R3C1,
    R3C3,
    S1,
    WELL,
    adapt,
    displace,
    history,
    me,
    placed,
    received,
    rolled_test,
    seven_marks_struck_r3c2,
    strained,
)


def test_a_history_replays_to_the_character() -> None:
    """Creation, placement, a test, strain, displacement and adaptation fold into one state."""
    c = history(
        *PLACED,
        *rolled_test(1),
        *strained(1, 13, R1C1, 1),
        TokenDisplaced(source=R1C1, destination=R1C2),
        Adapted(test=1, source=R3C3, destination=R2C1),
    )
    expected = (frozenset({R1C2, R2C2, R2C1}), frozenset({R1C1}), True, False, None, 1, None)
    actual = (c.tokens, c.marks, c.placed, c.incapacitated, c.test, c.tests, c.displacement)
    assert expected == actual


def test_strain_on_a_token_with_three_unmarked_left_waits_for_displacement() -> None:
    """A struck token must move while at least three squares stay unmarked."""
    c = history(*PLACED, *rolled_test(1), *strained(1, 11, R1C1, 1))
    assert R1C1 == c.displacement


def test_strain_on_a_token_with_two_unmarked_left_needs_no_displacement() -> None:
    """With fewer than three unmarked squares left the token is removed, never displaced."""
    c = seven_marks_struck_r3c2()
    assert (None, frozenset({R3C1, R3C3})) == (c.displacement, c.tokens)


def token(square: Square) -> TokenPlaced:
    return TokenPlaced(square=square, rolled=False, attempts=(), flipped=False)


def giving(square: Square) -> AssistanceGiven:
    """This character handed a die to HELPER's test 1, using its own square ``square``."""
    form, function = history().pair(square)
    return AssistanceGiven(
        tester=HELPER,
        tester_name="26535",
        test=1,
        square=square,
        form=form,
        function=function,
        justification="j",
    )


def rejected(square: Square) -> cg.AssistanceRejected:
    """The GM ruled HELPER's pair on ``square`` out of this character's test 1."""
    form, function = history().pair(square)
    return cg.AssistanceRejected(
        test=1,
        helper=HELPER,
        helper_name="26535",
        square=square,
        form=form,
        function=function,
        reason="r",
    )


DISPLACING_NEXT_TO_MARK = (*MARKED_R1C2, *strained(1, 11, R1C1, 2))

NEXT_SCENE_R1C2_MARKED = (*MARKED_R1C2, adapt(1, R1C1, R1C3), TokensReturned(squares=()))
WRONG_OWN_TOKENS = cg.TestDeclared(
    test=1,
    form=Form.LEGS,
    function=Function.CRYPTIC,
    consulted=consulted_squares(1, 1),
    own_tokens=2,  # of R1C1, R2C2, R3C3 only R1C1 is in Legs' row or Cryptic's column
)
WRONG_POOL = cg.TestRolled(
    test=1, pool=1, mode=PoolMode.HIGHEST, dice=(4,), result=4, band=Band.MOSTLY_HUMAN
)


@pytest.mark.parametrize(
    ("given_events", "then", "error"),
    [
        pytest.param((*placed(R1C1),), (token(R1C1),), errors.TokensAlreadyPlaced, id="after-all"),
        pytest.param((token(R1C1),), (token(R1C1),), errors.DuplicateSquare, id="same-square"),
        pytest.param(NEXT_SCENE_R1C2_MARKED, (token(R1C2),), errors.SquareMarked, id="marked"),
        pytest.param((), rolled_test(1), errors.TokensNotPlaced, id="test-before-placing"),
        pytest.param(PENDING, rolled_test(2), errors.AdaptationPending, id="test-before-adapting"),
        pytest.param(DECLARED, rolled_test(2), errors.AnotherTestOpen, id="test-while-one-is-open"),
        pytest.param(DISPLACING, rolled_test(2), errors.DisplacementPending, id="test-displacing"),
        pytest.param(
            (*INCAPACITATED, adapt(2, R1C3, R2C1)),
            rolled_test(3),
            errors.CharacterIncapacitated,
            id="test-while-incapacitated",
        ),
        pytest.param(PLACED, (WRONG_OWN_TOKENS,), ReplayMismatch, id="declared-pool-wrong"),
        pytest.param(DECLARED, (WRONG_POOL,), ReplayMismatch, id="rolled-pool-wrong"),
        pytest.param(PLACED, rolled_test(1)[1:], errors.NoOpenTest, id="rolled-undeclared"),
        pytest.param(PENDING, rolled_test(1)[1:], errors.TestAlreadyRolled, id="rolled-twice"),
        pytest.param(
            (*DECLARED, received(R1C1)),
            (received(R2C2),),
            errors.AlreadyAssistedThisTest,
            id="two-dice-from-one-helper",
        ),
        pytest.param(PLACED, (giving(R1C2),), errors.NoTokenOnSquare, id="assist-no-token"),
        pytest.param(
            INCAPACITATED, (giving(R1C3),), errors.HelperIncapacitated, id="assist-incapacitated"
        ),
        pytest.param(
            PLACED, strained(1, 11, R1C1, 1)[:1], errors.NoPendingAdaptation, id="strain-no-test"
        ),
        pytest.param(
            INCAPACITATED,
            strained(None, 11, R1C1, 2)[:1],
            errors.AlreadyIncapacitated,
            id="strain-incapacitated",
        ),
        pytest.param(
            MARKED_R1C2, strained(1, 15, R1C2, 2)[1:], ReplayMismatch, id="mark-a-marked-square"
        ),
        pytest.param(
            PENDING,
            (Incapacitated(square=R1C2, d66=15),),
            ReplayMismatch,
            id="incapacitated-by-an-unmarked-square",
        ),
        pytest.param(
            PENDING, (displace(R1C1, R1C2),), errors.NoDisplacementPending, id="displace-unstruck"
        ),
        pytest.param(
            DISPLACING, (displace(R1C1, R2C2),), errors.DestinationOccupied, id="displace-on-token"
        ),
        pytest.param(
            DISPLACING_NEXT_TO_MARK,
            (displace(R1C1, R1C2),),
            errors.DestinationMarked,
            id="displace-on-mark",
        ),
        pytest.param(PLACED, (TokenRemoved(square=R1C2),), errors.NoTokenAtSource, id="remove"),
        pytest.param(
            PLACED, (adapt(1, R1C1, R1C2),), errors.NoPendingAdaptation, id="adapt-no-test"
        ),
        pytest.param(
            DISPLACING, (adapt(1, R2C2, R2C3),), errors.DisplacementPending, id="adapt-displacing"
        ),
        pytest.param(
            MARKED_R1C2, (adapt(1, R1C2, R1C3),), errors.NoTokenAtSource, id="adapt-from-empty"
        ),
        pytest.param(
            MARKED_R1C2,
            (adapt(1, R1C1, R1C1),),
            errors.MustMoveToDifferentSquare,
            id="adapt-in-place",
        ),
        pytest.param(
            MARKED_R1C2, (adapt(1, R1C1, R1C2),), errors.DestinationMarked, id="adapt-on-mark"
        ),
        pytest.param(
            MARKED_R1C2, (adapt(1, R1C1, R3C3),), errors.DestinationOccupied, id="adapt-on-token"
        ),
        pytest.param(PENDING, (NO_MOVE_LEFT,), ReplayMismatch, id="impossible-but-a-move-exists"),
        pytest.param(
            PLACED, (Recovered(reason="GM ruling"),), errors.NotIncapacitated, id="recover-well"
        ),
        pytest.param((), (S1,), ReplayMismatch, id="created-twice"),
        pytest.param(
            (),
            (cg.CharacterRenamed(previous="11111", name="Hush"),),
            ReplayMismatch,
            id="renamed-from-a-name-it-never-had",
        ),
        pytest.param(
            (),
            (cg.CharacterRenamed(previous="31415", name="31415"),),
            errors.NameUnchanged,
            id="renamed-to-its-own-name",
        ),
        pytest.param(DECLARED, (rejected(R1C1),), errors.NoAssistToReject, id="reject-unassisted"),
        pytest.param(
            (*DECLARED, received(R1C1), rejected(R1C1)),
            (received(R1C1),),
            errors.AssistNotApplicable,
            id="assist-with-a-pair-ruled-out",
        ),
        pytest.param(
            PENDING,
            (StrainRolled(test=1, d66=13, square=R3C3),),
            errors.RolledSquareMismatch,
            id="strain-square-not-its-d66s",
        ),
        pytest.param(
            (),
            (TokenPlaced(square=R1C1, rolled=True, attempts=(), flipped=False),),
            ReplayMismatch,
            id="rolled-token-without-its-d66",
        ),
    ],
)
def test_evolve_refuses_events_that_do_not_fit(
    given_events: tuple[Event, ...], then: tuple[Event, ...], error: type[Exception]
) -> None:
    """Replay is strict: an event that the state could not have produced is refused."""
    state = history(*given_events)
    with pytest.raises(error):
        history(*then, start=state)


def test_audit_events_change_nothing() -> None:
    """Trait and name rolls are kept for the audit trail only (they come before the creation)."""
    roll = TraitRolled(table=Table.FORM, d66=44, flipped=False, trait=Form.LEGS, discarded=False)
    assert evolve(roll, None) is None
    assert evolve(NameRolled(dice=(3, 1, 4, 1, 5), name="31415"), None) is None
    c = history(*PLACED)
    assert c == evolve(roll, c)


def test_a_character_stream_starts_with_its_creation() -> None:
    """Any other first event is a broken history."""
    with pytest.raises(ReplayMismatch):
        evolve(PLACED[0], None)


def test_a_character_stream_must_start_with_its_creation() -> None:
    """Strict replay: an event before CharacterCreated is refused, saying so."""
    with pytest.raises(ReplayMismatch) as raised:
        evolve(cg.TokenPlaced(square=R1C1, rolled=False, attempts=(), flipped=False), None)
    assert "a character stream must start with CharacterCreated" == str(raised.value)


def test_evolve_knows_only_code_green_events() -> None:
    """An event Code Green has no rule for is a programming error, not a refusal."""
    with pytest.raises(TypeError):
        evolve(NoteAdded(text="hello"), history())


def test_a_rolled_trait_that_is_not_the_table_entry_does_not_replay() -> None:
    """R-CG-01 (Table 1): d66 35 on the Form table is Heart; a history saying Blood is refused
    with the roll, the table, the claim and the entry."""
    wrong = cg.TraitRolled(table=Table.FORM, d66=35, flipped=False, trait="Blood", discarded=False)
    with pytest.raises(DomainError) as raised:
        evolve(wrong, None)
    expected = (
        "ROLLED_TRAIT_MISMATCH: d66 35 on the form table is Heart, not Blood (Character "
        "Creation, Table 1 and Table 2)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_recorded_d66_has_two_digits_from_1_to_6() -> None:
    """CG dice (Rolling Dice): 71 reads a 7 on the tens die, so a history holding it is
    refused by the value, whichever table it was rolled on."""
    wrong = cg.TraitRolled(table=Table.FORM, d66=71, flipped=False, trait="Wings", discarded=False)
    with pytest.raises(DomainError) as raised:
        evolve(wrong, None)
    expected = (
        "INVALID_D66: 71 is not a d66 result: both digits are 1 to 6, 11 to 66 (Rolling Dice)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_a_rolled_token_replays_on_the_square_of_either_grid_layout() -> None:
    """CG-A1: d66 35 lands on R2C2 (contiguous) or R2C3 (die per axis); a character's history
    holds no house rule, so either replays, and any other square is refused with both."""
    for square in (R2C2, R2C3):
        placed_by_35 = cg.TokenPlaced(square=square, rolled=True, attempts=(35,), flipped=False)
        assert {square} == me(placed_by_35).tokens
    wrong = cg.TokenPlaced(square=R1C1, rolled=True, attempts=(35,), flipped=False)
    with pytest.raises(DomainError) as raised:
        me(wrong)
    expected = (
        "ROLLED_SQUARE_MISMATCH: d66 35 lands on R2C2 or R2C3 (by the gridRanges house rule), "
        "not R1C1 (Initial Token Placement, Suffering Strain)"
    )
    assert expected == f"{raised.value.code}: {raised.value.reason}"


@pytest.mark.parametrize(
    ("events", "message"),
    [
        (
            WELL,
            "NO_OPEN_TEST: no declared test is waiting to be rolled for 31415; a test is declared "
            "with `campaign test` first (Making Tests)",
        ),
        (PENDING, "TEST_ALREADY_ROLLED: 31415's test 1 has been rolled already"),
    ],
    ids=["nothing-declared", "rolled-already"],
)
def test_a_history_assisting_a_test_not_waiting_does_not_replay(
    events: tuple[Event, ...], message: str
) -> None:
    """R-CG-04: a die is handed to a declared test before its roll; a history saying otherwise
    is refused, naming the tester and the test."""
    with pytest.raises(DomainError) as raised:
        me(*events, received(R1C1))
    assert message == f"{raised.value.code}: {raised.value.reason}"
