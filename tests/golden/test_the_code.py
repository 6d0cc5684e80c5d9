"""Golden tests for The Code: every case G-TC-01..G-TC-31 of DIGEST §4.4, with the digest's dice.

Mitch is the Hawk: a private eye and ex-cop (Profession), Weakness "bum leg", Objective "catch
criminals" at 6 (Motivation 3), MO "handcuff to the phone booth", a secret identity. All dice
are d10s (TC-A1). Each case runs through the in-memory engine in campaign 'Lab', so the recorded
events are what is checked; refusals also prove that nothing was appended.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.audience import GMS
from domain.commands import Command
from domain.events import Event, Role
from domain.lifecycle import StartSession
from domain.rulesets.the_code import errors
from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
    AlterObjective,
    Blab,
    BuyMotivation,
    CreateHero,
    FollowMo,
    LowerExposure,
    RollExposure,
    RollReaction,
    RuleChallenge,
    RuleConduct,
    SettleContest,
    SolveProblem,
    TakeDaysOff,
    UseMotivation,
)
from domain.rulesets.the_code.rolls import bid_cost
from domain.rulesets.the_code.tables import (
    ContestBy,
    Detail,
    DieRole,
    ExposureCause,
    NeedReason,
    RevealCause,
    Scale,
    TaskOutcome,
)
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import refused

HAWK = "The Hawk"
MITCH: dict[str, Any] = {
    "player": "dana",
    "code_name": HAWK,
    "secret_identity": "Mitch",
    "physical_description": "tall, trench coat, walks with a limp",
    "profession": "private eye (ex-cop)",
    "advantages": ("keen eyes",),
    "weakness": "bum leg",
    "objective": "catch criminals",
    "objective_score": 6,
    "modus_operandi": "handcuff to the phone booth",
}


def table(engine: Engine, **hero: Any) -> TcHero:
    """Campaign 'Lab' in session 1 with Mitch, the Hawk (fields overridden by ``hero``)."""
    engine.create_campaign("Lab", "the-code", members={"Sam": Role.GM})
    engine.execute("Lab", StartSession())
    engine.execute("Lab", CreateHero(**{**MITCH, **hero}))
    return sheet(engine)


def sheet(engine: Engine, who: str = HAWK) -> TcHero:
    state: TcHero = engine.character("Lab", who, audience=GMS)
    return state


def run(engine: Engine, command: Command, *faces: int) -> tuple[Event, ...]:
    return engine.execute("Lab", command, dice=DiceSpec(faces=faces)).events


def of(kind: type[Any], events: tuple[Event, ...]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def spend_motivation(engine: Engine, points: int) -> None:
    """Bring the Hawk's Motivation down by ``points``: a slippery task, every die a 6."""
    run(
        engine,
        RuleChallenge(hero=HAWK, task="slippery roof", needs_motivation=NeedReason.BAD_CONDITIONS),
    )
    run(engine, UseMotivation(hero=HAWK, dice=points), *([6] * points))


# --- Unopposed challenges and Motivation ----------------------------------------------------------


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-01-fire-escape-automatic")])
def test_an_ordinary_climb_succeeds_without_a_roll(engine: Engine, _case: None) -> None:
    """A normal unopposed task succeeds automatically, with no dice."""
    table(engine)
    result = engine.execute("Lab", RuleChallenge(hero=HAWK, task="scale the fire escape"))
    assert () == result.dice
    assert [TaskOutcome.SUCCEEDED] == [
        e.outcome for e in of(tc.UnopposedActionResolved, result.events)
    ]


