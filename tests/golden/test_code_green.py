"""Golden tests for Code Green: every case G-CG-01..G-CG-25 of DIGEST §1.4, with the digest's dice.

Sheet S1 is the rule text's own example (Making Tests): Form slots Legs, Tail, Teeth are rows
R1..R3; Function slots Cryptic, Invulnerable, Phasing are columns C1..C3. Grid ranges follow
CG-A1 (four consecutive d66 results a square, row by row). Cases about a whole command run through
the in-memory engine, so the recorded events are what is checked; refusals also prove that nothing
was appended.
"""

from __future__ import annotations

import pytest

from domain.audience import GMS
from domain.dice import EnteredDice, PoolMode, PoolRoll, d66, flip, roll_pool
from domain.errors import DomainError, NotEnoughDice, TooManyDice
from domain.events import CharacterJoined, Event
from domain.rulesets.code_green import errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DeclareTest,
    DisplaceToken,
    PlaceTokens,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    Adapted,
    AssistanceGiven,
    AssistanceReceived,
    Incapacitated,
    InitialTokensPlaced,
    NameRolled,
    StrainRolled,
    StrainSuffered,
    TokenDisplaced,
    TokenPlaced,
    TokenRemoved,
    TraitRolled,
)
from domain.rulesets.code_green.tables import (
    Band,
    Form,
    Function,
    GridLayout,
    Square,
    Table,
    band_for,
    square_for,
    trait_for,
)
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import (
    S1_FORM,
    S1_FUNCTION,
    add_s1_character,
    place,
    refused,
    scene_with_s1,
)

R1C1, R1C2, R1C3 = Square.R1C1, Square.R1C2, Square.R1C3
R2C1, R2C2, R2C3 = Square.R2C1, Square.R2C2, Square.R2C3
R3C1, R3C2, R3C3 = Square.R3C1, Square.R3C2, Square.R3C3
LESS, MOSTLY, MORE = Band.LESS_THAN_HUMAN, Band.MOSTLY_HUMAN, Band.MORE_THAN_HUMAN

BOB_DICE = (2, 6, 5, 3, 5)
CAROL_DICE = (5, 6, 2, 1, 4)


def _character(engine: Engine, who: str) -> CgCharacter:
    state: CgCharacter = engine.character("Lab", who, audience=GMS)
    return state


def _rolled_test(engine: Engine, who: str) -> None:
    """Declare and roll a test with no applicable pair (nothing is rolled); adaptation is due."""
    engine.execute(
        "Lab",
        DeclareTest(character=who, form=None, function=None, roll=True),
        dice=DiceSpec(faces=()),
    )


def _strain(engine: Engine, who: str, faces: tuple[int, int]) -> tuple[Event, ...]:
    return engine.execute("Lab", SufferStrain(character=who), dice=DiceSpec(faces=faces)).events


def _adapt(engine: Engine, who: str, source: str, destination: str) -> None:
    engine.execute("Lab", Adapt(character=who, source=source, destination=destination))


# --- Dice procedures -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "expected"), [pytest.param((3, 5), 35, id="G-CG-01-d66-3-then-5-is-35")]
)
def test_d66_reads_the_first_die_as_tens(faces: tuple[int, int], expected: int) -> None:
    """d66 reads the first d6 as the tens digit and the second as the ones digit."""
    dice = EnteredDice(faces)
    assert expected == d66(dice)
    dice.check_all_used()


@pytest.mark.parametrize(("value", "expected"), [pytest.param(35, 53, id="G-CG-02-flip-35-53")])
def test_flip_swaps_the_digits(value: int, expected: int) -> None:
    """Flipping a d66 result swaps its digits; it takes no dice source, so nothing is rolled."""
    assert expected == flip(value)


