"""Undo and amend decide the later rulings again: Sprawl Goons: Upgraded.

Each story has a later ruling whose *decision* read what an earlier ruling put there: a first
aid kit (a failed first aid's events replay without it), the +1 an aim gives an attack, the
Reaction a level added to an initiative roll, the magazine a reload filled, the cash a job paid,
the Glitch dice an injury forces (and stops forcing once treated). Undoing the earlier ruling is
checked three ways against the oracle (``tests/integration/oracle.py``): a plain undo lists
exactly the dependants and appends nothing; ``with_dependents`` retracts exactly them; and
``redecide`` either ends in the state of the story played again without the ruling, with the same
dice, or (where that story is refused) is refused naming the ruling that cannot stand. A
hypothesis test does the same over random histories, and checks that the dependants a plain undo
names are the rulings that re-deciding changes or refuses.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.commands import Command
from domain.errors import AmendmentConflicts, CannotRedecide, DomainError, LaterRulingsDepend
from domain.events import RulingAmended
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    ApplyPatch,
    Attack,
    ChangeCash,
    CompleteMission,
    CreateCharacter,
    CreateNpc,
    DropItem,
    Fall,
    GiveFirstAid,
    GiveMedicalAttention,
    LevelUp,
    MakeActionRoll,
    Reload,
    Rest,
    RollInitiative,
    TakeAim,
    UseItem,
)
from domain.rulesets.sprawl_goons.state import evolve
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store import streams as streams_module
from tests.conftest import event_count
from tests.integration.dependants import undo_redecided, undo_with_dependents
from tests.integration.oracle import CAMPAIGN, Refused, Step, again, play, whole_state

SYSTEM = "sprawl-goons"
WHY = "the table got it wrong"


# --- The checks every story goes through ---------------------------------------------------------


def rulings(numbers: Sequence[int], indexes: set[int] | frozenset[int]) -> set[int]:
    return {numbers[i] for i in indexes}


def listed(numbers: Sequence[int], indexes: set[int] | frozenset[int]) -> str:
    """How ``LaterRulingsDepend`` names the dependants: their ruling numbers, ascending."""
    return ", ".join(str(n) for n in sorted(rulings(numbers, indexes)))


def check_undo_alone_and_with_dependents(
    engine: Engine, story: Sequence[Step], index: int, dependents: set[int]
) -> None:
    """(a) A plain undo of step ``index`` is refused naming exactly the ``dependents`` (step
    indexes) and appends nothing; (b) ``with_dependents`` retracts exactly them with it, and
    leaves the state of the story played without them all."""
    numbers = play(engine, SYSTEM, story)
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend) as raised:
        engine.undo(CAMPAIGN, numbers[index], reason=WHY)
    assert listed(numbers, dependents) == raised.value.data["dependents"]
    assert numbers[index] == raised.value.data["ruling"]
    assert before == event_count(engine)
    assert frozenset() == engine.campaign(CAMPAIGN).retracted

    engine.undo(CAMPAIGN, numbers[index], reason=WHY, with_dependents=True)
    assert rulings(numbers, {index, *dependents}) == engine.campaign(CAMPAIGN).retracted
    oracle = again(SYSTEM, story, without={index, *dependents})
    assert not isinstance(oracle, Refused), oracle
    assert whole_state(oracle) == whole_state(engine)


def check_undo_redecided(
    story: Sequence[Step],
    index: int,
    *,
    refused_at: int | None,
    redecided: set[int] | None = None,
) -> None:
    """(c) On a fresh engine, undo step ``index`` re-deciding the later rulings: the oracle's
    state (the steps ``redecided`` amended with their new decision), or, the oracle refusing
    step ``refused_at``, ``CannotRedecide`` naming its ruling and nothing appended."""
    oracle = again(SYSTEM, story, without={index})
    with Engine() as engine:
        numbers = play(engine, SYSTEM, story)
        before = event_count(engine)
        if refused_at is None:
            assert not isinstance(oracle, Refused), oracle
            result = engine.undo(CAMPAIGN, numbers[index], reason=WHY, redecide=True)
            amended = {e.ruling for e in result.events if isinstance(e, RulingAmended)}
            assert rulings(numbers, redecided or set()) == amended
            assert {numbers[index]} == engine.campaign(CAMPAIGN).retracted
            assert whole_state(oracle) == whole_state(engine)
            return
        assert isinstance(oracle, Refused)
        assert refused_at == oracle.index
        with pytest.raises(CannotRedecide) as raised:
            engine.undo(CAMPAIGN, numbers[index], reason=WHY, redecide=True)
        assert (numbers[index], numbers[refused_at]) == (
            raised.value.data["ruling"],
            raised.value.data["dependent"],
        )
        assert story[refused_at].command.name == raised.value.data["command"]
        assert before == event_count(engine)


# --- The cast -------------------------------------------------------------------------------------

SCENE = [Step(StartSession()), Step(StartScene(stage="Night market, Chiba"))]


def tanner() -> Step:
    """Tanner: Morphology 2, a katana, a kevlar jacket, a penlight; 30 cash (1,1,1)."""
    create = CreateCharacter(
        character="Tanner",
        player="ana",
        morphology=2,
        reaction=1,
        cognition=1,
        equilibrium=0,
        items=("melee:Katana", "armour:Kevlar jacket", "penlight"),
    )
    return Step(create, (1, 1, 1))


def doc() -> Step:
    """Doc: Cognition 2, no first aid kit of her own."""
    return Step(
        CreateCharacter(
            character="Doc",
            player="fay",
            morphology=0,
            reaction=1,
            cognition=2,
            equilibrium=1,
            items=("penlight", "toolkit", "drone"),
        ),
        (1, 1, 1),
    )


def kat() -> Step:
    """Kat: Reaction 2 and an SMG (a full magazine: three bursts)."""
    return Step(
        CreateCharacter(
            character="Kat",
            player="gil",
            morphology=0,
            reaction=2,
            cognition=1,
            equilibrium=1,
            items=("ranged:SMG", "toolkit", "penlight"),
        ),
        (1, 1, 1),
    )


# --- Story 1 (the issue): a first aid kit, and a first aid that failed with it --------------------

KIT = 4  # Doc acquires a first aid kit
FIRST_AID = 6  # Doc's first aid on Tanner fails: its events name no kit


def first_aid_story() -> list[Step]:
    return [
        *SCENE,
        tanner(),
        doc(),
        Step(AddItem(character="Doc", item="First aid kit", category="gear")),
        Step(Fall(character="Tanner", metres=24)),  # 12 -> 4
        Step(
            GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid"), (1, 2)
        ),  # 3 + 2 = 5 < 10: fails
        Step(
            MakeActionRoll(character="Tanner", stat="morphology", ds="8"), (4, 4)
        ),  # stands whatever Doc carries
    ]


def test_the_failed_first_aid_depends_on_the_kit(engine: Engine) -> None:
    story = first_aid_story()
    check_undo_alone_and_with_dependents(engine, story, KIT, {FIRST_AID})


def test_undoing_the_kit_cannot_redecide_the_first_aid(frozen: None) -> None:
    check_undo_redecided(first_aid_story(), KIT, refused_at=FIRST_AID)


def test_the_failed_first_aid_fits_a_sheet_without_the_kit(engine: Engine) -> None:
    """Why replaying its events would not tell: they fit the sheets of a story without the kit
    (only deciding the first aid again finds that Doc has no kit to give it with)."""
    story = first_aid_story()
    play(engine, SYSTEM, story[:FIRST_AID])
    step = story[FIRST_AID]
    events = engine.execute(CAMPAIGN, step.command, dice=DiceSpec(faces=step.faces)).events
    rolled = [e for e in events if isinstance(e, sg.ActionRolled)]
    aid = [e for e in events if isinstance(e, sg.FirstAidReceived)]
    assert [((), False)] == [(r.items, r.success) for r in rolled]
    assert [False] == [a.success for a in aid]
    bare = again(SYSTEM, story[:FIRST_AID], without={KIT})
    assert not isinstance(bare, Refused), bare
    assert evolve(rolled[0], bare.character(CAMPAIGN, "Doc", audience=GMS)) is not None
    assert evolve(aid[0], bare.character(CAMPAIGN, "Tanner", audience=GMS)) is not None


# --- Story 2: the +1 an aim gives the attack ------------------------------------------------------

AIM = 4
AIMED_ATTACK = 5


def aim_story() -> list[Step]:
    return [
        *SCENE,
        kat(),
        Step(CreateNpc(character="Zoner", ds="10")),
        Step(TakeAim(character="Kat", target="Zoner")),
        # 4 + 4 + Reaction 2 + aimed 1 = 11 against DS 10: the Zoner takes 1. Without the aim a
        # tie: a success without damage.
        Step(Attack(character="Kat", targets=("Zoner",), stat="reaction"), (4, 4)),
        Step(MakeActionRoll(character="Kat", stat="cognition", ds="8"), (3, 3)),
    ]


def test_the_attack_depends_on_the_aim(engine: Engine) -> None:
    check_undo_alone_and_with_dependents(engine, aim_story(), AIM, {AIMED_ATTACK})


def test_undoing_the_aim_redecides_the_attack(frozen: None) -> None:
    check_undo_redecided(aim_story(), AIM, refused_at=None, redecided={AIMED_ATTACK})
    unaimed = again(SYSTEM, aim_story(), without={AIM})
    assert not isinstance(unaimed, Refused)
    assert 10 == unaimed.character(CAMPAIGN, "Zoner", audience=GMS).resilience


# --- Story 3: initiative read the Reaction a level added ------------------------------------------

MISSION = 4
LEVEL = 5
INITIATIVE = 6


def initiative_story() -> list[Step]:
    rex = CreateCharacter(
        character="Rex",
        player="eve",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit", "drone"),
    )
    ace = CreateCharacter(
        character="Ace",
        player="hal",
        morphology=1,
        reaction=1,
        cognition=1,
        equilibrium=1,
        items=("penlight", "toolkit", "drone"),
    )
    return [
        *SCENE,
        Step(rex, (1, 1, 1)),
        Step(ace, (1, 1, 1)),
        Step(CompleteMission(mission="Docklands job")),
        Step(LevelUp(character="Rex", stat="reaction", secondary="resilience")),
        # Rex 3 + 2 = 5 ties Ace 4 + 1 = 5: the higher Reaction goes first. Without the level,
        # Rex's 4 goes second.
        Step(RollInitiative(combatants=("Rex", "Ace")), (3, 4)),
        Step(MakeActionRoll(character="Ace", stat="equilibrium", ds="8"), (5, 5)),
    ]


@pytest.mark.parametrize(
    ("index", "dependents"),
    [
        pytest.param(LEVEL, {INITIATIVE}, id="undo-the-level"),
        pytest.param(MISSION, {LEVEL, INITIATIVE}, id="undo-the-mission"),
    ],
)
def test_initiative_depends_on_the_level(engine: Engine, index: int, dependents: set[int]) -> None:
    check_undo_alone_and_with_dependents(engine, initiative_story(), index, dependents)


@pytest.mark.parametrize(
    ("index", "refused_at"),
    [
        pytest.param(LEVEL, None, id="undo-the-level"),
        pytest.param(MISSION, LEVEL, id="undo-the-mission"),
    ],
)
def test_undoing_the_level_redecides_the_order(
    frozen: None, index: int, refused_at: int | None
) -> None:
    redecided = {INITIATIVE} if refused_at is None else None
    check_undo_redecided(initiative_story(), index, refused_at=refused_at, redecided=redecided)


def test_without_the_level_rex_goes_second(engine: Engine) -> None:
    """Re-decided, the initiative roll puts Rex (4) after Ace (5); first he went first on a tie."""
    numbers = play(engine, SYSTEM, initiative_story())
    assert [5, 5] == [c.initiative for c in engine.characters(CAMPAIGN, audience=GMS)]
    result = engine.undo(CAMPAIGN, numbers[LEVEL], reason=WHY, redecide=True)
    rolled = [
        e
        for amended in result.events
        if isinstance(amended, RulingAmended) and amended.ruling == numbers[INITIATIVE]
        for e in amended.events
        if isinstance(e, sg.InitiativeRolled)
    ]
    assert [(4, 2), (5, 1)] == sorted((r.total, r.place) for r in rolled)
    assert [4, 5] == [c.initiative for c in engine.characters(CAMPAIGN, audience=GMS)]


# --- Story 4: the magazine a reload filled --------------------------------------------------------

RELOAD = 6
BURST_3 = 7  # the first burst after the reload: without it, the magazine's third
BURST_4 = 8  # without the reload, fired from an empty magazine


def ammunition_story() -> list[Step]:
    burst = Attack(character="Kat", targets=("Wall",), stat="reaction", burst="smg")
    return [
        *SCENE,
        kat(),
        Step(CreateNpc(character="Wall", ds="14")),
        Step(burst, (5, 5)),  # 5 + 5 + 2 + 2 = 14: a tie, nobody hurt
        Step(burst, (5, 5)),
        Step(Reload(character="Kat", item="smg")),
        Step(burst, (5, 5)),
        Step(burst, (5, 5)),
    ]


def test_the_bursts_after_the_reload_depend_on_it(engine: Engine) -> None:
    check_undo_alone_and_with_dependents(engine, ammunition_story(), RELOAD, {BURST_3, BURST_4})


def test_undoing_the_reload_cannot_redecide_the_empty_burst(frozen: None) -> None:
    check_undo_redecided(ammunition_story(), RELOAD, refused_at=BURST_4)


def test_undoing_the_reload_redecides_the_burst_that_empties_the_magazine(frozen: None) -> None:
    story = ammunition_story()[:BURST_4]
    check_undo_redecided(story, RELOAD, refused_at=None, redecided={BURST_3})
    unreloaded = again(SYSTEM, story, without={RELOAD})
    assert not isinstance(unreloaded, Refused)
    assert 3 == unreloaded.character(CAMPAIGN, "Kat", audience=GMS).items[0].bursts_fired


# --- Story 5: a purchase paid with a job's cash ---------------------------------------------------

PAY = 3
PURCHASE = 4
FOUND = 6  # a later gain: its CashChanged counts from the cash before it


def cash_story() -> list[Step]:
    return [
        *SCENE,
        tanner(),  # 30 cash
        Step(ChangeCash(character="Tanner", delta=100, reason="the Docklands job")),
        Step(ChangeCash(character="Tanner", delta=-120, reason="a cyberspace console")),
        Step(AddItem(character="Tanner", item="Sanyo console", category="console")),
        Step(ChangeCash(character="Tanner", delta=5, reason="found on the floor")),
    ]


def test_the_purchase_depends_on_the_pay(engine: Engine) -> None:
    check_undo_alone_and_with_dependents(engine, cash_story(), PAY, {PURCHASE, FOUND})


def test_undoing_the_pay_cannot_redecide_the_purchase(frozen: None) -> None:
    check_undo_redecided(cash_story(), PAY, refused_at=PURCHASE)


# --- Story 6: the pool an untreated injury forces -------------------------------------------------

CRIT_FALL = 3
GLITCH_ROLL = 4
TREATMENT = 5
PLAIN_ROLL = 6


def pool_story() -> list[Step]:
    return [
        *SCENE,
        tanner(),
        Step(
            Fall(character="Tanner", metres=36), (2, 3)
        ),  # 12 -> 0: a critical injury, severity 2, torso
        Step(
            MakeActionRoll(character="Tanner", stat="equilibrium", ds="8"), (6, 1, 2)
        ),  # forced Glitch: 3 dice
        Step(GiveMedicalAttention(character="Tanner", provider="a ripperdoc")),
        Step(
            MakeActionRoll(character="Tanner", stat="equilibrium", ds="8"), (6, 1)
        ),  # treated: 2 dice
    ]


@pytest.mark.parametrize(
    ("index", "dependents"),
    [
        # Untreated, the last roll would need a third die it never rolled.
        pytest.param(TREATMENT, {PLAIN_ROLL}, id="undo-the-treatment"),
        # No injury: the Glitch roll keeps two of its three dice, and nothing is to treat.
        pytest.param(CRIT_FALL, {GLITCH_ROLL, TREATMENT}, id="undo-the-fall"),
    ],
)
def test_the_pool_depends_on_the_injury(engine: Engine, index: int, dependents: set[int]) -> None:
    check_undo_alone_and_with_dependents(engine, pool_story(), index, dependents)


@pytest.mark.parametrize(
    ("index", "refused_at"),
    [
        pytest.param(TREATMENT, PLAIN_ROLL, id="undo-the-treatment"),
        pytest.param(CRIT_FALL, TREATMENT, id="undo-the-fall"),
    ],
)
def test_undoing_the_injury_redecides_the_pool(
    frozen: None, index: int, refused_at: int | None
) -> None:
    check_undo_redecided(pool_story(), index, refused_at=refused_at)


def test_undoing_the_fall_redecides_the_glitch_roll_with_two_dice(frozen: None) -> None:
    story = pool_story()[:TREATMENT]
    check_undo_redecided(story, CRIT_FALL, refused_at=None, redecided={GLITCH_ROLL})


# --- Story 7: a crate too many, and the blow it turned into a tie --------------------------------

CRATE = 11  # Tanner's eleventh bulky item: Inventory 10, so -1 on Morphology
BLOW = 12


def crate_story() -> list[Step]:
    crates = [
        Step(AddItem(character="Tanner", item=f"Crate {n}", category="gear")) for n in range(8)
    ]
    return [
        *SCENE,
        tanner(),  # three bulky items
        Step(CreateNpc(character="Zoner", ds="10")),
        *crates,
        # 4 + 4 + Morphology 2 + katana 1 - encumbrance 1 = 10: a tie, the Zoner untouched. Without
        # the last crate 11: the Zoner takes 1, a stream the blow never wrote to.
        Step(
            Attack(character="Tanner", targets=("Zoner",), stat="morphology", items=("katana",)),
            (4, 4),
        ),
        Step(
            MakeActionRoll(character="Tanner", stat="cognition", ds="8"), (2, 2)
        ),  # Cognition bears no encumbrance
    ]


def test_the_blow_depends_on_the_last_crate(engine: Engine) -> None:
    check_undo_alone_and_with_dependents(engine, crate_story(), CRATE, {BLOW})


def test_undoing_the_crate_redecides_the_blow_into_a_hit(frozen: None) -> None:
    check_undo_redecided(crate_story(), CRATE, refused_at=None, redecided={BLOW})


def test_undoing_the_redecided_blow_retracts_its_new_hit_too(engine: Engine) -> None:
    """The re-decided blow wrote to the Zoner's stream; undoing it later takes that back."""
    story = crate_story()
    numbers = play(engine, SYSTEM, story)
    engine.undo(CAMPAIGN, numbers[CRATE], reason=WHY, redecide=True)
    assert 9 == engine.character(CAMPAIGN, "Zoner", audience=GMS).resilience
    engine.undo(CAMPAIGN, numbers[BLOW], reason=WHY)
    assert {numbers[CRATE], numbers[BLOW]} == engine.campaign(CAMPAIGN).retracted
    oracle = again(SYSTEM, story, without={CRATE, BLOW})
    assert not isinstance(oracle, Refused), oracle
    assert whole_state(oracle) == whole_state(engine)
    assert 10 == engine.character(CAMPAIGN, "Zoner", audience=GMS).resilience