@pytest.mark.parametrize(
    ("reason", "weakness", "flagged"),
    [
        pytest.param(NeedReason.BAD_CONDITIONS, False, False, id="G-TC-02-slippery-with-rain"),
        pytest.param(None, True, True, id="G-TC-02-climb-quickly-weakness"),
    ],
)
def test_bad_conditions_or_the_weakness_require_motivation(
    engine: Engine, reason: NeedReason | None, weakness: bool, flagged: bool
) -> None:
    """Rain or haste (the Weakness) make the climb a Motivation task; haste flags the Weakness."""
    table(engine)
    command = RuleChallenge(
        hero=HAWK, task="scale the fire escape", needs_motivation=reason, weakness=weakness
    )
    events = run(engine, command)
    assert 1 == len(of(tc.MotivationRequired, events))
    assert flagged == bool(of(tc.WeaknessCameIntoPlay, events))
    assert "scale the fire escape" == sheet(engine).pending_task


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-03-roof-jump-6-7")])
def test_mitch_jumps_the_gap_for_two_points(engine: Engine, _case: None) -> None:
    """Mitch rolls 6 and 7: a success, both dice above 5 cost a point: Motivation 1/3."""
    table(engine)
    run(engine, RuleChallenge(hero=HAWK, task="jump to the next roof", weakness=True))
    events = run(engine, UseMotivation(hero=HAWK, dice=2), 6, 7)
    rolled = of(tc.MotivationRolled, events)[0]
    assert (True, 2) == (rolled.success, rolled.cost)
    assert (1, 3) == (sheet(engine).motivation, sheet(engine).max_motivation)
    assert sheet(engine).flags_for(1).weakness


@pytest.mark.parametrize(
    ("faces", "success", "cost"),
    [
        pytest.param((5, 3), True, 0, id="G-TC-04-a-five-succeeds-free"),
        pytest.param((4, 2), False, 0, id="G-TC-04-no-five-fails"),
        pytest.param((9, 2), True, 1, id="G-TC-04-a-nine-costs-one"),
    ],
)
def test_uncontested_motivation_threshold_and_cost(
    engine: Engine, faces: tuple[int, int], success: bool, cost: int
) -> None:
    """Any die of 5+ succeeds; only dice above 5 cost a point (TC-A2)."""
    table(engine)
    run(
        engine,
        RuleChallenge(hero=HAWK, task="vault", needs_motivation=NeedReason.SPECIFIC_SKILL_MISSING),
    )
    rolled = of(tc.MotivationRolled, run(engine, UseMotivation(hero=HAWK, dice=2), *faces))[0]
    assert (success, cost) == (rolled.success, rolled.cost)
    assert 3 - cost == sheet(engine).motivation


# --- Contested challenges -------------------------------------------------------------------------


def _spot(dice: int) -> SettleContest:
    return SettleContest(
        task="spot the criminal",
        hero=HAWK,
        step=2,
        dice=dice,
        opponent="the criminal",
        opponent_step=1,
        npc=True,
    )


@pytest.mark.parametrize(
    ("face", "winner"),
    [
        pytest.param(1, "the criminal", id="G-TC-05-die-1-hawk-fails"),
        pytest.param(7, HAWK, id="G-TC-05-die-7-hawk-spots-him"),
    ],
)
def test_the_hawk_bids_one_die_at_twice_the_cost(engine: Engine, face: int, winner: str) -> None:
    """One step down, the Hawk pays 2 for one die and fails only on a 1 (no-Motivation foe)."""
    table(engine)
    events = run(engine, _spot(1), face)
    contest = of(tc.ContestResolved, events)[0]
    hawk = contest.sides[0]
    assert (winner, ContestBy.UNOPPOSED_ROLL) == (contest.winner, contest.by)
    assert (2, 2, 2) == (hawk.multiplier, hawk.upfront, hawk.cost)
    assert 1 == sheet(engine).motivation


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-06-four-dice-cost-eight")])
def test_bidding_more_motivation_than_held_is_refused(engine: Engine, _case: None) -> None:
    """Four dice one step down cost 8 points; Mitch has 3, so the bid is refused."""
    table(engine)
    error = refused(engine, _spot(4), errors.InsufficientMotivation)
    assert 8 == error.data["cost"]


@pytest.mark.parametrize(
    ("delta", "expected"),
    [pytest.param(d, m, id=f"G-TC-07-{d}-steps-x{m}") for d, m in ((1, 2), (2, 3), (3, 4), (4, 5))],
)
def test_bid_cost_grows_with_the_distance(delta: int, expected: int) -> None:
    """One step costs x2, two x3, three x4, four x5 per die rolled."""
    assert [expected * n for n in (1, 2, 3)] == [bid_cost(n, 1 + delta, 1) for n in (1, 2, 3)]


