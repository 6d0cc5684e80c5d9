"""Code Green's rules without I/O: tables, house rules, the strict ``evolve``, strain and scene end.

Domain tests read: given events -> when command -> then events (or a refusal). Commands run
against ``FakeView`` (a campaign and its characters held in memory) with entered dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any
from uuid import UUID, uuid4

import pytest
from attrs import define
from hypothesis import given
from hypothesis import strategies as st

from domain.campaign import CampaignState, RosterEntry
from domain.commands import Command
from domain.dice import EnteredDice, PoolMode, d66_ordinal
from domain.errors import DomainError, InvalidHouseRule, ReplayMismatch, UnknownHouseRule
from domain.events import CharacterJoined, Event, HouseRule, NoteAdded
from domain.lifecycle import EndScene
from domain.rulesets.code_green import RULESET, errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DeclareTest,
    PlaceTokens,
    Recover,
    SufferStrain,
)
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
    StrainMarksCleared,
    StrainRolled,
    StrainSuffered,
    TokenDisplaced,
    TokenPlaced,
    TokenRemoved,
    TokensReturned,
    TraitRolled,
)
from domain.rulesets.code_green.lookup import parse_square
from domain.rulesets.code_green.settings import Settings, house_rules, settings_from
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import (
    Band,
    Form,
    Function,
    GridLayout,
    Square,
    Table,
    band_for,
    consulted_squares,
    find_trait,
    square_for,
    trait_for,
)
from domain.rulesets.renamed import RENAMED
from engine import Engine
from engine.dice_sources import DiceSpec
from engine.topics import resolve
from tests.conftest import (
    S1_FORM,
    S1_FUNCTION,
    add_s1_character,
    event_count,
    place,
    refused,
    scene_with_s1,
)

R1C1, R1C2, R1C3 = Square.R1C1, Square.R1C2, Square.R1C3
R2C1, R2C2, R2C3 = Square.R2C1, Square.R2C2, Square.R2C3
R3C1, R3C2, R3C3 = Square.R3C1, Square.R3C2, Square.R3C3

ALL_D66 = tuple(10 * tens + ones for tens in range(1, 7) for ones in range(1, 7))

# --- Tables --------------------------------------------------------------------------------------

# Table 1 and Table 2 as printed in the rule text (Character Creation), two d66 results an entry.
FORM_TABLE = {
    (11, 12): "Blood", (13, 14): "Bones", (15, 16): "Brain", (21, 22): "Claws",
    (23, 24): "Ears", (25, 26): "Eyes", (31, 32): "Guts", (33, 34): "Hands",
    (35, 36): "Heart", (41, 42): "Hair", (43, 44): "Legs", (45, 46): "Lungs",
    (51, 52): "Nose", (53, 54): "Skin", (55, 56): "Tail", (61, 62): "Teeth",
    (63, 64): "Tongue", (65, 66): "Wings",
}  # fmt: skip
FUNCTION_TABLE = {
    (11, 12): "Accelerated", (13, 14): "Autonomous", (15, 16): "Auxiliary",
    (21, 22): "Cryogenic", (23, 24): "Cryptic", (25, 26): "Elastic",
    (31, 32): "Electric", (33, 34): "Entropic", (35, 36): "Invasive",
    (41, 42): "Invulnerable", (43, 44): "Kinetic", (45, 46): "Magnetic",
    (51, 52): "Phasing", (53, 54): "Polymorphic", (55, 56): "Projectile",
    (61, 62): "Pyrogenic", (63, 64): "Telescopic", (65, 66): "Toxic",
}  # fmt: skip
# DIGEST CG-A1: four consecutive d66 results a square, row by row.
CONTIGUOUS = {
    R1C1: (11, 12, 13, 14), R1C2: (15, 16, 21, 22), R1C3: (23, 24, 25, 26),
    R2C1: (31, 32, 33, 34), R2C2: (35, 36, 41, 42), R2C3: (43, 44, 45, 46),
    R3C1: (51, 52, 53, 54), R3C2: (55, 56, 61, 62), R3C3: (63, 64, 65, 66),
}  # fmt: skip
# DIGEST CG-A1 alternative B: the tens die picks the row (1–2/3–4/5–6), the ones die the column.
DIE_PER_AXIS = {
    R1C1: (11, 12, 21, 22), R1C2: (13, 14, 23, 24), R1C3: (15, 16, 25, 26),
    R2C1: (31, 32, 41, 42), R2C2: (33, 34, 43, 44), R2C3: (35, 36, 45, 46),
    R3C1: (51, 52, 61, 62), R3C2: (53, 54, 63, 64), R3C3: (55, 56, 65, 66),
}  # fmt: skip
LAYOUTS = {GridLayout.CONTIGUOUS: CONTIGUOUS, GridLayout.DIE_PER_AXIS: DIE_PER_AXIS}


def _by_value(table: Mapping[tuple[int, int], str]) -> dict[int, str]:
    return {value: entry for values, entry in table.items() for value in values}


def _square_by_value(layout: Mapping[Square, tuple[int, ...]]) -> dict[int, Square]:
    return {value: square for square, values in layout.items() for value in values}


@pytest.mark.parametrize(
    ("table", "printed"),
    [
        pytest.param(Table.FORM, FORM_TABLE, id="form"),
        pytest.param(Table.FUNCTION, FUNCTION_TABLE, id="function"),
    ],
)
def test_every_d66_value_names_the_printed_trait(
    table: Table, printed: dict[tuple[int, int], str]
) -> None:
    """Each of the 36 d66 results names the entry printed for it in Table 1 / Table 2."""
    assert _by_value(printed) == {value: trait_for(table, value).value for value in ALL_D66}


@pytest.mark.parametrize("layout", list(GridLayout))
def test_every_d66_value_lands_on_its_square(layout: GridLayout) -> None:
    """Each of the 36 d66 results lands on the square the layout gives it."""
    assert _square_by_value(LAYOUTS[layout]) == {
        value: square_for(value, layout) for value in ALL_D66
    }


@pytest.mark.parametrize("layout", list(GridLayout))
def test_each_square_gets_exactly_four_d66_values(layout: GridLayout) -> None:
    """36 results over 9 squares: every square is hit by exactly 4 (probability 1/9 each)."""
    counts = Counter(square_for(value, layout) for value in ALL_D66)
    assert dict.fromkeys(Square, 4) == dict(counts)


def test_contiguous_squares_are_numeric_ranges() -> None:
    """Under CG-A1 each square's four values are consecutive in d66 order (one numeric range)."""
    for square in Square:
        ordinals = sorted(
            d66_ordinal(v) for v in ALL_D66 if square_for(v, GridLayout.CONTIGUOUS) == square
        )
        assert list(range(ordinals[0], ordinals[0] + 4)) == ordinals


