"""Golden tests for the rulings Sprawl Goons' text gives the referee beyond DIGEST §2.4's cases
(issue 18): initiative ties (SG-A10), Glitch and Upgrade dice as the referee's call alone
(R-SG-04), an item's bulk as a ruling of its own (R-SG-09, ``ItemBulkinessRuled``), and first
aid refused on a patient who has lost no Resilience (R-SG-07, SG-A7). Each runs through the
in-memory engine; refusals prove that nothing was appended.
"""

from __future__ import annotations

import pytest

from domain.errors import NotAllowed
from domain.events import Event, Role
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import (
    AddItem,
    CreateCharacter,
    Fall,
    GiveFirstAid,
    MakeActionRoll,
    Rest,
    RollInitiative,
    RuleBulkiness,
)
from domain.rulesets.sprawl_goons.tables import DiceMode
from engine import Engine
from engine.dice.sources import DiceSpec
from projections.describe import describe
from tests.golden.test_sprawl_goons import (
    CAMPAIGN,
    npc,
    one,
    only,
    refused,
    run,
    sheet,
    table,
    tanner,
)


def pc(engine: Engine, name: str, reaction: int, *, player: str = "eve") -> None:
    """A PC with the given Reaction (the rest of the 4 points in Morphology)."""
    create = CreateCharacter(
        character=name,
        player=player,
        morphology=4 - reaction,
        reaction=reaction,
        cognition=0,
        equilibrium=0,
        items=("penlight", "toolkit", "drone"),
    )
    run(engine, create, 1, 1, 1)


def standing(events: tuple[Event, ...]) -> dict[int, sg.InitiativeRolled]:
    """Each InitiativeRolled by the place it won."""
    return {e.place: e for e in only(events, sg.InitiativeRolled)}


# --- SG-A10: initiative ties ---------------------------------------------------------------------


def test_sg_a10_a_tie_goes_to_the_higher_reaction(engine: Engine) -> None:
    """SG-A10: Ace 4 + Reaction 1 = 5 ties Rex 3 + Reaction 2 = 5: Rex, the quicker, goes first;
    no roll-off is needed, so none is rolled."""
    table(engine)
    pc(engine, "Ace", 1)
    pc(engine, "Rex", 2)
    result = engine.execute(
        CAMPAIGN, RollInitiative(combatants=("Ace", "Rex")), dice=DiceSpec(faces=(4, 3))
    )
    order = standing(result.events)
    assert [(5, 2, ()), (5, 1, ())] == [
        (order[p].total, order[p].reaction, order[p].roll_off) for p in (1, 2)
    ]


def test_sg_a10_then_a_pc_before_an_npc(engine: Engine) -> None:
    """SG-A10: a PC with Reaction 0 and an NPC (no stats) both at 5: the PC goes first, though
    the NPC was named first."""
    table(engine)
    pc(engine, "Nil", 0)
    npc(engine, "Zoner", "10")
    events = run(engine, RollInitiative(combatants=("Zoner", "Nil")), 5, 5)
    zoner, nil = only(events, sg.InitiativeRolled)
    assert [(5, 2), (5, 1)] == [(zoner.total, zoner.place), (nil.total, nil.place)]
    assert () == zoner.roll_off == nil.roll_off


def test_sg_a10_then_a_recorded_d6_roll_off(engine: Engine) -> None:
    """SG-A10: Ace and Bo tie on total, Reaction and both PCs: a roll-off, recorded with the
    ruling's dice. 4-4 ties again; 2-5 puts Bo, named second, first."""
    table(engine)
    pc(engine, "Ace", 1)
    pc(engine, "Bo", 1)
    result = engine.execute(
        CAMPAIGN,
        RollInitiative(combatants=("Ace", "Bo")),
        dice=DiceSpec(faces=(3, 3, 4, 4, 2, 5)),
    )
    ace, bo = only(result.events, sg.InitiativeRolled)
    assert [(4, 2, (4, 2)), (4, 1, (4, 5))] == [
        (ace.total, ace.place, ace.roll_off),
        (bo.total, bo.place, bo.roll_off),
    ]
    assert (3, 3, 4, 4, 2, 5) == tuple(d.face for d in result.dice)


def test_sg_a10_a_three_way_roll_off_rolls_again_only_for_those_still_tied(
    engine: Engine,
) -> None:
    """SG-A10: three NPCs at 4: the roll-off 6, 3, 3 puts the first on top; the two on 3 roll
    again (1, 2): the third named goes second."""
    table(engine)
    for name in ("Ganger 1", "Ganger 2", "Ganger 3"):
        npc(engine, name, "8")
    events = run(
        engine,
        RollInitiative(combatants=("Ganger 1", "Ganger 2", "Ganger 3")),
        4,
        4,
        4,
        6,
        3,
        3,
        1,
        2,
    )
    rolled = only(events, sg.InitiativeRolled)
    assert [(1, (6,)), (3, (3, 1)), (2, (3, 2))] == [(r.place, r.roll_off) for r in rolled]