@pytest.mark.parametrize(
    ("size", "faces", "expected"),
    [
        pytest.param(
            3,
            (2, 4, 4),
            PoolRoll(size=3, mode=PoolMode.HIGHEST, faces=(2, 4, 4), result=4),
            id="G-CG-03-pool-3-of-2-4-4-is-4",
        ),
        pytest.param(
            0,
            (5, 2),
            PoolRoll(size=0, mode=PoolMode.LOWEST_OF_TWO, faces=(5, 2), result=2),
            id="G-CG-04-pool-0-of-5-2-is-lowest-2",
        ),
    ],
)
def test_pool_keeps_highest_or_lowest_of_two(
    size: int, faces: tuple[int, ...], expected: PoolRoll
) -> None:
    """A pool keeps its highest die; a pool of zero rolls two dice and keeps the lowest."""
    dice = EnteredDice(faces)
    assert expected == roll_pool(dice, size)
    dice.check_all_used()


def test_pool_of_zero_result_is_less_than_human() -> None:
    """G-CG-04: the lowest of 5 and 2 is 2, which reads as less than human."""
    assert LESS == band_for(roll_pool(EnteredDice((5, 2)), 0).result)


# --- Making tests --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "function", "expected"),
    [
        pytest.param(
            "Legs",
            "Invulnerable",
            {
                R1C1: (Form.LEGS, Function.CRYPTIC),
                R1C2: (Form.LEGS, Function.INVULNERABLE),
                R1C3: (Form.LEGS, Function.PHASING),
                R2C2: (Form.TAIL, Function.INVULNERABLE),
                R3C2: (Form.TEETH, Function.INVULNERABLE),
            },
            id="G-CG-05-invulnerable-legs-consults-5-squares",
        )
    ],
)
def test_declared_test_consults_row_and_column(
    engine: Engine, form: str, function: str, expected: dict[Square, tuple[Form, Function]]
) -> None:
    """A test consults the Form trait's row and the Function trait's column; the crossing once."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    result = engine.execute("Lab", DeclareTest(character=who, form=form, function=function))
    (declared,) = result.events
    assert isinstance(declared, cg.TestDeclared)
    c = _character(engine, who)
    assert expected == {square: c.pair(square) for square in declared.consulted}
    assert 5 == len(declared.consulted)
    assert 1 == declared.consulted.count(R1C2)  # the "green" intersection


@pytest.mark.parametrize(
    ("tokens", "form", "function", "faces", "consulted", "expected"),
    [
        pytest.param(
            ("R1C1", "R2C2", "R3C3"),
            "Legs",
            "Invulnerable",
            (2, 5),
            {R1C1, R1C2, R1C3, R2C2, R3C2},
            cg.TestRolled(
                test=1, pool=2, mode=PoolMode.HIGHEST, dice=(2, 5), result=5, band=MOSTLY
            ),
            id="G-CG-06-row-and-column-tokens-pool-2-rolls-5",
        ),
        pytest.param(
            ("R1C2", "R2C1", "R3C3"),
            "Legs",
            "Invulnerable",
            (6,),
            {R1C1, R1C2, R1C3, R2C2, R3C2},
            cg.TestRolled(test=1, pool=1, mode=PoolMode.HIGHEST, dice=(6,), result=6, band=MORE),
            id="G-CG-07-intersection-token-counts-once-pool-1-rolls-6",
        ),
        pytest.param(
            ("R1C2", "R1C3", "R2C3"),
            "Teeth",
            "Cryptic",
            (5, 2),
            {R3C1, R3C2, R3C3, R1C1, R2C1},
            cg.TestRolled(
                test=1, pool=0, mode=PoolMode.LOWEST_OF_TWO, dice=(5, 2), result=2, band=LESS
            ),
            id="G-CG-08-no-tokens-consulted-lowest-of-two-is-2",
        ),
    ],
)
def test_test_pool_counts_own_tokens_on_consulted_squares(
    engine: Engine,
    tokens: tuple[str, str, str],
    form: str,
    function: str,
    faces: tuple[int, ...],
    consulted: set[Square],
    expected: cg.TestRolled,
) -> None:
    """The pool is the tokens on the consulted squares; rolling it leaves adaptation pending."""
    who = scene_with_s1(engine)
    place(engine, who, *tokens)
    (declared,) = engine.execute(
        "Lab", DeclareTest(character=who, form=form, function=function)
    ).events
    assert isinstance(declared, cg.TestDeclared)
    assert consulted == set(declared.consulted)
    assert expected.pool == declared.own_tokens
    result = engine.execute("Lab", RollTest(character=who), dice=DiceSpec(faces=faces))
    assert (expected,) == result.events
    assert _character(engine, who).adaptation_pending


# --- Assistance ----------------------------------------------------------------------------------


def _tester_and_helper(engine: Engine) -> tuple[str, str]:
    """Tester on S1 with tokens R1C1, R2C2, R3C3 and a declared Invulnerable Legs test; a helper
    on S1 whose tokens are R3C1 (Teeth × Cryptic), R1C2 and R2C3: of the squares involving
    Cryptic or Teeth, only Cryptic Teeth holds a token."""
    tester = scene_with_s1(engine)
    helper = add_s1_character(engine, "bob", BOB_DICE)
    place(engine, tester, "R1C1", "R2C2", "R3C3")
    place(engine, helper, "R3C1", "R1C2", "R2C3")
    engine.execute("Lab", DeclareTest(character=tester, form="Legs", function="Invulnerable"))
    return tester, helper


@pytest.mark.parametrize("pair", [pytest.param("Cryptic Teeth", id="G-CG-09-cryptic-teeth-ok")])
def test_assist_with_the_pair_under_a_token_is_accepted(engine: Engine, pair: str) -> None:
    """A helper may assist with the pair under one of its tokens; it owes no adaptation."""
    tester, helper = _tester_and_helper(engine)
    result = engine.execute(
        "Lab", AssistTest(helper=helper, square=pair, justification="it hides the tester's tracks")
    )
    tester_c, helper_c = _character(engine, tester), _character(engine, helper)
    expected = (
        AssistanceReceived(
            test=1,
            helper=helper_c.id,
            helper_name=helper,
            square=R3C1,
            form=Form.TEETH,
            function=Function.CRYPTIC,
            justification="it hides the tester's tracks",
        ),
        AssistanceGiven(
            tester=tester_c.id,
            tester_name=tester,
            test=1,
            square=R3C1,
            form=Form.TEETH,
            function=Function.CRYPTIC,
            justification="it hides the tester's tracks",
        ),
    )
    assert expected == result.events
    assert tester_c.test is not None
    assert 3 == tester_c.test.pool  # two own tokens and one extra die
    assert (None, False) == (helper_c.test, helper_c.adaptation_pending)


@pytest.mark.parametrize("pair", [pytest.param("Cryptic Legs", id="G-CG-09-cryptic-legs-refused")])
def test_assist_with_a_pair_without_a_token_is_refused(engine: Engine, pair: str) -> None:
    """Sharing one trait with a token's square is not enough: the pair's own square needs one."""
    _, helper = _tester_and_helper(engine)
    error = refused(
        engine,
        AssistTest(helper=helper, square=pair, justification="legs that vanish"),
        errors.NoTokenOnSquare,
    )
    assert "NO_TOKEN_ON_SQUARE" == error.code
    assert R1C1 == error.data["square"]


@pytest.mark.parametrize(
    "faces", [pytest.param((3, 6, 1, 4), id="G-CG-10-zero-own-plus-2-assists-highest-6")]
)
def test_assists_make_a_zero_pool_roll_highest(engine: Engine, faces: tuple[int, ...]) -> None:
    """Two assists on a test with no own tokens make a pool of 2 read by its highest die.

    The digest's queue is 3, 6, 1, 4: the roll takes exactly the first two (entered in full, the
    engine refuses the two unused faces), and 3, 6 gives 6 (the lowest-of-two rule would give 3)."""
    tester = scene_with_s1(engine)
    bob = add_s1_character(engine, "bob", BOB_DICE)
    carol = add_s1_character(engine, "carol", CAROL_DICE)
    place(engine, tester, "R1C2", "R1C3", "R2C3")
    place(engine, bob, "R3C1", "R1C2", "R2C3")
    place(engine, carol, "R1C1", "R2C2", "R3C3")
    (declared,) = engine.execute(
        "Lab", DeclareTest(character=tester, form="Teeth", function="Cryptic")
    ).events
    assert isinstance(declared, cg.TestDeclared)
    assert 0 == declared.own_tokens
    engine.execute(
        "Lab",
        AssistTest(helper=bob, square="Cryptic Teeth", justification="bites through the lock"),
    )
    engine.execute(
        "Lab",
        AssistTest(helper=carol, square="Tail Invulnerable", justification="shields the tester"),
    )
    error = refused(engine, RollTest(character=tester), TooManyDice, faces=faces)
    assert {"given": 4, "used": 2} == error.data
    result = engine.execute("Lab", RollTest(character=tester), dice=DiceSpec(faces=faces[:2]))
    expected = cg.TestRolled(
        test=1, pool=2, mode=PoolMode.HIGHEST, dice=(3, 6), result=6, band=MORE
    )
    assert (expected,) == result.events


@pytest.mark.parametrize("faces", [pytest.param((), id="G-CG-11-no-pair-no-assist-no-roll")])
def test_no_applicable_pair_rolls_nothing_and_still_adapts(
    engine: Engine, faces: tuple[int, ...]
) -> None:
    """No applicable pair and no assists: nothing is rolled, it reads as 1–3, adapting is due."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    engine.execute("Lab", DeclareTest(character=who, form=None, function=None))
    result = engine.execute("Lab", RollTest(character=who), dice=DiceSpec(faces=faces))
    expected = cg.TestRolled(test=1, pool=0, mode=PoolMode.NO_ROLL, dice=(), result=None, band=LESS)
    assert (expected,) == result.events
    assert () == result.dice
    assert _character(engine, who).adaptation_pending
    refused(
        engine,
        DeclareTest(character=who, form="Legs", function="Cryptic"),
        errors.AdaptationPending,
    )
    adapted = engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2")).events
    assert (Adapted(test=1, source=R1C1, destination=R1C2),) == adapted