# --- Amend: a fall corrected, and the first aid that followed it ----------------------------------

AMENDED_KIT = 4
FALL = 5
AID = 6


def amend_story() -> list[Step]:
    return [
        *SCENE,
        tanner(),
        doc(),
        Step(AddItem(character="Doc", item="First aid kit", category="gear")),
        Step(Fall(character="Tanner", metres=24)),  # 12 -> 4
        Step(
            GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid"), (5, 4)
        ),  # 11 >= 10: 4 -> 6
        Step(MakeActionRoll(character="Doc", stat="cognition", ds="10"), (2, 2)),
    ]


def test_amending_the_fall_redecides_the_first_aid(engine: Engine) -> None:
    """The GM corrects the fall to 30 m: Tanner is down to 2, and the first aid took him from
    2 to 4, not from 4 to 6."""
    story = amend_story()
    numbers = play(engine, SYSTEM, story)
    before = event_count(engine)
    with pytest.raises(AmendmentConflicts) as raised:
        engine.amend(CAMPAIGN, numbers[FALL], {"metres": "30"}, reason=WHY)
    assert listed(numbers, {AID}) == raised.value.data["dependents"]
    assert before == event_count(engine)

    engine.amend(
        CAMPAIGN,
        numbers[FALL],
        {"metres": "30"},
        reason=WHY,
        redecide=True,
        dice=DiceSpec(faces=()),
    )
    oracle = again(SYSTEM, story, replaced={FALL: Fall(character="Tanner", metres=30)})
    assert not isinstance(oracle, Refused), oracle
    assert whole_state(oracle) == whole_state(engine)
    assert 4 == engine.character(CAMPAIGN, "Tanner", audience=GMS).resilience
    assert frozenset() == engine.campaign(CAMPAIGN).retracted


