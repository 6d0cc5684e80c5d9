"""Code Green: undo and amend decide the later rulings again, and the oracle agrees.

The oracle (``tests/integration/oracle.py``) plays the story again without the undone ruling (or
with the amended command), each command with the dice it rolled the first time. A plain undo
must be refused naming exactly the rulings that ``--redecide`` changes or refuses;
``--with-dependents`` must retract those and every later one that then does not stand;
``--redecide`` must leave the state the oracle reaches, or be refused where the oracle's table
would have been refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.commands import Command
from domain.errors import (
    CannotRedecide,
    CannotUndo,
    DomainError,
    LaterRulingsDepend,
    SealedSessionChanged,
)
from domain.events import RulingMade
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DeclareTest,
    PlaceTokens,
    RejectAssist,
    RollTest,
)
from domain.rulesets.code_green.tables import Square
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.write.assembly import RulingResult
from tests.conftest import S1_FORM, S1_FUNCTION, event_count
from tests.integration.dependants import amend_redecided, undo_redecided, undo_with_dependents
from tests.integration.oracle import Refused, Step, again, play, whole_state
from tests.integration.test_replay import commands, seeded

SYSTEM = "code-green"
ALICE, BOB = "31415", "26535"

# Alice and Bob in a scene; alice tests Legs x Invulnerable, bob assists (the pool grows to
# three dice), the pool rolls, alice adapts, the scene ends (her tokens return from where they
# stand then).
SETUP = [
    Step(StartSession()),
    Step(StartScene(stage="lab")),
    Step(CreateCharacter(player="alice", form=S1_FORM, function=S1_FUNCTION), (3, 1, 4, 1, 5)),
    Step(CreateCharacter(player="bob", form=S1_FORM, function=S1_FUNCTION), (2, 6, 5, 3, 5)),
    Step(PlaceTokens(character=ALICE, squares=("R1C1", "R2C2", "R3C3"))),
    Step(PlaceTokens(character=BOB, squares=("R1C2", "R2C1", "R3C3"))),
]
TEST, ASSIST, ROLL, ADAPT, SCENE_END = 6, 7, 8, 9, 10
STORY = [
    *SETUP,
    Step(DeclareTest(character=ALICE, form="Legs", function="Invulnerable")),
    Step(AssistTest(helper=BOB, square="R1C2", justification="legs for legs")),
    Step(RollTest(), (2, 5, 4)),
    Step(Adapt(character=ALICE, source="R1C1", destination="R2C1")),
    Step(EndScene()),
]


def header(result: RulingResult) -> dict[str, Any]:
    made = next(r.event for r in result.records if isinstance(r.event, RulingMade))
    params: dict[str, Any] = json.loads(made.params)
    return params


def played(story: Sequence[Step] = STORY) -> tuple[Engine, list[int]]:
    engine = Engine()
    return engine, play(engine, SYSTEM, story)


def refused_alone(index: int) -> LaterRulingsDepend:
    """A plain undo of the story's step ``index``: refused, nothing appended."""
    engine, rulings = played()
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend) as refused:
        engine.undo("Lab", rulings[index], reason="no")
    assert before == event_count(engine)
    return refused.value


def numbers(rulings: list[int], *indexes: int) -> str:
    return ", ".join(str(rulings[i]) for i in indexes)


# --- Stories ---------------------------------------------------------------------------------