@pytest.mark.parametrize("faces", [pytest.param((5,), id="G-CG-12-no-pair-one-assist-rolls-5")])
def test_no_applicable_pair_rolls_one_die_per_assist(
    engine: Engine, faces: tuple[int, ...]
) -> None:
    """Without an applicable pair, each assisting friend hands over one die to roll."""
    who = scene_with_s1(engine)
    bob = add_s1_character(engine, "bob", BOB_DICE)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    place(engine, bob, "R3C1", "R1C2", "R2C3")
    engine.execute("Lab", DeclareTest(character=who, form=None, function=None))
    engine.execute(
        "Lab",
        AssistTest(helper=bob, square="Cryptic Teeth", justification="bites through the lock"),
    )
    result = engine.execute("Lab", RollTest(character=who), dice=DiceSpec(faces=faces))
    expected = cg.TestRolled(
        test=1, pool=1, mode=PoolMode.HIGHEST, dice=(5,), result=5, band=MOSTLY
    )
    assert (expected,) == result.events


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        pytest.param(1, LESS, id="G-CG-13-band-1-less-than-human"),
        pytest.param(3, LESS, id="G-CG-13-band-3-less-than-human"),
        pytest.param(4, MOSTLY, id="G-CG-13-band-4-mostly-human"),
        pytest.param(5, MOSTLY, id="G-CG-13-band-5-mostly-human"),
        pytest.param(6, MORE, id="G-CG-13-band-6-more-than-human"),
    ],
)
def test_result_bands(result: int, expected: Band) -> None:
    """1–3 is less than human, 4–5 mostly human, 6 more than human."""
    assert expected == band_for(result)