def test_sg_a10_the_log_says_how_the_tie_was_broken(engine: Engine) -> None:
    """SG-A10: the log line names the roll-off faces."""
    table(engine)
    pc(engine, "Ace", 1)
    pc(engine, "Bo", 1)
    events = run(engine, RollInitiative(combatants=("Ace", "Bo")), 3, 3, 6, 1)
    ace = only(events, sg.InitiativeRolled)[0]
    assert "initiative d6 [3] + Reaction 1 = 4: goes 1 of 2, tie broken by a roll-off [6]" == (
        describe(ace)
    )


# --- R-SG-04: Glitch and Upgrade dice are the referee's call ------------------------------------


def seated(engine: Engine) -> None:
    """A campaign where ana plays Tanner."""
    engine.create_campaign(CAMPAIGN, "sprawl-goons", gm="Rosa", members={"ana": Role.PLAYER})
    engine.execute(CAMPAIGN, StartSession(physical_dice=True))  # ana types what she rolls
    engine.execute(CAMPAIGN, StartScene(stage="Night market, Chiba"))
    tanner(engine)


@pytest.mark.parametrize(
    ("glitch", "upgrade", "option"),
    [
        pytest.param(True, False, "--glitch", id="R-SG-04-player-calls-glitch"),
        pytest.param(False, True, "--upgrade", id="R-SG-04-player-calls-upgrade"),
    ],
)
def test_r_sg_04_only_the_referee_calls_glitch_or_upgrade(
    engine: Engine, glitch: bool, upgrade: bool, option: str
) -> None:
    """R-SG-04 (DIGEST GlitchUpgradeRefereeOnly): ana may roll for Tanner, not call the dice."""
    seated(engine)
    roll = MakeActionRoll(
        character="Tanner", stat="reaction", ds="10", glitch=glitch, upgrade=upgrade
    )
    before = engine.store.recorder.max_notification_id()
    with pytest.raises(NotAllowed) as raised:
        engine.execute(CAMPAIGN, roll, actor="ana", dice=DiceSpec(faces=(6, 2, 5)))
    assert before == engine.store.recorder.max_notification_id()
    assert "NOT_ALLOWED" == raised.value.code
    assert f"{option} is the GM's call" in raised.value.reason
    called = engine.execute(CAMPAIGN, roll, actor="Rosa", dice=DiceSpec(faces=(6, 2, 5)))
    assert DiceMode.NORMAL != one(called.events, sg.ActionRolled).mode


def test_r_sg_04_the_glitch_an_injury_forces_needs_no_call(engine: Engine) -> None:
    """R-SG-04 / R-SG-06: the one Glitch a player rolls without the referee's call is the one an
    untreated critical injury forces."""
    seated(engine)
    run(engine, Fall(character="Tanner", metres=36), 2, 3)
    result = engine.execute(
        CAMPAIGN,
        MakeActionRoll(character="Tanner", stat="reaction", ds="8"),
        actor="ana",
        dice=DiceSpec(faces=(6, 1, 2)),
    )
    rolled = one(result.events, sg.ActionRolled)
    assert (DiceMode.GLITCH, True, (1, 2)) == (rolled.mode, rolled.forced_glitch, rolled.kept)


# --- R-SG-09: the referee rules an item's bulk ---------------------------------------------------


def overloaded(engine: Engine) -> None:
    """G-SG-20's Tanner: 12 bulky items (and 2 implants) over an Inventory Score of 10."""
    table(engine)
    tanner(engine)
    for n in range(9):
        run(engine, AddItem(character="Tanner", item=f"Crate {n}", category="gear"))
    run(engine, AddItem(character="Tanner", item="Thermal optics", category="implant"))
    run(engine, AddItem(character="Tanner", item="Mirrorshades", category="gear", bulky=False))


def reaction_penalty(engine: Engine) -> int:
    rolled = one(
        run(engine, MakeActionRoll(character="Tanner", stat="reaction", ds="8"), 3, 3),
        sg.ActionRolled,
    )
    return rolled.encumbrance


