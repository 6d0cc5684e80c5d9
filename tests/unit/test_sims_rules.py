"""Sims RPG rules beyond the golden cases: refusals append nothing, house rules, recovery and
upgrade paths, replay and undo, and Hypothesis invariants of the resolution arithmetic."""

from __future__ import annotations

import random
from uuid import UUID, uuid4

import pytest
from attrs import frozen
from freezegun import freeze_time
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.commands import Command
from domain.dice import EnteredDice
from domain.errors import (
    CharacterDead,
    DomainError,
    NameTaken,
    NotAPlayerCharacter,
    UnknownCharacter,
    UnknownHouseRule,
)
from domain.events import Event
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.commands import (
    AllocateRanks,
    AnnounceMission,
    Attack,
    CreateCharacter,
    DeclareDanger,
    EndTurn,
    JudgeSimple,
    Kill,
    PlaceRecovery,
    ReplaceQuality,
    RollComplicated,
    RollRecovery,
    SetTurnOrder,
    SucceedCampaign,
    SucceedMission,
    TakeMasterPlus,
    TakeRebirth,
    UpgradeQuality,
)
from domain.rulesets.sims.resolution import effective, roll
from domain.rulesets.sims.settings import house_rules
from domain.rulesets.sims.tables import (
    Danger,
    DiceMode,
    Rank,
    RankKind,
    SheetKind,
    ShiftSource,
    TieBreak,
)
from domain.rulesets.sims.turns import in_order
from domain.rulesets.sims.values import QualityUsed, Shift, TurnSlot
from engine import Engine
from engine.dice_sources import DiceSpec
from engine.mapper import EventMapper, SnapshotMapper
from engine.records import Snapshot
from tests.conftest import FROZEN_AT, event_count
from tests.golden.test_sims import STARTING_SHEET
from tests.unit.test_mapper import recorded, typed

NAME = "Zombietown"


def table(engine: Engine, **rules: str) -> None:
    engine.create_campaign(NAME, "sims", house_rules=rules)
    engine.execute(NAME, StartSession())
    engine.execute(NAME, StartScene(stage="the docks"))
    engine.execute(NAME, CreateCharacter(character="Neo", player="alice", qualities=STARTING_SHEET))
    engine.execute(
        NAME,
        CreateCharacter(
            character="Ninja",
            player="GM",
            qualities=("Henchman:Average",),
            kind=SheetKind.SECONDARY,
        ),
    )
    engine.execute(
        NAME,
        CreateCharacter(
            character="Boss",
            player="GM",
            qualities=("Brawler:Combat:Good", "Nerve:Mental:Average"),
            kind=SheetKind.NPC,
        ),
    )


def run(engine: Engine, command: Command, *faces: int) -> tuple[Event, ...]:
    return engine.execute(NAME, command, dice=DiceSpec(faces=faces)).events


def refused(engine: Engine, command: Command, error: type[DomainError], *faces: int) -> None:
    before = event_count(engine)
    with pytest.raises(error):
        engine.execute(NAME, command, dice=DiceSpec(faces=faces))
    assert before == event_count(engine)


def who(engine: Engine, name: str) -> SimsCharacter:
    state: SimsCharacter = engine.character(NAME, name)
    return state


@pytest.fixture
def game(engine: Engine) -> Engine:
    table(engine)
    return engine


