"""Sprawl Goons' domain rules without I/O: dice reading, damage and crit triggers, strict replay,
house rules, event round-trips, and "every bad command is refused and appends nothing"."""

from __future__ import annotations

from uuid import uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.rulesets.sprawl_goons.events as sg
from domain.errors import CharacterDead, DomainError, ReplayMismatch, UnknownHouseRule
from domain.events import Event
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.sprawl_goons import RULESET, errors
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.commands import (
    CreateCharacter,
    Fall,
    GiveMedicalAttention,
    MakeActionRoll,
)
from domain.rulesets.sprawl_goons.rolls import dice_mode, keep
from domain.rulesets.sprawl_goons.settings import (
    CriticalTrigger,
    GlitchUpgradeBoth,
    Settings,
    house_rules,
    settings_from,
)
from domain.rulesets.sprawl_goons.state import evolve
from domain.rulesets.sprawl_goons.tables import Cause, DiceMode, catalogued, location_for
from engine import Engine
from engine.dice_sources import DiceSpec
from engine.mapper import EventMapper
from tests.conftest import event_count
from tests.unit.test_mapper import recorded, typed

EVENT_CLASSES = sorted(
    (
        v
        for v in vars(sg).values()
        if isinstance(v, type) and issubclass(v, Event) and v.__module__ == sg.__name__
    ),
    key=lambda cls: cls.__name__,
)


def _pc(resilience: int = 12) -> SgCharacter:
    created = sg.CharacterCreated(
        character_id=uuid4(),
        name="Tanner",
        player="ana",
        stats=sg.Stats(morphology=2, reaction=1, cognition=1, equilibrium=0),
        resilience=12,
        inventory=10,
        level=1,
    )
    state = evolve(created, None)
    assert state is not None
    if resilience < 12:
        lost = sg.ResilienceLost(
            amount=12 - resilience,
            cause=Cause.FALLING,
            source="test",
            base=12 - resilience,
            bonuses=(),
            before=12,
            after=resilience,
        )
        state = evolve(lost, state)
    assert state is not None
    return state


# --- Dice ----------------------------------------------------------------------------------------


@given(faces=st.tuples(*[st.integers(1, 6)] * 3), mode=st.sampled_from(list(DiceMode)[1:]))
def test_glitch_and_upgrade_keep_two_of_three(faces: tuple[int, int, int], mode: DiceMode) -> None:
    """Glitch keeps the two lowest, Upgrade the two highest, in the order rolled."""
    kept = keep(mode, faces)
    expected = sorted(faces)[:2] if mode is DiceMode.GLITCH else sorted(faces)[1:]
    assert expected == sorted(kept)
    assert 2 == len(kept)


@pytest.mark.parametrize(
    ("rule", "mode"),
    [
        pytest.param(GlitchUpgradeBoth.CANCEL, DiceMode.NORMAL, id="cancel"),
        pytest.param(GlitchUpgradeBoth.GLITCH_WINS, DiceMode.GLITCH, id="glitch-wins"),
        pytest.param(GlitchUpgradeBoth.UPGRADE_WINS, DiceMode.UPGRADE, id="upgrade-wins"),
    ],
)
def test_a_forced_glitch_meets_a_called_upgrade_by_house_rule(
    rule: GlitchUpgradeBoth, mode: DiceMode
) -> None:
    """An untreated injury's Glitch and the referee's Upgrade resolve by glitchUpgradeBoth."""
    rules = Settings(glitch_upgrade_both=rule)
    assert (mode, (DiceMode.GLITCH, DiceMode.UPGRADE)) == dice_mode(False, True, True, rules)


@given(die=st.integers(1, 6))
def test_every_location_die_names_a_location(die: int) -> None:
    """1 leg, 2-4 torso, 5 arm, 6 head."""
    assert location_for(die).value in ("leg", "torso", "arm", "head")


def test_starting_items_are_found_by_key_or_name() -> None:
    """Picks name list entries by key or by part of their name."""
    assert "lazarus" == catalogued("Lazarus").key  # type: ignore[union-attr]
    assert "credit-card" == catalogued("Stolen Credit Card").key  # type: ignore[union-attr]
    assert None is catalogued("plasma rifle")


# --- Strict replay -------------------------------------------------------------------------------


def test_damage_that_does_not_fit_the_state_raises() -> None:
    """A ResilienceLost recorded against another Resilience no longer replays."""
    wrong = sg.ResilienceLost(
        amount=2, cause=Cause.HIT, source="x", base=2, bonuses=(), before=9, after=7
    )
    with pytest.raises(ReplayMismatch):
        evolve(wrong, _pc())


def test_a_dead_character_cannot_roll_in_replay() -> None:
    """An Action Roll after death does not replay."""
    dead = evolve(sg.CharacterDied(cause="test"), _pc())
    roll = sg.ActionRolled(
        purpose=sg.Purpose.GENERAL,
        stat=sg.Stat.MORPHOLOGY,
        stat_value=2,
        items=(),
        modifiers=(),
        encumbrance=0,
        mode=DiceMode.NORMAL,
        called=(),
        forced_glitch=False,
        dice=(3, 3),
        kept=(3, 3),
        total=8,
        ds=8,
        target=None,
        margin=0,
        success=True,
        dangerous=False,
    )
    with pytest.raises(CharacterDead):
        evolve(roll, dead)


def test_evolve_knows_only_sprawl_goons_events() -> None:
    """Another system's event is a programming error, not a refusal."""
    with pytest.raises(TypeError):
        RULESET.evolve_character(Event(), _pc())


# --- House rules ---------------------------------------------------------------------------------