# --- Character creation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "expected"), [pytest.param((3, 1, 4, 1, 5), "31415", id="G-CG-14-name-31415")]
)
def test_name_is_five_d6_in_roll_order(
    engine: Engine, faces: tuple[int, ...], expected: str
) -> None:
    """Five d6 in the order rolled are the character's only name."""
    engine.create_campaign("Lab", "code-green")
    result = engine.execute(
        "Lab",
        CreateCharacter(player="alice", form=S1_FORM, function=S1_FUNCTION),
        dice=DiceSpec(faces=faces),
    )
    rolled = [e for e in result.events if isinstance(e, NameRolled)]
    assert [NameRolled(dice=faces, name=expected)] == rolled
    joined = [e for e in result.events if isinstance(e, CharacterJoined)]
    assert [expected] == [e.name for e in joined]
    assert expected == _character(engine, expected).name


@pytest.mark.parametrize(
    ("table", "value", "expected"),
    [
        pytest.param(Table.FORM, 35, Form.HEART, id="G-CG-15-form-35-heart"),
        pytest.param(Table.FUNCTION, 35, Function.INVASIVE, id="G-CG-15-function-35-invasive"),
        pytest.param(Table.FORM, flip(35), Form.SKIN, id="G-CG-15-form-53-skin"),
        pytest.param(
            Table.FUNCTION, flip(35), Function.POLYMORPHIC, id="G-CG-15-function-53-polymorphic"
        ),
    ],
)
def test_trait_table_lookup(table: Table, value: int, expected: Form | Function) -> None:
    """A d66 result names the table entry whose two-value range contains it."""
    assert expected == trait_for(table, value)


