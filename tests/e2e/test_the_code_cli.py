"""The Code from the `campaign` command line: heroes, rolls, reveals, refusals, session end."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.e2e.conftest import Run

HAWK = (
    'character create "The Hawk" --player dana --identity "Mitch Mason" '
    '--description "tall, trench coat" --profession "private eye" --advantage "keen eyes" '
    '--weakness "bum leg" --objective "catch criminals" --score 6 --mo "phone booth" '
    "--exposure 1 --reward-points 30"
)


@pytest.fixture
def heroes(run: Run) -> Run:
    """A The Code campaign in session 1 with the Hawk (Exposure 1, 30 Reward Points)."""
    for line in ('init "Rain City" --system the-code --gm Sam', HAWK, "session start"):
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    return run


def test_show_lists_the_scores_and_what_is_public(heroes: Run) -> None:
    """`character show` lists Motivation, Reward Points, Exposure (peak), Popularity, reveals."""
    solved = heroes('solve "The Hawk" minor "the park" --dice 3,5,9,2')
    assert 0 == solved.exit_code, solved.output
    assert "the public learns the physical description" in solved.output
    shown = heroes('character show "The Hawk"').output
    for line in (
        "Motivation 3/3",
        "Reward Points 5",
        "Exposure 2 (peak 2)",
        "Popularity 5",
        "physical-description: 'tall, trench coat' (level 2, problem-solved, session 1)",
    ):
        assert line in shown


def test_show_as_json_carries_the_reveals(heroes: Run) -> None:
    """--json gives the hero's state with its reveals and maximum Motivation."""
    data = json.loads(heroes('--json character show "The Hawk"').output)
    assert (3, 1, 1, []) == (
        data["max_motivation"],
        data["exposure"],
        data["peak"],
        data["revealed"],
    )


def test_a_bid_beyond_motivation_is_refused_and_records_nothing(
    heroes: Run, count: Callable[[], int]
) -> None:
    """Four dice one step down would cost 8 of 3 points: exit 2, a reason, nothing recorded."""
    before = count()
    line = 'contest "spot him" "The Hawk" --step 2 --roll 4 --vs crook --vs-step 1 --npc'
    result = heroes(line)
    assert 2 == result.exit_code
    assert "INSUFFICIENT_MOTIVATION" in result.stderr
    assert before == count()


def test_the_session_ends_after_the_exposure_roll(heroes: Run) -> None:
    """`session end` waits for every hero's Exposure roll, made with `exposure`."""
    assert "EXPOSURE_ROLL_MISSING" in heroes("session end").stderr
    rolled = heroes('exposure "The Hawk" --mo-followed --dice 1,3')
    assert "Exposure 1 -> 0 (no exposure gained; peak 1)" in rolled.output
    assert 0 == heroes("session end").exit_code


def test_an_unknown_detail_is_refused(heroes: Run) -> None:
    """A blab names details the ladder knows."""
    result = heroes('blab "The Hawk" "shoe size" --by Lois')
    assert (2, True) == (result.exit_code, "UNKNOWN_DETAIL" in result.stderr)


def test_steps_ruled_for_a_task_settle_a_contest_with_an_npc(
    heroes: Run, count: Callable[[], int]
) -> None:
    """G-TC-05 from the command line with the Ability Sequence ruled (DIGEST 4.1, R-TC-04): no
    step given, STEPS_NOT_RULED until the GM rules both; then the Hawk bids one die at x2."""
    assert 0 == heroes('npc "the crook" --profession burglar --advantage Stealth').exit_code
    before = count()
    line = 'contest "spot the crook" "The Hawk" --roll 1 --vs "the crook" --dice 7'
    unruled = heroes(line)
    assert (2, True, before) == (unruled.exit_code, "STEPS_NOT_RULED" in unruled.stderr, count())
    ruled = heroes('step "The Hawk" "spot the crook" --profession')
    assert "spot the crook: step 2 on the Ability Sequence (a relevant Profession)" in ruled.output
    assert 0 == heroes('step "the crook" "spot the crook" --profession --advantage').exit_code
    settled = heroes(line)
    assert "The Hawk (step 2) [7] bid x2, pays 2 vs the crook (step 1) no dice" in settled.output


