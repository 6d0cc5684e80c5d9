"""Contested challenges (contest.py, R-TC-04, TC-A5, TC-A6, TC-A22): the lower step wins by
aptitude unless the other side bids, who rolls and what each side pays, and the sides as the GM
names them."""

from __future__ import annotations

import pytest

from domain.lifecycle import StartSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.commands import (
    CreateHero,
    CreateNpc,
    RuleAbilityStep,
    RuleChallenge,
    SettleContest,
    UseMotivation,
)
from domain.rulesets.the_code.tables import ContestBy, MotivationUse, NeedReason
from engine import Engine
from tests.conftest import refused
from tests.golden.test_the_code import HAWK, MITCH, of, run, sheet, table
from tests.unit.the_code.conftest import KESTREL, rivals


def duel(step: int, opponent_step: int, dice: int = 0, opponent_dice: int = 0) -> SettleContest:
    return SettleContest(
        task="race to the roof",
        hero=HAWK,
        step=step,
        dice=dice,
        opponent=KESTREL,
        opponent_step=opponent_step,
        opponent_dice=opponent_dice,
    )


def motivations(engine: Engine) -> tuple[int, int]:
    return sheet(engine).motivation, sheet(engine, KESTREL).motivation


@pytest.mark.parametrize(
    ("step", "opponent_step", "winner", "by"),
    [
        pytest.param(1, 3, HAWK, ContestBy.APTITUDE, id="R-TC-04-1-hero-higher-aptitude"),
        pytest.param(3, 1, KESTREL, ContestBy.APTITUDE, id="R-TC-04-1-opponent-higher-aptitude"),
        pytest.param(2, 2, None, ContestBy.STALEMATE, id="R-TC-04-1-same-step-no-dice"),
    ],
)
def test_without_dice_the_lower_step_wins_or_nobody(
    engine: Engine, step: int, opponent_step: int, winner: str | None, by: ContestBy
) -> None:
    """Nobody rolls: the lower step number wins by aptitude, whichever side it is; on the same
    step it is a stalemate. No dice, nothing spent; the side further down is shown the x(Δ+1)
    it would have paid to bid (R-TC-04 steps 1 and 2)."""
    rivals(engine)
    result = engine.execute("Lab", duel(step, opponent_step))
    (contest,) = of(tc.ContestResolved, result.events)
    assert (winner, by, ()) == (contest.winner, contest.by, result.dice)
    multipliers = (max(0, step - opponent_step) + 1, max(0, opponent_step - step) + 1)
    assert [(step, multipliers[0], 0, 0), (opponent_step, multipliers[1], 0, 0)] == [
        (s.step, s.multiplier, s.upfront, s.cost) for s in contest.sides
    ]
    assert [] == of(tc.MotivationSpent, result.events)
    assert (4, 4) == motivations(engine)


def resolved(engine: Engine, command: SettleContest, *faces: int) -> tc.ContestResolved:
    (contest,) = of(tc.ContestResolved, run(engine, command, *faces))
    return contest


@pytest.mark.parametrize(
    ("faces", "winner", "cost"),
    [
        pytest.param((7, 3), KESTREL, 2, id="R-TC-04-4-opponent-rolls-alone-and-wins"),
        pytest.param((1, 1), HAWK, 0, id="R-TC-04-4-opponent-rolls-alone-highest-1"),
    ],
)
def test_the_opponent_rolling_alone_fails_only_on_a_highest_one(
    engine: Engine, faces: tuple[int, int], winner: str, cost: int
) -> None:
    """Same step, only Kestrel rolls: she wins unless her highest die is 1, and every winning die
    (all of them, against no dice) costs her a point; the Hawk pays nothing (R-TC-04 steps 3,
    4 and 6)."""
    rivals(engine)
    contest = resolved(engine, duel(2, 2, opponent_dice=2), *faces)
    assert (winner, ContestBy.UNOPPOSED_ROLL) == (contest.winner, contest.by)
    hawk, kestrel = contest.sides
    assert ((), 0) == (hawk.dice, hawk.cost)
    assert (faces, faces if cost else (), cost) == (kestrel.dice, kestrel.winning, kestrel.cost)
    assert (4, 4 - cost) == motivations(engine)