def test_undoing_an_assist_rolls_the_pool_again_with_one_die_fewer() -> None:
    """Bob's assist made alice's pool three dice. Without it the roll is decided again on two
    of the dice it rolled (2, 5): the roll does not stand, and it alone depends on the assist
    (alice adapts and the scene ends as they did after the roll decided again); undone with
    it, the roll takes its adaptation and the scene end along; re-decided, the story is the
    oracle's."""
    engine, rulings = played()
    refused = refused_alone(ASSIST)
    assert numbers(rulings, ROLL) == refused.data["dependents"]

    engine.undo("Lab", rulings[ASSIST], reason="no help", with_dependents=True)
    assert {rulings[i] for i in (ASSIST, ROLL, ADAPT, SCENE_END)} == engine.campaign(
        "Lab"
    ).retracted

    engine, rulings = played()
    result = engine.undo("Lab", rulings[ASSIST], reason="no help", redecide=True)
    redecided = header(result)["redecided"]
    assert [rulings[ROLL]] == [r["ruling"] for r in redecided]
    assert [[6, 2], [6, 5]] == redecided[0]["dice"]
    oracle = again(SYSTEM, STORY, without={ASSIST})
    assert not isinstance(oracle, Refused)
    assert whole_state(oracle) == whole_state(engine)


def test_undoing_the_test_takes_its_steps_along_and_redecides_the_scene_end() -> None:
    """Without the declared test, its assist, roll and adaptation have nothing to resolve (they
    go with it), and the scene end returns alice's tokens from where she placed them."""
    engine, rulings = played()
    refused = refused_alone(TEST)
    assert numbers(rulings, ASSIST, ROLL, ADAPT, SCENE_END) == refused.data["dependents"]

    result = engine.undo("Lab", rulings[TEST], reason="no test", redecide=True)

    assert [rulings[i] for i in (ASSIST, ROLL, ADAPT)] == header(result)["with"]
    assert [rulings[SCENE_END]] == [r["ruling"] for r in header(result)["redecided"]]
    oracle = again(SYSTEM, STORY, without={TEST})
    assert not isinstance(oracle, Refused)
    assert whole_state(oracle) == whole_state(engine)
    (scene_end,) = [
        log for log in engine.log("Lab", audience=GMS) if log.ruling.number == rulings[SCENE_END]
    ]
    assert ["re-decided"] == [a.kind for a in scene_end.amendments]


# The GM rules bob's first pair out (R-CG-04) and he assists with another before the roll.
REJECT, REASSIST = 8, 9
RULED_OUT_STORY = [
    *SETUP,
    Step(DeclareTest(character=ALICE, form="Legs", function="Invulnerable")),
    Step(AssistTest(helper=BOB, square="R1C2", justification="legs for legs")),
    Step(RejectAssist(helper=BOB, reason="legs do not help here")),
    Step(AssistTest(helper=BOB, square="R2C1", justification="a tail to hide behind")),
    Step(RollTest(), (2, 5, 4)),
    Step(Adapt(character=ALICE, source="R1C1", destination="R1C3")),
]


def test_undoing_the_test_takes_the_gms_rejection_of_an_assist_along() -> None:
    """The GM's ruling an assist out is a step of the test: undone with it, as the oracle says."""
    engine, rulings = played(RULED_OUT_STORY)
    result = engine.undo("Lab", rulings[TEST], reason="no test", redecide=True)
    steps = (ASSIST, REJECT, REASSIST, REASSIST + 1, REASSIST + 2)
    assert [rulings[i] for i in steps] == header(result)["with"]
    oracle = again(SYSTEM, RULED_OUT_STORY, without={TEST})
    assert not isinstance(oracle, Refused)
    assert whole_state(oracle) == whole_state(engine)


def test_undoing_the_rejection_gives_the_first_die_back_instead_of_the_second() -> None:
    """Without the GM's ruling bob's first die stands, so his second assist (one die a helper)
    no longer does: it alone depends on the rejection (the pool and its roll stand, three dice
    either way); --redecide takes it along and ends where the oracle does."""
    engine, rulings = played(RULED_OUT_STORY)
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend) as refused:
        engine.undo("Lab", rulings[REJECT], reason="it did help")
    assert str(rulings[REASSIST]) == refused.value.data["dependents"]
    assert before == event_count(engine)

    result = engine.undo("Lab", rulings[REJECT], reason="it did help", redecide=True)
    assert [rulings[REASSIST]] == header(result)["with"]
    oracle = again(SYSTEM, RULED_OUT_STORY, without={REJECT})
    assert not isinstance(oracle, Refused)
    assert whole_state(oracle) == whole_state(engine)


