"""Golden tests for the Sims RPG (PDQ): every case G-PDQ-01..36 of DIGEST §3.4, with its dice.

Each case runs through the in-memory engine, so the recorded events are what is checked; refusals
also prove that nothing was appended. The text's examples use sheets other than the creation
rules allow (Kristov's three Goods, Sandra's Expert and Master): they are GM sheets (``custom``),
NPCs or secondary NPCs (one Difficulty rank), as DIGEST PDQ-X2 recommends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import pytest

from domain.audience import GMS
from domain.commands import Command
from domain.errors import DomainError
from domain.events import Event
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.commands import (
    AllocateRanks,
    Attack,
    AuthorizeRecovery,
    CreateCharacter,
    DeclareDanger,
    DeclareStrategy,
    EndTurn,
    JudgeSimple,
    Kill,
    Reroll,
    RollComplicated,
    RollRecovery,
    SetTurnOrder,
    SucceedCampaign,
    TakeMasterPlus,
    TakeRebirth,
    UpgradeQuality,
)
from domain.rulesets.sims.tables import (
    Danger,
    DiceMode,
    Outcome,
    RankKind,
    SheetKind,
    ShiftSource,
)
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count

NAME = "Zombietown"
PC, NPC, SECONDARY = SheetKind.PC, SheetKind.NPC, SheetKind.SECONDARY

# A sheet by the creation rules: ten qualities, two of them Combat; two Good, one Poor.
STARTING_SHEET = (
    "Cutlass:Combat:Good",
    "Judo:Combat:Average",
    "Athletics:Physical:Good",
    "Hiding:Physical:Average",
    "Memory:Mental:Average",
    "Languages:Mental:Average",
    "Charisma:Social:Poor",
    "Haggling:Social:Average",
    "Pirate:Professional:Average",
    "Sailor:Professional:Average",
)


def table(engine: Engine, **house_rules: str) -> None:
    """A Sims campaign in a running scene."""
    engine.create_campaign(NAME, "sims", house_rules=house_rules)
    engine.execute(NAME, StartSession(physical_dice=True))  # the book's dice, typed as rolled
    engine.execute(NAME, StartScene(stage="the bad part of town"))


def sheet(engine: Engine, name: str, *qualities: str, kind: SheetKind = NPC) -> None:
    custom = kind is PC
    command = CreateCharacter(
        character=name, player="GM", qualities=qualities, kind=kind, custom=custom
    )
    engine.execute(NAME, command)


def run(engine: Engine, command: Command, *faces: int) -> tuple[Event, ...]:
    return engine.execute(NAME, command, dice=DiceSpec(faces=faces)).events


def refused(engine: Engine, command: Command, error: type[DomainError], *faces: int) -> DomainError:
    before = event_count(engine)
    with pytest.raises(error) as raised:
        engine.execute(NAME, command, dice=DiceSpec(faces=faces))
    assert before == event_count(engine)
    return raised.value


E = TypeVar("E", bound=Event)


def of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def one(events: Sequence[Event], kind: type[Event]) -> Event:
    found = [e for e in events if isinstance(e, kind)]
    assert 1 == len(found), found
    return found[0]


def who(engine: Engine, name: str) -> SimsCharacter:
    state: SimsCharacter = engine.character(NAME, name, audience=GMS)
    return state


def current(engine: Engine, name: str) -> dict[str, int]:
    return {q.name: q.current for q in who(engine, name).qualities}


# --- Simple situations ------------------------------------------------------------------------


def test_g_pdq_01_master_charisma_simply_succeeds(engine: Engine) -> None:
    """G-PDQ-01: Sandra's Master Charisma against an easy mark is simple: success, no roll."""
    table(engine)
    sheet(engine, "Sandra", "Charisma:Social:Master", kind=PC)
    events = run(
        engine,
        JudgeSimple(
            character="Sandra",
            quality="Charisma",
            difficulty="Expert",
            task="a favour from Benjamin",
        ),
    )
    assert [ev.SimpleSituationResolved] == [type(e) for e in events]


def test_g_pdq_02_willpower_resists_so_sandra_rolls(engine: Engine) -> None:
    """G-PDQ-02: against Big Tony's Expert Willpower it is a conflict: Sandra attacks and rolls."""
    table(engine)
    sheet(engine, "Sandra", "Charisma:Social:Master", kind=PC)
    sheet(engine, "Big Tony", "Willpower:Mental:Expert")
    events = run(
        engine,
        Attack(
            attacker="Sandra",
            qualities=("Charisma",),
            targets=("Big Tony:Willpower",),
            kind=RankKind.FAILURE,
        ),
        2,
        2,
    )
    attack = one(events, ev.ConflictAttackRolled)
    assert isinstance(attack, ev.ConflictAttackRolled)
    assert ((2, 2), 10, 11) == (attack.roll.dice, attack.roll.total, attack.setup.tn)


