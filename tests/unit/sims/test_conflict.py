"""Sims attacks (conflict.py, R-PDQ-06, R-PDQ-10, R-PDQ-11, R-PDQ-12): the attack against the
defender's TN, split between targets, ties rolled again (PDQ-A1) or mussed up, conflict
strategies and teamwork."""

from __future__ import annotations

from domain.errors import InvalidDieFace
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import (
    Attack,
    CreateCharacter,
    DeclareStrategy,
    Reroll,
    SetTurnOrder,
)
from domain.rulesets.sims.tables import (
    DiceMode,
    Outcome,
    Rank,
    RankKind,
    SheetKind,
    ShiftSource,
    Strategy,
)
from domain.rulesets.sims.values import AttackSetup, QualityUsed, Roll, Shift
from engine import Engine
from tests.golden.test_sims import NAME, of, refused, run
from tests.unit.sims.conftest import quality_used, table, who


def _setup(
    engine: Engine, name: str, defense: QualityUsed, *, target: int = 1, targets: int = 1
) -> AttackSetup:
    """An attack on ``name`` at TN 7, no shifts on the defence, Damage Ranks, no bonus."""
    return AttackSetup(
        defender_id=who(engine, name).id,
        defender=name,
        target=target,
        targets=targets,
        defense=defense,
        defender_shifts=(),
        tn=7,
        kind=RankKind.DAMAGE,
        bonus_ranks=0,
        killing=False,
    )


def test_a_split_attack_records_each_target_and_the_tie_last(game: Engine) -> None:
    """Neo's Good Cutlass split between the Ninja and the Boss's Nerve: one downshift for the
    second target, so +0. 12 against the Ninja's 7 hits for 5 (his one track takes 2, then he is
    out and 3 are discarded); 7 against the Boss's 7 ties and waits to be rolled again
    (R-PDQ-12, R-PDQ-06, PDQ-A16, PDQ-A1)."""
    command = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja", "Boss:Nerve"))
    events = run(game, command, 6, 6, 3, 4)
    cutlass = quality_used(game, "Neo", "Cutlass", Rank.GOOD, 2)
    split = (Shift(source=ShiftSource.SPLIT, steps=-1, note="2"),)

    def rolled(faces: tuple[int, int]) -> Roll:
        return Roll(
            qualities=(cutlass,),
            shifts=split,
            effective=1,
            modifier=0,
            mode=DiceMode.TWO_D6,
            dice=faces,
            total=sum(faces),
        )

    ninja = _setup(
        game, "Ninja", quality_used(game, "Ninja", "Henchman", Rank.AVERAGE, 1), targets=2
    )
    boss = _setup(
        game, "Boss", quality_used(game, "Boss", "Nerve", Rank.AVERAGE, 1), target=2, targets=2
    )
    on_neo = [e for e in events if isinstance(e, ev.ConflictAttackRolled | ev.ConflictTied)]
    assert [
        ev.ConflictAttackRolled(
            setup=ninja, roll=rolled((6, 6)), outcome=Outcome.HIT, margin=5, ranks=5, reroll=False
        ),
        ev.ConflictAttackRolled(
            setup=boss, roll=rolled((3, 4)), outcome=Outcome.TIE, margin=0, ranks=0, reroll=False
        ),
        ev.ConflictTied(setup=boss, roll=rolled((3, 4))),
    ] == on_neo
    assert [
        ev.DamageRanksInflicted(
            ranks=5, kind=RankKind.DAMAGE, source="Neo", bonus_ranks=0, killing=False
        ),
        ev.QualityDownshifted(quality="Henchman", before=1, after=0, kind=RankKind.DAMAGE),
        ev.QualityDownshifted(quality="Henchman", before=0, after=-1, kind=RankKind.DAMAGE),
        ev.CharacterOutOfScene(quality="Henchman", turn=0),
        ev.RanksDiscarded(count=3),
    ] == [e for e in events if e not in on_neo]
    again = run(game, Reroll(attacker="Neo"), 5, 1)
    assert [
        ev.ConflictAttackRolled(
            setup=boss, roll=rolled((5, 1)), outcome=Outcome.MISS, margin=-1, ranks=0, reroll=True
        )
    ] == list(again)
    assert () == who(game, "Neo").ties


def test_every_tie_of_a_split_attack_waits_to_be_rolled_again(game: Engine) -> None:
    """Split between the Ninja and the Boss's Nerve (+0): 7 and 7 tie both; both ties are
    recorded, and rolled again one after the other (R-PDQ-12, PDQ-A1)."""
    command = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja", "Boss:Nerve"))
    events = run(game, command, 3, 4, 5, 2)
    assert ["Ninja", "Boss"] == [t.setup.defender for t in of(events, ev.ConflictTied)]
    assert 2 == len(who(game, "Neo").ties)
    run(game, Reroll(), 1, 1)
    assert ["Boss"] == [t.setup.defender for t in who(game, "Neo").ties]