@given(tens=st.integers(1, 6), ones=st.integers(1, 6), layout=st.sampled_from(GridLayout))
def test_any_d66_maps_to_a_square_and_traits(tens: int, ones: int, layout: GridLayout) -> None:
    """Any d66 result lands on one of the nine squares and names a trait on both tables."""
    value = 10 * tens + ones
    assert square_for(value, layout) in set(Square)
    assert trait_for(Table.FORM, value) in set(Form)
    assert trait_for(Table.FUNCTION, value) in set(Function)


@pytest.mark.parametrize("square", list(Square))
def test_consulted_squares_are_the_row_and_column_once_each(square: Square) -> None:
    """A test consults the 3 squares of its row and the 3 of its column, the crossing once: 5."""
    consulted = consulted_squares(square.row, square.column)
    expected = {s for s in Square if s.row == square.row or s.column == square.column}
    assert (5, expected) == (len(consulted), set(consulted))


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (None, Band.LESS_THAN_HUMAN),
        (1, Band.LESS_THAN_HUMAN),
        (2, Band.LESS_THAN_HUMAN),
        (3, Band.LESS_THAN_HUMAN),
        (4, Band.MOSTLY_HUMAN),
        (5, Band.MOSTLY_HUMAN),
        (6, Band.MORE_THAN_HUMAN),
    ],
)
def test_band_for_every_result(result: int | None, expected: Band) -> None:
    """Nothing rolled reads as 1–3; 1–3 less than human, 4–5 mostly human, 6 more than human."""
    assert expected == band_for(result)