def test_r_sg_09_ruling_an_item_not_bulky_lightens_the_load(engine: Engine) -> None:
    """R-SG-09 (ItemBulkinessRuled): 12 bulky over 10 is -2; the referee rules the penlight not
    bulky: 11 bulky, -1 on the next Reaction roll."""
    overloaded(engine)
    assert 2 == reaction_penalty(engine)
    ruled = one(
        run(
            engine,
            RuleBulkiness(character="Tanner", item="penlight", bulky=False, reason="pocket-sized"),
        ),
        sg.ItemBulkinessRuled,
    )
    assert (
        sg.ItemBulkinessRuled(
            item="Penlight", bulky=False, reason="pocket-sized", bulky_items=11, encumbrance=1
        )
        == ruled
    )
    assert 1 == reaction_penalty(engine)
    assert 1 == sheet(engine, "Tanner").encumbrance


def test_r_sg_09_ruling_an_item_bulky_adds_to_the_load(engine: Engine) -> None:
    """R-SG-09: the mirrorshades were added not bulky; ruled bulky they make 13: -3."""
    overloaded(engine)
    run(engine, RuleBulkiness(character="Tanner", item="mirrorshades", bulky=True))
    assert 3 == reaction_penalty(engine)


@pytest.mark.parametrize(
    ("item", "bulky", "error"),
    [
        pytest.param(
            "Thermal optics", True, errors.ImplantNeverBulky, id="R-SG-09-implants-never-count"
        ),
        pytest.param("Katana", True, errors.BulkinessUnchanged, id="R-SG-09-already-bulky"),
        pytest.param(
            "Mirrorshades", False, errors.BulkinessUnchanged, id="R-SG-09-already-not-bulky"
        ),
        pytest.param("Shotgun", False, errors.ItemNotOwned, id="R-SG-09-not-carried"),
    ],
)
def test_r_sg_09_a_ruling_that_changes_nothing_is_refused(
    engine: Engine, item: str, bulky: bool, error: type[errors.DomainError]
) -> None:
    """R-SG-09: implants don't count towards the Inventory (Implants/Augmentations); a ruling
    must change an item the character carries."""
    overloaded(engine)
    refused(engine, RuleBulkiness(character="Tanner", item=item, bulky=bulky), error)


def test_r_sg_09_a_player_cannot_rule_bulk(engine: Engine) -> None:
    """R-SG-09: the bulk of an item is the referee's ruling, not the player's."""
    seated(engine)
    before = engine.store.recorder.max_notification_id()
    with pytest.raises(NotAllowed):
        engine.execute(
            CAMPAIGN, RuleBulkiness(character="Tanner", item="katana", bulky=False), actor="ana"
        )
    assert before == engine.store.recorder.max_notification_id()


# --- R-SG-07 / SG-A7: first aid needs a patient who lost Resilience -----------------------------


def medic(engine: Engine) -> None:
    """Tanner, and Doc with a first aid kit."""
    table(engine)
    tanner(engine)
    pc(engine, "Doc", 1, player="fay")
    run(engine, AddItem(character="Doc", item="First aid kit", category="gear"))


def test_r_sg_07_first_aid_on_an_unhurt_patient_is_refused(engine: Engine) -> None:
    """R-SG-07 (SG-A7): Tanner at 12/12: first aid would gain nothing, so it is refused and the
    scene's first aid for him is not used up; once hurt, Doc's first aid works in that scene."""
    medic(engine)
    aid = GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid")
    error = refused(engine, aid, errors.PatientUnhurt, 6, 6)
    assert "(12/12)" in error.reason
    assert "(Healing)" in error.reason
    run(engine, Fall(character="Tanner", metres=9))
    events = run(engine, aid, 6, 6)
    assert (9, 11) == (
        one(events, sg.ResilienceRestored).before,
        one(events, sg.ResilienceRestored).after,
    )


def test_r_sg_07_an_injury_at_full_resilience_is_no_case_for_first_aid(engine: Engine) -> None:
    """R-SG-07: rested back to 12/12 with an untreated critical injury, Tanner is still refused:
    critical injuries cannot be healed this way."""
    medic(engine)
    run(engine, Fall(character="Tanner", metres=36), 2, 3)
    run(engine, Rest(characters=("Tanner",)))
    assert sheet(engine, "Tanner").must_glitch
    refused(
        engine,
        GiveFirstAid(healer="Doc", patient="Tanner", kit="first aid"),
        errors.PatientUnhurt,
        6,
        6,
    )


# --- DIGEST §0.3 RulingRequired: the referee's DS ------------------------------------------------


def test_a_roll_without_the_referees_ds_is_refused(engine: Engine) -> None:
    """R-SG-02 (RulingRequired{ActionRollCalled}): no DS, no roll: DS_REQUIRED."""
    table(engine)
    tanner(engine)
    error = refused(
        engine, MakeActionRoll(character="Tanner", stat="reaction", ds=" "), errors.DsRequired
    )
    assert "DS_REQUIRED" == error.code