def test_the_hero_rolling_alone_pays_for_his_winning_dice(engine: Engine) -> None:
    """Same step, only the Hawk rolls 8, 2 and wins: both dice are winning dice, so he pays 2,
    spent as contest dice, not as a bid (R-TC-04 step 6)."""
    rivals(engine)
    events = run(engine, duel(2, 2, dice=2), 8, 2)
    (contest,) = of(tc.ContestResolved, events)
    assert (HAWK, (8, 2), 2) == (contest.winner, contest.sides[0].winning, contest.sides[0].cost)
    spent = of(tc.MotivationSpent, events)
    assert [(2, MotivationUse.CONTEST, 4, 2)] == [
        (e.amount, e.use, e.before, e.after) for e in spent
    ]


@pytest.mark.parametrize(
    ("face", "winner"),
    [
        pytest.param(1, HAWK, id="R-TC-04-2-opponent-bids-and-rolls-1"),
        pytest.param(6, KESTREL, id="R-TC-04-2-opponent-bids-and-rolls-6"),
    ],
)
def test_the_opponent_on_the_lower_step_pays_the_bid_up_front(
    engine: Engine, face: int, winner: str
) -> None:
    """Kestrel two steps down bids one die at x3: she pays 3 up front, win or lose, and nothing
    more for a winning die; the Hawk, who does not roll, pays nothing (R-TC-04 step 2, TC-A5)."""
    rivals(engine)
    events = run(engine, duel(1, 3, opponent_dice=1), face)
    (contest,) = of(tc.ContestResolved, events)
    assert (winner, ContestBy.UNOPPOSED_ROLL) == (contest.winner, contest.by)
    assert [(1, 0, 0), (3, 3, 3)] == [(s.multiplier, s.upfront, s.cost) for s in contest.sides]
    spent = of(tc.MotivationSpent, events)
    assert [(3, MotivationUse.APTITUDE_BID, 4, 1)] == [
        (e.amount, e.use, e.before, e.after) for e in spent
    ]
    assert (4, 1) == motivations(engine)


def test_a_bid_against_a_rolling_opponent_still_costs_only_the_bid(engine: Engine) -> None:
    """The Hawk one step down bids a die (x2) and Kestrel rolls one: 9 beats 3, and the Hawk's
    winning 9 costs nothing on top of the 2 he paid; Kestrel's losing die costs nothing (TC-A5)."""
    rivals(engine)
    contest = resolved(engine, duel(3, 2, dice=1, opponent_dice=1), 9, 3)
    assert (HAWK, ContestBy.MOTIVATION) == (contest.winner, contest.by)
    assert [(2, 2, (9,)), (0, 0, ())] == [(s.upfront, s.cost, s.winning) for s in contest.sides]
    assert (2, 4) == motivations(engine)


@pytest.mark.parametrize(
    ("command", "name"),
    [
        pytest.param(duel(1, 3, dice=1), HAWK, id="R-TC-04-hero-higher-step-rolls-alone"),
        pytest.param(duel(3, 1, opponent_dice=1), KESTREL, id="R-TC-04-opponent-higher-step"),
    ],
)
def test_the_higher_step_need_not_roll_alone(
    engine: Engine, command: SettleContest, name: str
) -> None:
    """The side with the better step wins by aptitude unless the other bids: rolling alone is
    refused, naming it (R-TC-04, TC-A6)."""
    rivals(engine)
    error = refused(engine, command, errors.HigherAptitudeNeedNotRoll, faces=(9,))
    assert {"name": name} == error.data


def test_the_higher_step_may_roll_against_a_bid(engine: Engine) -> None:
    """Against Kestrel's bid (one die, x2) the Hawk on the better step rolls at x1 and pays only
    for the dice that win (R-TC-04 step 3)."""
    rivals(engine)
    contest = resolved(engine, duel(1, 2, dice=2, opponent_dice=1), 8, 6, 5)
    assert (HAWK, (8, 6)) == (contest.winner, contest.sides[0].winning)
    assert [(1, 0, 2), (2, 2, 2)] == [(s.multiplier, s.upfront, s.cost) for s in contest.sides]
    assert (2, 2) == motivations(engine)