def test_a_prerequisite_undone_refuses_to_redecide_what_needed_it() -> None:
    """Without alice's placement her test cannot be declared: re-deciding is refused naming the
    test (the oracle's table refuses it too), and nothing is appended."""
    engine, rulings = played()
    place = 4
    assert isinstance(again(SYSTEM, STORY, without={place}), Refused)
    before = event_count(engine)

    with pytest.raises(CannotRedecide) as refused:
        engine.undo("Lab", rulings[place], reason="no", redecide=True)

    assert (rulings[TEST], "test") == (
        refused.value.data["dependent"],
        refused.value.data["command"],
    )
    assert before == event_count(engine)


def test_redecide_and_with_dependents_contradict() -> None:
    engine, rulings = played()
    before = event_count(engine)
    with pytest.raises(DomainError) as refused:
        engine.undo("Lab", rulings[ASSIST], reason="no", with_dependents=True, redecide=True)
    assert "REDECIDE_OR_WITH_DEPENDENTS" == refused.value.code
    assert before == event_count(engine)


def test_amending_the_test_redecides_its_roll_on_the_new_pool() -> None:
    """The test amended to Legs x Cryptic: the cross holds fewer tokens, so the roll is decided
    again on the first of its dice, and the state is the oracle's with the corrected command."""
    engine, rulings = played()
    before = event_count(engine)
    with pytest.raises(DomainError) as refused:
        engine.amend("Lab", rulings[TEST], {"function": "Cryptic"}, reason="a puzzle")
    assert "AMENDMENT_CONFLICTS" == refused.value.code
    assert before == event_count(engine)

    result = engine.amend(
        "Lab", rulings[TEST], {"function": "Cryptic"}, reason="a puzzle", redecide=True
    )

    assert [rulings[ROLL]] == [r["ruling"] for r in header(result)["redecided"]]
    oracle = again(
        SYSTEM,
        STORY,
        replaced={TEST: DeclareTest(character=ALICE, form="Legs", function="Cryptic")},
    )
    assert not isinstance(oracle, Refused)
    assert whole_state(oracle) == whole_state(engine)


def test_the_log_and_the_recap_say_re_decided() -> None:
    """The re-decided roll shows under the undo in the log and in the session's corrections."""

    engine, rulings = played()
    result = engine.undo("Lab", rulings[ASSIST], reason="no help", redecide=True)
    corrections = engine.recap("Lab", 1, audience=GMS)["corrections"]
    kinds = {(c["ruling"], c["kind"], c["by"]) for c in corrections}
    assert (rulings[ROLL], "re-decided", result.number) in kinds
    assert (rulings[ASSIST], "undone", result.number) in kinds


# --- The oracle, on any history -------------------------------------------------------------


def recorded(engine: Engine, command: Command, dice: DiceSpec) -> Step | None:
    """Run a command on the product; the step it was (with the faces it rolled), or None."""
    try:
        result = engine.execute("Lab", command, dice=dice)
    except DomainError:
        return None
    return Step(command, tuple(d.face for d in result.dice))


def a_test(
    who: str, form: str, function: str, assist: str | None, dice: DiceSpec, move: int
) -> list[tuple[Command | AnyAdaptation, DiceSpec]]:
    """A whole test: declared, maybe assisted by the other character, rolled, adapted (the
    ``move``-th legal move when it is played: see ``legal``)."""
    helper = BOB if who == ALICE else ALICE
    steps: list[Command | AnyAdaptation] = [
        DeclareTest(character=who, form=form, function=function)
    ]
    if assist is not None:
        steps.append(AssistTest(helper=helper, square=assist, justification="it helps"))
    steps += [RollTest(), AnyAdaptation(who, move)]
    return [(command, dice) for command in steps]


