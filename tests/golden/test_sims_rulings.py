"""Golden tests for the Sims RPG's rulings beyond the worked examples (issue 18): turn-order ties
(PDQ-A11), a simple situation needs no roll (R-PDQ-04), killing is for physical conflicts
(R-PDQ-09), adventures and missions (R-PDQ-14), and the GM's calls a player leaves alone (Behind
the Scenes, R-PDQ-15, is ``test_sims_private.py``). Each runs through the in-memory engine;
refusals prove nothing was appended.
"""

from __future__ import annotations

import pytest

from domain.commands import Command
from domain.errors import NotAllowed, NotEnoughDice
from domain.events import Event, Role
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import (
    Attack,
    CompleteAdventure,
    CreateCharacter,
    JudgeSimple,
    Kill,
    RollComplicated,
    SetTurnOrder,
    SucceedMission,
)
from domain.rulesets.sims.tables import RankKind, SheetKind, TieBreak
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_sims import NAME, of, one, refused, run, sheet, who

GM = "Morpheus"
SEATS = {"alice": Role.PLAYER, "bob": Role.PLAYER, "carol": Role.PLAYER, "olly": Role.OBSERVER}


def table(engine: Engine, **house_rules: str) -> None:
    """A Sims campaign with players alice (Neo), bob (Cypher), carol (no character yet) and an
    observer, olly; NPCs Smith (Expert) and Jones (Expert), a secondary Ninja (Average)."""
    engine.create_campaign(NAME, "sims", gm=GM, members=SEATS, house_rules=house_rules)
    engine.execute(NAME, StartSession())
    engine.execute(NAME, StartScene(stage="the club"))
    for name, player, qualities in (
        ("Neo", "alice", ("Kung Fu:Combat:Good", "Outdoorsman:Physical:Good")),
        ("Cypher", "bob", ("Knives:Combat:Good", "Lying:Social:Average")),
    ):
        command = CreateCharacter(character=name, player=player, qualities=qualities, custom=True)
        engine.execute(NAME, command)
    sheet(engine, "Smith", "Kung Fu:Combat:Expert")
    sheet(engine, "Jones", "Kung Fu:Combat:Expert")
    sheet(engine, "Ninja", "Henchman:Average", kind=SheetKind.SECONDARY)


def run_as(engine: Engine, command: Command, actor: str, *faces: int) -> tuple[Event, ...]:
    return engine.execute(NAME, command, actor=actor, dice=DiceSpec(faces=faces)).events


def refused_as(
    engine: Engine, command: Command, actor: str, error: type[Exception], *faces: int
) -> Exception:
    """``command`` by ``actor`` is refused with ``error``, and nothing is appended."""
    before = event_count(engine)
    with pytest.raises(error) as raised:
        engine.execute(NAME, command, actor=actor, dice=DiceSpec(faces=faces))
    assert before == event_count(engine)
    return raised.value


def order(events: tuple[Event, ...]) -> list[tuple[str, tuple[int, ...]]]:
    found = of(events, ev.TurnOrderSet)[0]
    return [(s.name, s.roll_off) for s in found.order]


# --- PDQ-A11: turn-order ties ---------------------------------------------------------------------


def test_pdq_a11_a_pc_goes_before_an_npc_of_the_same_rank(engine: Engine) -> None:
    """PDQ-A11: Neo's Good Kung Fu ties the Bouncer's Good Brawler: the PC goes first, whatever
    the order listed, and no die is rolled."""
    table(engine)
    sheet(engine, "Bouncer", "Brawler:Combat:Good")
    events = run(engine, SetTurnOrder(entries=("Bouncer:Brawler", "Neo:Kung Fu")))
    assert [("Neo", ()), ("Bouncer", ())] == order(events)
    assert (True, False) == (who(engine, "Neo").turn, who(engine, "Bouncer").turn)


def test_pdq_a11_equal_npcs_roll_off(engine: Engine) -> None:
    """PDQ-A11: Smith and Jones, both Expert NPCs, roll 1d6 each in the order listed (2, 5):
    the higher goes first; the faces are recorded in the order, Neo (Good) comes after."""
    table(engine)
    events = run(
        engine, SetTurnOrder(entries=("Smith:Kung Fu", "Jones:Kung Fu", "Neo:Kung Fu")), 2, 5
    )
    assert [("Jones", (5,)), ("Smith", (2,)), ("Neo", ())] == order(events)