# --- Refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "error"),
    [
        pytest.param(
            RollComplicated(character="Neo", qualities=("Flying",), difficulty="Good"),
            errors.QualityNotOwned,
            id="unknown-quality",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank",
                player="carol",
                qualities=(*STARTING_SHEET, "Extra:Mental:Average", "More:Mental:Average"),
            ),
            errors.WrongQualityCount,
            id="a-twelfth-quality",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank",
                player="carol",
                qualities=(*STARTING_SHEET[:9], "Extra:Combat:Average"),
            ),
            errors.WrongCombatQualityCount,
            id="three-combat-qualities",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank",
                player="carol",
                qualities=(*STARTING_SHEET[:9], "Cutlass:Mental:Average"),
            ),
            errors.DuplicateQualityName,
            id="duplicate-quality",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank", player="carol", qualities=("Gunnery:Sky:Good",), custom=True
            ),
            errors.UnknownArea,
            id="unknown-area",
        ),
        pytest.param(
            CreateCharacter(
                character="Tank", player="carol", qualities=("Gunnery:Combat:Superb",), custom=True
            ),
            errors.UnknownRank,
            id="unknown-rank",
        ),
        pytest.param(
            CreateCharacter(
                character="Neo", player="carol", qualities=("Gunnery:Combat:Good",), custom=True
            ),
            NameTaken,
            id="name-taken",
        ),
        pytest.param(
            JudgeSimple(character="Neo", quality="Cutlass", difficulty="Legendary"),
            errors.UnknownRank,
            id="bad-difficulty",
        ),
        pytest.param(
            Attack(attacker="Neo", qualities=("Cutlass",), targets=("Neo",)),
            errors.CannotAttackSelf,
            id="self",
        ),
        pytest.param(
            Attack(attacker="Neo", qualities=("Cutlass",), targets=()),
            errors.NoTargets,
            id="no-targets",
        ),
        pytest.param(
            Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
            errors.KillingNotChosen,
            id="killing-needs-house-rule",
        ),
        pytest.param(
            AllocateRanks(character="Neo", steps=("Cutlass",)),
            errors.NoAllocationPending,
            id="nothing-owed",
        ),
        pytest.param(
            RollRecovery(character="Neo"), errors.NothingToRecover, id="nothing-to-recover"
        ),
        pytest.param(
            UpgradeQuality(character="Neo", quality="Cutlass"),
            errors.NoUpgradeAvailable,
            id="no-upgrade",
        ),
        pytest.param(
            UpgradeQuality(character="Boss", quality="Brawler"),
            NotAPlayerCharacter,
            id="npc-upgrade",
        ),
        pytest.param(
            ReplaceQuality(character="Neo", quality="Sailor", new_name="Parkour"),
            errors.GmApprovalRequired,
            id="no-approval",
        ),
        pytest.param(
            Kill(attacker="Neo", victim="Ninja"), errors.VictimNotOutOfScene, id="kill-standing"
        ),
        pytest.param(
            SucceedMission(mission="The Vault"),
            errors.MissionNotAnnounced,
            id="mission-unannounced",
        ),
        pytest.param(
            SetTurnOrder(entries=("Neo:Cutlass",)), errors.TurnOrderTooShort, id="one-sided"
        ),
        pytest.param(EndTurn(), errors.NoTurnOrder, id="no-conflict"),
        pytest.param(
            RollComplicated(character="Nobody", qualities=(), difficulty="Good"),
            UnknownCharacter,
            id="unknown-character",
        ),
    ],
)
def test_bad_commands_are_refused_and_append_nothing(
    game: Engine, command: Command, error: type[DomainError]
) -> None:
    """Each bad command is refused with its typed reason, and nothing is recorded."""
    refused(game, command, error, 3, 3)


def _hit_neo(engine: Engine, faces: tuple[int, int]) -> None:
    """The Boss's Good Brawler (+2) against Neo's Good Cutlass (TN 9)."""
    run(engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), *faces)


def test_allocating_more_ranks_than_taken_is_refused(game: Engine) -> None:
    """2 ranks taken, 3 steps given: refused, nothing recorded; then too few is refused too."""
    _hit_neo(game, (5, 4))  # 11 against 9: 2 ranks
    refused(
        game,
        AllocateRanks(character="Neo", steps=("Hiding", "Memory", "Languages")),
        errors.AllocationCountMismatch,
    )
    refused(game, AllocateRanks(character="Neo", steps=("Hiding",)), errors.AllocationCountMismatch)
    refused(game, AllocateRanks(character="Neo", steps=("Hiding", "Wings")), errors.QualityNotOwned)