def test_a_negative_number_of_dice_is_refused(engine: Engine) -> None:
    """DiceOutOfRange: nobody rolls fewer than no dice (R-TC-04)."""
    rivals(engine)
    error = refused(engine, duel(2, 2, dice=-1), errors.DiceOutOfRange)
    assert {"name": HAWK, "dice": -1, "current": 4} == error.data


def test_a_bid_beyond_the_motivation_held_names_its_cost(engine: Engine) -> None:
    """Three dice one step down cost 6 of Kestrel's 4 points: InsufficientMotivation with the
    cost, the dice, the multiplier and what she holds (R-TC-04 step 2, G-TC-06)."""
    rivals(engine)
    error = refused(
        engine, duel(2, 3, opponent_dice=3), errors.InsufficientMotivation, faces=(1, 1, 1)
    )
    assert {
        "name": KESTREL,
        "cost": 6,
        "dice": 3,
        "multiplier": 2,
        "current": 4,
        "why": "3 dice x2",
        "rule": "Contested Challenges",
    } == error.data


def test_a_bid_of_exactly_the_motivation_held_is_accepted(engine: Engine) -> None:
    """Two dice one step down cost 4: exactly Kestrel's Motivation, so she may bid them."""
    rivals(engine)
    contest = resolved(engine, duel(2, 3, opponent_dice=2), 9, 9)
    assert (KESTREL, 4) == (contest.winner, contest.sides[1].cost)
    assert (4, 0) == motivations(engine)


def test_a_hero_at_motivation_zero_cannot_roll_in_a_contest(engine: Engine) -> None:
    """At Motivation 0 even one die at x1 is more than is held (R-TC-04, TC-A23)."""
    rivals(engine)
    run(engine, RuleChallenge(hero=HAWK, task="r", needs_motivation=NeedReason.BAD_CONDITIONS))
    run(engine, UseMotivation(hero=HAWK, dice=4), 6, 6, 6, 6)
    error = refused(engine, duel(2, 2, dice=1), errors.InsufficientMotivation, faces=(9,))
    assert (1, 0) == (error.data["cost"], error.data["current"])


def test_tied_dice_all_go_by_house_rule_in_a_contest(engine: Engine) -> None:
    """tieRemoval=all: 9,9,4 against 9,7 removes both of the Hawk's 9s and Kestrel's 9, so her 7
    beats his 4; pairwise (the default) his second 9 would win (TC-A4)."""
    engine.create_campaign("Lab", "the-code", house_rules={"tieRemoval": "all"})
    engine.execute("Lab", StartSession())
    for name, player in ((HAWK, "dana"), (KESTREL, "eli")):
        engine.execute(
            "Lab",
            CreateHero(**{**MITCH, "code_name": name, "player": player, "objective_score": 8}),
        )
    contest = resolved(engine, duel(2, 2, dice=3, opponent_dice=2), 9, 9, 4, 9, 7)
    assert (KESTREL, (9,)) == (contest.winner, contest.ties)
    assert [((9, 9), ()), ((9,), (7,))] == [(s.removed, s.winning) for s in contest.sides]
    assert (2, 2) == motivations(engine)


def test_a_weakness_puts_a_side_on_step_five(engine: Engine) -> None:
    """Step 5 is a step of the Ability Sequence: the hero whose Weakness applies may still bid,
    one die at x2 against step 4 (TC-A22, R-TC-04)."""
    rivals(engine)
    run(engine, RuleAbilityStep(character=HAWK, task="t", weakness=True))
    command = SettleContest(task="t", hero=HAWK, dice=1, opponent=KESTREL, opponent_step=4)
    contest = resolved(engine, command, 8)
    assert (HAWK, [(5, 2, 2), (4, 1, 0)]) == (
        contest.winner,
        [(s.step, s.multiplier, s.cost) for s in contest.sides],
    )
    given = SettleContest(task="u", hero=HAWK, step=5, opponent=KESTREL, opponent_step=5)
    assert ContestBy.STALEMATE == resolved(engine, given).by