def _rivals(engine: Engine) -> None:
    """The Hawk and Kestrel, both at Motivation 4 (Objective 8)."""
    table(engine, objective_score=8)
    engine.execute(
        "Lab",
        CreateHero(**{**MITCH, "code_name": "Kestrel", "player": "eli", "objective_score": 8}),
    )


def _duel(a: int, b: int) -> SettleContest:
    return SettleContest(
        task="arm-wrestle",
        hero=HAWK,
        step=3,
        dice=a,
        opponent="Kestrel",
        opponent_step=3,
        opponent_dice=b,
    )


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-08-tied-nines-removed")])
def test_tied_dice_are_removed_and_cost_their_owners(engine: Engine, _case: None) -> None:
    """9,4 vs 9,7,2: the 9s go (a point each), 7 beats 4 and costs its owner: A -1, B -2."""
    _rivals(engine)
    contest = of(tc.ContestResolved, run(engine, _duel(2, 3), 9, 4, 9, 7, 2))[0]
    assert ("Kestrel", (9,)) == (contest.winner, contest.ties)
    assert ((9,), (7,)) == (contest.sides[1].removed, contest.sides[1].winning)
    assert (3, 2) == (sheet(engine).motivation, sheet(engine, "Kestrel").motivation)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-09-eight-vs-eight-stalemate")])
def test_all_dice_tied_away_is_a_stalemate(engine: Engine, _case: None) -> None:
    """8 vs 8: both dice are removed, nobody wins, each pays a point."""
    _rivals(engine)
    contest = of(tc.ContestResolved, run(engine, _duel(1, 1), 8, 8))[0]
    assert (None, ContestBy.STALEMATE) == (contest.winner, contest.by)
    assert (3, 3) == (sheet(engine).motivation, sheet(engine, "Kestrel").motivation)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-10-step-1-beats-step-3")])
def test_the_better_step_wins_without_dice(engine: Engine, _case: None) -> None:
    """Steps 1 and 3, nobody uses Motivation: step 1 wins by aptitude, no dice rolled."""
    _rivals(engine)
    command = SettleContest(
        task="tail a car", hero=HAWK, step=1, opponent="Kestrel", opponent_step=3
    )
    result = engine.execute("Lab", command)
    contest = of(tc.ContestResolved, result.events)[0]
    assert (HAWK, ContestBy.APTITUDE, ()) == (contest.winner, contest.by, result.dice)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-31-three-ones-fail")])
def test_a_highest_die_of_one_fails_against_no_motivation(engine: Engine, _case: None) -> None:
    """Same step against a foe with no Motivation score: 1,1,1 fails."""
    table(engine)
    command = SettleContest(
        task="shove", hero=HAWK, step=2, dice=3, opponent="a thug", opponent_step=2, npc=True
    )
    contest = of(tc.ContestResolved, run(engine, command, 1, 1, 1))[0]
    assert "a thug" == contest.winner


# --- The Objective and Reward Points --------------------------------------------------------------


def _objective_events(engine: Engine, *faces: int) -> tuple[Event, ...]:
    return run(engine, AccomplishObjective(hero=HAWK), *faces)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-11-four-dice-18-rp")])
def test_mitch_accomplishes_his_objective(engine: Engine, _case: None) -> None:
    """1/3, MO followed: 6,8,3 + MO 7, three successes: 18 RP, 3/3; the odd MO die costs nothing."""
    table(engine)
    spend_motivation(engine, 2)
    run(engine, FollowMo(hero=HAWK))
    events = _objective_events(engine, 6, 8, 3, 7, 1, 4, 7)
    rolled = of(tc.ObjectiveRewardRolled, events)[0]
    roles = [DieRole.BASE] * 3 + [DieRole.MO_BONUS]
    assert (roles, 3) == ([d.role for d in rolled.dice], rolled.successes)
    assert [18] == [e.amount for e in of(tc.RewardPointsEarned, events)]
    assert [] == of(tc.ExposureChanged, events)
    hawk = sheet(engine)
    assert (18, 3, 0) == (hawk.reward_points, hawk.motivation, hawk.exposure)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-12-weakness-too-five-dice")])