def test_steps_after_bottoming_out_are_refused(game: Engine) -> None:
    """Charisma is Poor: its first step takes it below Poor, so no step may follow it."""
    _hit_neo(game, (5, 4))
    refused(
        game,
        AllocateRanks(character="Neo", steps=("Charisma", "Hiding")),
        errors.StepsAfterOutOfScene,
    )
    events = run(game, AllocateRanks(character="Neo", steps=("Charisma",)))
    assert [ev.RanksDiscarded(count=1)] == [e for e in events if isinstance(e, ev.RanksDiscarded)]


def test_acting_while_out_of_the_scene_is_refused(game: Engine) -> None:
    """An out-of-the-scene character cannot roll, attack or be attacked."""
    _hit_neo(game, (5, 4))
    run(game, AllocateRanks(character="Neo", steps=("Charisma",)))
    refused(
        game,
        RollComplicated(character="Neo", qualities=("Cutlass",), difficulty="Poor"),
        errors.ActorOutOfScene,
        3,
        3,
    )
    refused(
        game,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)),
        errors.ActorOutOfScene,
        3,
        3,
    )
    refused(
        game,
        Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo",)),
        errors.TargetOutOfScene,
        3,
        3,
    )


def test_a_scene_cannot_end_with_ranks_to_distribute(game: Engine) -> None:
    """Pending ranks block the scene's end."""
    _hit_neo(game, (5, 4))
    refused(game, EndScene(), errors.SceneHasUnfinishedBusiness)


# --- House rules -------------------------------------------------------------------------------


def test_house_rules_default_to_the_digest_readings() -> None:
    """Every pdq switch is recorded with its default; unknown ones are refused."""
    expected = {
        "tieMussUp": "false",
        "failureRanksClearAtSceneEnd": "false",
        "forceBottomOutLast": "false",
        "offLadderTn": "extrapolate",
        "lethality": "default",
    }
    assert expected == {r.key: r.value for r in house_rules({})}
    with pytest.raises(UnknownHouseRule):
        house_rules({"exploding": "true"})


def test_tie_muss_up_gives_each_side_a_failure_rank(engine: Engine) -> None:
    """tieMussUp: a tie costs each side one Failure Rank and is not rolled again."""
    table(engine, tieMussUp="true")
    events = run(
        engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 3, 4
    )
    inflicted = [e for e in events if isinstance(e, ev.DamageRanksInflicted)]
    assert [(1, RankKind.FAILURE)] * 2 == [(e.ranks, e.kind) for e in inflicted]
    assert () == who(engine, "Boss").ties


def test_force_bottom_out_last_keeps_other_qualities_first(engine: Engine) -> None:
    """forceBottomOutLast: a Poor quality goes below Poor only when all others are Poor."""
    table(engine, forceBottomOutLast="true")
    _hit_neo(engine, (5, 4))
    refused(engine, AllocateRanks(character="Neo", steps=("Charisma",)), errors.BottomOutLast)


def test_off_ladder_clamp_caps_full_defense_at_thirteen(engine: Engine) -> None:
    """offLadderTn=clamp: a Master defender in Full Defense keeps TN 13 (extrapolated: 15)."""
    table(engine, offLadderTn="clamp")
    run(
        engine,
        CreateCharacter(
            character="Agent", player="GM", qualities=("Kung Fu:Combat:Master",), kind=SheetKind.NPC
        ),
    )
    events = run(
        engine,
        Attack(
            attacker="Neo",
            qualities=("Cutlass",),
            targets=("Agent:Kung Fu",),
            full_defense=("Agent",),
        ),
        1,
        1,
    )
    attack = next(e for e in events if isinstance(e, ev.ConflictAttackRolled))
    assert 13 == attack.setup.tn