def test_amending_the_fall_with_dependents_undoes_the_first_aid(engine: Engine) -> None:
    story = amend_story()
    numbers = play(engine, SYSTEM, story)
    engine.amend(
        CAMPAIGN,
        numbers[FALL],
        {"metres": "30"},
        reason=WHY,
        with_dependents=True,
        dice=DiceSpec(faces=()),
    )
    assert {numbers[AID]} == engine.campaign(CAMPAIGN).retracted
    oracle = again(
        SYSTEM, story, without={AID}, replaced={FALL: Fall(character="Tanner", metres=30)}
    )
    assert not isinstance(oracle, Refused), oracle
    assert whole_state(oracle) == whole_state(engine)


def test_amending_the_kit_away_cannot_redecide_the_first_aid(engine: Engine) -> None:
    """The GM corrects what Doc picked up: a medkit the first aid does not name."""
    story = amend_story()
    numbers = play(engine, SYSTEM, story)
    oracle = again(
        SYSTEM,
        story,
        replaced={AMENDED_KIT: AddItem(character="Doc", item="Medkit", category="gear")},
    )
    assert isinstance(oracle, Refused)
    assert AID == oracle.index
    before = event_count(engine)
    with pytest.raises(CannotRedecide) as raised:
        engine.amend(
            CAMPAIGN,
            numbers[AMENDED_KIT],
            {"item": "Medkit"},
            reason=WHY,
            redecide=True,
            dice=DiceSpec(faces=()),
        )
    assert numbers[AID] == raised.value.data["dependent"]
    assert before == event_count(engine)


