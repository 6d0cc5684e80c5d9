"""Code Green's issue-18 rulings through the real `campaign` command on a SQLite file: one open
test at a time (R-CG-03), `character rename` (§1.1 CharacterRenamed), `reject-assist` (R-CG-04
AssistNotApplicable) and `strain --foolhardy` (CG-A9). The table (tests/e2e/conftest.py): alice's
31415 on S1 with tokens R1C1, R2C2, R3C3; bob's 21144 (Guts, Lungs, Blood x Phasing, Invasive,
Auxiliary) with tokens R1C3, R3C1, R2C2."""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.e2e.conftest import Run


def test_a_second_test_waits_for_the_open_one(table: Run, count: Callable[[], int]) -> None:
    """R-CG-03: while alice's test awaits adaptation, bob's declaration exits 2 and records
    nothing; after alice adapts it is accepted."""
    assert 0 == table("test alice Legs Invulnerable --roll --dice 2,5").exit_code
    before = count()
    refused = table("test bob Guts Auxiliary")
    assert 2 == refused.exit_code
    assert (
        "error: ANOTHER_TEST_OPEN: 31415's test 1 is still open (awaiting adaptation); a scene "
        "has one test open at a time: it is rolled, its strain resolved and its adaptation made "
        "before another is declared (Making Tests, Adapting)\n"
    ) == refused.stderr
    assert before == count()
    assert 0 == table("adapt alice R1C1 R1C2").exit_code
    accepted = table("test bob Guts Auxiliary")
    assert 0 == accepted.exit_code, accepted.output
    assert "21144: test 1: Auxiliary Guts" in accepted.output


def test_character_rename(table: Run, count: Callable[[], int]) -> None:
    """§1.1 CharacterRenamed: the character answers to its new name; a taken one is refused."""
    result = table("character rename 31415 Hush")
    assert 0 == result.exit_code, result.output
    assert "Hush: 31415 takes a new name: Hush" in result.output
    assert "Hush (played by alice)" in table("character show Hush").output
    assert "Hush (alice)" in table("character list").output
    before = count()
    taken = table("character rename bob hush")
    assert 2 == taken.exit_code
    assert "NAME_TAKEN" in taken.stderr
    assert before == count()
    gone = table("character show 31415")
    assert 2 == gone.exit_code


def test_a_player_renames_their_own_character(table: Run) -> None:
    """`--as alice` may rename alice's character, not bob's (her seat came with it)."""
    refused = table("--as alice character rename bob Ash")
    assert 2 == refused.exit_code
    assert "NOT_ALLOWED" in refused.stderr
    assert 0 == table("--as alice character rename alice Hush").exit_code


def test_reject_assist(table: Run, count: Callable[[], int]) -> None:
    """R-CG-04: the GM rules bob's Auxiliary Guts out of the test; the pool loses its die, the
    pair is refused again, and another of bob's pairs assists."""
    assert 0 == table("test alice Legs Invulnerable").exit_code
    assert 0 == table('assist bob Guts/Auxiliary --why "a rumble covers her steps"').exit_code
    result = table('reject-assist bob --reason "the guard wears ear defenders"')
    assert 0 == result.exit_code, result.output
    assert (
        "31415: the GM rules 21144's Auxiliary Guts (R1C3) not applicable to test 1; its die is "
        "taken back: the guard wears ear defenders"
    ) in result.output
    before = count()
    again = table('assist bob R1C3 --why "louder"')
    assert 2 == again.exit_code
    assert "ASSIST_NOT_APPLICABLE" in again.stderr
    assert before == count()
    assert 0 == table('assist bob Blood/Phasing --why "scrambles the radio"').exit_code
    rolled = table("roll --dice 2,5,4")
    assert "pool 3 [2,5,4] -> 5: mostly human" in rolled.output


def test_strain_foolhardy(table: Run) -> None:
    """CG-A9: a second strain on one test is refused unless the GM rules it --foolhardy."""
    table("test alice Legs Invulnerable --roll --dice 2,5")
    assert 0 == table("strain alice --dice 1,5").exit_code
    refused = table("strain alice --dice 5,5")
    assert 2 == refused.exit_code
    assert "STRAIN_LIMIT_REACHED" in refused.stderr
    result = table("--json strain alice --foolhardy --dice 5,5")
    assert 0 == result.exit_code, result.output
    (ruling,) = [r for r in json.loads(table("--json log").output) if r["ruling"] == 10]
    assert ("strain", True) == (ruling["command"], ruling["params"]["args"]["foolhardy"])