@frozen
class AnyAdaptation:
    """The ``move``-th of the character's legal adaptations when it is played."""

    character: str
    move: int


def legal(engine: Engine, command: Command | AnyAdaptation) -> Command:
    if not isinstance(command, AnyAdaptation):
        return command
    moves = engine.character("Lab", command.character, audience=GMS).legal_moves()
    if not moves:
        return Adapt(character=command.character)
    source, destination = moves[command.move % len(moves)]
    return Adapt(character=command.character, source=str(source), destination=str(destination))


tests = st.builds(
    a_test,
    st.sampled_from([ALICE, BOB]),
    st.sampled_from(S1_FORM),
    st.sampled_from(S1_FUNCTION),
    st.none() | st.sampled_from([s.value for s in Square]),
    seeded,
    st.integers(0, 20),
)
# Single commands (mostly refused: a test's steps out of order) and whole tests (mostly played).
histories = st.lists(
    st.one_of(commands.map(lambda c: [(c, DiceSpec(seed=1))]), tests, tests),
    min_size=2,
    max_size=12,
)
corrections = st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(["redecide", "with", "amend"])),
    min_size=1,
    max_size=2,
)


@settings(max_examples=100, deadline=None)
@given(history=histories, fixes=corrections)
def test_any_undo_ends_where_playing_it_again_ends(
    history: list[list[tuple[Command | AnyAdaptation, DiceSpec]]], fixes: list[tuple[int, str]]
) -> None:
    """After any story, one correction and then another (an undo or an amendment of a test's
    traits, re-deciding the later rulings; or an undo taking along those that do not stand):
    the state is the one the story played again without the undone rulings (and with the
    amended command) reaches; a correction is refused exactly when that replay is; and the
    same correction made plain first names as dependants exactly the rulings re-deciding
    changes or refuses (``tests/integration/dependants.py``)."""
    engine, rulings = played(SETUP)
    story = list(zip(rulings, SETUP, strict=True))  # the rulings in force, with their steps
    for command, dice in (move for moves in history for move in moves):
        step = recorded(engine, legal(engine, command), dice)
        if step is not None:
            story.append((engine.campaign("Lab").rulings, step))
    for pick, mode in fixes:
        played_after = max(0, len(story) - len(SETUP))  # mostly a ruling of play
        index = len(SETUP) + pick % played_after if played_after and pick % 4 else pick % len(story)
        steps = [step for _, step in story]
        number, step = story[index]
        replaced: dict[int, Command] = {}
        before = event_count(engine)
        try:
            if mode == "amend" and isinstance(step.command, DeclareTest):
                form, function = S1_FORM[pick % 3], S1_FUNCTION[pick // 3 % 3]
                replaced[index] = attrs.evolve(step.command, form=form, function=function)
                result = amend_redecided(
                    engine,
                    "Lab",
                    number,
                    {"form": form, "function": function},
                    reason="property",
                    dice=DiceSpec(faces=()),
                )
            elif mode == "with":
                result, _ = undo_with_dependents(engine, "Lab", number, reason="property")
            else:
                result = undo_redecided(engine, "Lab", number, reason="property")
        except (CannotUndo, SealedSessionChanged):
            # A session end stays, and stays as it was: its seal and its dice were published.
            assert before == event_count(engine)
            return
        except DomainError:  # re-deciding, or the amended test itself
            oracle = again(SYSTEM, steps, without=set() if replaced else {index}, replaced=replaced)
            assert isinstance(oracle, Refused)
            assert before == event_count(engine)
            return
        if replaced:
            story[index] = (number, Step(replaced[index], step.faces))
        gone = {*header(result)["with"], *(() if replaced else (number,))}
        story = [(n, step) for n, step in story if n not in gone]
        oracle = again(SYSTEM, [step for _, step in story])
        assert not isinstance(oracle, Refused)
        assert whole_state(oracle) == whole_state(engine)