# --- Random histories -----------------------------------------------------------------------------

CAST = ("Kat", "Doc", "Rex")
TABLE: tuple[Command, ...] = (
    StartSession(),
    StartScene(stage="A Chiba warehouse"),
    CreateCharacter(
        character="Kat",
        player="gil",
        morphology=0,
        reaction=2,
        cognition=1,
        equilibrium=1,
        items=("ranged:SMG", "hyperdex", "lazarus"),
    ),
    CreateCharacter(
        character="Doc",
        player="fay",
        morphology=0,
        reaction=1,
        cognition=2,
        equilibrium=1,
        items=("console", "penlight", "toolkit"),
    ),
    CreateCharacter(
        character="Rex",
        player="eve",
        morphology=2,
        reaction=1,
        cognition=1,
        equilibrium=0,
        items=("melee:Katana", "armour:Kevlar", "lazarus"),
    ),
    CreateNpc(character="Zoner", ds="12"),
)
# Rulings that later random ones are likely to lean on (and so worth undoing).
SETUP: tuple[Command, ...] = (
    AddItem(character="Doc", item="First aid kit", category="gear"),
    AddItem(character="Kat", item="Reflex booster", category="implant"),
    Fall(character="Rex", metres=30),
    CompleteMission(mission="the Docklands job"),
    TakeAim(character="Kat", target="Zoner"),
)
PREFIX = TABLE + SETUP