@pytest.mark.parametrize(
    "faces", [pytest.param((1, 1, 4, 4, 3, 1, 4, 1, 5), id="G-CG-16-11-dup-flip-11-reroll-44")]
)
def test_duplicate_double_flips_to_itself_then_rerolls(
    engine: Engine, faces: tuple[int, ...]
) -> None:
    """A rolled duplicate is flipped; a double flips to itself, so it is re-rolled (3 rolls)."""
    engine.create_campaign("Lab", "code-green")
    command = CreateCharacter(player="alice", form=("Blood", "roll", "Teeth"), function=S1_FUNCTION)
    result = engine.execute("Lab", command, dice=DiceSpec(faces=faces))
    rolls = [e for e in result.events if isinstance(e, TraitRolled)]
    expected = [
        TraitRolled(table=Table.FORM, d66=11, flipped=False, trait=Form.BLOOD, discarded=True),
        TraitRolled(table=Table.FORM, d66=11, flipped=True, trait=Form.BLOOD, discarded=True),
        TraitRolled(table=Table.FORM, d66=44, flipped=False, trait=Form.LEGS, discarded=False),
    ]
    assert expected == rolls
    assert (Form.BLOOD, Form.LEGS, Form.TEETH) == _character(engine, "31415").form


@pytest.mark.parametrize(
    "faces", [pytest.param((1, 2), id="G-CG-17-12-dup-flip-21-dup-needs-reroll")]
)
def test_duplicate_still_duplicate_after_flip_needs_a_reroll(
    engine: Engine, faces: tuple[int, ...]
) -> None:
    """12 (Blood) and its flip 21 (Claws) are both taken, so the pick needs the next dice.

    With only 1, 2 entered the command asks for more dice and is refused, appending nothing; with
    a re-roll of 6, 6 (Wings) after them, the pick is made and both discards are logged."""
    engine.create_campaign("Lab", "code-green")
    command = CreateCharacter(player="alice", form=("Blood", "Claws", "roll"), function=S1_FUNCTION)
    refused(engine, command, NotEnoughDice, faces=faces)
    result = engine.execute("Lab", command, dice=DiceSpec(faces=(*faces, 6, 6, 3, 1, 4, 1, 5)))
    rolls = [e for e in result.events if isinstance(e, TraitRolled)]
    expected = [
        TraitRolled(table=Table.FORM, d66=12, flipped=False, trait=Form.BLOOD, discarded=True),
        TraitRolled(table=Table.FORM, d66=21, flipped=True, trait=Form.CLAWS, discarded=True),
        TraitRolled(table=Table.FORM, d66=66, flipped=False, trait=Form.WINGS, discarded=False),
    ]
    assert expected == rolls