def test_the_weakness_adds_a_fifth_die(engine: Engine, _case: None) -> None:
    """Had the bum leg come into play this session, Mitch would roll 5 dice."""
    table(engine)
    run(engine, RuleChallenge(hero=HAWK, task="jump", weakness=True))
    run(engine, UseMotivation(hero=HAWK, dice=2), 6, 7)
    run(engine, FollowMo(hero=HAWK))
    rolled = of(tc.ObjectiveRewardRolled, _objective_events(engine, 6, 8, 3, 2, 7, 1, 4, 7))[0]
    assert 5 == len(rolled.dice)
    assert [DieRole.WEAKNESS_BONUS, DieRole.MO_BONUS] == [d.role for d in rolled.dice[3:]]


@pytest.mark.parametrize(
    "scale",
    [
        pytest.param(Scale.MINOR, id="G-TC-13-petty-crime-needs-25"),
        pytest.param(Scale.GENERAL, id="G-TC-13-violent-offenders-need-50"),
    ],
)
def test_eighteen_points_are_not_enough(engine: Engine, scale: Scale) -> None:
    """Mitch is almost there: with 18 RP neither a minor nor a general problem can be solved."""
    table(engine, reward_points=18)
    refused(
        engine,
        SolveProblem(hero=HAWK, description="petty crime", scale=scale),
        errors.InsufficientRewardPoints,
    )


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-14-minor-problem-30-rp")])
def test_a_minor_problem_raises_exposure_and_popularity(engine: Engine, _case: None) -> None:
    """30 RP: 5 left; Exposure 2 reveals the description; Popularity 4, then 4 dice: one even, 5."""
    table(engine, reward_points=30, exposure=1)
    events = run(
        engine, SolveProblem(hero=HAWK, description="the park", scale=Scale.MINOR), 3, 5, 9, 2
    )
    revealed = of(tc.DetailRevealed, events)
    assert [(Detail.PHYSICAL_DESCRIPTION, 2)] == [(r.detail, r.level) for r in revealed]
    assert (3, 5, 9, 2) == of(tc.PopularityRolled, events)[0].dice
    hawk = sheet(engine)
    assert (5, 2, 5) == (hawk.reward_points, hawk.exposure, hawk.popularity)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-15-buy-4-then-7")])
def test_buying_motivation_even_raises_the_maximum(engine: Engine, _case: None) -> None:
    """50 RP: a 4 raises the maximum to 4; a 7 gains nothing; 0 RP left."""
    table(engine, reward_points=50)
    run(engine, BuyMotivation(hero=HAWK), 4)
    run(engine, BuyMotivation(hero=HAWK), 7)
    hawk = sheet(engine)
    assert (4, 0) == (hawk.max_motivation, hawk.reward_points)
    refused(engine, BuyMotivation(hero=HAWK), errors.InsufficientRewardPoints, faces=(2,))


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        pytest.param(8, 4, id="G-TC-16-objective-8-max-4"),
        pytest.param(4, 2, id="G-TC-16-objective-4-max-2"),
    ],
)
def test_altering_the_objective_resets_motivation(
    engine: Engine, score: int, expected: int
) -> None:
    """Max 4 (3 + 1 bought): max and current become half the new score; the bought point goes."""
    table(engine, reward_points=25)
    run(engine, BuyMotivation(hero=HAWK), 4)
    events = run(engine, AlterObjective(hero=HAWK, score=score))
    assert [1] == [e.bonus_lost for e in of(tc.MotivationReset, events)]
    hawk = sheet(engine)
    assert (expected, expected, 0) == (hawk.max_motivation, hawk.motivation, hawk.bonus_max)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-27-popularity-3-to-4")])