@pytest.mark.parametrize(
    ("table", "text", "expected"),
    [
        (Table.FORM, " legs ", Form.LEGS),
        (Table.FUNCTION, "CRYPTIC", Function.CRYPTIC),
        (Table.FORM, "Cryptic", None),
        (Table.FUNCTION, "Wheels", None),
    ],
)
def test_find_trait_ignores_case_and_spaces(table: Table, text: str, expected: Any) -> None:
    """Traits are found by name on their own table only, whatever the case."""
    assert expected == find_trait(table, text)


# --- House rules ---------------------------------------------------------------------------------


def test_house_rule_defaults_are_the_digest_recommendations() -> None:
    """With nothing given, every house rule is recorded at the DIGEST §7 default."""
    expected = (
        HouseRule(key="gridRanges", value="contiguous"),
        HouseRule(key="marksPersistAcrossScenes", value="false"),
        HouseRule(key="incapacitationEndsAtSceneEnd", value="true"),
        HouseRule(key="allowEnvironmentalStrain", value="false"),
        HouseRule(key="maxStrainPerTest", value="1"),
    )
    assert expected == house_rules({})
    defaults = Settings(
        grid=GridLayout.CONTIGUOUS,
        marks_persist=False,
        incapacitation_ends_at_scene_end=True,
        environmental_strain=False,
        max_strain_per_test=1,
    )
    assert defaults == settings_from(house_rules({})) == Settings()


def test_given_house_rules_are_parsed_and_recorded() -> None:
    """Given values are checked, stored as text, and read back as settings."""
    chosen = {
        "gridRanges": "die-per-axis",
        "marksPersistAcrossScenes": "yes",
        "incapacitationEndsAtSceneEnd": "off",
        "allowEnvironmentalStrain": "TRUE",
        "maxStrainPerTest": "0",
    }
    expected = Settings(
        grid=GridLayout.DIE_PER_AXIS,
        marks_persist=True,
        incapacitation_ends_at_scene_end=False,
        environmental_strain=True,
        max_strain_per_test=0,
    )
    assert expected == settings_from(house_rules(chosen))
    recorded = {rule.key: rule.value for rule in house_rules(chosen)}
    assert "true" == recorded["marksPersistAcrossScenes"]
    assert "0" == recorded["maxStrainPerTest"]


def test_unknown_house_rule_is_refused() -> None:
    """A key Code Green does not know is refused with UNKNOWN_HOUSE_RULE, naming it."""
    with pytest.raises(UnknownHouseRule) as raised:
        house_rules({"marksPersist": "true"})
    assert "UNKNOWN_HOUSE_RULE" == raised.value.code
    assert "marksPersist" == raised.value.data["key"]


KNOWN_KEYS = frozenset(rule.key for rule in house_rules({}))


@given(st.text().filter(lambda key: key not in KNOWN_KEYS))
def test_any_unknown_house_rule_key_is_refused(key: str) -> None:
    """Whatever the unknown key, it is refused rather than ignored."""
    with pytest.raises(UnknownHouseRule):
        house_rules({key: "true"})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("gridRanges", "hexagonal"),
        ("marksPersistAcrossScenes", "maybe"),
        ("incapacitationEndsAtSceneEnd", ""),
        ("allowEnvironmentalStrain", "2"),
        ("maxStrainPerTest", "-1"),
        ("maxStrainPerTest", "lots"),
        ("maxStrainPerTest", "1.5"),
    ],
)
def test_invalid_house_rule_value_is_refused(key: str, value: str) -> None:
    """A known key with a value it cannot take is refused with INVALID_HOUSE_RULE."""
    with pytest.raises(InvalidHouseRule) as raised:
        house_rules({key: value})
    assert "INVALID_HOUSE_RULE" == raised.value.code
    assert (key, value) == (raised.value.data["key"], raised.value.data["value"])


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        pytest.param({"noSuchRule": "1"}, UnknownHouseRule, id="unknown"),
        pytest.param({"maxStrainPerTest": "many"}, InvalidHouseRule, id="invalid"),
    ],
)
def test_campaign_with_a_bad_house_rule_is_not_created(
    engine: Engine, rules: dict[str, str], error: type[DomainError]
) -> None:
    """A campaign whose house rules are refused records nothing at all."""
    with pytest.raises(error):
        engine.create_campaign("Lab", "code-green", house_rules=rules)
    assert 0 == event_count(engine)