def test_an_npc_motivation_is_spent_and_shown(heroes: Run) -> None:
    """An NPC with a Motivation score (DIGEST 4.1 TcNpc): a contest spends it, `character show`
    and `character list` show what is left (R-TC-04)."""
    for line in (
        'npc "Mister Grin" --advantage "nerves of steel" --motivation 3',
        'contest "stare" "The Hawk" --step 4 --vs "Mister Grin" --vs-step 4 --roll 1 --vs-roll 2 '
        "--dice 3,4,2",
    ):
        result = heroes(line)
        assert 0 == result.exit_code, (line, result.output)
    shown = heroes('character show "Mister Grin"').output
    assert ["Mister Grin (NPC)", "  Advantages: nerves of steel", "  Motivation 2/3"] == (
        shown.splitlines()
    )
    assert "Mister Grin (GM): NPC, Motivation 2/3" in heroes("character list").output
    refused = heroes('exposure "Mister Grin"')
    assert (2, True) == (refused.exit_code, "NOT_A_PLAYER_CHARACTER" in refused.stderr)


def test_a_solved_problem_recurs(heroes: Run) -> None:
    """CommunityProblemRecurred (R-TC-08): once, for a problem the hero solved."""
    assert 0 == heroes('solve "The Hawk" minor "the park" --dice 3,5,9,2').exit_code
    back = heroes('recur "The Hawk" "the park" --note "dealers again"')
    assert "the minor community problem is back: the park (solved in session 1)" in back.output
    assert "the park (minor, session 1; it came back)" in heroes('character show "The Hawk"').output
    again = heroes('recur "The Hawk" "the park"')
    assert (2, True) == (again.exit_code, "PROBLEM_NOT_OPEN" in again.stderr)


def test_extra_reaction_dice_beyond_motivation_are_refused(heroes: Run) -> None:
    """R-TC-13: four extra dice cost four of three points: INSUFFICIENT_MOTIVATION."""
    result = heroes('reaction "The Hawk" "a cop" --extra-dice 4 --because "ex-cop"')
    assert (2, True) == (result.exit_code, "INSUFFICIENT_MOTIVATION" in result.stderr)


def test_a_players_mo_is_the_gms_call_unless_the_campaign_opens_it(
    run: Run, count: Callable[[], int]
) -> None:
    """R-TC-14, TC-A27: `mo` by the hero's player is refused NOT_ALLOWED (nothing recorded)
    naming the house rule; in a campaign made with --house-rule playersRecordMo=true it is
    recorded."""
    for line in ('init "Rain City" --system the-code --gm Sam', HAWK, "session start"):
        assert 0 == run(line).exit_code, line
    before = count()
    refused = run('--as dana mo "The Hawk" "cuffed the mugger"')
    assert 2 == refused.exit_code
    assert refused.stderr.startswith("error: NOT_ALLOWED: dana (player) may not mo: the GM's call")
    assert "house rule playersRecordMo=true opens it to players" in refused.stderr
    assert before == count()
    assert 0 == run('mo "The Hawk" "cuffed the mugger"').exit_code  # the GM's ruling

    opened = "init Gotham --system the-code --gm Sam --house-rule playersRecordMo=true"
    for line in (opened, HAWK, "session start"):  # Gotham is the current campaign now
        assert 0 == run(line).exit_code, line
    recorded = run('--as dana mo "The Hawk" "cuffed the mugger"')
    assert 0 == recorded.exit_code, recorded.stderr
    assert "The Hawk: follows the MO this session: cuffed the mugger" in recorded.output
