"""`campaign dice EXPRESSION [--why TEXT]`, in-process through click's runner: a free roll in any
system, with typed dice, as JSON, and refusals that append nothing."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from domain.rulesets import SYSTEMS
from tests.e2e.conftest import Run


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_free_roll_in_every_system(run: Run, system: str) -> None:
    """A shared verb: the same line in every system's campaign, and in its log."""
    assert 0 == run(f"init Lab --system {system} --gm Rosa").exit_code
    result = run('dice 2d6+1 --why "to see if it rains" --dice 3,5')
    assert 0 == result.exit_code, result.output
    assert "ruling 2: dice (physical dice)" in result.output
    assert "free roll 2d6+1 [3,5] + 1 = 9: to see if it rains" in result.output
    assert "free roll 2d6+1 [3,5] + 1 = 9: to see if it rains" in run("log").output


def test_json_shows_the_dice_the_faces_and_the_breakdown(table: Run) -> None:
    result = table("--json dice 4d6kh3 --why stats --dice 6,1,5,3")
    data = json.loads(result.stdout)
    assert ("dice", "physical") == (data["command"], data["provenance"])
    assert [6, 1, 5, 3] == [d["face"] for d in data["dice"]]
    (event,) = data["events"]
    assert "FreeRollMade" == event["type"]
    assert (14, [6, 1, 5, 3], "[6,~1~,5,3]") == (
        event["data"]["total"],
        event["data"]["faces"],
        event["data"]["breakdown"],
    )
    assert "free roll 4d6kh3 [6,~1~,5,3] = 14: stats" == event["text"]


def test_rerolls_and_explosions_take_one_more_die_each(table: Run) -> None:
    """Every die drawn is entered, in the order drawn: the 1 rerolled, then the 6 exploding."""
    result = table('dice "2d6ro1 + 1d6e6" --why sparks --dice 1,4,5,6,2')
    assert 0 == result.exit_code, result.output
    assert "free roll 2d6ro1 + 1d6e6 [~1~,5,4] + [6!,2] = 17: sparks" in result.output
    refused = table('dice "2d6ro1" --dice 1,4')
    assert (2, "error: NOT_ENOUGH_DICE") == (refused.exit_code, refused.stderr[:22])


def test_seeded_and_committed_dice(table: Run) -> None:
    """--seed is reproducible; without it, in a session, the committed dice roll."""
    first = json.loads(table("--json dice 3d6 --why a --seed 9").stdout)
    again = json.loads(table("--json dice 3d6 --why a --seed 9").stdout)
    assert first["dice"] == again["dice"]
    assert "digital-seeded" == first["provenance"]
    committed = json.loads(table("--json dice 1d20 --why b").stdout)
    assert "digital-committed" == committed["provenance"]


def test_a_player_rolls_and_a_hidden_roll_is_the_gms(run: Run) -> None:
    run("init Lab --system sims --gm Rosa --member ana:player")
    assert 0 == run("--as ana dice 1d6 --why luck --dice 4").exit_code
    assert 0 == run("dice 1d6 --why ambush --hidden --dice 6").exit_code
    assert "ambush" not in run("--as ana log").output
    assert "ambush" in run("log").output


def test_a_leading_minus_goes_after_the_double_dash(run: Run) -> None:
    run("init Lab --system sims --gm Rosa")
    result = run("dice --why cold --dice 6 -- -1+1d6")
    assert "free roll -1+1d6 -1 + [6] = 5: cold" in result.output


def test_the_reason_is_optional(table: Run) -> None:
    """Without --why the ruling is the roll alone, and its log line ends with the total."""
    result = table("dice 1d6 --dice 4")
    assert 0 == result.exit_code, result.output
    assert "free roll 1d6 [4] = 4\n" in result.output
    assert "free roll 1d6 [4] = 4:" not in table("log").output


@pytest.mark.parametrize(
    ("line", "recorded"),
    [
        ("dice d20+3 adv --dice 7,15", "free roll 2d20kh1+3 [~7~,15] + 3 = 18"),
        ("dice 1d20 dis --why ambush --dice 7,15", "free roll 2d20kl1 [7,~15~] = 7: ambush"),
        ('dice "d20 adv+3" --dice 15,7', "free roll 2d20kh1+3 [15,~7~] + 3 = 18"),
    ],
)
def test_adv_and_dis_roll_two_d20s_and_keep_one(table: Run, line: str, recorded: str) -> None:
    """`adv`/`dis` after a d20, as one argument or several: recorded in standard notation."""
    result = table(line)
    assert 0 == result.exit_code, result.output
    assert recorded in result.output
    assert recorded in table("log").output


@pytest.mark.parametrize(
    ("line", "code"),
    [
        pytest.param("dice 4d6kh5 --why x", "KEEP_OR_DROP_OUT_OF_RANGE", id="keep-too-many"),
        pytest.param("dice 1d6rr<7 --why x --seed 1", "TOO_MANY_DRAWS", id="reroll-forever"),
        pytest.param("dice 1d6/0 --why x --dice 3", "DIVIDES_BY_ZERO", id="by-zero"),
        pytest.param("dice 2d --why x", "UNREADABLE_DICE_NOTATION", id="unreadable"),
        pytest.param("dice 101d6 --why x", "FREE_ROLL_OUT_OF_BOUNDS", id="too-many-dice"),
        pytest.param("dice 1d1001 --why x", "FREE_ROLL_OUT_OF_BOUNDS", id="too-many-sides"),
        pytest.param("dice 2d6 --why x --dice 3", "NOT_ENOUGH_DICE", id="too-few-faces"),
        pytest.param("dice 2d6 --why x --dice 3,4,5", "TOO_MANY_DICE", id="too-many-faces"),
        pytest.param("dice 1d6 --why x --dice 7", "INVALID_DIE_FACE", id="off-the-die"),
        pytest.param("dice 2d6 adv --dice 2,3", "ADVANTAGE_WITHOUT_ONE_D20", id="adv-of-2d6"),
        pytest.param("dice --dice 2", "USAGE", id="no-expression"),
    ],
)
def test_a_refusal_exits_2_in_one_line_and_appends_nothing(
    table: Run, count: Callable[[], int], line: str, code: str
) -> None:
    before = count()
    result = table(line)
    assert 2 == result.exit_code
    assert [f"error: {code}"] == [ln[: len(code) + 7] for ln in result.stderr.splitlines()]
    assert "" == result.stdout
    assert before == count()


def test_a_refusal_under_json_is_json(table: Run, count: Callable[[], int]) -> None:
    before = count()
    result = table("--json dice 4d6kh5 --why x")
    error = json.loads(result.stderr)["error"]
    assert "KEEP_OR_DROP_OUT_OF_RANGE" == error["code"]
    assert "keeps the highest 5 of 4d6, which has 4 dice" in error["message"]
    assert before == count()
