"""Sprawl Goons' verbs, driven in-process through click's runner on a SQLite file."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.e2e.conftest import Run

SETUP = [
    'init "Docklands" --system sprawl-goons --gm Rosa',
    "session start",
    'scene start "Container stacks"',
    "character create Tanner --player ana --stats 2,1,1,0 --item melee:Katana "
    '--item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2',
    'character create Katya --player ben --stats 0,2,1,1 --item "ranged:Shard pistol" '
    "--item console --item credit-card --dice 6,2,3,3,4",
    "npc Zoner --ds moderate",
    'npc "Ganger" --ds 1',
]


@pytest.fixture
def sprawl(run: Run) -> Run:
    """A Sprawl Goons campaign in a running scene: Tanner, Katya, and two NPCs."""
    for line in SETUP:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    return run


def test_an_attack_prints_its_whole_breakdown(sprawl: Run) -> None:
    """The Tanner example: dice, stat, each item by name, total, DS, margin, and the damage."""
    result = sprawl("attack Tanner Zoner --stat morphology --item katana --item kevlar --dice 3,5")
    assert 0 == result.exit_code, result.output
    assert (
        "attack roll [3,5] + Morphology 2 + Katana +1 + Kevlar jacket +1 = 12 "
        "vs DS 10 (Zoner): success by 2"
    ) in result.output
    assert "Zoner: takes 2 from Tanner (hit): 10 -> 8" in result.output


@pytest.mark.parametrize(
    ("line", "code"),
    [
        pytest.param(
            "character create Case --stats 3,2,0,0 --item penlight --item toolkit "
            "--item drone --dice 1,1,1",
            "STAT_POINTS_MUST_TOTAL_FOUR",
            id="stats-total-five",
        ),
        pytest.param(
            "attack Tanner Zoner --stat morphology --item shotgun --dice 3,3",
            "ITEM_NOT_OWNED",
            id="item-not-owned",
        ),
        pytest.param("roll Tanner reaction --ds 0 --dice 3,3", "INVALID_DS", id="ds-below-1"),
        pytest.param("roll Tanner luck --ds 8 --dice 3,3", "UNKNOWN_STAT", id="unknown-stat"),
        pytest.param("hack Tanner Zoner --dice 3,3", "CONSOLE_REQUIRED", id="no-console"),
        pytest.param("attack Tanner Zoner --stat m --dice 7,3", "INVALID_DIE_FACE", id="7-on-a-d6"),
        pytest.param("level-up Tanner reaction resilience", "NO_LEVEL_DUE", id="no-mission-yet"),
        pytest.param("rest Tanner --hours 6", "REST_TOO_SHORT", id="six-hours"),
        pytest.param("fall Tanner 0", "INVALID_DISTANCE", id="no-fall"),
        pytest.param(
            "first-aid Katya Tanner --dice 5,4", "PATIENT_UNHURT", id="R-SG-07-first-aid-unhurt"
        ),
        pytest.param(
            "item bulk Tanner katana --bulky", "BULKINESS_UNCHANGED", id="R-SG-09-already-bulky"
        ),
        pytest.param("roll Tanner reaction --ds '' --dice 3,3", "DS_REQUIRED", id="no-ds"),
    ],
)
def test_bad_input_exits_2_and_appends_nothing(
    sprawl: Run, count: Callable[[], int], line: str, code: str
) -> None:
    """Every refusal: exit 2, one line naming the code and the rule, nothing recorded."""
    before = count()
    result = sprawl(line)
    assert 2 == result.exit_code, result.output
    assert [f"error: {code}"] == [ln[: len(code) + 7] for ln in result.stderr.splitlines()]
    assert before == count()


def test_an_empty_magazine_and_a_dead_character_are_refused(
    sprawl: Run, count: Callable[[], int]
) -> None:
    """Full auto empties the pistol; firing it again is refused; so is acting when dead."""
    assert (
        0
        == sprawl(
            'attack Katya Ganger --stat reaction --full-auto "shard pistol" --dice 3,3'
        ).exit_code
    )
    before = count()
    empty = sprawl('attack Katya Zoner --stat reaction --item "shard pistol" --dice 3,3')
    assert "MAGAZINE_EMPTY" in empty.stderr
    dead = sprawl("attack Katya Ganger --stat reaction --dice 3,3")
    assert "CHARACTER_DEAD" in dead.stderr
    assert before == count()


def test_character_show_lists_the_sheet(sprawl: Run) -> None:
    """Stats, Resilience, items with uses, cash, injuries and level."""
    sprawl("fall Tanner 36 --dice 2,5")
    text = sprawl("character show Tanner").output
    assert "Morphology 2  Reaction 1  Cognition 1  Equilibrium 0" in text
    assert "Resilience 0/12" in text
    assert "Lazarus Patches (consumable +1, 2 uses)" in text
    assert "Cash 120" in text
    assert "Injury 1: 2 arm" in text
    assert "level 1" in text
    data = json.loads(sprawl("--json character show Katya").stdout)
    assert ("Stolen Credit Card", 7) == (data["items"][2]["name"], data["items"][2]["uses"])
    assert {"stats", "resilience", "items", "cash", "injuries", "level", "status"} <= set(data)


def test_undoing_a_hit_needs_the_later_rulings_that_depend_on_it(sprawl: Run) -> None:
    """The Zoner's DS after a hit is the next hit's DS: undo refuses alone, works together."""
    sprawl("attack Tanner Zoner --stat morphology --item katana --dice 3,5")  # ruling 8: 10 -> 9
    sprawl("attack Tanner Zoner --stat morphology --item katana --dice 4,5")  # ruling 9: 9 -> 4
    assert "LATER_RULINGS_DEPEND" in sprawl('undo 8 --reason "no katana"').stderr
    assert 0 == sprawl('undo 8 --with-dependents --reason "no katana"').exit_code
    assert 10 == json.loads(sprawl("--json character show Zoner").stdout)["resilience"]


def test_house_rules_are_recorded_and_checked(run: Run) -> None:
    """Sprawl Goons' house rules are recorded with the campaign; bad values are refused."""
    ok = run("init A --system sprawl-goons --gm Rosa --house-rule criticalTrigger=onOverflow")
    assert "criticalTrigger=onOverflow" in ok.output
    bad = run("init B --system sprawl-goons --gm Rosa --house-rule critBonusScope=always")
    assert 2 == bad.exit_code
    assert "INVALID_HOUSE_RULE" in bad.stderr