def test_pdq_a11_equal_pcs_roll_off_and_roll_again_on_a_tie(engine: Engine) -> None:
    """PDQ-A11: Neo and Cypher, both Good PCs, roll 3 and 3: they roll again, 1 and 6: Cypher
    goes first, and each slot shows both faces it rolled."""
    table(engine)
    events = run(engine, SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives")), 3, 3, 1, 6)
    assert [("Cypher", (3, 6)), ("Neo", (3, 1))] == order(events)


def test_pdq_a11_three_way_roll_off(engine: Engine) -> None:
    """PDQ-A11: three tied NPCs roll 4, 4, 1: the one on 1 goes last; the two on 4 roll again."""
    table(engine)
    sheet(engine, "Brown", "Kung Fu:Combat:Expert")
    entries = ("Smith:Kung Fu", "Jones:Kung Fu", "Brown:Kung Fu")
    events = run(engine, SetTurnOrder(entries=entries), 4, 4, 1, 2, 5)
    assert [("Jones", (4, 5)), ("Smith", (4, 2)), ("Brown", (1,))] == order(events)


def test_pdq_a11_the_roll_off_needs_its_dice(engine: Engine) -> None:
    """PDQ-A11: a roll-off entered with too few faces is refused; nothing is recorded."""
    table(engine)
    refused(engine, SetTurnOrder(entries=("Smith:Kung Fu", "Jones:Kung Fu")), NotEnoughDice, 4)


def test_pdq_a11_the_gm_may_break_ties_in_the_order_listed(engine: Engine) -> None:
    """PDQ-A11 ("GM decides"): with ties as-listed the order given stands between equal ranks,
    NPC before PC included, and no die is rolled."""
    table(engine)
    sheet(engine, "Bouncer", "Brawler:Combat:Good")
    command = SetTurnOrder(
        entries=("Jones:Kung Fu", "Bouncer:Brawler", "Smith:Kung Fu", "Neo:Kung Fu"),
        ties=TieBreak.AS_LISTED,
    )
    events = run(engine, command)
    assert ["Jones", "Smith", "Bouncer", "Neo"] == [name for name, _ in order(events)]


# --- R-PDQ-04: a simple situation needs no roll ---------------------------------------------------


def test_r_pdq_04_no_roll_for_a_task_ruled_simple(engine: Engine) -> None:
    """R-PDQ-04 (SimpleSituationNoRollNeeded): the GM ruled Neo's garden wall simple, a success
    without dice; a roll for the same task in the scene is refused. Another task rolls."""
    table(engine)
    run(
        engine,
        JudgeSimple(character="Neo", quality="Outdoorsman", difficulty="Average", task="the wall"),
    )
    again = RollComplicated(
        character="Neo", qualities=("Outdoorsman",), difficulty="Average", task="the wall"
    )
    error = refused(engine, again, errors.SimpleSituationNoRollNeeded, 2, 2)
    assert "the GM ruled 'the wall' a simple situation Neo succeeds at" in error.reason
    other = RollComplicated(
        character="Neo", qualities=("Outdoorsman",), difficulty="Average", task="the roof"
    )
    assert [ev.ComplicatedSituationRolled] == [type(e) for e in run(engine, other, 2, 2)]


def test_r_pdq_04_a_new_scene_may_roll_it(engine: Engine) -> None:
    """R-PDQ-04: the ruling holds for its scene; in the next scene the same wall may be rolled,
    and a task the GM escalated (complicated) is rolled at once."""
    table(engine)
    run(
        engine,
        JudgeSimple(character="Neo", quality="Outdoorsman", difficulty="Average", task="the wall"),
    )
    escalated = JudgeSimple(
        character="Neo", quality="Outdoorsman", difficulty="Good", task="the roof"
    )
    assert [ev.SituationEscalated] == [type(e) for e in run(engine, escalated)]
    roof = RollComplicated(
        character="Neo", qualities=("Outdoorsman",), difficulty="Good", task="the roof"
    )
    run(engine, roof, 4, 4)
    engine.execute(NAME, EndScene())
    engine.execute(NAME, StartScene(stage="the same wall, later"))
    wall = RollComplicated(
        character="Neo", qualities=("Outdoorsman",), difficulty="Average", task="the wall"
    )
    assert [ev.ComplicatedSituationRolled] == [type(e) for e in run(engine, wall, 1, 1)]


# --- R-PDQ-09: Out for Blood is for physical conflicts --------------------------------------------


def test_r_pdq_09_no_kill_after_a_social_conflict(engine: Engine) -> None:
    """R-PDQ-09 (NotAPhysicalConflict): the Ninja went out on Failure Ranks (a war of words):
    helpless, but not killable; out on Damage Ranks, the kill stands (G-PDQ-36)."""
    table(engine)
    taunt = Attack(
        attacker="Cypher", qualities=("Knives",), targets=("Ninja",), kind=RankKind.FAILURE
    )
    run(engine, taunt, 5, 6)  # 11 + 2 = 13 vs 7: 6 Failure Ranks, the Ninja is out
    assert who(engine, "Ninja").out
    error = refused(engine, Kill(attacker="Cypher", victim="Ninja"), errors.NotAPhysicalConflict)
    assert "Ninja went out on Failure Ranks" in error.reason


def test_r_pdq_09_killing_damage_is_damage(engine: Engine) -> None:
    """R-PDQ-09 (house rule lethality=choose-at-start): killing damage dealt as Failure Ranks is
    refused; as Damage Ranks it kills the Ninja it puts out."""
    table(engine, lethality="choose-at-start")
    failing = Attack(
        attacker="Cypher",
        qualities=("Knives",),
        targets=("Ninja",),
        kind=RankKind.FAILURE,
        killing=True,
    )
    refused(engine, failing, errors.NotAPhysicalConflict, 5, 6)
    killing = Attack(attacker="Cypher", qualities=("Knives",), targets=("Ninja",), killing=True)
    assert one(run(engine, killing, 5, 6), ev.CharacterKilled)


# --- R-PDQ-14: adventures and Upgrade Missions ----------------------------------------------------


def test_r_pdq_14_an_adventure_completes_without_an_upgrade(engine: Engine) -> None:
    """R-PDQ-14 (AdventureCompleted): recorded for every living PC; upgrades come from the
    campaign, not the adventure."""
    table(engine)
    events = run(engine, CompleteAdventure(adventure="The Merovingian's club"))
    assert [ev.AdventureCompleted(adventure="The Merovingian's club")] * 2 == list(events)
    assert (0, 0) == (who(engine, "Neo").upgrades, who(engine, "Cypher").upgrades)


def test_r_pdq_14_a_mission_announced_to_nobody(engine: Engine) -> None:
    """R-PDQ-14: an Upgrade Mission nobody was told about succeeds for nobody, and says so."""
    table(engine)
    error = refused(engine, SucceedMission(mission="The Vault"), errors.MissionNotAnnounced)
    assert error.reason.startswith(
        "'The Vault' was not announced to any character in advance as an Upgrade Mission"
    )


# --- The GM's calls -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        RollComplicated(character="Neo", qualities=("Kung Fu",), difficulty="Good", badass=True),
        Attack(attacker="Neo", qualities=("Kung Fu",), targets=("Ninja",), badass=True),
        Attack(attacker="Neo", qualities=("Kung Fu",), targets=("Ninja",), kind=RankKind.FAILURE),
    ],
    ids=["roll-badass", "attack-badass", "attack-failure-ranks"],
)
def test_being_badass_and_the_kind_of_ranks_are_the_gms(engine: Engine, command: Command) -> None:
    """Being Badass ("the GM can give them an Upshift") and Failure vs Damage Ranks (by the
    nature of the conflict, PDQ-A5) are the GM's calls: a player's is refused, the GM's stands."""
    table(engine)
    refused_as(engine, command, "alice", NotAllowed, 3, 3)
    run(engine, command, 3, 3)