@pytest.mark.parametrize(
    ("difficulty", "simple"),
    [
        pytest.param("Poor", True, id="G-PDQ-03-neo-poor-wall-auto"),
        pytest.param("Average", True, id="G-PDQ-03-neo-average-wall-auto"),
        pytest.param("Good", False, id="G-PDQ-03-neo-good-wall-complicated"),
        pytest.param("Expert", False, id="G-PDQ-03-neo-expert-wall-complicated"),
    ],
)
def test_g_pdq_03_neo_climbs_walls(engine: Engine, difficulty: str, simple: bool) -> None:
    """G-PDQ-03: Neo's Good Outdoorsman beats Poor and Average walls; Good and up complicate."""
    table(engine)
    sheet(engine, "Neo", "Outdoorsman:Physical:Good", kind=PC)
    events = run(
        engine,
        JudgeSimple(
            character="Neo", quality="Outdoorsman", difficulty=difficulty, task="climb a wall"
        ),
    )
    expected = ev.SimpleSituationResolved if simple else ev.SituationEscalated
    assert [expected] == [type(e) for e in events]


@pytest.mark.parametrize(
    ("difficulty", "simple"),
    [
        pytest.param("Poor", True, id="G-PDQ-04-cypher-poor-wall-auto"),
        pytest.param("Average", False, id="G-PDQ-04-cypher-average-wall-complicated"),
        pytest.param("Good", False, id="G-PDQ-04-cypher-good-wall-complicated"),
    ],
)
def test_g_pdq_04_cypher_has_no_applicable_quality(
    engine: Engine, difficulty: str, simple: bool
) -> None:
    """G-PDQ-04: with no applicable quality Cypher is Average: only Poor walls are simple."""
    table(engine)
    sheet(engine, "Cypher", "Hacking:Mental:Expert", kind=PC)
    events = run(
        engine,
        JudgeSimple(character="Cypher", quality=None, difficulty=difficulty, task="climb a wall"),
    )
    expected = ev.SimpleSituationResolved if simple else ev.SituationEscalated
    assert [expected] == [type(e) for e in events]
    judged = events[0]
    assert isinstance(judged, ev.SimpleSituationResolved | ev.SituationEscalated)
    assert (None, 1) == (judged.quality, judged.rank)


# --- Complicated situations and environmental damage -----------------------------------------


def _climb(
    engine: Engine, name: str, quality: str | None, *, hazardous: bool = False
) -> tuple[Event, ...]:
    qualities = (quality,) if quality else ()
    command = RollComplicated(
        character=name, qualities=qualities, difficulty="Good", task="the wall", hazardous=hazardous
    )
    return run(engine, command, 3, 5)


def test_g_pdq_05_neo_climbs_the_good_wall(engine: Engine) -> None:
    """G-PDQ-05: Neo rolls 3 and 5, +2: 10 matches or beats 9, he climbs the wall."""
    table(engine)
    sheet(engine, "Neo", "Outdoorsman:Physical:Good", kind=PC)
    rolled = one(_climb(engine, "Neo", "Outdoorsman"), ev.ComplicatedSituationRolled)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert ((3, 5), 2, 10, 9, True) == (
        rolled.roll.dice,
        rolled.roll.modifier,
        rolled.roll.total,
        rolled.tn,
        rolled.success,
    )


def test_g_pdq_06_cypher_fails_the_good_wall(engine: Engine) -> None:
    """G-PDQ-06: Cypher rolls the same 3 and 5 at Average: 8 is below 9, he fails (no damage)."""
    table(engine)
    sheet(engine, "Cypher", "Hacking:Mental:Expert", kind=PC)
    events = _climb(engine, "Cypher", None)
    rolled = one(events, ev.ComplicatedSituationRolled)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (8, False) == (rolled.roll.total, rolled.success)
    assert [] == of(events, ev.DamageRanksInflicted)


def test_g_pdq_07_cypher_falls_climbing_down(engine: Engine) -> None:
    """G-PDQ-07: going down the wall is hazardous: 8 against 9 is a fall and 1 Damage Rank."""
    table(engine)
    sheet(engine, "Cypher", "Hacking:Mental:Expert", kind=PC)
    events = _climb(engine, "Cypher", None, hazardous=True)
    expected = ev.DamageRanksInflicted(
        ranks=1, kind=RankKind.DAMAGE, source="environment (the wall)", bonus_ranks=0, killing=False
    )
    assert [expected] == of(events, ev.DamageRanksInflicted)
    assert 1 == who(engine, "Cypher").pending.ranks  # type: ignore[union-attr]