def test_an_auto_failed_attack_records_no_dice_and_no_margin(game: Engine) -> None:
    """Split four ways, a Good Cutlass bottoms out: the attack auto-fails without dice, margin
    None, nothing inflicted (R-PDQ-12, G-PDQ-18)."""
    for n in range(3):
        run(
            game,
            CreateCharacter(
                character=f"Samurai {n}",
                player="GM",
                qualities=("Katana:Average",),
                kind=SheetKind.SECONDARY,
            ),
        )
    targets = ("Ninja", "Samurai 0", "Samurai 1", "Samurai 2")
    result = game.execute(NAME, Attack(attacker="Neo", qualities=("Cutlass",), targets=targets))
    attacks = of(result.events, ev.ConflictAttackRolled)
    assert [(Outcome.AUTO_FAIL, None, 0, DiceMode.AUTO_FAIL, None)] * 4 == [
        (a.outcome, a.margin, a.ranks, a.roll.mode, a.roll.total) for a in attacks
    ]
    assert ((), []) == (result.dice, of(result.events, ev.DamageRanksInflicted))


def test_a_helper_joins_an_attack(game: Engine) -> None:
    """Teamwork in a conflict: the Boss's Good Brawler joins Neo's Good Cutlass, +4; only Neo
    rolls: 3, 3 + 4 = 10 against the Ninja's 7 (R-PDQ-11, G-PDQ-16)."""
    command = Attack(
        attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), helpers=("Boss:Brawler",)
    )
    (attack,) = of(run(game, command, 3, 3), ev.ConflictAttackRolled)
    assert (["Cutlass", "Brawler"], 4, 10, Outcome.HIT, 3) == (
        [u.quality for u in attack.roll.qualities],
        attack.roll.modifier,
        attack.roll.total,
        attack.outcome,
        attack.ranks,
    )


def test_a_reroll_without_a_tie_is_refused(game: Engine) -> None:
    """NoTieToReroll, whether the attacker is named or not (PDQ-A1)."""
    refused(game, Reroll(), errors.NoTieToReroll, 3, 3)
    refused(game, Reroll(attacker="Neo"), errors.NoTieToReroll, 3, 3)


def test_a_reroll_rolls_six_sided_dice(game: Engine) -> None:
    """A tied attack is rolled again on d6s: a 7 is no face of them (InvalidDieFace)."""
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    refused(game, Reroll(), InvalidDieFace, 7, 1)


def test_a_reroll_may_tie_again_and_then_take_the_defender_out(game: Engine) -> None:
    """A tie rolled again can tie again (still pending), and a hit on the re-roll deals its
    ranks like any hit: the Ninja's one track goes out in this conflict turn (PDQ-A1,
    PDQ-A16)."""
    run(game, SetTurnOrder(entries=("Neo:Cutlass", "Ninja")))
    run(game, Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",)), 2, 3)
    again = run(game, Reroll(), 4, 1)
    assert [Outcome.TIE] == [e.outcome for e in of(again, ev.ConflictAttackRolled)]
    assert 1 == len(of(again, ev.ConflictTied))
    assert 1 == len(who(game, "Neo").ties)
    hit = run(game, Reroll(attacker="Neo"), 6, 6)
    assert [ev.CharacterOutOfScene(quality="Henchman", turn=1)] == of(hit, ev.CharacterOutOfScene)
    assert () == who(game, "Neo").ties


def test_tie_muss_up_gives_each_side_a_failure_rank(engine: Engine) -> None:
    """tieMussUp: a tie costs each side one Failure Rank and is not rolled again."""
    table(engine, tieMussUp="true")
    events = run(
        engine, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 3, 4
    )
    inflicted = [e for e in events if isinstance(e, ev.DamageRanksInflicted)]
    assert [(1, RankKind.FAILURE)] * 2 == [(e.ranks, e.kind) for e in inflicted]
    assert () == who(engine, "Boss").ties


def test_a_mussed_up_tie_costs_each_side_a_failure_rank_from_the_other(engine: Engine) -> None:
    """tieMussUp: the Ninja, already Poor, ties Neo's attack: each side takes one Failure Rank
    from the other; the Ninja's one track goes out at once, Neo owes his rank (PDQ-X1 option,
    PDQ-A16)."""
    table(engine, tieMussUp="true")
    attack = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",))
    run(engine, attack, 3, 3)  # 8 against 7: one rank, the Ninja is Poor
    events = run(engine, attack, 1, 2)  # 5 against Poor's 5: a tie
    assert [
        ev.DamageRanksInflicted(
            ranks=1, kind=RankKind.FAILURE, source="Neo", bonus_ranks=0, killing=False
        ),
        ev.DamageRanksInflicted(
            ranks=1, kind=RankKind.FAILURE, source="Ninja", bonus_ranks=0, killing=False
        ),
    ] == sorted(of(events, ev.DamageRanksInflicted), key=lambda e: e.source)
    assert [ev.CharacterOutOfScene(quality="Henchman", turn=0)] == of(
        events, ev.CharacterOutOfScene
    )
    owed = who(engine, "Neo").pending
    assert owed is not None
    assert (1, RankKind.FAILURE, "Ninja") == (owed.ranks, owed.kind, owed.source)


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


def test_full_defense_as_a_reaction_is_declared_and_raises_the_tn(game: Engine) -> None:
    """The Ninja reacts with Full Defense: StrategyDeclared for him, then the attack at TN 9
    (Average + 1 rank): 8 misses (R-PDQ-10, G-PDQ-13)."""
    command = Attack(
        attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_defense=("ninja",)
    )
    events = run(game, command, 3, 3)
    assert [ev.StrategyDeclared(strategy=Strategy.FULL_DEFENSE)] == of(events, ev.StrategyDeclared)
    (attack,) = of(events, ev.ConflictAttackRolled)
    assert ((Shift(source=ShiftSource.FULL_DEFENSE, steps=1),), 9, Outcome.MISS, -1) == (
        attack.setup.defender_shifts,
        attack.setup.tn,
        attack.outcome,
        attack.margin,
    )
    assert who(game, "Ninja").strategy is Strategy.FULL_DEFENSE


def test_full_defense_as_a_reaction_needs_no_other_strategy(game: Engine) -> None:
    """A defender already in Full Defense cannot declare it again as a reaction: refused with
    StrategyAlreadyActive, nothing recorded (R-PDQ-10)."""
    run(game, DeclareStrategy(character="Ninja", strategy="full-defense"))
    command = Attack(
        attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_defense=("Ninja",)
    )
    error = refused(game, command, errors.StrategyAlreadyActive, 1, 1)
    assert {"name": "Ninja", "strategy": Strategy.FULL_DEFENSE} == error.data


def test_full_attack_needs_no_other_strategy(game: Engine) -> None:
    """An attacker in Full Defense cannot also go Full Attack (R-PDQ-10)."""
    run(game, DeclareStrategy(character="Neo", strategy="full-defense"))
    command = Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_attack=True)
    error = refused(game, command, errors.StrategyAlreadyActive, 1, 1)
    assert {"name": "Neo", "strategy": Strategy.FULL_DEFENSE} == error.data