def test_killing_damage_kills_when_it_takes_a_character_out(engine: Engine) -> None:
    """lethality=choose-at-start: killing damage that takes a character out kills it."""
    table(engine, lethality="choose-at-start")
    events = run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        6,
        6,
    )
    assert 1 == len([e for e in events if isinstance(e, ev.CharacterKilled)])
    assert who(engine, "Ninja").killed


def test_the_dead_are_refused_with_the_shared_refusal(engine: Engine) -> None:
    """A killed character cannot be killed again: CHARACTER_DEAD, naming Out for Blood."""
    table(engine, lethality="choose-at-start")
    run(
        engine,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), killing=True),
        6,
        6,
    )
    before = event_count(engine)
    with pytest.raises(CharacterDead) as raised:
        engine.execute(NAME, Kill(attacker="Neo", victim="Ninja"))
    assert before == event_count(engine)
    assert "CHARACTER_DEAD" == raised.value.code
    assert "Ninja is dead and cannot be killed again (Out for Blood)" == raised.value.reason


def test_failure_ranks_clear_at_scene_end_even_in_continuing_danger(engine: Engine) -> None:
    """failureRanksClearAtSceneEnd: Failure Ranks come back at once; Damage Ranks need a roll."""
    table(engine, failureRanksClearAtSceneEnd="true")
    run(
        engine,
        Attack(
            attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",), kind=RankKind.FAILURE
        ),
        5,
        4,
    )
    run(engine, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    run(engine, DeclareDanger(danger=Danger.CONTINUING))
    events = engine.execute(NAME, EndScene()).events
    assert 1 == len([e for e in events if isinstance(e, ev.RanksRecovered)])
    assert 0 == who(engine, "Neo").lost
    assert not who(engine, "Neo").recovery_available


# --- Recovery, improvement, replay ---------------------------------------------------------------


def test_recovery_placed_later_and_not_above_base(game: Engine) -> None:
    """The roll leaves ranks to place; a quality at its base rank takes none."""
    _hit_neo(game, (5, 4))
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    run(game, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    game.execute(NAME, EndScene())
    events = run(game, RollRecovery(character="Neo"), 6)
    assert [ev.RecoveryRolled(die=6, lost=2, restorable=2, wasted=4)] == list(events)
    refused(game, PlaceRecovery(character="Neo", steps=("Hiding", "Cutlass")), errors.AboveBaseRank)
    refused(
        game, PlaceRecovery(character="Neo", steps=("Hiding",)), errors.RecoveryStepCountMismatch
    )
    run(game, PlaceRecovery(character="Neo", steps=("Hiding", "Memory")))
    assert 0 == who(game, "Neo").lost


def test_upgrade_missions_master_plus_and_rebirth(game: Engine) -> None:
    """An announced mission earns an upgrade; Master+ adds two Goods; Rebirth replaces the sheet."""
    masters = tuple(f"Q{n}:Physical:Master" for n in range(6))
    run(game, CreateCharacter(character="Elder", player="eve", qualities=masters, custom=True))
    run(game, AnnounceMission(mission="The Vault", characters=("Elder",)))
    run(game, SucceedMission(mission="The Vault"))
    extra = ("Luck", "Grace", "Wit", "Mind Reading:extraordinary")
    refused(
        game,
        TakeRebirth(
            character="Elder",
            qualities=STARTING_SHEET,
            extra=("Luck", "A:psychic", "B:psychic", "C"),
        ),
        errors.TooManyExtraordinary,
    )
    run(game, TakeRebirth(character="Elder", qualities=STARTING_SHEET, extra=extra))
    assert (14, 1, 0) == (
        len(who(game, "Elder").qualities),
        who(game, "Elder").rebirths,
        who(game, "Elder").upgrades,
    )
    refused(game, TakeMasterPlus(character="Elder", qualities=("A", "B")), errors.NotEnoughMasters)


def test_replacing_a_quality_keeps_its_rank(game: Engine) -> None:
    """With the GM's approval Sailor becomes Parkour, still Average."""
    run(
        game,
        ReplaceQuality(
            character="Neo", quality="Sailor", new_name="Parkour", area="Physical", gm_approved=True
        ),
    )
    parkour = who(game, "Neo").quality("Parkour")
    assert parkour is not None
    assert Rank.AVERAGE == parkour.base


def test_undoing_an_attack_needs_its_allocation_undone_first(game: Engine) -> None:
    """The allocation depends on the hit: undo refuses alone, and undoes both together."""
    _hit_neo(game, (5, 4))
    run(game, AllocateRanks(character="Neo", steps=("Hiding", "Memory")))
    attack = game.campaign(NAME).rulings - 1
    with pytest.raises(DomainError):
        game.undo(NAME, attack, reason="wrong target")
    game.undo(NAME, attack, reason="wrong target", with_dependents=True)
    assert (0, None) == (who(game, "Neo").lost, who(game, "Neo").pending)


def test_a_campaign_success_upgrades_only_player_characters(game: Engine) -> None:
    """NPCs earn nothing from a successful campaign."""
    run(game, SucceedCampaign())
    assert (1, 0) == (who(game, "Neo").upgrades, who(game, "Boss").upgrades)


# --- Invariants ----------------------------------------------------------------------------------


def _use(current: int) -> QualityUsed:
    base = list(Rank)[max(current, 0)]
    return QualityUsed(
        character_id=UUID(int=1),
        character="x",
        quality="q",
        base=base,
        current=current,
        modifier=2 * current - 2,
    )


shifts_strategy = st.lists(st.sampled_from([-1, 1]), max_size=6).map(
    lambda steps: tuple(Shift(source=ShiftSource.GM_PENALTY, steps=s) for s in steps)
)


@given(
    current=st.integers(0, 4),
    shifts=shifts_strategy,
    faces=st.lists(st.integers(1, 6), min_size=3, max_size=3),
)
def test_a_single_quality_rolls_within_its_bounds(
    current: int, shifts: tuple[Shift, ...], faces: list[int]
) -> None:
    """Below Poor auto-fails; above Master rolls 3d6+6; otherwise 2d6 + the rank's modifier."""
    index, modifier, mode = effective((_use(current),), shifts)
    assert index is not None
    rolled = roll(EnteredDice(tuple(faces)), (_use(current),), shifts)
    if index < 0:
        assert (DiceMode.AUTO_FAIL, None) == (mode, rolled.total)
    elif index > 4:
        assert (DiceMode.THREE_D6, 6) == (mode, modifier)
        assert rolled.total is not None
        assert 9 <= rolled.total <= 24
    else:
        assert (DiceMode.TWO_D6, 2 * index - 2) == (mode, modifier)
        assert rolled.total is not None
        assert 2 + modifier <= rolled.total <= 12 + modifier


@given(currents=st.lists(st.integers(0, 4), min_size=2, max_size=4), shifts=shifts_strategy)
def test_combined_qualities_add_modifiers_and_fail_below_poor(
    currents: list[int], shifts: tuple[Shift, ...]
) -> None:
    """Combined: the modifiers add, +-2 per shift; a total below -2 auto-fails, never 3d6."""
    index, modifier, mode = effective(tuple(_use(c) for c in currents), shifts)
    expected = sum(2 * c - 2 for c in currents) + 2 * sum(s.steps for s in shifts)
    assert (None, expected) == (index, modifier)
    assert (DiceMode.AUTO_FAIL if expected < -2 else DiceMode.TWO_D6) == mode


QUALITY_NAMES = [q.split(":")[0] for q in STARTING_SHEET] + ["Wings", "none"]


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.sampled_from(QUALITY_NAMES), max_size=5))
def test_every_allocation_is_exact_or_refused(steps: list[str]) -> None:
    """Any list of steps for 2 ranks either fits exactly or is refused with nothing appended."""
    with freeze_time(FROZEN_AT), Engine() as engine:
        table(engine)
        _hit_neo(engine, (5, 4))
        before = event_count(engine)
        try:
            events = run(engine, AllocateRanks(character="Neo", steps=tuple(steps)))
        except DomainError:
            assert before == event_count(engine)
            return
        downshifts = [e for e in events if isinstance(e, ev.QualityDownshifted)]
        out = any(isinstance(e, ev.CharacterOutOfScene) for e in events)
        assert len(downshifts) == (len(steps) if out else 2)
        assert who(engine, "Neo").pending is None