# --- Conflicts --------------------------------------------------------------------------------


def _draco_and_ninja(engine: Engine) -> None:
    table(engine)
    sheet(engine, "Draco", "Cutlass:Combat:Good", kind=PC)
    sheet(engine, "Ninja", "Henchman:Average", kind=SECONDARY)


def _attack(events: Sequence[Event]) -> ev.ConflictAttackRolled:
    found = one(events, ev.ConflictAttackRolled)
    assert isinstance(found, ev.ConflictAttackRolled)
    return found


def test_g_pdq_08_draco_slices_the_secondary_ninja(engine: Engine) -> None:
    """G-PDQ-08: 3+6+2 = 11 beats 7 by 4: the Ninja's one track goes Average, Poor, zeroed; out."""
    _draco_and_ninja(engine)
    events = run(engine, Attack(attacker="Draco", qualities=("Cutlass",), targets=("Ninja",)), 3, 6)
    attack = _attack(events)
    assert (11, 7, Outcome.HIT, 4) == (
        attack.roll.total,
        attack.setup.tn,
        attack.outcome,
        attack.ranks,
    )
    steps = [(e.before, e.after) for e in of(events, ev.QualityDownshifted)]
    assert [(1, 0), (0, -1)] == steps
    assert [ev.RanksDiscarded(count=2)] == of(events, ev.RanksDiscarded)
    assert who(engine, "Ninja").out


def test_g_pdq_09_draco_loses_on_five(engine: Engine) -> None:
    """G-PDQ-09: 1+2+2 = 5 is less than 7: Draco loses, nobody is hurt."""
    _draco_and_ninja(engine)
    events = run(engine, Attack(attacker="Draco", qualities=("Cutlass",), targets=("Ninja",)), 1, 2)
    assert (5, Outcome.MISS) == (_attack(events).roll.total, _attack(events).outcome)
    assert [] == of(events, ev.DamageRanksInflicted)