def test_a_declared_full_attack_upshifts_the_attack_without_declaring_again(game: Engine) -> None:
    """Full Attack declared beforehand: the attack is upshifted and adds a damage rank, and no
    second StrategyDeclared is recorded (R-PDQ-10, PDQ Ex9)."""
    run(game, DeclareStrategy(character="Neo", strategy="full-attack"))
    events = run(
        game,
        Attack(attacker="Neo", qualities=("Cutlass",), targets=("Ninja",), full_attack=True),
        3,
        3,
    )
    assert [] == [e for e in events if isinstance(e, ev.StrategyDeclared)]
    (attack,) = [e for e in events if isinstance(e, ev.ConflictAttackRolled)]
    assert [ShiftSource.FULL_ATTACK] == [s.source for s in attack.roll.shifts]
    assert (Outcome.HIT, 3, 3 + 1) == (attack.outcome, attack.margin, attack.ranks)


def test_the_full_defense_penalty_falls_on_the_next_attack(game: Engine) -> None:
    """The Boss declared Full Defense: his next attack is downshifted (Good to Average, +0) and
    the penalty is consumed; Neo's defence is not shifted (R-PDQ-10, PDQ-A10)."""
    run(game, DeclareStrategy(character="Boss", strategy="full-defense"))
    events = run(game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Judo",)), 4, 3)
    (attack,) = of(events, ev.ConflictAttackRolled)
    assert [Shift(source=ShiftSource.FULL_DEFENSE_PENALTY, steps=-1)] == list(attack.roll.shifts)
    assert (1, 0, 7, 7, Outcome.TIE) == (
        attack.roll.effective,
        attack.roll.modifier,
        attack.roll.total,
        attack.setup.tn,
        attack.outcome,
    )
    assert [ev.FullDefensePenaltyConsumed()] == of(events, ev.FullDefensePenaltyConsumed)
    assert not who(game, "Boss").defense_penalty


def test_a_full_attacker_defends_one_rank_lower(game: Engine) -> None:
    """Neo played Full Attack: until his next turn his defence is downshifted, Good Cutlass
    defending at Average (TN 7), and the shift is recorded on the attack (PDQ-A9)."""
    run(game, DeclareStrategy(character="Neo", strategy="full-attack"))
    events = run(
        game, Attack(attacker="Boss", qualities=("Brawler",), targets=("Neo:Cutlass",)), 3, 3
    )
    (attack,) = of(events, ev.ConflictAttackRolled)
    assert (
        (Shift(source=ShiftSource.FULL_ATTACK_PENALTY, steps=-1),),
        7,
        Outcome.HIT,
        1,
    ) == (attack.setup.defender_shifts, attack.setup.tn, attack.outcome, attack.ranks)
