"""The Sims RPG's verbs through the real `campaign` command on a SQLite file."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.e2e.conftest import Run

SETUP = [
    'init "Bar Fight" --system sims --gm Lotus',
    "session start",
    'scene start "The Rusty Spanner"',
    'character create Kristov --player kim --custom --quality "Dirty Fighter:Combat:Good" '
    "--quality Brawler:Combat:Good --quality Rockstar:Professional:Average",
    "character create Jefferson --npc --quality Biker:Combat:Expert",
    'turns "Kristov:Dirty Fighter" Jefferson:Biker',
]


@pytest.fixture
def bar(run: Run) -> Run:
    for line in SETUP:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    return run


def test_show_lists_base_and_current_rank(bar: Run) -> None:
    """After a hit and an allocation the sheet shows each quality's base and current rank."""
    hit = bar('attack Jefferson Biker --target "Kristov:Dirty Fighter" --badass --dice 3,3')
    assert "hit by 3: 3 Damage Rank(s)" in hit.output
    assert 0 == bar("allocate Kristov Brawler Brawler Rockstar").exit_code
    shown = bar("character show Kristov").output
    assert "Brawler               Combat        Good     Poor  (-2 Damage)" in shown
    assert "Dirty Fighter         Combat        Good     Good" in shown


def test_a_refusal_exits_2_and_records_nothing(bar: Run, count: Callable[[], int]) -> None:
    """Attacking out of turn is refused with the rule's reason; no event is appended."""
    before = count()
    result = bar("attack Kristov --target Jefferson:Biker --dice 3,4")
    assert 2 == result.exit_code
    assert "NOT_YOUR_TURN" in result.stderr
    assert before == count()


def test_the_allocation_must_come_first(bar: Run) -> None:
    """Pending ranks block the next turn until they are distributed."""
    bar('attack Jefferson Biker --target "Kristov:Dirty Fighter" --dice 6,6')
    blocked = bar("next")
    assert 2 == blocked.exit_code
    assert "ALLOCATION_PENDING" in blocked.stderr


def test_sheet_json_has_current_ranks(bar: Run) -> None:
    """--json shows the sheet with each quality's current rank by name."""
    result = bar("--json character show Jefferson")
    data = json.loads(result.output)
    assert [("Biker", "Expert", "Expert")] == [
        (q["name"], q["base"], q["current"]) for q in data["qualities"]
    ]


def test_recovery_in_continuing_danger(bar: Run) -> None:
    """Continuing danger at scene end allows one 1d6 recovery roll, placed by the player."""
    bar('attack Jefferson Biker --target "Kristov:Dirty Fighter" --dice 4,4')
    bar("allocate Kristov Brawler Brawler Rockstar")
    bar("danger continuing Kristov")
    ended = bar("scene end")
    assert "may roll 1d6 for recovery" in ended.output
    recovered = bar("recover Kristov Brawler Brawler --dice 2")
    assert "Brawler Average -> Good (recovered)" in recovered.output
    assert 2 == bar("recover Kristov --dice 1").exit_code


PRIVATE = [
    'init "Zion" --system sims --gm Morpheus --member alice:player --member bob:player '
    "--member olly:observer",
    "session start",
    'scene start "The rooftop"',
    'character create Neo --player alice --custom --quality "Kung Fu:Combat:Good"',
    "character create Cypher --player bob --custom --quality Knives:Combat:Good",
    'character create Smith --npc --quality "Kung Fu:Combat:Expert"',
    'post "The ledger for a steak." --to bob --character Smith',
    '--as bob post "Deal, Agent." --to Morpheus',
]


@pytest.fixture
def rooftop(run: Run) -> Run:
    for line in PRIVATE:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output, result.stderr)
    return run


def test_private_messages_reach_only_their_readers(rooftop: Run) -> None:
    """R-PDQ-15: bob's recap (`recap --for bob`, or bob's own) and the GM's show both messages
    (private posts), as Markdown and as JSON; alice's and the observer's recap, log, thread
    and search show neither."""
    for line in ("recap --for bob", "--as bob recap", "recap", "--json recap --for bob"):
        shown = rooftop(line).output
        assert "The ledger for a steak." in shown, line
        assert "Deal, Agent." in shown, line
    for line in (
        "--as alice recap",
        "--as olly recap --format json",
        "recap --for alice",
        "--as alice log",
        "--as olly thread",
        "--as alice thread --format json",
        "--as alice search ledger",
    ):
        result = rooftop(line)
        assert 0 == result.exit_code, (line, result.stderr)
        assert "steak" not in result.output, line
        assert "Deal, Agent" not in result.output, line


def test_only_the_gm_writes_another_members_recap(rooftop: Run, count: Callable[[], int]) -> None:
    """`recap --for NAME` is the GM's (or NAME's own); a stranger's name is refused."""
    before = count()
    refused = rooftop("--as alice recap --for bob")
    assert 2 == refused.exit_code
    assert "NOT_ALLOWED" in refused.stderr
    assert 2 == rooftop("recap --for mallory").exit_code
    assert before == count()


def test_a_player_writes_only_for_their_own_character(
    rooftop: Run, count: Callable[[], int]
) -> None:
    """A player names their own character (NOT_ALLOWED); the observer writes no private message
    (OBSERVER_CANNOT_MESSAGE, Behind the Scenes)."""
    before = count()
    for line, code in (
        ('--as alice post "hi" --to Morpheus --character Cypher', "NOT_ALLOWED"),
        ('--as olly post "hi" --to bob --ooc', "OBSERVER_CANNOT_MESSAGE"),
    ):
        result = rooftop(line)
        assert 2 == result.exit_code, line
        assert code in result.stderr, line
    assert before == count()


def test_message_became_post_to(rooftop: Run, count: Callable[[], int]) -> None:
    """The `message` verb is gone (a private message is `post --to`): a usage error, nothing
    recorded."""
    before = count()
    result = rooftop('--as bob message Morpheus "Deal." --from Cypher')
    assert 2 == result.exit_code
    assert "No such command 'message'" in result.stderr
    assert before == count()


def test_turn_order_ties_roll_off(rooftop: Run) -> None:
    """PDQ-A11: two Good PCs roll 1d6 each (2, 5): Cypher first; the log shows the faces."""
    result = rooftop('turns "Neo:Kung Fu" Cypher:Knives "Smith:Kung Fu" --dice 2,5')
    assert 0 == result.exit_code, result.stderr
    assert (
        "turn order: Smith (Kung Fu Expert), Cypher (Knives Good, roll-off 5), "
        "Neo (Kung Fu Good, roll-off 2)"
    ) in result.output


def test_the_turn_order_reads_once(rooftop: Run) -> None:
    """The order is the conflict's (recorded on each combatant's stream): the ruling, the log
    and the thread say it once, of no one, then whose turn begins (issue 44)."""
    result = rooftop('turns "Neo:Kung Fu" Cypher:Knives "Smith:Kung Fu" --dice 2,5')
    assert 0 == result.exit_code, result.stderr
    order = (
        "turn order: Smith (Kung Fu Expert), Cypher (Knives Good, roll-off 5), "
        "Neo (Kung Fu Good, roll-off 2)"
    )
    for shown in (result.output, rooftop("log").output, rooftop("thread").output):
        assert 1 == shown.count("turn order:"), shown
        lines = [line.strip(" -") for line in shown.splitlines()]
        at = lines.index(order)
        assert "Smith: turn 1 begins" == lines[at + 1]