# --- Token placement -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("picks", "value", "expected", "pair"),
    [
        pytest.param(
            ("roll", "R1C1", "R3C3"),
            35,
            TokenPlaced(square=R2C2, rolled=True, attempts=(35,), flipped=False),
            (Form.TAIL, Function.INVULNERABLE),
            id="G-CG-18-d66-35-is-r2c2-tail-invulnerable",
        ),
        pytest.param(
            ("R2C2", "roll", "R1C1"),
            53,
            TokenPlaced(square=R3C1, rolled=True, attempts=(35, 53), flipped=True),
            (Form.TEETH, Function.CRYPTIC),
            id="G-CG-18-flip-53-is-r3c1-teeth-cryptic",
        ),
    ],
)
def test_rolled_placement_uses_the_contiguous_grid_ranges(
    engine: Engine,
    picks: tuple[str, str, str],
    value: int,
    expected: TokenPlaced,
    pair: tuple[Form, Function],
) -> None:
    """Assumption CG-A1: 35 falls in R2C2's range 35–42 and 53 in R3C1's range 51–54."""
    assert expected.square == square_for(value, GridLayout.CONTIGUOUS)
    who = scene_with_s1(engine)
    result = engine.execute(
        "Lab", PlaceTokens(character=who, squares=picks), dice=DiceSpec(faces=(3, 5))
    )
    rolled = [e for e in result.events if isinstance(e, TokenPlaced) and e.rolled]
    assert [expected] == rolled
    assert pair == _character(engine, who).pair(expected.square)


@pytest.mark.parametrize("faces", [pytest.param((4, 1), id="G-CG-19-41-occupied-flip-14-r1c1")])
def test_rolled_placement_on_an_occupied_square_flips(
    engine: Engine, faces: tuple[int, ...]
) -> None:
    """41 lands on R2C2, which holds a token, so it is flipped to 14: R1C1, which is free."""
    who = scene_with_s1(engine)
    result = engine.execute(
        "Lab", PlaceTokens(character=who, squares=("R2C2", "roll", "R3C3")), dice=DiceSpec(faces)
    )
    expected = (
        TokenPlaced(square=R2C2, rolled=False, attempts=(), flipped=False),
        TokenPlaced(square=R1C1, rolled=True, attempts=(41, 14), flipped=True),
        TokenPlaced(square=R3C3, rolled=False, attempts=(), flipped=False),
        InitialTokensPlaced(squares=(R2C2, R1C1, R3C3)),
    )
    assert expected == result.events


# --- Strain --------------------------------------------------------------------------------------