# --- Storage -------------------------------------------------------------------------------------

SIMS_EVENTS = sorted(
    (
        value
        for value in vars(ev).values()
        if isinstance(value, type) and issubclass(value, Event) and value.__module__ == ev.__name__
    ),
    key=lambda cls: cls.__name__,
)


@pytest.mark.parametrize("cls", SIMS_EVENTS, ids=lambda cls: cls.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_sims_event_round_trips_through_the_mapper(
    cls: type[Event], data: st.DataObject
) -> None:
    """Every Sims event comes back from storage equal and typed (nested values included)."""
    record = data.draw(recorded(typed(cls)))
    mapper = EventMapper()
    assert record == mapper.to_domain_event(mapper.to_stored_event(record))


def test_a_character_with_a_tie_and_pending_ranks_snapshots(game: Engine) -> None:
    """A sheet holding a tied attack (a nested event) round-trips as a snapshot."""
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    state = who(game, "Neo")
    assert 1 == len(state.ties)
    snapshot = Snapshot(
        originator_id=state.id, originator_version=7, timestamp=FROZEN_AT, state=state
    )
    mapper = SnapshotMapper()
    assert snapshot == mapper.to_domain_event(mapper.to_stored_event(snapshot))


# --- Turn-order ties (PDQ-A11), without a store ---------------------------------------------------


@frozen
class SeededDice:
    """A d6 source from Python's seeded generator (a test fake, never the product's dice)."""

    rng: random.Random

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)