def test_popularity_rises_on_an_even(engine: Engine, _case: None) -> None:
    """After the Objective, Popularity 3 rolls 1,4,7: one even, Popularity 4."""
    table(engine)
    events = _objective_events(engine, 1, 1, 1, 1, 4, 7)
    assert [(1, 4, 7)] == [e.dice for e in of(tc.PopularityRolled, events)]
    assert 4 == sheet(engine).popularity


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-28-violent-no-even-drops")])
def test_a_violent_hero_loses_popularity_on_no_even(engine: Engine, _case: None) -> None:
    """A violent hero with Popularity 3 rolls 1,5,7: no even, Popularity 2."""
    table(engine)
    run(engine, RuleConduct(hero=HAWK, violent=True, secretive=False))
    _objective_events(engine, 1, 1, 1, 1, 5, 7)
    assert 2 == sheet(engine).popularity


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-29-major-problem-reveals-two")])
def test_a_major_problem_reveals_one_detail_per_level_above_one(
    engine: Engine, _case: None
) -> None:
    """Exposure 0 -> 3: levels 2 and 3 reveal the description and the code name; 1 reveals none."""
    table(engine, reward_points=100)
    events = run(
        engine, SolveProblem(hero=HAWK, description="the docks", scale=Scale.MAJOR), *([1] * 6)
    )
    revealed = [(r.detail, r.level) for r in of(tc.DetailRevealed, events)]
    assert [(Detail.PHYSICAL_DESCRIPTION, 2), (Detail.CODE_NAME, 3)] == revealed


@pytest.mark.parametrize(
    ("spent", "expected"),
    [
        pytest.param(2, 2, id="G-TC-30-one-of-three-to-two"),
        pytest.param(0, 3, id="G-TC-30-full-stays-full"),
    ],
)
def test_a_day_off_returns_one_point(engine: Engine, spent: int, expected: int) -> None:
    """A day off returns one point of Motivation, never above the maximum."""
    table(engine)
    if spent:
        spend_motivation(engine, spent)
    run(engine, TakeDaysOff(hero=HAWK, days=1))
    assert expected == sheet(engine).motivation


# --- Exposure -------------------------------------------------------------------------------------


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-17-bunch-of-evens-appearance")])
def test_mitchs_exposure_jumps_to_five_and_the_cops_get_a_sketch(
    engine: Engine, _case: None
) -> None:
    """Exposure 4 + MO die: 2,4,6,8,1 -> 5; the GM reveals the Appearance (ladder: Objective)."""
    table(engine, exposure=4, reveal=("code-name", "modus-operandi", "advantage"))
    run(engine, FollowMo(hero=HAWK))
    command = RollExposure(hero=HAWK, reveal=("appearance",))
    events = run(engine, command, 2, 4, 6, 8, 1)
    rolled = of(tc.ExposureRolled, events)[0]
    assert (5, True, 1) == (len(rolled.dice), rolled.mo_die_included, rolled.gain)
    revealed = of(tc.DetailRevealed, events)[0]
    expected = (Detail.PHYSICAL_DESCRIPTION, 5, RevealCause.SESSION_ROLL, True, Detail.OBJECTIVE)
    assert expected == (
        revealed.detail,
        revealed.level,
        revealed.cause,
        revealed.gm_override,
        revealed.suggested,
    )
    assert MITCH["physical_description"] == revealed.value
    assert 5 == sheet(engine).exposure


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-18-no-even-drops-to-2")])
def test_no_exposure_all_session_drops_one(engine: Engine, _case: None) -> None:
    """Exposure 3, no MO: 1,3,5 has no even; nothing gained all session: 2; nothing unrevealed."""
    table(engine, exposure=3)
    events = run(engine, RollExposure(hero=HAWK), 1, 3, 5)
    assert [ExposureCause.NO_EXPOSURE_GAINED] == [e.cause for e in of(tc.ExposureChanged, events)]
    hawk = sheet(engine)
    assert (2, 3) == (hawk.exposure, hawk.peak)
    assert [Detail.PHYSICAL_DESCRIPTION, Detail.CODE_NAME] == [r.detail for r in hawk.revealed]


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-19-public-identity-gains-2")])
def test_a_public_identity_gains_two(engine: Engine, _case: None) -> None:
    """Public identity at Exposure 2: 3,4 has an even: +2, Exposure 4."""
    table(engine, exposure=2, public_identity=True)
    run(engine, RollExposure(hero=HAWK), 3, 4)
    assert 4 == sheet(engine).exposure


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-20-exposure-0-no-dice")])
def test_exposure_zero_rolls_nothing_and_stays(engine: Engine, _case: None) -> None:
    """Exposure 0 and no MO: no dice, no gain, and no drop below 0."""
    table(engine)
    events = run(engine, RollExposure(hero=HAWK))
    assert [()] == [e.dice for e in of(tc.ExposureRolled, events)]
    assert ([], 0) == (of(tc.ExposureChanged, events), sheet(engine).exposure)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-21-session-off-reduces")])