def test_an_initiative_tie_is_broken_by_a_recorded_roll_off(sprawl: Run) -> None:
    """SG-A10: two NPCs at 3 (same Reaction, both NPCs) roll off: 2 against 5, Ganger first."""
    result = sprawl("initiative Zoner Ganger --dice 3,3,2,5")
    assert 0 == result.exit_code, result.output
    lines = result.output.splitlines()
    tie = "initiative d6 [3] + Reaction 0 = 3: goes {} of 2, tie broken by a roll-off [{}]"
    assert f"  Zoner: {tie.format(2, 2)}" in lines
    assert f"  Ganger: {tie.format(1, 5)}" in lines


def test_the_referee_rules_an_item_not_bulky(sprawl: Run) -> None:
    """R-SG-09 (ItemBulkinessRuled): a ruling of its own, in the log and on the sheet."""
    result = sprawl('item bulk Tanner lazarus --not-bulky --reason "pocket-sized"')
    assert 0 == result.exit_code, result.output
    assert (
        "Tanner: the referee rules Lazarus Patches not bulky (pocket-sized): 2 bulky, "
        "no encumbrance"
    ) in result.output
    assert (
        "Lazarus Patches (consumable +1, 2 uses, not bulky)"
        in sprawl("character show Tanner").output
    )


def test_a_player_cannot_call_the_glitch_dice(run: Run, count: Callable[[], int]) -> None:
    """R-SG-04 (DIGEST GlitchUpgradeRefereeOnly, here NOT_ALLOWED): only the referee calls
    Glitch or Upgrade dice; the player's roll without them stands."""
    for line in [
        'init "Docklands" --system sprawl-goons --gm Rosa --member ana:player',
        "session start",
        'scene start "Container stacks"',
        SETUP[3],
    ]:
        assert 0 == run(line).exit_code, line
    before = count()
    refused = run("--as ana roll Tanner reaction --ds 10 --glitch --dice 6,2,5")
    assert 2 == refused.exit_code
    assert "error: NOT_ALLOWED: ana (player) may not roll: --glitch is the GM's call" in (
        refused.stderr
    )
    assert before == count()
    assert 0 == run("--as ana roll Tanner reaction --ds 10").exit_code