def test_house_rules_fill_in_the_digest_defaults() -> None:
    """No house rules given: every key at the DIGEST's recommended reading."""
    assert Settings() == settings_from(house_rules({}))
    overflow = settings_from(house_rules({"criticalTrigger": "onOverflow"}))
    assert CriticalTrigger.ON_OVERFLOW == overflow.critical_trigger
    with pytest.raises(UnknownHouseRule):
        house_rules({"sg.criticalTrigger": "onOverflow"})


# --- Through the engine --------------------------------------------------------------------------


def _table(engine: Engine, **rules: str) -> None:
    engine.create_campaign("S", "sprawl-goons", house_rules=rules)
    engine.execute("S", StartSession())
    engine.execute("S", StartScene(stage="A rooftop"))
    tanner = CreateCharacter(
        character="Tanner",
        player="ana",
        morphology=2,
        reaction=1,
        cognition=1,
        equilibrium=0,
        items=("penlight", "toolkit", "drone"),
    )
    engine.execute("S", tanner, dice=DiceSpec(faces=(1, 1, 1)))


@pytest.mark.parametrize(
    ("trigger", "metres", "crit"),
    [
        pytest.param("onReachZero", 36, True, id="reach-zero-exactly-crits"),
        pytest.param("onOverflow", 36, False, id="overflow-exactly-zero-no-crit"),
        pytest.param("onOverflow", 39, True, id="overflow-beyond-zero-crits"),
    ],
)
def test_the_critical_trigger_house_rule(trigger: str, metres: int, crit: bool) -> None:
    """SG-A1: reaching 0 rolls a critical injury; under onOverflow only damage beyond 0 does."""
    with Engine() as engine:
        _table(engine, criticalTrigger=trigger)
        faces = (1, 1) if crit else ()
        events = engine.execute(
            "S", Fall(character="Tanner", metres=metres), dice=DiceSpec(faces=faces)
        ).events
        assert crit == any(isinstance(e, sg.CriticalInjuryRolled) for e in events)


def test_undoing_an_injury_takes_the_forced_glitch_rolls_with_it(engine: Engine) -> None:
    """A roll with forced Glitch dice depends on the injury that forced them."""
    _table(engine)
    crit = engine.execute(
        "S", Fall(character="Tanner", metres=36), dice=DiceSpec(faces=(2, 2))
    ).number
    engine.execute(
        "S", MakeActionRoll(character="Tanner", stat="m", ds="8"), dice=DiceSpec(faces=(1, 2, 3))
    )
    with pytest.raises(DomainError, match="depend"):
        engine.undo("S", crit, reason="wrong fall")
    engine.undo("S", crit, reason="wrong fall", with_dependents=True)
    assert (12, ()) == (
        engine.character("S", "Tanner").resilience,
        engine.character("S", "Tanner").injuries,
    )


def test_medical_attention_needs_an_injury(engine: Engine) -> None:
    """Nothing to treat: refused, nothing appended."""
    _table(engine)
    before = event_count(engine)
    with pytest.raises(errors.NothingToTreat):
        engine.execute("S", GiveMedicalAttention(character="Tanner", provider="Dr Ng"))
    assert before == event_count(engine)


stat_lists = st.tuples(*[st.integers(-2, 5)] * 4)


@settings(max_examples=40, deadline=None)
@given(stats=stat_lists, picks=st.integers(0, 5))
def test_every_bad_creation_is_refused_and_appends_nothing(
    stats: tuple[int, int, int, int], picks: int
) -> None:
    """Stats must be >= 0 and total 4, with exactly three items; anything else appends nothing."""
    with Engine() as engine:
        engine.create_campaign("S", "sprawl-goons")
        items = ("penlight", "toolkit", "drone", "handcuffs", "mirrorshades")[:picks]
        m, r, c, e = stats
        command = CreateCharacter(
            character="Case",
            player="cy",
            morphology=m,
            reaction=r,
            cognition=c,
            equilibrium=e,
            items=items,
        )
        valid = min(stats) >= 0 and sum(stats) == 4 and picks == 3
        before = event_count(engine)
        if valid:
            engine.execute("S", command, dice=DiceSpec(faces=(1, 1, 1)))
            assert before < event_count(engine)
        else:
            with pytest.raises(DomainError):
                engine.execute("S", command, dice=DiceSpec(faces=(1, 1, 1)))
            assert before == event_count(engine)


@settings(max_examples=40, deadline=None)
@given(ds=st.integers(-5, 30), faces=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_a_roll_is_refused_below_ds_1_and_otherwise_adds_up(
    ds: int, faces: tuple[int, int]
) -> None:
    """A DS below 1 is refused with nothing appended; otherwise total = dice + stat."""
    with Engine() as engine:
        _table(engine)
        before = event_count(engine)
        roll = MakeActionRoll(character="Tanner", stat="morphology", ds=str(ds))
        if ds < 1:
            with pytest.raises(errors.InvalidDs):
                engine.execute("S", roll, dice=DiceSpec(faces=faces))
            assert before == event_count(engine)
            return
        (rolled,) = engine.execute("S", roll, dice=DiceSpec(faces=faces)).events
        assert isinstance(rolled, sg.ActionRolled)
        assert (sum(faces) + 2, sum(faces) + 2 >= ds) == (rolled.total, rolled.success)


# --- Events round-trip ---------------------------------------------------------------------------


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_every_sprawl_goons_event_round_trips(cls: type[Event], data: st.DataObject) -> None:
    """Each event is stored and loaded back equal and typed."""
    record = data.draw(recorded(typed(cls)))
    mapper = EventMapper()
    loaded = mapper.to_domain_event(mapper.to_stored_event(record))
    assert record == loaded