who = st.sampled_from(CAST)
# What the setup's rulings are read by: the kit, the booster, Rex's wounds, the level due, the aim.
LEANING: st.SearchStrategy[Command] = st.one_of(
    st.builds(
        GiveFirstAid,
        healer=st.just("Doc"),
        patient=st.sampled_from(("Kat", "Rex")),
        kit=st.just("first aid"),
    ),
    st.builds(
        RollInitiative, combatants=st.just(("Kat", "Rex", "Zoner")), items=st.just(("Kat:reflex",))
    ),
    st.builds(
        LevelUp,
        character=who,
        stat=st.sampled_from(("reaction", "morphology")),
        secondary=st.just("resilience"),
    ),
    st.builds(
        Attack,
        character=st.just("Kat"),
        targets=st.just(("Zoner",)),
        stat=st.just("reaction"),
        burst=st.sampled_from((None, "smg")),
    ),
    st.builds(ApplyPatch, character=st.sampled_from(("Kat", "Rex")), patient=st.just("Rex")),
    st.builds(Fall, character=st.just("Rex"), metres=st.sampled_from((3, 15))),
)
ANY: st.SearchStrategy[Command] = st.one_of(
    st.builds(AddItem, character=who, item=st.just("First aid kit"), category=st.just("gear")),
    st.builds(AddItem, character=who, item=st.just("Reflex booster"), category=st.just("implant")),
    st.builds(
        DropItem, character=who, item=st.sampled_from(("First aid kit", "Reflex booster", "katana"))
    ),
    st.builds(
        ChangeCash, character=who, delta=st.sampled_from((-60, -20, 30, 80)), reason=st.just("deal")
    ),
    st.builds(UseItem, character=who, item=st.sampled_from(("hyperdex", "lazarus"))),
    st.builds(ApplyPatch, character=who, patient=st.sampled_from((None, *CAST))),
    st.builds(TakeAim, character=who, target=st.just("Zoner")),
    st.builds(
        Attack,
        character=who,
        targets=st.just(("Zoner",)),
        stat=st.sampled_from(("reaction", "morphology")),
        items=st.sampled_from(((), ("katana",), ("kevlar",))),
        burst=st.sampled_from((None, "smg")),
    ),
    st.builds(Reload, character=st.just("Kat"), item=st.just("smg")),
    st.builds(GiveFirstAid, healer=who, patient=who, kit=st.just("first aid")),
    st.builds(
        MakeActionRoll,
        character=who,
        stat=st.sampled_from(("morphology", "reaction", "cognition")),
        ds=st.sampled_from(("8", "10", "12")),
        dangerous=st.booleans(),
    ),
    st.builds(Fall, character=who, metres=st.sampled_from((15, 30))),
    st.builds(RollInitiative, combatants=st.just(("Doc", "Kat"))),
    st.builds(GiveMedicalAttention, character=who, provider=st.just("a ripperdoc")),
    st.builds(Rest, characters=st.tuples(who)),
    st.builds(CompleteMission, mission=st.just("the job")),
    st.just(EndScene()),
    st.just(StartScene(stage="The next room")),
)
COMMANDS = st.one_of(LEANING, ANY)


