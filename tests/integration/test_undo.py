"""Undo: retractions on every stream a ruling touched, dependants, refusals, log and time travel."""

from __future__ import annotations

import pytest
from attrs import evolve

from domain.audience import GMS
from domain.errors import DomainError
from domain.events import RulingRetracted
from domain.lifecycle import AddNote, EndScene
from domain.rulesets.code_green.commands import Adapt, DisplaceToken, RollTest, SufferStrain
from engine import Engine
from engine.corrections.undo import Retraction
from engine.dice.sources import DiceSpec
from tests.conftest import event_count, place, scene_with_s1
from tests.integration.scenes import (
    ADAPT,
    ALICE,
    ASSIST,
    BOB,
    DISPLACE,
    PLACE_ALICE,
    ROLL,
    SCENE_END,
    STRAIN,
    TEST,
    add_bob,
    play_scene,
    play_until_rolled,
    replay_from_scratch,
    stream_ids,
)


def play_until_adapted(engine: Engine) -> None:
    """Rulings 1-13: the scripted scene up to alice's adaptation (the scene still runs)."""
    play_until_rolled(engine)
    engine.execute("Lab", SufferStrain(character=ALICE), dice=DiceSpec(faces=(3, 5)))
    engine.execute("Lab", DisplaceToken(character=ALICE, destination="R1C3"))
    engine.execute("Lab", Adapt(character=ALICE, source="R1C1", destination="R2C1"))


def refusal(
    engine: Engine, ruling: int | None, *, reason: str = "oops", with_dependents: bool = False
) -> DomainError:
    """Undo ``ruling``, expect a refusal, and prove that nothing was appended."""
    before = event_count(engine)
    with pytest.raises(DomainError) as refused:
        engine.undo("Lab", ruling, reason=reason, with_dependents=with_dependents)
    assert before == event_count(engine)
    return refused.value


# --- Undoing ------------------------------------------------------------------------------


def test_undo_without_a_number_retracts_the_latest_ruling(engine: Engine) -> None:
    """Undo with no ruling named retracts the last one (the scene end): the scene runs again."""
    play_scene(engine)

    result = engine.undo("Lab", reason="we were not done")

    assert (15, "undo") == (result.number, result.command)
    assert {SCENE_END} == engine.campaign("Lab").retracted
    assert (1, "The lab wakes up") == (engine.campaign("Lab").scene, engine.campaign("Lab").stage)


def test_undo_writes_a_retraction_on_every_stream_the_ruling_touched(engine: Engine) -> None:
    """Undoing the scene end retracts it on the campaign and on both characters' streams."""
    play_scene(engine)
    campaign = engine.campaign("Lab")
    touched = {span.stream for span in engine.log("Lab", audience=GMS)[-1].ruling.touched}

    result = engine.undo("Lab", reason="we were not done")

    retracted = {r.originator_id for r in result.records if isinstance(r.event, RulingRetracted)}
    assert {campaign.id, *(e.character_id for e in campaign.roster)} == touched
    assert touched == retracted
    assert {SCENE_END} == {e.ruling for e in result.events}  # type: ignore[attr-defined]


def test_repeated_undo_walks_back_over_rulings_still_in_force(engine: Engine) -> None:
    """Each default undo takes the latest ruling neither undone nor itself an undo."""
    play_scene(engine)

    engine.undo("Lab", reason="one")
    engine.undo("Lab", reason="two")
    engine.undo("Lab", reason="three")

    assert {SCENE_END, ADAPT, DISPLACE} == engine.campaign("Lab").retracted


def test_undo_restores_the_state_from_before_the_ruling(engine: Engine) -> None:
    """After undoing the scene end, characters are exactly as they were before it."""
    play_until_adapted(engine)
    characters = engine.characters("Lab", audience=GMS)
    campaign = engine.campaign("Lab")
    engine.execute("Lab", EndScene())

    engine.undo("Lab", reason="we were not done")

    expected_campaign = evolve(campaign, rulings=15, retracted=frozenset({SCENE_END}))
    assert characters == engine.characters("Lab", audience=GMS)
    assert expected_campaign == engine.campaign("Lab")


def test_replay_skips_retracted_events(engine: Engine) -> None:
    """Loading and a from-scratch replay both leave the retracted ruling's events out."""
    play_until_adapted(engine)
    before = engine.characters("Lab", audience=GMS)
    engine.execute("Lab", EndScene())
    engine.undo("Lab", reason="we were not done")

    replayed = [replay_from_scratch(engine, s) for s in stream_ids(engine)[2:]]

    assert before == replayed
    assert before == engine.characters("Lab", audience=GMS)