def test_g_pdq_10_a_total_of_seven_ties_and_is_rolled_again(engine: Engine) -> None:
    """G-PDQ-10: a total equal to the TN ties: nobody is hurt, nothing else until the re-roll."""
    _draco_and_ninja(engine)
    events = run(engine, Attack(attacker="Draco", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    assert (7, Outcome.TIE) == (_attack(events).roll.total, _attack(events).outcome)
    assert 1 == len(of(events, ev.ConflictTied))
    assert [] == of(events, ev.DamageRanksInflicted)
    refused(
        engine,
        Attack(attacker="Draco", qualities=("Cutlass",), targets=("Ninja",)),
        errors.TieRerollPending,
        3,
        6,
    )
    again = run(engine, Reroll(), 1, 2)
    assert (True, Outcome.MISS) == (_attack(again).reroll, _attack(again).outcome)
    assert () == who(engine, "Draco").ties


def _sandra_and_eichmann(engine: Engine) -> None:
    table(engine)
    sheet(engine, "Sandra", "Seduction:Social:Expert", kind=PC)
    sheet(engine, "Eichmann", "Analytical Thinking:Mental:Expert")


def test_g_pdq_11_sandra_loses_with_ten(engine: Engine) -> None:
    """G-PDQ-11: Sandra's Expert Seduction 2+4+4 = 10 is below Eichmann's 11: she loses."""
    _sandra_and_eichmann(engine)
    command = Attack(
        attacker="Sandra",
        qualities=("Seduction",),
        targets=("Eichmann:Analytical Thinking",),
        kind=RankKind.FAILURE,
    )
    attack = _attack(run(engine, command, 2, 4))
    assert (10, 11, Outcome.MISS) == (attack.roll.total, attack.setup.tn, attack.outcome)


def test_g_pdq_12_full_attack_wins_two_failure_ranks(engine: Engine) -> None:
    """G-PDQ-12: Full Attack makes Sandra Master: 12 beats 11 by 1, +1 rank: 2 Failure Ranks."""
    _sandra_and_eichmann(engine)
    command = Attack(
        attacker="Sandra",
        qualities=("Seduction",),
        targets=("Eichmann:Analytical Thinking",),
        kind=RankKind.FAILURE,
        full_attack=True,
    )
    events = run(engine, command, 2, 4)
    attack = _attack(events)
    assert (6, 12, Outcome.HIT, 1, 2) == (
        attack.roll.modifier,
        attack.roll.total,
        attack.outcome,
        attack.margin,
        attack.ranks,
    )
    inflicted = one(events, ev.DamageRanksInflicted)
    assert isinstance(inflicted, ev.DamageRanksInflicted)
    assert (2, RankKind.FAILURE, 1) == (inflicted.ranks, inflicted.kind, inflicted.bonus_ranks)
    # Until her next turn her defence is downshifted: Expert defends as Good, TN 9.
    run(
        engine,
        AllocateRanks(character="Eichmann", steps=("Analytical Thinking", "Analytical Thinking")),
    )
    sheet(engine, "Guard", "Rifle:Combat:Average")
    back = _attack(
        run(
            engine,
            Attack(attacker="Guard", qualities=("Rifle",), targets=("Sandra:Seduction",)),
            1,
            1,
        )
    )
    assert 9 == back.setup.tn


def test_g_pdq_13_full_defense_endures_up_to_nine(engine: Engine) -> None:
    """G-PDQ-13: the Average Ninja playing Full Defense has TN 9 (8 misses, 9 ties); its next
    attack rolls as Poor (-2)."""
    _draco_and_ninja(engine)
    run(engine, DeclareStrategy(character="Ninja", strategy="full-defense"))
    miss = _attack(
        run(engine, Attack(attacker="Draco", qualities=("Cutlass",), targets=("Ninja",)), 3, 3)
    )
    assert (9, 8, Outcome.MISS) == (miss.setup.tn, miss.roll.total, miss.outcome)
    tie = _attack(
        run(engine, Attack(attacker="Draco", qualities=("Cutlass",), targets=("Ninja",)), 3, 4)
    )
    assert Outcome.TIE == tie.outcome
    run(engine, Reroll(), 1, 1)
    events = run(engine, Attack(attacker="Ninja", qualities=(), targets=("Draco:Cutlass",)), 1, 1)
    attack = _attack(events)
    assert (0, -2) == (attack.roll.effective, attack.roll.modifier)
    assert [ev.FullDefensePenaltyConsumed()] == of(events, ev.FullDefensePenaltyConsumed)


def test_g_pdq_14_full_defense_still_goes_out_on_eleven(engine: Engine) -> None:
    """G-PDQ-14: 11 against the Full Defense TN 9: 2 ranks, Average to Poor to zeroed: out."""
    _draco_and_ninja(engine)
    events = run(
        engine,
        Attack(
            attacker="Draco", qualities=("Cutlass",), targets=("Ninja",), full_defense=("Ninja",)
        ),
        3,
        6,
    )
    attack = _attack(events)
    assert (9, 2) == (attack.setup.tn, attack.ranks)
    assert 1 == len(of(events, ev.CharacterOutOfScene))


def test_g_pdq_15_being_badass_rolls_as_expert(engine: Engine) -> None:
    """G-PDQ-15: a Good Pirate granted Being Badass rolls 2d6+4 instead of 2d6+2."""
    table(engine)
    sheet(engine, "Pirate", "Pirate:Professional:Good", kind=PC)
    sheet(engine, "Sailor", "Sailor:Average", kind=SECONDARY)
    attack = _attack(
        run(
            engine,
            Attack(attacker="Pirate", qualities=("Pirate",), targets=("Sailor",), badass=True),
            1,
            1,
        )
    )
    assert (3, 4) == (attack.roll.effective, attack.roll.modifier)
    assert (ShiftSource.BADASS,) == tuple(s.source for s in attack.roll.shifts)


def test_g_pdq_16_adi_combines_three_qualities(engine: Engine) -> None:
    """G-PDQ-16: Cutlass Good, Judo Good and Pirate Average combine to 2d6+4."""
    table(engine)
    sheet(engine, "Adi", "Cutlass:Combat:Good", "Judo:Combat:Good", "Pirate:Professional:Average")
    sheet(engine, "Zombie", "Zombie:Expert", kind=SECONDARY)
    command = Attack(attacker="Adi", qualities=("Cutlass", "Judo", "Pirate"), targets=("Zombie",))
    attack = _attack(run(engine, command, 1, 1))
    assert (None, 4, DiceMode.TWO_D6) == (
        attack.roll.effective,
        attack.roll.modifier,
        attack.roll.mode,
    )


def test_g_pdq_17_lunar_and_kazoo_team_up(engine: Engine) -> None:
    """G-PDQ-17: Lunar (Expert +4) rolls with Kazoo (Good +2): 3+5+6 = 14 beats Expert's 11."""
    table(engine)
    sheet(engine, "Lunar", "Marketing Exec:Professional:Expert", kind=PC)
    sheet(engine, "Kazoo", "Rockstar:Professional:Good", kind=PC)
    command = RollComplicated(
        character="Lunar",
        qualities=("Marketing Exec",),
        difficulty="Expert",
        task="pitch",
        helpers=("Kazoo:Rockstar",),
    )
    rolled = one(run(engine, command, 3, 5), ev.ComplicatedSituationRolled)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (6, 14, 11, True) == (rolled.roll.modifier, rolled.roll.total, rolled.tn, rolled.success)


def _samurai(engine: Engine, count: int) -> tuple[str, ...]:
    names = tuple(f"Samurai {n}" for n in range(1, count + 1))
    for name in names:
        sheet(engine, name, "Samurai:Master", kind=SECONDARY)
    return names


@pytest.mark.parametrize(
    ("count", "modifier", "mode"),
    [
        pytest.param(2, 2, DiceMode.TWO_D6, id="G-PDQ-18-two-samurai-good"),
        pytest.param(3, 0, DiceMode.TWO_D6, id="G-PDQ-18-three-samurai-average"),
        pytest.param(4, -2, DiceMode.TWO_D6, id="G-PDQ-18-four-samurai-poor"),
        pytest.param(5, -4, DiceMode.AUTO_FAIL, id="G-PDQ-18-five-samurai-auto-fail"),
    ],
)
def test_g_pdq_18_armine_splits_her_kung_fu(
    engine: Engine, count: int, modifier: int, mode: DiceMode
) -> None:
    """G-PDQ-18: each extra target downshifts Expert Kung Fu one rank; at five she bottoms out."""
    table(engine)
    sheet(engine, "Armine", "Kung Fu:Combat:Expert", kind=PC)
    targets = _samurai(engine, count)
    faces = (1, 1) * count if mode is DiceMode.TWO_D6 else ()
    attacks = of(
        run(engine, Attack(attacker="Armine", qualities=("Kung Fu",), targets=targets), *faces),
        ev.ConflictAttackRolled,
    )
    assert [(modifier, mode)] * count == [(a.roll.modifier, a.roll.mode) for a in attacks]


@pytest.mark.parametrize(
    ("count", "modifier", "mode"),
    [
        pytest.param(1, 6, DiceMode.TWO_D6, id="G-PDQ-19-kitchen-one-samurai-plus-6"),
        pytest.param(2, 4, DiceMode.TWO_D6, id="G-PDQ-19-kitchen-two-samurai-expert"),
        pytest.param(3, 2, DiceMode.TWO_D6, id="G-PDQ-19-kitchen-three-samurai-good"),
        pytest.param(4, 0, DiceMode.TWO_D6, id="G-PDQ-19-kitchen-four-samurai-average"),
        pytest.param(5, -2, DiceMode.TWO_D6, id="G-PDQ-19-kitchen-five-samurai-poor"),
        pytest.param(6, -4, DiceMode.AUTO_FAIL, id="G-PDQ-19-kitchen-six-samurai-auto-fail"),
    ],
)
def test_g_pdq_19_armine_adds_chef_in_the_kitchen(
    engine: Engine, count: int, modifier: int, mode: DiceMode
) -> None:
    """G-PDQ-19: Kung Fu +4 and Chef +2 combine to +6, less 2 per extra target; below -2 fails."""
    table(engine)
    sheet(engine, "Armine", "Kung Fu:Combat:Expert", "Chef:Professional:Good", kind=PC)
    targets = _samurai(engine, count)
    faces = (1, 1) * count if mode is DiceMode.TWO_D6 else ()
    command = Attack(attacker="Armine", qualities=("Kung Fu", "Chef"), targets=targets)
    attacks = of(run(engine, command, *faces), ev.ConflictAttackRolled)
    assert [(modifier, mode)] * count == [(a.roll.modifier, a.roll.mode) for a in attacks]


# --- Recovery ---------------------------------------------------------------------------------


def test_g_pdq_20_soren_recovers_three_in_continuing_danger(engine: Engine) -> None:
    """G-PDQ-20: all Poor and Pirate zeroed; continuing danger; a 3 brings Pirate to Poor (back in
    the scene) and Toughness Poor to Average to Good."""
    table(engine)
    sheet(engine, "Soren", "Toughness:Combat:Good", "Pirate:Professional:Average", kind=PC)
    run(
        engine,
        RollComplicated(
            character="Soren", qualities=("Pirate",), difficulty="Master", hazardous=True
        ),
        1,
        1,
    )
    run(
        engine,
        AllocateRanks(character="Soren", steps=("Toughness", "Toughness", "Pirate", "Pirate")),
    )
    assert {"Toughness": 0, "Pirate": -1} == current(engine, "Soren")
    run(engine, DeclareDanger(danger=Danger.CONTINUING))
    ended = engine.execute(NAME, EndScene()).events
    assert 1 == len(of(ended, ev.RecoveryRollAuthorized))
    events = run(
        engine, RollRecovery(character="Soren", steps=("Pirate", "Toughness", "Toughness")), 3
    )
    assert [ev.RecoveryRolled(die=3, lost=4, restorable=3, wasted=0)] == of(
        events, ev.RecoveryRolled
    )
    assert [ev.CharacterReturnedToScene(quality="Pirate")] == of(
        events, ev.CharacterReturnedToScene
    )
    assert {"Toughness": 2, "Pirate": 0} == current(engine, "Soren")


def _kristov_and_jefferson(engine: Engine, *more: str) -> None:
    table(engine)
    sheet(
        engine,
        "Kristov",
        "Dirty Fighter:Combat:Good",
        "Brawler:Combat:Good",
        "Liar:Social:Good",
        "Rockstar:Professional:Average",
        "Golfer:Physical:Average",
        *more,
        kind=PC,
    )
    sheet(engine, "Jefferson", "Biker:Combat:Expert", kind=PC)


KRISTOV_STEPS = (
    "Dirty Fighter",
    "Brawler",
    "Liar",
    "Dirty Fighter",
    "Brawler",
    "Liar",
    "Rockstar",
    "Golfer",
    "Dirty Fighter",
)


def _fight_to_the_haymaker(engine: Engine) -> tuple[Event, ...]:
    """G-PDQ-21..24: order, two misses, then the Badass haymaker (Kristov declines Full Defense)."""
    _kristov_and_jefferson(engine)
    run(engine, SetTurnOrder(entries=("Kristov:Dirty Fighter", "Jefferson:Biker")))
    run(
        engine,
        Attack(attacker="Jefferson", qualities=("Biker",), targets=("Kristov:Dirty Fighter",)),
        3,
        1,
    )
    run(engine, EndTurn())
    run(
        engine,
        Attack(attacker="Kristov", qualities=("Dirty Fighter",), targets=("Jefferson:Biker",)),
        3,
        4,
    )
    run(engine, EndTurn())
    return run(
        engine,
        Attack(
            attacker="Jefferson",
            qualities=("Biker",),
            targets=("Kristov:Dirty Fighter",),
            badass=True,
        ),
        6,
        6,
    )


def test_g_pdq_21_jefferson_goes_first(engine: Engine) -> None:
    """G-PDQ-21: Jefferson's Expert Biker outranks Kristov's Good Dirty Fighter: he goes first."""
    _kristov_and_jefferson(engine)
    events = run(engine, SetTurnOrder(entries=("Kristov:Dirty Fighter", "Jefferson:Biker")))
    order = one(events[:1], ev.TurnOrderSet)
    assert isinstance(order, ev.TurnOrderSet)
    assert ["Jefferson", "Kristov"] == [s.name for s in order.order]
    assert (True, False) == (who(engine, "Jefferson").turn, who(engine, "Kristov").turn)


def test_g_pdq_22_eight_misses_difficulty_nine(engine: Engine) -> None:
    """G-PDQ-22: Jefferson's 3+1+4 = 8 against Kristov's 9 misses ("you need at least 10")."""
    _kristov_and_jefferson(engine)
    run(engine, SetTurnOrder(entries=("Kristov:Dirty Fighter", "Jefferson:Biker")))
    attack = _attack(
        run(
            engine,
            Attack(attacker="Jefferson", qualities=("Biker",), targets=("Kristov:Dirty Fighter",)),
            3,
            1,
        )
    )
    assert (8, 9, Outcome.MISS) == (attack.roll.total, attack.setup.tn, attack.outcome)


def test_g_pdq_23_nine_misses_difficulty_eleven(engine: Engine) -> None:
    """G-PDQ-23: Kristov's 3+4+2 = 9 against Jefferson's 11 misses; nobody is hurt."""
    _kristov_and_jefferson(engine)
    run(engine, SetTurnOrder(entries=("Kristov:Dirty Fighter", "Jefferson:Biker")))
    refused(
        engine,
        Attack(attacker="Kristov", qualities=("Dirty Fighter",), targets=("Jefferson",)),
        errors.NotYourTurn,
        3,
        4,
    )
    run(
        engine,
        Attack(attacker="Jefferson", qualities=("Biker",), targets=("Kristov:Dirty Fighter",)),
        3,
        1,
    )
    run(engine, EndTurn())
    events = run(
        engine,
        Attack(attacker="Kristov", qualities=("Dirty Fighter",), targets=("Jefferson:Biker",)),
        3,
        4,
    )
    attack = _attack(events)
    assert (9, 11, Outcome.MISS) == (attack.roll.total, attack.setup.tn, attack.outcome)
    assert [] == of(events, ev.DamageRanksInflicted)


def test_g_pdq_24_badass_haymaker_for_nine(engine: Engine) -> None:
    """G-PDQ-24: Badass makes Expert roll as Master, 2d6+6 (not 3d6): 18 - 9 = 9 Damage Ranks."""
    attack = _attack(_fight_to_the_haymaker(engine))
    assert (DiceMode.TWO_D6, 6, 18, 9, 9, 0) == (
        attack.roll.mode,
        attack.roll.modifier,
        attack.roll.total,
        attack.setup.tn,
        attack.ranks,
        attack.setup.bonus_ranks,
    )


def test_g_pdq_25_kristov_distributes_nine_and_bottoms_out(engine: Engine) -> None:
    """G-PDQ-25: Goods to Average (3), to Poor (3), Rockstar and Golfer to Poor (2), Dirty Fighter
    below Poor (1): nine ranks, and Kristov is unconscious."""
    _fight_to_the_haymaker(engine)
    events = run(engine, AllocateRanks(character="Kristov", steps=KRISTOV_STEPS))
    assert 9 == len(of(events, ev.QualityDownshifted))
    assert [ev.CharacterOutOfScene(quality="Dirty Fighter", turn=3)] == of(
        events, ev.CharacterOutOfScene
    )
    expected = {"Dirty Fighter": -1, "Brawler": 0, "Liar": 0, "Rockstar": 0, "Golfer": 0}
    assert expected == current(engine, "Kristov")


def test_g_pdq_26_kristov_recovers_five(engine: Engine) -> None:
    """G-PDQ-26: continuing danger, a 5: Dirty Fighter back to Good (3), Golfer and Rockstar back
    to Average (1 each); the other two Goods stay Poor; he is back in the scene."""
    _fight_to_the_haymaker(engine)
    run(engine, AllocateRanks(character="Kristov", steps=KRISTOV_STEPS))
    run(engine, AuthorizeRecovery(character="Kristov", reason="still in continuing danger"))
    steps = ("Dirty Fighter", "Dirty Fighter", "Dirty Fighter", "Golfer", "Rockstar")
    events = run(engine, RollRecovery(character="Kristov", steps=steps), 5)
    expected = {"Dirty Fighter": 2, "Brawler": 0, "Liar": 0, "Rockstar": 1, "Golfer": 1}
    assert expected == current(engine, "Kristov")
    assert 1 == len(of(events, ev.CharacterReturnedToScene))
    assert not who(engine, "Kristov").out


def test_g_pdq_27_full_defense_would_have_saved_two_ranks(engine: Engine) -> None:
    """G-PDQ-27: had Kristov played Full Defense, TN 11: 7 ranks; his next attack is Average.

    (One more Average quality on his sheet takes the seventh rank, so Dirty Fighter stays Good.)"""
    _kristov_and_jefferson(engine, "Drinker:Social:Average")
    run(engine, SetTurnOrder(entries=("Kristov:Dirty Fighter", "Jefferson:Biker")))
    command = Attack(
        attacker="Jefferson",
        qualities=("Biker",),
        targets=("Kristov:Dirty Fighter",),
        badass=True,
        full_defense=("Kristov",),
    )
    attack = _attack(run(engine, command, 6, 6))
    assert (11, 7) == (attack.setup.tn, attack.ranks)
    steps = ("Brawler", "Brawler", "Liar", "Liar", "Rockstar", "Golfer", "Drinker")
    run(engine, AllocateRanks(character="Kristov", steps=steps))
    run(engine, EndTurn())
    events = run(
        engine,
        Attack(attacker="Kristov", qualities=("Dirty Fighter",), targets=("Jefferson:Biker",)),
        1,
        1,
    )
    assert (1, 0) == (_attack(events).roll.effective, _attack(events).roll.modifier)


def test_g_pdq_28_master_upshifted_rolls_three_dice(engine: Engine) -> None:
    """G-PDQ-28: a Master quality with Being Badass rolls 3d6+6: 6+6+6+6 = 24."""
    table(engine)
    sheet(engine, "Trinity", "Jumping:Combat:Master", kind=PC)
    command = RollComplicated(
        character="Trinity",
        qualities=("Jumping",),
        difficulty="Master",
        task="the roof",
        badass=True,
    )
    rolled = one(run(engine, command, 6, 6, 6), ev.ComplicatedSituationRolled)
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (DiceMode.THREE_D6, (6, 6, 6), 24) == (
        rolled.roll.mode,
        rolled.roll.dice,
        rolled.roll.total,
    )


def test_g_pdq_29_complicated_ties_succeed(engine: Engine) -> None:
    """G-PDQ-29: Average against TN 7 rolling 3 and 4 matches it: success."""
    table(engine)
    sheet(engine, "Cypher", "Hacking:Mental:Expert", kind=PC)
    rolled = one(
        run(engine, RollComplicated(character="Cypher", qualities=(), difficulty="Average"), 3, 4),
        ev.ComplicatedSituationRolled,
    )
    assert isinstance(rolled, ev.ComplicatedSituationRolled)
    assert (7, 7, True) == (rolled.roll.total, rolled.tn, rolled.success)


def test_g_pdq_30_momentary_danger_gives_everything_back(engine: Engine) -> None:
    """G-PDQ-30: at the end of a scene in momentary danger every lost rank comes back."""
    _fight_to_the_haymaker(engine)
    run(engine, AllocateRanks(character="Kristov", steps=KRISTOV_STEPS))
    events = engine.execute(NAME, EndScene()).events
    assert 1 == len(of(events, ev.RanksRecovered))
    expected = {"Dirty Fighter": 2, "Brawler": 2, "Liar": 2, "Rockstar": 1, "Golfer": 1}
    assert expected == current(engine, "Kristov")
    assert not who(engine, "Kristov").out


# --- Improvement -----------------------------------------------------------------------------


def test_g_pdq_31_a_good_boxer_becomes_expert(engine: Engine) -> None:
    """G-PDQ-31: after a successful campaign a Good Boxer becomes an Expert Boxer."""
    table(engine)
    sheet(engine, "Rocky", "Boxer:Combat:Good", kind=PC)
    run(engine, SucceedCampaign())
    events = run(engine, UpgradeQuality(character="Rocky", quality="Boxer"))
    assert [ev.QualityUpgraded(quality="Boxer", before="Good", after="Expert")] == list(events)  # type: ignore[arg-type]


def test_g_pdq_32_a_master_boxer_cannot_improve(engine: Engine) -> None:
    """G-PDQ-32: a Master quality cannot be improved further."""
    table(engine)
    sheet(engine, "Rocky", "Boxer:Combat:Master", kind=PC)
    run(engine, SucceedCampaign())
    refused(engine, UpgradeQuality(character="Rocky", quality="Boxer"), errors.QualityAlreadyMaster)


def test_g_pdq_33_master_plus_needs_three_masters(engine: Engine) -> None:
    """G-PDQ-33: two Masters are not enough for Master+; three are, for two new Good qualities."""
    table(engine)
    sheet(engine, "Two", "A:Combat:Master", "B:Combat:Master", "C:Mental:Good", kind=PC)
    sheet(engine, "Three", "A:Combat:Master", "B:Combat:Master", "C:Mental:Master", kind=PC)
    run(engine, SucceedCampaign())
    refused(
        engine,
        TakeMasterPlus(character="Two", qualities=("Telepathy", "Flight")),
        errors.NotEnoughMasters,
    )
    events = run(engine, TakeMasterPlus(character="Three", qualities=("Telepathy", "Flight")))
    taken = one(events, ev.MasterPlusTaken)
    assert isinstance(taken, ev.MasterPlusTaken)
    assert [("Telepathy", "Good"), ("Flight", "Good")] == [
        (q.name, q.rank) for q in taken.qualities
    ]


def test_g_pdq_34_no_rebirth_with_master_plus(engine: Engine) -> None:
    """G-PDQ-34: six Masters and a Master+ pair: Rebirth is refused."""
    table(engine)
    masters = tuple(f"Q{n}:Physical:Master" for n in range(6))
    sheet(engine, "Elder", *masters, kind=PC)
    run(engine, SucceedCampaign())
    run(engine, TakeMasterPlus(character="Elder", qualities=("Telepathy", "Flight")))
    run(engine, SucceedCampaign())
    extra = ("Luck", "Grace", "Wit", "Mind Reading:extraordinary")
    refused(
        engine,
        TakeRebirth(character="Elder", qualities=STARTING_SHEET, extra=extra),
        errors.HasMasterPlusQualities,
    )


def test_g_pdq_35_three_goods_are_refused(engine: Engine) -> None:
    """G-PDQ-35: a new player character with three Good qualities is refused."""
    table(engine)
    bad = (STARTING_SHEET[0], "Judo:Combat:Good", *STARTING_SHEET[2:])
    refused(
        engine,
        CreateCharacter(character="Royer", player="royer", qualities=bad),
        errors.WrongRankDistribution,
    )


def test_g_pdq_36_jefferson_kills_the_unconscious_kristov(engine: Engine) -> None:
    """G-PDQ-36: Kristov is out; on Jefferson's next turn a statement kills him, no roll."""
    _fight_to_the_haymaker(engine)
    run(engine, AllocateRanks(character="Kristov", steps=KRISTOV_STEPS))
    refused(engine, Kill(attacker="Jefferson", victim="Kristov"), errors.KillNotOnNextTurn)
    run(engine, EndTurn())
    events = engine.execute(NAME, Kill(attacker="Jefferson", victim="Kristov"))
    assert [] == list(events.dice)
    killed = one(events.events, ev.CharacterKilled)
    assert isinstance(killed, ev.CharacterKilled)
    assert ("Jefferson", True) == (killed.by, who(engine, "Kristov").killed)