# --- Given events: a character replayed by ``evolve`` --------------------------------------------

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
    c = _seven_marks_struck_r3c2()
    assert (None, frozenset({R3C1, R3C3})) == (c.displacement, c.tokens)


def _seven_marks_struck_r3c2() -> CgCharacter:
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


def token(square: Square) -> TokenPlaced:
    return TokenPlaced(square=square, rolled=False, attempts=(), flipped=False)


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


DECLARED = (*PLACED, rolled_test(1)[0])
PENDING = (*PLACED, *rolled_test(1))
MARKED_R1C2 = (*PENDING, *strained(1, 15, R1C2, 1))
DISPLACING = (*PENDING, *strained(1, 11, R1C1, 1))
DISPLACING_NEXT_TO_MARK = (*MARKED_R1C2, *strained(1, 11, R1C1, 2))
INCAPACITATED = (
    *MARKED_R1C2,
    adapt(1, R1C1, R1C3),
    *rolled_test(2),
    StrainRolled(test=2, d66=16, square=R1C2),
    Incapacitated(square=R1C2, d66=16),
)
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
NO_MOVE_LEFT = AdaptationImpossible(test=1, reason="no valid destination")


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


def test_evolve_knows_only_code_green_events() -> None:
    """An event Code Green has no rule for is a programming error, not a refusal."""
    with pytest.raises(TypeError):
        evolve(NoteAdded(text="hello"), history())


# --- Commands against a fake view ----------------------------------------------------------------


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


# --- Strain house rules --------------------------------------------------------------------------


def test_strain_without_a_rolled_test_is_refused_by_default() -> None:
    """Strain is a consequence of a test (CG-A8): outside one it is refused."""
    c = history(*PLACED)
    with pytest.raises(errors.NoTestForStrain):
        decide(SufferStrain(character=c.name), view_of(c), (1, 5))


def test_environmental_strain_is_allowed_by_house_rule() -> None:
    """With allowEnvironmentalStrain the GM may strain a character outside any test."""
    c = history(*PLACED)
    events = decide(
        SufferStrain(character=c.name), view_of(c, allowEnvironmentalStrain="true"), (1, 5)
    )
    assert strained(None, 15, R1C2, 1) == events
    assert frozenset({R1C2}) == history(*events, start=c).marks


def test_one_strain_per_test_by_default() -> None:
    """A test causes at most one strain unless maxStrainPerTest says otherwise (CG-A9)."""
    c = history(*PENDING, *strained(1, 15, R1C2, 1))
    with pytest.raises(errors.StrainLimitReached) as raised:
        decide(SufferStrain(character=c.name), view_of(c), (2, 3))
    assert {"test": 1, "count": 1, "limit": 1} == raised.value.data


@pytest.mark.parametrize("limit", ["2", "0"])
def test_more_strain_per_test_by_house_rule(limit: str) -> None:
    """maxStrainPerTest 2 (or 0, no limit) lets the same test cause a second strain."""
    c = history(*PENDING, *strained(1, 15, R1C2, 1))
    events = decide(SufferStrain(character=c.name), view_of(c, maxStrainPerTest=limit), (2, 3))
    assert strained(1, 23, R1C3, 2) == events


def test_strain_limit_counts_every_strain_of_the_test() -> None:
    """With maxStrainPerTest 2 the third strain of one test is refused; 0 never refuses."""
    c = history(*PENDING, *strained(1, 15, R1C2, 1), *strained(1, 23, R1C3, 2))
    with pytest.raises(errors.StrainLimitReached):
        decide(SufferStrain(character=c.name), view_of(c, maxStrainPerTest="2"), (3, 1))
    assert strained(1, 31, R2C1, 3) == decide(
        SufferStrain(character=c.name), view_of(c, maxStrainPerTest="0"), (3, 1)
    )