def test_undoing_a_character_creation_takes_it_off_the_roster(engine: Engine) -> None:
    """Undoing the latest character creation removes it from the roster and the characters."""
    scene_with_s1(engine)
    add_bob(engine)

    engine.undo("Lab", reason="bob is not coming")

    assert [ALICE] == [e.name for e in engine.campaign("Lab").roster]
    assert [ALICE] == [c.name for c in engine.characters("Lab", audience=GMS)]


def test_undoing_a_note_on_the_campaign_stream(engine: Engine) -> None:
    """A note's ruling is retracted on the campaign stream; the ruling count still grows."""
    scene_with_s1(engine)
    engine.execute("Lab", AddNote(text="typo"))

    result = engine.undo("Lab", reason="typo")

    assert (5, 6, frozenset({5})) == (
        result.number - 1,
        engine.campaign("Lab").rulings,
        engine.campaign("Lab").retracted,
    )


def test_next_ruling_after_an_undo_takes_the_next_number(engine: Engine) -> None:
    """Undo never reuses a number: the ruling after an undo follows the undo."""
    play_until_adapted(engine)
    engine.undo("Lab", reason="other square")

    result = engine.execute("Lab", Adapt(character=ALICE, source="R3C3", destination="R3C1"))

    assert 15 == result.number
    assert ADAPT in engine.campaign("Lab").retracted


# --- Dependants ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruling", "dependents"),
    [
        pytest.param(ROLL, "11, 12, 13", id="roll"),
        pytest.param(TEST, "9, 10, 11, 12, 13", id="test"),
        pytest.param(PLACE_ALICE, "8, 9, 10, 11, 12, 13", id="placement"),
        pytest.param(STRAIN, "12", id="strain"),
        # Without bob his placement and his assist are refused and the pool is a die smaller;
        # the strain, displacement and adaptation stand on the roll decided again.
        pytest.param(5, "7, 9, 10", id="helper-creation"),
    ],
)
def test_older_ruling_with_dependants_is_refused_naming_them(
    engine: Engine, ruling: int, dependents: str
) -> None:
    """Undoing a ruling later rulings build on is refused with LATER_RULINGS_DEPEND, naming
    those that re-deciding would change or refuse."""
    play_until_adapted(engine)

    refused = refusal(engine, ruling)

    assert "LATER_RULINGS_DEPEND" == refused.code
    assert {"ruling": ruling, "dependents": dependents} == refused.data
    assert f"later rulings {dependents} depend on it" in refused.reason
    assert frozenset() == engine.campaign("Lab").retracted


def test_older_ruling_without_dependants_can_be_undone_alone(engine: Engine) -> None:
    """A note nothing depends on is undone alone although rulings follow it."""
    scene_with_s1(engine)
    engine.execute("Lab", AddNote(text="the lab smells of ozone"))
    add_bob(engine)

    engine.undo("Lab", 5, reason="not true")

    assert frozenset({5}) == engine.campaign("Lab").retracted
    assert [ALICE, BOB] == [c.name for c in engine.characters("Lab", audience=GMS)]


def test_with_dependents_retracts_the_ruling_and_all_its_dependants(engine: Engine) -> None:
    """with_dependents=True retracts the roll and the strain, displacement and adaptation."""
    play_until_adapted(engine)
    after_assist = engine.character_at("Lab", ALICE, ruling=ASSIST, audience=GMS)

    result = engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)

    assert {ROLL, STRAIN, DISPLACE, ADAPT} == engine.campaign("Lab").retracted
    undone = {e.ruling for e in result.events}  # type: ignore[attr-defined]
    assert {ROLL, STRAIN, DISPLACE, ADAPT} == undone
    assert after_assist == engine.character("Lab", ALICE, audience=GMS)
    assert [
        (n, Retraction(by=14, actor="GM", reason="wrong dice"))
        for n in (ROLL, STRAIN, DISPLACE, ADAPT)
    ] == [(e.ruling.number, e.retraction) for e in engine.log("Lab", audience=GMS) if e.retraction]