def _s1_tested(engine: Engine) -> str:
    """S1 with tokens R1C1, R2C2, R3C3, no marks, and a rolled test awaiting adaptation."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    _rolled_test(engine, who)
    return who


@pytest.mark.parametrize(
    "faces", [pytest.param((1, 3), id="G-CG-20-strain-13-marks-r1c1-token-to-r1c2")]
)
def test_strain_on_a_token_displaces_it(engine: Engine, faces: tuple[int, int]) -> None:
    """Strain 13 marks R1C1; 8 unmarked squares remain, so its token moves where the player says."""
    who = _s1_tested(engine)
    result = engine.execute(
        "Lab", SufferStrain(character=who, destination="R1C2"), dice=DiceSpec(faces=faces)
    )
    expected = (
        StrainRolled(test=1, d66=13, square=R1C1),
        StrainSuffered(square=R1C1, marks=1),
        TokenDisplaced(source=R1C1, destination=R1C2),
    )
    assert expected == result.events
    c = _character(engine, who)
    assert ({R1C2, R2C2, R3C3}, {R1C1}) == (set(c.tokens), set(c.marks))


@pytest.mark.parametrize(
    "faces", [pytest.param((1, 3), id="G-CG-20-strain-13-then-displace-to-r1c2")]
)
def test_strain_on_a_token_waits_for_the_displacement(
    engine: Engine, faces: tuple[int, int]
) -> None:
    """Without a destination the struck token waits; nothing else may happen until it moves."""
    who = _s1_tested(engine)
    expected_strain = (
        StrainRolled(test=1, d66=13, square=R1C1),
        StrainSuffered(square=R1C1, marks=1),
    )
    assert expected_strain == _strain(engine, who, faces)
    assert R1C1 == _character(engine, who).displacement
    refused(
        engine, Adapt(character=who, source="R2C2", destination="R2C3"), errors.DisplacementPending
    )
    result = engine.execute("Lab", DisplaceToken(character=who, destination="R1C2"))
    assert (TokenDisplaced(source=R1C1, destination=R1C2),) == result.events


@pytest.mark.parametrize(
    "faces", [pytest.param((1, 2), id="G-CG-21-strain-12-on-marked-r1c1-incapacitates")]
)
def test_strain_on_a_marked_square_incapacitates(engine: Engine, faces: tuple[int, int]) -> None:
    """Strain landing on a marked square incapacitates (no new mark); tests are then refused."""
    who = _s1_tested(engine)
    engine.execute(
        "Lab", SufferStrain(character=who, destination="R1C2"), dice=DiceSpec(faces=(1, 3))
    )  # G-CG-20
    _adapt(engine, who, "R3C3", "R2C1")
    _rolled_test(engine, who)  # one strain per test by default: a new test for the new strain
    before = _character(engine, who)
    expected = (StrainRolled(test=2, d66=12, square=R1C1), Incapacitated(square=R1C1, d66=12))
    assert expected == _strain(engine, who, faces)
    after = _character(engine, who)
    assert (True, before.marks, before.tokens) == (after.incapacitated, after.marks, after.tokens)
    _adapt(engine, who, "R1C2", "R1C3")  # CG-A10: the test that caused it still ends
    error = refused(
        engine,
        DeclareTest(character=who, form="Legs", function="Cryptic"),
        errors.CharacterIncapacitated,
    )
    assert "CHARACTER_INCAPACITATED" == error.code


# Strain d66 and the adaptation after it, test by test, to reach G-CG-22's state with the default
# of one strain per test: marks on rows 1 and 2, the three tokens back on row 3.
_SIX_MARKS: tuple[tuple[tuple[int, int], tuple[str, str] | None], ...] = (
    ((1, 1), ("R3C1", "R2C2")),  # 11 marks R1C1
    ((1, 5), ("R2C2", "R2C3")),  # 15 marks R1C2
    ((2, 3), ("R2C3", "R3C1")),  # 23 marks R1C3
    ((3, 1), ("R3C1", "R2C2")),  # 31 marks R2C1
    ((4, 3), ("R2C2", "R3C1")),  # 43 marks R2C3
    ((3, 5), None),  # 35 marks R2C2; every unmarked square is occupied: no move possible
)


def _six_marks_tokens_on_row_3(engine: Engine) -> str:
    """S1, marks on R1C1..R2C3, tokens R3C1..R3C3, and a 7th rolled test awaiting adaptation."""
    who = scene_with_s1(engine)
    place(engine, who, "R3C1", "R3C2", "R3C3")
    for faces, move in _SIX_MARKS:
        _rolled_test(engine, who)
        _strain(engine, who, faces)
        source, destination = move or (None, None)
        engine.execute("Lab", Adapt(character=who, source=source, destination=destination))
    _rolled_test(engine, who)
    c = _character(engine, who)
    assert ({R1C1, R1C2, R1C3, R2C1, R2C2, R2C3}, {R3C1, R3C2, R3C3}) == (
        set(c.marks),
        set(c.tokens),
    )
    assert (7, True) == (c.tests, c.adaptation_pending)
    return who


@pytest.mark.parametrize(
    "faces", [pytest.param((5, 5), id="G-CG-22-strain-55-leaves-2-unmarked-token-removed")]
)
def test_strain_with_fewer_than_three_unmarked_removes_the_token(
    engine: Engine, faces: tuple[int, int]
) -> None:
    """Strain 55 marks R3C2; only 2 unmarked squares remain, so its token leaves the grid."""
    who = _six_marks_tokens_on_row_3(engine)
    expected = (
        StrainRolled(test=7, d66=55, square=R3C2),
        StrainSuffered(square=R3C2, marks=7),
        TokenRemoved(square=R3C2),
    )
    assert expected == _strain(engine, who, faces)
    c = _character(engine, who)
    assert ({R3C1, R3C3}, None) == (set(c.tokens), c.displacement)


@pytest.mark.parametrize(
    "faces", [pytest.param((5, 5), id="G-CG-23-no-free-unmarked-square-adaptation-impossible")]
)
def test_adaptation_is_impossible_without_a_valid_destination(
    engine: Engine, faces: tuple[int, int]
) -> None:
    """After G-CG-22 both unmarked squares hold tokens, so adapting is recorded as impossible."""
    who = _six_marks_tokens_on_row_3(engine)
    _strain(engine, who, faces)
    result = engine.execute("Lab", Adapt(character=who))
    assert (AdaptationImpossible(test=7, reason="no valid destination"),) == result.events
    assert not _character(engine, who).adaptation_pending


# --- Adapting ------------------------------------------------------------------------------------


def _marked_r1c2(engine: Engine) -> str:
    """S1 with tokens R1C1, R2C2, R3C3, a strain mark on R1C2 and adaptation pending."""
    who = _s1_tested(engine)
    _strain(engine, who, (1, 5))  # 15 marks R1C2, which holds no token
    c = _character(engine, who)
    assert ({R1C2}, {R1C1, R2C2, R3C3}, True) == (set(c.marks), set(c.tokens), c.adaptation_pending)
    return who


@pytest.mark.parametrize(
    ("source", "destination", "error"),
    [
        pytest.param("R1C1", "R1C2", errors.DestinationMarked, id="G-CG-24-to-marked-r1c2"),
        pytest.param("R1C1", "R2C2", errors.DestinationOccupied, id="G-CG-24-to-occupied-r2c2"),
        pytest.param(
            "R1C1", "R1C1", errors.MustMoveToDifferentSquare, id="G-CG-24-to-same-square-r1c1"
        ),
    ],
)
def test_adapt_refuses_marked_occupied_and_same_square(
    engine: Engine, source: str, destination: str, error: type[DomainError]
) -> None:
    """Adapting never moves a token onto a marked or occupied square, nor leaves it in place."""
    who = _marked_r1c2(engine)
    refused(engine, Adapt(character=who, source=source, destination=destination), error)
    assert _character(engine, who).adaptation_pending


@pytest.mark.parametrize(
    ("source", "destination"), [pytest.param("R1C1", "R1C3", id="G-CG-24-to-free-r1c3-ok")]
)
def test_adapt_to_a_free_unmarked_square(engine: Engine, source: str, destination: str) -> None:
    """Moving a token to an empty, unmarked square adapts and closes the test."""
    who = _marked_r1c2(engine)
    result = engine.execute("Lab", Adapt(character=who, source=source, destination=destination))
    assert (Adapted(test=1, source=R1C1, destination=R1C3),) == result.events
    c = _character(engine, who)
    assert ({R1C3, R2C2, R3C3}, False) == (set(c.tokens), c.adaptation_pending)


@pytest.mark.parametrize("pair", [pytest.param("Cryptic Teeth", id="G-CG-25-helper-incapacitated")])
def test_incapacitated_helper_cannot_assist(engine: Engine, pair: str) -> None:
    """An incapacitated character may not take part in tests, so it cannot assist either."""
    tester = scene_with_s1(engine)
    helper = add_s1_character(engine, "bob", BOB_DICE)
    place(engine, tester, "R1C1", "R2C2", "R3C3")
    place(engine, helper, "R3C1", "R1C2", "R2C3")
    _rolled_test(engine, helper)
    _strain(engine, helper, (1, 1))  # 11 marks R1C1
    _adapt(engine, helper, "R2C3", "R2C2")
    _rolled_test(engine, helper)
    _strain(engine, helper, (1, 2))  # 12 strikes R1C1 again
    _adapt(engine, helper, "R2C2", "R2C3")
    assert _character(engine, helper).incapacitated
    engine.execute("Lab", DeclareTest(character=tester, form="Legs", function="Invulnerable"))
    error = refused(
        engine,
        AssistTest(helper=helper, square=pair, justification="it tries anyway"),
        errors.HelperIncapacitated,
    )
    assert "HELPER_INCAPACITATED" == error.code