@given(
    st.lists(st.tuples(st.integers(-1, 5), st.sampled_from(SheetKind)), min_size=2, max_size=6),
    st.integers(0, 2**16),
)
@settings(max_examples=200, deadline=None)
def test_turn_order_ties_pc_first_then_roll_off(
    sides: list[tuple[int, SheetKind]], seed: int
) -> None:
    """PDQ-A11: higher rank first; at equal ranks a PC before an NPC; characters still tied are
    ordered by their roll-off faces, round by round, all of them distinct in the end."""
    slots = [
        (TurnSlot(character_id=uuid4(), name=f"C{n}", quality=None, rank=rank), kind)
        for n, (rank, kind) in enumerate(sides)
    ]
    kinds = {slot.name: kind for slot, kind in slots}
    order = in_order(slots, TieBreak.ROLL_OFF, SeededDice(random.Random(seed)))
    assert sorted(s.name for s in order) == sorted(kinds)

    def place(s: TurnSlot) -> tuple[int, bool, tuple[int, ...]]:
        return (-s.rank, kinds[s.name] is not SheetKind.PC, tuple(-f for f in s.roll_off))

    assert [place(s) for s in order] == sorted(place(s) for s in order)
    assert len({place(s) for s in order}) == len(order)  # no tie is left unbroken


def test_turn_order_as_listed_rolls_nothing() -> None:
    """PDQ-A11, the GM's call: equal ranks keep the order listed, whatever the sheets."""
    slots = [
        (TurnSlot(character_id=uuid4(), name=name, quality=None, rank=2), kind)
        for name, kind in (("Ninja", SheetKind.SECONDARY), ("Neo", SheetKind.PC))
    ]
    order = in_order(slots, TieBreak.AS_LISTED, EnteredDice(faces=()))
    assert ["Ninja", "Neo"] == [s.name for s in order]