def test_with_dependents_also_retracts_what_stood_only_on_them(engine: Engine) -> None:
    """Undoing bob's creation names his placement, his assist and the roll (with one die fewer
    the roll comes out otherwise; the strain, displacement and adaptation would stand on it).
    Undone with them, the roll takes along the steps that resolved it: nothing is left that
    stands on a ruling undone."""
    play_until_adapted(engine)
    assert "7, 9, 10" == refusal(engine, 5).data["dependents"]

    result = engine.undo("Lab", 5, reason="bob never came", with_dependents=True)

    gone = {5, 7, 9, ROLL, STRAIN, DISPLACE, ADAPT}
    assert gone == engine.campaign("Lab").retracted
    assert gone == {e.ruling for e in result.events}  # type: ignore[attr-defined]
    assert [ALICE] == [c.name for c in engine.characters("Lab", audience=GMS)]
    assert engine.character("Lab", ALICE, audience=GMS).test is not None  # declared, not rolled


def test_after_undoing_dependants_the_test_can_be_rolled_again(engine: Engine) -> None:
    """Once the roll and its dependants are undone, the open test rolls again, as a new ruling."""
    play_until_adapted(engine)
    engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)

    result = engine.execute("Lab", RollTest(), dice=DiceSpec(faces=(6, 1, 1)))

    assert (15, 6) == (result.number, result.events[0].result)  # type: ignore[attr-defined]
    assert engine.character("Lab", ALICE, audience=GMS).adaptation_pending


def test_scene_end_depends_on_the_roll_that_resolved_its_test(engine: Engine) -> None:
    """Undoing the roll alone names the scene end too: the scene could not end on an open test."""
    play_scene(engine)

    refused = refusal(engine, ROLL)

    assert "11, 12, 13, 14" == refused.data["dependents"]


def test_placements_depend_on_the_scene_they_were_made_in(engine: Engine) -> None:
    """Undoing the start of a scene names the placements made in it as dependants."""
    scene_with_s1(engine)
    place(engine, ALICE, "R1C1", "R2C2", "R3C3")

    refused = refusal(engine, 3)

    assert "5" == refused.data["dependents"]


# --- Refusals -----------------------------------------------------------------------------


def test_undoing_an_undone_ruling_is_refused(engine: Engine) -> None:
    """A ruling undone already is refused with RULING_ALREADY_RETRACTED naming the undo."""
    play_scene(engine)
    engine.undo("Lab", reason="not done")

    refused = refusal(engine, SCENE_END)

    assert ("RULING_ALREADY_RETRACTED", {"ruling": SCENE_END, "by": 15}) == (
        refused.code,
        refused.data,
    )


def test_undoing_a_dependant_retracted_together_is_refused(engine: Engine) -> None:
    """A ruling retracted as a dependant counts as undone as well."""
    play_until_adapted(engine)
    engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)

    refused = refusal(engine, DISPLACE)

    assert ("RULING_ALREADY_RETRACTED", 14) == (refused.code, refused.data["by"])


def test_undoing_the_campaign_creation_is_refused(engine: Engine) -> None:
    """Ruling 1 created the campaign: CANNOT_UNDO."""
    scene_with_s1(engine)

    refused = refusal(engine, 1)

    assert ("CANNOT_UNDO", "init") == (refused.code, refused.data["command"])


def test_undoing_an_undo_is_refused(engine: Engine) -> None:
    """An undo ruling cannot itself be undone: CANNOT_UNDO."""
    play_scene(engine)
    engine.undo("Lab", reason="not done")

    refused = refusal(engine, 15)

    assert ("CANNOT_UNDO", "undo") == (refused.code, refused.data["command"])


@pytest.mark.parametrize("ruling", [0, 15, 99, -1])
def test_undoing_an_unknown_ruling_is_refused(engine: Engine, ruling: int) -> None:
    """A number that is not in the log is refused with UNKNOWN_RULING."""
    play_scene(engine)

    refused = refusal(engine, ruling)

    assert ("UNKNOWN_RULING", {"ruling": ruling}) == (refused.code, refused.data)


def test_nothing_to_undo_in_a_new_campaign(engine: Engine) -> None:
    """A campaign with only its creation has nothing to undo: NOTHING_TO_UNDO."""
    engine.create_campaign("Lab", "code-green")

    assert "NOTHING_TO_UNDO" == refusal(engine, None).code


def test_nothing_to_undo_once_everything_is_undone(engine: Engine) -> None:
    """After every ruling but the creation is undone, a default undo is refused."""
    engine.create_campaign("Lab", "code-green")
    engine.execute("Lab", AddNote(text="one"))
    engine.undo("Lab", reason="gone")

    assert "NOTHING_TO_UNDO" == refusal(engine, None).code


@pytest.mark.parametrize("reason", ["", "   "])
def test_undo_needs_a_reason(engine: Engine, reason: str) -> None:
    """An undo without a reason is refused with EMPTY_TEXT."""
    play_scene(engine)

    assert "EMPTY_TEXT" == refusal(engine, None, reason=reason).code