def recorded(commands: Sequence[tuple[Command, int]]) -> list[Step]:
    """Play the prefix and the commands with seeded dice, the ones the rules refuse left out;
    each accepted one as a step with the faces it rolled."""
    story: list[Step] = []
    with Engine() as engine:
        engine.create_campaign(CAMPAIGN, SYSTEM, gm="GM")
        played = [(c, n) for n, c in enumerate(PREFIX)] + list(commands)
        for command, seed in played:
            try:
                result = engine.execute(CAMPAIGN, command, dice=DiceSpec(seed=seed))
            except DomainError:
                continue
            story.append(Step(command, tuple(d.face for d in result.dice)))
    return story


def target(story: Sequence[Step], pick: int) -> int:
    """The step to undo: any of them one time in eight (the session, the scene, a character's
    creation), otherwise one of the setup's or the random commands."""
    if pick % 8 != 7:
        return len(TABLE) + pick // 8 % (len(story) - len(TABLE))
    return pick // 8 % len(story)


histories = st.lists(st.tuples(COMMANDS, st.integers(0, 2**16)), min_size=3, max_size=12)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(commands=histories, pick=st.integers(0, 10_000))
def test_undo_redecided_matches_the_oracle(
    frozen: None, commands: list[tuple[Command, int]], pick: int
) -> None:
    """Undo any ruling of a random history, re-deciding the later ones: the oracle's state, or
    refused where the oracle's table is; a plain undo first names exactly the rulings that
    re-deciding changes or refuses (``tests/integration/dependants.py``)."""
    story = recorded(commands)
    index = target(story, pick)
    oracle = again(SYSTEM, story, without={index})
    with Engine() as engine:
        numbers = play(engine, SYSTEM, story)
        before = event_count(engine)
        event(f"undo {story[index].command.name}")
        if isinstance(oracle, Refused):
            event(f"refused at {story[oracle.index].command.name}")
            with pytest.raises(CannotRedecide) as raised:
                undo_redecided(engine, CAMPAIGN, numbers[index], reason=WHY)
            assert numbers[oracle.index] == raised.value.data["dependent"]
            assert before == event_count(engine)
        else:
            result = undo_redecided(engine, CAMPAIGN, numbers[index], reason=WHY)
            amended = {e.ruling for e in result.events if isinstance(e, RulingAmended)}
            event(f"{len(amended)} re-decided")
            assert {numbers[index]} == engine.campaign(CAMPAIGN).retracted
            assert whole_state(oracle) == whole_state(engine)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(commands=histories, pick=st.integers(0, 10_000))
