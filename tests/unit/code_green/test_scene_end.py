"""Code Green's scene end (the ruleset's ``end_scene``, code_green/__init__.py; R-CG-07, CG-A4):
marks clear, tokens return to hand and incapacitation ends, by house rule; a scene does not end
on an open test."""

from __future__ import annotations

import pytest
from attrs import evolve as replace

from domain.audience import GMS
from domain.errors import DomainError
from domain.events import Event
from domain.lifecycle import EndScene
from domain.rulesets.code_green import RULESET, errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import PlaceTokens, Recover
from domain.rulesets.code_green.events import (
    AdaptationImpossible,
    InitialTokensPlaced,
    Recovered,
    StrainMarksCleared,
    TokensReturned,
)
from engine import Engine
from tests.conftest import scene_with_s1
from tests.unit.code_green.conftest import (
    BOB_PLACED,
    DECLARED,
    DISPLACING,
    INCAPACITATED,
    PENDING,
    PLACED,
    R1C1,
    R1C2,
    R1C3,
    R2C1,
    R2C2,
    R3C3,
    adapt,
    bob,
    decide,
    end_scene,
    history,
    me,
    rolled_test,
    seven_marks_struck_r3c2,
    struck_and_incapacitated,
    view_of,
)


def test_scene_end_clears_marks_returns_tokens_and_recovers() -> None:
    """By default the scene's end clears the marks, returns all tokens and ends incapacitation."""
    c = struck_and_incapacitated()
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


def test_the_scene_end_returns_tokens_strain_took_and_ends_incapacitation() -> None:
    """CG-A4: at the scene's end the marks clear, the tokens return to hand (even when strain
    removed every one of them: all three are back for the next placement), and an
    incapacitated character recovers; each on the character's own stream."""
    down = me(*INCAPACITATED, adapt(2, R1C3, R2C1))
    stripped = replace(bob(*BOB_PLACED), tokens=frozenset())
    changes = RULESET.end_scene(view_of(down, stripped))
    assert [
        (down.id, cg.StrainMarksCleared(squares=(R1C2,))),
        (down.id, cg.TokensReturned(squares=(R2C1, R2C2, R3C3))),
        (down.id, cg.Recovered(reason="the scene ended")),
        (stripped.id, cg.TokensReturned(squares=())),
    ] == [(c.stream, c.event) for c in changes]


def test_removed_tokens_come_back_at_scene_end() -> None:
    """A token strain removed is back in hand: the next scene places all three again."""
    c = seven_marks_struck_r3c2()
    c = history(AdaptationImpossible(test=1, reason="no valid destination"), start=c)
    after = history(*end_scene(view_of(c)), start=c)
    events = decide(PlaceTokens(character=c.name, squares=("R1C1", "R1C2", "R1C3")), view_of(after))
    assert InitialTokensPlaced(squares=(R1C1, R1C2, R1C3)) == events[-1]


def test_marks_persist_across_scenes_by_house_rule() -> None:
    """With marksPersistAcrossScenes the marks stay, and so does their ban on placing tokens."""
    c = struck_and_incapacitated()
    view = view_of(c, marksPersistAcrossScenes="true")
    events = end_scene(view)
    assert not any(isinstance(e, StrainMarksCleared) for e in events)
    after = history(*events, start=c)
    assert frozenset({R1C2}) == after.marks
    with pytest.raises(errors.SquareMarked):
        decide(PlaceTokens(character=c.name, squares=("R1C2", "R2C2", "R3C3")), view_of(after))


def test_incapacitation_outlasts_the_scene_by_house_rule() -> None:
    """With incapacitationEndsAtSceneEnd off only the GM's Recover ends incapacitation."""
    c = struck_and_incapacitated()
    view = view_of(c, incapacitationEndsAtSceneEnd="false")
    events = end_scene(view)
    assert not any(isinstance(e, Recovered) for e in events)
    after = history(*events, start=c)
    assert after.incapacitated
    recovered = decide(Recover(character=c.name), view_of(after))
    assert (Recovered(reason="GM ruling"),) == recovered
    assert not history(*recovered, start=after).incapacitated


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


@pytest.mark.parametrize(
    ("events", "what"),
    [
        (DISPLACING, "test 1 is not resolved (a token must move)"),
        (DECLARED, "test 1 is not resolved (not rolled)"),
        (PENDING, "test 1 is not resolved (adaptation pending)"),
    ],
    ids=["displacing", "declared", "rolled"],
)
def test_a_scene_cannot_end_on_an_open_test(events: tuple[Event, ...], what: str) -> None:
    """R-CG-06: adapting is not optional, so the scene's end waits for the open test; the
    refusal names the character, the test and what it waits for."""
    with pytest.raises(DomainError) as raised:
        RULESET.end_scene(view_of(me(*events)))
    expected = f"TEST_UNRESOLVED: 31415's {what}; finish it before the scene ends"
    assert expected == f"{raised.value.code}: {raised.value.reason}"


def test_scene_end_through_the_engine_records_the_consequences(engine: Engine) -> None:
    """Ending the scene records SceneEnded and then each character's scene-end events."""
    who = scene_with_s1(engine)
    engine.execute("Lab", PlaceTokens(character=who, squares=("R1C1", "R2C2", "R3C3")))
    result = engine.execute("Lab", EndScene())
    assert ["SceneEnded", "TokensReturned"] == [type(e).__name__ for e in result.events]
    c: CgCharacter = engine.character("Lab", who, audience=GMS)
    assert (frozenset(), False) == (c.tokens, c.placed)