def test_both_sides_are_recorded_with_their_characters(engine: Engine) -> None:
    """The contest names each side's character, so each side's spend is traced (R-TC-04)."""
    rivals(engine)
    contest = resolved(engine, duel(2, 2, dice=1, opponent_dice=1), 4, 6)
    assert [sheet(engine).id, sheet(engine, KESTREL).id] == [s.character_id for s in contest.sides]
    assert [4, 4] == [s.motivation for s in contest.sides]


def test_the_opponent_is_named_as_the_campaign_knows_it(engine: Engine) -> None:
    """Named by the player (eli), Kestrel is recorded and wins under her own name."""
    rivals(engine)
    command = SettleContest(task="t", hero=HAWK, step=3, opponent="eli", opponent_step=1)
    assert (KESTREL, KESTREL) == (
        resolved(engine, command).winner,
        resolved(engine, command).sides[1].name,
    )


def test_an_opponent_without_a_step_is_named_as_the_campaign_knows_it(engine: Engine) -> None:
    """StepsNotRuled names Kestrel, though the GM named her by her player (R-TC-04)."""
    rivals(engine)
    command = SettleContest(task="t", hero=HAWK, step=2, opponent="eli")
    assert KESTREL == refused(engine, command, errors.StepsNotRuled).data["names"]


def test_a_nameless_passer_by_is_the_opponent(engine: Engine) -> None:
    """A passer-by given no name is recorded as "the opponent" (R-TC-04)."""
    table(engine)
    command = SettleContest(task="t", hero=HAWK, step=3, opponent=" ", opponent_step=1, npc=True)
    contest = resolved(engine, command)
    assert ("the opponent", "the opponent") == (contest.winner, contest.sides[1].name)


def test_a_passer_by_may_share_a_name_with_no_npc(engine: Engine) -> None:
    """A passer-by named like a hero (not an NPC of the campaign) is still a passer-by."""
    rivals(engine)
    passer = SettleContest(task="t", hero=HAWK, step=2, opponent=KESTREL, opponent_step=1, npc=True)
    contest = resolved(engine, passer)
    assert (KESTREL, None) == (contest.winner, contest.sides[1].character_id)


def test_a_campaign_npc_named_as_a_passer_by_is_refused_by_name(engine: Engine) -> None:
    """NpcOnRoster names the NPC whose Motivation the campaign tracks (R-TC-04)."""
    table(engine)
    run(engine, CreateNpc(character="Mister Grin", motivation=2))
    passer = SettleContest(
        task="t", hero=HAWK, step=2, opponent=" Mister Grin ", opponent_step=2, npc=True
    )
    error = refused(engine, passer, errors.NpcOnRoster)
    assert {"name": "Mister Grin"} == error.data


def test_a_passer_by_with_motivation_rolls_against_the_hero(engine: Engine) -> None:
    """A passer-by the GM gives Motivation 3 may roll: 7 beats the Hawk's 5, its one winning die
    is recorded, and nothing is spent from an untracked NPC (R-TC-04 steps 3 and 5)."""
    table(engine)
    command = SettleContest(
        task="t",
        hero=HAWK,
        step=2,
        dice=1,
        opponent="a thug",
        opponent_step=2,
        opponent_dice=2,
        npc=True,
        npc_motivation=3,
    )
    events = run(engine, command, 5, 7, 2)
    (contest,) = of(tc.ContestResolved, events)
    thug = contest.sides[1]
    assert ("a thug", ContestBy.MOTIVATION) == (contest.winner, contest.by)
    assert (None, 3, (7, 2), (7,), 1) == (
        thug.character_id,
        thug.motivation,
        thug.dice,
        thug.winning,
        thug.cost,
    )
    assert [] == of(tc.MotivationSpent, events)
    assert 3 == sheet(engine).motivation


def test_a_passer_by_without_motivation_rolling_no_dice_below_zero(engine: Engine) -> None:
    """DiceOutOfRange for a passer-by with no Motivation score counts what it holds as 0."""
    table(engine)
    command = SettleContest(
        task="t", hero=HAWK, step=2, opponent="a thug", opponent_step=2, npc=True, opponent_dice=-1
    )
    error = refused(engine, command, errors.DiceOutOfRange)
    assert {"name": "a thug", "dice": -1, "current": 0} == error.data