@pytest.mark.parametrize(
    ("layout", "square"),
    [(GridLayout.CONTIGUOUS, R1C1), (GridLayout.DIE_PER_AXIS, R1C2)],
)
def test_grid_ranges_house_rule_picks_the_square_struck(layout: GridLayout, square: Square) -> None:
    """d66 13 strikes R1C1 on the contiguous grid and R1C2 when each die picks an axis."""
    c = history(*placed(R3C1, R3C2, R3C3), *rolled_test(1))
    events = decide(SufferStrain(character=c.name), view_of(c, gridRanges=layout.value), (1, 3))
    assert strained(1, 13, square, 1) == events


@pytest.mark.parametrize(
    ("marked", "then"),
    [
        pytest.param(
            (R1C1, R1C2, R1C3, R2C1, R2C2),
            (StrainSuffered(square=R3C2, marks=6), displace(R3C2, R2C3)),
            id="3-unmarked-left-token-moves",
        ),
        pytest.param(
            (R1C1, R1C2, R1C3, R2C1, R2C2, R2C3),
            (StrainSuffered(square=R3C2, marks=7), TokenRemoved(square=R3C2)),
            id="2-unmarked-left-token-removed",
        ),
    ],
)
def test_struck_token_moves_unless_fewer_than_three_unmarked_remain(
    marked: tuple[Square, ...], then: tuple[Event, ...]
) -> None:
    """With exactly three unmarked squares left the struck token still moves; with two it goes."""
    marks: list[Event] = []
    for n, square in enumerate(marked, start=1):
        marks += strained(None, CONTIGUOUS[square][0], square, n)
    c = history(*placed(R3C1, R3C2, R3C3), *marks, *rolled_test(1))
    events = decide(SufferStrain(character=c.name, destination="R2C3"), view_of(c), (5, 5))
    assert (StrainRolled(test=1, d66=55, square=R3C2), *then) == events


def test_strain_on_a_marked_square_incapacitates_without_a_new_mark() -> None:
    """A second strike on a marked square incapacitates; marks and tokens stay as they were."""
    c = history(*MARKED_R1C2, Adapted(test=1, source=R1C1, destination=R1C3), *rolled_test(2))
    events = decide(SufferStrain(character=c.name), view_of(c), (2, 1))
    assert (StrainRolled(test=2, d66=21, square=R1C2), Incapacitated(square=R1C2, d66=21)) == events
    after = history(*events, start=c)
    assert (True, c.marks, c.tokens) == (after.incapacitated, after.marks, after.tokens)


def test_strain_on_an_incapacitated_character_is_refused() -> None:
    """Further strain has no effect once incapacitated, so it is refused."""
    c = history(*INCAPACITATED)
    with pytest.raises(errors.AlreadyIncapacitated):
        decide(SufferStrain(character=c.name), view_of(c, allowEnvironmentalStrain="true"), (1, 1))


@given(source=st.sampled_from(Square), destination=st.sampled_from(Square))
def test_adapt_accepts_exactly_the_legal_moves(source: Square, destination: Square) -> None:
    """Every (from, to) pair is either a legal move, adapted, or refused with a domain error."""
    c = history(*MARKED_R1C2)
    command = Adapt(character=c.name, source=source.value, destination=destination.value)
    if (source, destination) in c.legal_moves():
        assert (Adapted(test=1, source=source, destination=destination),) == decide(
            command, view_of(c)
        )
    else:
        with pytest.raises(DomainError):
            decide(command, view_of(c))


def test_adapt_with_no_tokens_left_is_impossible() -> None:
    """With every token removed by strain, adapting is recorded as impossible for lack of tokens."""
    c = _seven_marks_struck_r3c2()
    c = history(*strained(1, 51, R3C1, 8), TokenRemoved(square=R3C1), start=c)
    c = history(*strained(1, 63, R3C3, 9), TokenRemoved(square=R3C3), start=c)
    assert (AdaptationImpossible(test=1, reason="no tokens"),) == decide(
        Adapt(character=c.name), view_of(c)
    )