def test_undo_with_dependents_matches_the_oracle(
    frozen: None, commands: list[tuple[Command, int]], pick: int
) -> None:
    """Undo any ruling of a random history with its dependents: every one a plain undo names
    is undone, with any later ruling that then does not stand, and the state is the story's
    played again without them all."""
    story = recorded(commands)
    index = target(story, pick)
    with Engine() as engine:
        numbers = play(engine, SYSTEM, story)
        _, named = undo_with_dependents(engine, CAMPAIGN, numbers[index], reason=WHY)
        retracted = engine.campaign(CAMPAIGN).retracted
        event(f"{len(named)} dependants, {len(retracted) - len(named) - 1} more undone")
        assert {numbers[index], *named} <= retracted
        without = {i for i, n in enumerate(numbers) if n in retracted}
        oracle = again(SYSTEM, story, without=without)
        assert not isinstance(oracle, Refused), oracle
        assert whole_state(oracle) == whole_state(engine)


def test_a_snapshot_taken_after_the_redecided_blow_does_not_keep_its_hit_once_undone(
    sqlite_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same story loaded from stored snapshots, with no head kept between loads: a
    snapshot of the Zoner taken after the re-decided blow holds its new hit; the undo of the
    blow voids no version of his stream (the hit is the amendment's replacement), so the load
    must fold from before that amendment, not from the snapshot."""
    monkeypatch.setattr(streams_module, "STALE", 1)  # a snapshot at every load of a head
    sqlite_engine.streams.heads = None
    story = crate_story()
    numbers = play(sqlite_engine, SYSTEM, story)
    sqlite_engine.undo(CAMPAIGN, numbers[CRATE], reason=WHY, redecide=True)
    assert 9 == sqlite_engine.character(CAMPAIGN, "Zoner", audience=GMS).resilience  # kept
    sqlite_engine.undo(CAMPAIGN, numbers[BLOW], reason=WHY)
    assert 10 == sqlite_engine.character(CAMPAIGN, "Zoner", audience=GMS).resilience
    oracle = again(SYSTEM, story, without={CRATE, BLOW})
    assert not isinstance(oracle, Refused), oracle
    assert whole_state(oracle) == whole_state(sqlite_engine)