def test_a_session_off_rolls_nothing_and_may_reduce(engine: Engine, _case: None) -> None:
    """A session taken off at Exposure 4: no roll, Exposure 3."""
    table(engine, exposure=4)
    result = engine.execute("Lab", RollExposure(hero=HAWK, off=True, reduce=True))
    assert ((), 3) == (result.dice, sheet(engine).exposure)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-22-lower-exposure")])
def test_popularity_buys_lower_exposure(engine: Engine, _case: None) -> None:
    """Popularity 4, Exposure 5: Popularity 3, Exposure 4; what is public stays public."""
    table(engine, exposure=5, popularity=4)
    before = sheet(engine).revealed
    run(engine, LowerExposure(hero=HAWK))
    hawk = sheet(engine)
    assert (3, 4, before) == (hawk.popularity, hawk.exposure, hawk.revealed)


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-23-blab-profession")])
def test_a_blab_reveals_the_detail_without_a_ladder_reveal(engine: Engine, _case: None) -> None:
    """Exposure 5: a blabbed Profession is revealed, Exposure 6 (peak 6), no other reveal."""
    table(engine, exposure=5)
    events = run(engine, Blab(hero=HAWK, details=("profession",), confidant="his old partner"))
    revealed = [(r.detail, r.cause, r.level) for r in of(tc.DetailRevealed, events)]
    assert [(Detail.PROFESSION, RevealCause.BLAB, None)] == revealed
    assert (6, 6) == (sheet(engine).exposure, sheet(engine).peak)


# --- Reactions ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "favorable"),
    [
        pytest.param(5, False, id="G-TC-24-five-unfavourable"),
        pytest.param(4, True, id="G-TC-24-four-favourable"),
    ],
)
def test_the_cop_reacts_on_four_or_lower(engine: Engine, face: int, favorable: bool) -> None:
    """Popularity 4: one d10, favourable on 4 or lower."""
    table(engine, popularity=4)
    events = run(engine, RollReaction(hero=HAWK, audience="a cop on her beat"), face)
    assert [favorable] == [e.favorable for e in of(tc.PopularityReactionRolled, events)]


@pytest.mark.parametrize("_case", [pytest.param(None, id="G-TC-25-ex-cop-extra-die")])
def test_the_ex_cop_spends_motivation_for_a_die(engine: Engine, _case: None) -> None:
    """Ex-cop helps: a Motivation point buys a die; 7,3 is favourable; the point is spent."""
    table(engine, popularity=4)
    command = RollReaction(hero=HAWK, audience="a cop", extra_dice=1, justification="ex-cop")
    events = run(engine, command, 7, 3)
    assert [True] == [e.favorable for e in of(tc.PopularityReactionRolled, events)]
    assert 2 == sheet(engine).motivation


@pytest.mark.parametrize(
    ("popularity", "favorable"),
    [
        pytest.param(10, True, id="G-TC-26-popularity-10"),
        pytest.param(0, False, id="G-TC-26-popularity-0"),
    ],
)
def test_the_extremes_need_no_roll(engine: Engine, popularity: int, favorable: bool) -> None:
    """Popularity 10 is always favourable, 0 always unfavourable: nothing is rolled."""
    table(engine, popularity=popularity)
    result = engine.execute("Lab", RollReaction(hero=HAWK, audience="the press"))
    assert ((), [favorable]) == (
        result.dice,
        [e.favorable for e in of(tc.ReactionResolved, result.events)],
    )