# --- Scene end -----------------------------------------------------------------------------------


def _struck_and_incapacitated() -> CgCharacter:
    return history(*INCAPACITATED, Adapted(test=2, source=R1C3, destination=R2C1))


def test_scene_end_clears_marks_returns_tokens_and_recovers() -> None:
    """By default the scene's end clears the marks, returns all tokens and ends incapacitation."""
    c = _struck_and_incapacitated()
    events = end_scene(view_of(c))
    expected = (
        StrainMarksCleared(squares=(R1C2,)),
        TokensReturned(squares=(R2C1, R2C2, R3C3)),
        Recovered(reason="the scene ended"),
    )
    assert expected == events
    after = history(*events, start=c)
    expected_state: tuple[object, ...] = (frozenset(), frozenset(), False, False, None)
    assert expected_state == (
        after.marks,
        after.tokens,
        after.placed,
        after.incapacitated,
        after.test,
    )


def test_removed_tokens_come_back_at_scene_end() -> None:
    """A token strain removed is back in hand: the next scene places all three again."""
    c = _seven_marks_struck_r3c2()
    c = history(AdaptationImpossible(test=1, reason="no valid destination"), start=c)
    after = history(*end_scene(view_of(c)), start=c)
    events = decide(PlaceTokens(character=c.name, squares=("R1C1", "R1C2", "R1C3")), view_of(after))
    assert InitialTokensPlaced(squares=(R1C1, R1C2, R1C3)) == events[-1]


def test_marks_persist_across_scenes_by_house_rule() -> None:
    """With marksPersistAcrossScenes the marks stay, and so does their ban on placing tokens."""
    c = _struck_and_incapacitated()
    view = view_of(c, marksPersistAcrossScenes="true")
    events = end_scene(view)
    assert not any(isinstance(e, StrainMarksCleared) for e in events)
    after = history(*events, start=c)
    assert frozenset({R1C2}) == after.marks
    with pytest.raises(errors.SquareMarked):
        decide(PlaceTokens(character=c.name, squares=("R1C2", "R2C2", "R3C3")), view_of(after))


def test_rolled_placement_treats_a_persisting_mark_as_occupied() -> None:
    """CG-A13: a rolled token landing on a marked square flips (15 on R1C2 -> 51 on R3C1)."""
    c = _struck_and_incapacitated()
    after = history(*end_scene(view_of(c, marksPersistAcrossScenes="true")), start=c)
    events = decide(
        PlaceTokens(character=c.name, squares=("roll", "R2C2", "R3C3")), view_of(after), (1, 5)
    )
    assert TokenPlaced(square=R3C1, rolled=True, attempts=(15, 51), flipped=True) == events[0]


def test_incapacitation_outlasts_the_scene_by_house_rule() -> None:
    """With incapacitationEndsAtSceneEnd off only the GM's Recover ends incapacitation."""
    c = _struck_and_incapacitated()
    view = view_of(c, incapacitationEndsAtSceneEnd="false")
    events = end_scene(view)
    assert not any(isinstance(e, Recovered) for e in events)
    after = history(*events, start=c)
    assert after.incapacitated
    recovered = decide(Recover(character=c.name), view_of(after))
    assert (Recovered(reason="GM ruling"),) == recovered
    assert not history(*recovered, start=after).incapacitated


def test_recover_refuses_a_character_that_is_not_incapacitated() -> None:
    """Only an incapacitated character can recover."""
    c = history(*PLACED)
    with pytest.raises(errors.NotIncapacitated):
        decide(Recover(character=c.name), view_of(c))


def test_scene_end_leaves_a_character_that_never_placed_alone() -> None:
    """A character with no tokens out and no marks needs nothing at scene end."""
    assert () == end_scene(view_of(history()))