# --- The log and time travel --------------------------------------------------------------


def test_log_keeps_every_ruling_and_shows_who_undid_it_and_why(engine: Engine) -> None:
    """The undone ruling stays in the log with its events and its retraction (by, actor, reason)."""
    play_scene(engine)
    scene_end_events = engine.log("Lab", audience=GMS)[-1].events

    engine.undo("Lab", reason="  we were not done  ", actor="Rosa")
    log = engine.log("Lab", audience=GMS)

    assert list(range(1, 16)) == [e.ruling.number for e in log]
    assert Retraction(by=15, actor="Rosa", reason="we were not done") == log[-2].retraction
    assert scene_end_events == log[-2].events
    assert "undo" == log[-1].ruling.command
    assert [None] * 13 == [e.retraction for e in log[:13]]
    assert None is log[-1].retraction


def test_log_records_the_undo_parameters(engine: Engine) -> None:
    """The undo's own ruling records which ruling it undid and the dependants taken along."""
    play_until_adapted(engine)

    engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)

    params = engine.log("Lab", audience=GMS)[-1].ruling.params

    assert '{"reason":"wrong dice","ruling":10,"with":[11,12,13]}' == params


def test_character_at_shows_the_past_as_recorded_or_as_corrected(engine: Engine) -> None:
    """After ruling 13 as recorded alice has adapted; corrected, rulings 10-13 are gone."""
    play_until_adapted(engine)
    recorded = engine.character("Lab", ALICE, audience=GMS)
    engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)

    as_recorded = engine.character_at("Lab", ALICE, ruling=ADAPT, audience=GMS)
    corrected = engine.character_at("Lab", ALICE, ruling=ADAPT, corrected=True, audience=GMS)

    assert recorded == as_recorded
    assert engine.character_at("Lab", ALICE, ruling=ASSIST, audience=GMS) == corrected
    assert corrected == engine.character("Lab", ALICE, audience=GMS)
    assert as_recorded != corrected


def test_character_at_is_unchanged_by_undos_of_later_rulings_only(engine: Engine) -> None:
    """Before the first undone ruling, recorded and corrected views agree."""
    play_until_adapted(engine)
    engine.undo("Lab", ROLL, reason="wrong dice", with_dependents=True)

    for ruling in range(4, ROLL):
        assert engine.character_at(
            "Lab", ALICE, ruling=ruling, audience=GMS
        ) == engine.character_at("Lab", ALICE, ruling=ruling, corrected=True, audience=GMS)


def test_character_at_before_the_character_existed_is_none(engine: Engine) -> None:
    """Asked for a ruling before its creation, the character did not exist yet."""
    play_scene(engine)

    assert None is engine.character_at("Lab", BOB, ruling=4, audience=GMS)
    assert BOB == engine.character_at("Lab", BOB, ruling=5, audience=GMS).name


def test_character_at_shows_a_character_whose_creation_was_undone(engine: Engine) -> None:
    """Bob, whose creation was undone, exists after ruling 5 as recorded, not as corrected."""
    scene_with_s1(engine)
    add_bob(engine)
    created = engine.character("Lab", BOB, audience=GMS)
    engine.undo("Lab", reason="bob is not coming")

    assert created == engine.character_at("Lab", BOB, ruling=5, audience=GMS)
    assert None is engine.character_at("Lab", BOB, ruling=5, corrected=True, audience=GMS)


def test_character_at_refuses_a_name_never_in_the_roster(engine: Engine) -> None:
    """A reference no roster ever held is refused with UNKNOWN_CHARACTER, at any ruling."""
    scene_with_s1(engine)

    for ruling in (0, 2, 4):
        with pytest.raises(DomainError) as refused:
            engine.character_at("Lab", "carol", ruling=ruling, audience=GMS)
        assert "UNKNOWN_CHARACTER" == refused.value.code


def test_campaign_at_shows_the_scene_as_recorded_or_as_corrected(engine: Engine) -> None:
    """As recorded, the scene had ended after ruling 14; corrected by the undo, it still runs."""
    play_scene(engine)
    engine.undo("Lab", reason="we were not done")

    as_recorded = engine.campaign_at("Lab", ruling=SCENE_END)
    corrected = engine.campaign_at("Lab", ruling=SCENE_END, corrected=True)

    assert (None, 1) == (as_recorded.scene, corrected.scene)
    assert frozenset() == as_recorded.retracted