@pytest.mark.parametrize(
    ("given_events", "what"),
    [
        pytest.param((*PLACED, rolled_test(1)[0]), "not rolled", id="test-not-rolled"),
        pytest.param(PENDING, "adaptation pending", id="adaptation-pending"),
        pytest.param(DISPLACING, "a token must move", id="displacement-pending"),
    ],
)
def test_scene_cannot_end_with_a_test_unresolved(
    given_events: tuple[Event, ...], what: str
) -> None:
    """A scene ends only after every test has been rolled, strained and adapted."""
    with pytest.raises(errors.TestUnresolved) as raised:
        end_scene(view_of(history(*given_events)))
    assert what == raised.value.data["what"]


def test_scene_end_through_the_engine_records_the_consequences(engine: Engine) -> None:
    """Ending the scene records SceneEnded and then each character's scene-end events."""
    who = scene_with_s1(engine)
    engine.execute("Lab", PlaceTokens(character=who, squares=("R1C1", "R2C2", "R3C3")))
    result = engine.execute("Lab", EndScene())
    assert ["SceneEnded", "TokensReturned"] == [type(e).__name__ for e in result.events]
    c: CgCharacter = engine.character("Lab", who)
    assert (frozenset(), False) == (c.tokens, c.placed)


def test_assisting_a_test_already_rolled_is_refused_as_already_rolled(engine: Engine) -> None:
    """R-CG-04: once the pool is rolled, the assist window is closed (TEST_ALREADY_ROLLED)."""
    who = scene_with_s1(engine)
    helper = add_s1_character(engine, player="bob", name_dice=(2, 2, 2, 2, 2))
    place(engine, who, "R1C1", "R2C2", "R3C3")
    place(engine, helper, "R1C1", "R2C2", "R3C3")
    declared = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
    engine.execute("Lab", declared, dice=DiceSpec(faces=(2, 5)))
    late = AssistTest(helper=helper, square="R1C1", justification="late")
    assert "TEST_ALREADY_ROLLED" == refused(engine, late, errors.TestAlreadyRolled).code


@pytest.mark.parametrize("move", [("R3C1", "R3C1"), ("R3C1", "R3C2"), ("R3C3", "R1C1")])
def test_with_no_valid_destination_any_adapt_leaves_the_tokens(move: tuple[str, str]) -> None:
    """Adapting: "unless no valid destinations are available" the tokens stay, whatever is named."""
    c = _seven_marks_struck_r3c2()
    assert () == c.legal_moves()
    assert (NO_MOVE_LEFT,) == decide(
        Adapt(character=c.name, source=move[0], destination=move[1]), view_of(c)
    )


def test_a_command_recorded_under_its_old_topic_resolves_to_its_class_now() -> None:
    """Rulings recorded before play.py was split (and placing tokens left creation.py) still
    name their command: each old topic resolves to the class that has the new one."""
    renamed = {old: new for old, new in RENAMED.items() if ".code_green." in old}
    assert renamed
    for old, new in renamed.items():
        cls = resolve(old)
        assert new == f"{cls.__module__}:{cls.__qualname__}"


@pytest.mark.parametrize(
    ("form", "function", "text", "expected"),
    [
        pytest.param(
            ("Guts", "Lungs", "Blood"),
            ("Auxiliary", "Toxic", "Phasing"),
            "Guts/Auxiliary",
            "R1C1",
            id="auxiliary-holds-an-x",
        ),
        pytest.param(
            ("Guts", "Lungs", "Blood"),
            ("Auxiliary", "Toxic", "Phasing"),
            "Toxic Lungs",
            "R2C2",
            id="toxic-holds-an-x",
        ),
        pytest.param(S1_FORM, S1_FUNCTION, "Legs x Cryptic", "R1C1", id="x-as-a-word-separates"),
        pytest.param(S1_FORM, S1_FUNCTION, "Teeth×Phasing", "R3C3", id="times-sign-separates"),
    ],
)
def test_a_square_is_named_by_its_pair(
    form: tuple[str, ...], function: tuple[str, ...], text: str, expected: str
) -> None:
    """A pair names its square whatever letters its traits hold: 'x' separates only as a word."""
    c = CgCharacter(
        id=uuid4(),
        name="11111",
        player="p",
        form=tuple(Form(f) for f in form),
        function=tuple(Function(f) for f in function),
    )
    assert Square(expected) == parse_square(c, text)
