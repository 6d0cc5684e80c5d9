"""The `campaign` command, driven in-process through click's runner."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import click
import pytest

from cli.main import campaign
from cli.systems import all_verbs
from tests.e2e.conftest import Run


def test_a_test_shows_the_dice_and_how_the_outcome_was_reached(table: Run) -> None:
    """`test --roll` prints the pool, the faces and the band."""
    result = table("test alice Legs Invulnerable --roll --dice 2,5")
    assert 0 == result.exit_code
    assert "test 1: pool 2 [2,5] -> 5: mostly human" in result.output


def test_assist_then_roll_adds_one_die_per_helper(table: Run) -> None:
    """An assist with the pair under the helper's token adds a die to the declared test."""
    table("test alice Legs Invulnerable")
    assisted = table('assist bob Blood/Phasing --why "scrambles the radio"')
    assert 0 == assisted.exit_code, assisted.output
    rolled = table("roll --dice 1,2,6")
    assert "pool 3 [1,2,6] -> 6: more than human" in rolled.output


@pytest.mark.parametrize(
    ("line", "code"),
    [
        pytest.param("test alice Legs Toxic --roll", "TRAIT_NOT_ON_SHEET", id="not-on-sheet"),
        pytest.param("test alice Legs Wings", "PAIR_MUST_BE_FORM_AND_FUNCTION", id="two-forms"),
        pytest.param("test alice Legs Gills", "PAIR_MUST_BE_FORM_AND_FUNCTION", id="no-such-trait"),
        pytest.param(
            "test alice Legs Invulnerable --roll --dice 7,2", "INVALID_DIE_FACE", id="7-on-d6"
        ),
        pytest.param(
            "test alice Legs Invulnerable --roll --dice 2", "NOT_ENOUGH_DICE", id="too-few"
        ),
        pytest.param(
            "test alice Legs Invulnerable --roll --dice 2,3,4", "TOO_MANY_DICE", id="too-many"
        ),
        pytest.param(
            "test alice Legs Invulnerable --roll --dice x", "UNREADABLE_DICE", id="unreadable"
        ),
        pytest.param("adapt alice R1C1 R1C2", "NO_PENDING_ADAPTATION", id="adapt-before-test"),
        pytest.param("place alice R1C1 R1C2 R1C3", "TOKENS_ALREADY_PLACED", id="placed-twice"),
        pytest.param("--campaign Nope log", "UNKNOWN_CAMPAIGN", id="unknown-campaign"),
        pytest.param("character show carol", "UNKNOWN_CHARACTER", id="unknown-character"),
        pytest.param("undo 1 --reason no", "CANNOT_UNDO", id="undo-creation"),
        pytest.param("session start", "SESSION_ALREADY_ACTIVE", id="second-session"),
        pytest.param("strain alice --dice 1,3", "NO_TEST_FOR_STRAIN", id="strain-without-test"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_appends_nothing(
    table: Run, count: Callable[[], int], line: str, code: str
) -> None:
    """Every refusal: exit 2, one line on stderr naming the code and the rule, nothing recorded."""
    before = count()
    result = table(line)
    assert 2 == result.exit_code
    assert [f"error: {code}"] == [ln[: len(code) + 7] for ln in result.stderr.splitlines()]
    assert "" == result.stdout
    assert before == count()


def test_the_rulebook_refusals_through_the_cli(table: Run, count: Callable[[], int]) -> None:
    """Marked and occupied squares, a second test before adapting, tests while incapacitated."""
    table("test alice Legs Invulnerable --roll --dice 2,5")
    table("strain alice --dice 1,3")  # 13 -> R1C1 where a token sits: it must move
    before = count()
    assert "DESTINATION_MARKED" in table("displace alice R1C1").stderr
    assert "DESTINATION_OCCUPIED" in table("displace alice R2C2").stderr
    assert "DISPLACEMENT_PENDING" in table("adapt alice R2C2 R2C3").stderr
    assert before == count()
    assert 0 == table("displace alice R1C2").exit_code
    assert "ADAPTATION_PENDING" in table("test alice Tail Cryptic").stderr
    assert 0 == table("adapt alice R1C2 R2C3").exit_code
    table("test alice Legs Invulnerable --roll --dice 1")
    table("strain alice --dice 1,2")  # 12 -> R1C1, marked already: incapacitated
    assert "incapacitated" in table("log").output
    table("adapt alice R2C2 R1C3")
    before = count()
    assert "CHARACTER_INCAPACITATED" in table("test alice Tail Cryptic --roll --dice 4").stderr
    assert before == count()


def test_json_output_has_stable_keys(table: Run) -> None:
    """`--json` prints a ruling with the documented keys."""
    result = table("--json test alice Legs Invulnerable --roll --dice 2,5")
    data = json.loads(result.stdout)
    expected = {
        "ruling",
        "command",
        "actor",
        "at",
        "session",
        "scene",
        "dice",
        "provenance",
        "events",
        "say",
        "lines",
        "speaker",
        "visibility",
        "sealed_by",
        "entered_for",
        "sealed_through",
    }
    assert expected == set(data)
    assert [{"sides": 6, "face": 2}, {"sides": 6, "face": 5}] == data["dice"]
    assert {"type", "stream", "version", "character", "data", "text"} == set(data["events"][0])
    assert "physical" == data["provenance"]


def test_json_errors_go_to_stderr_as_json(table: Run) -> None:
    """A refusal under `--json` is one JSON object on stderr."""
    result = table("--json test alice Legs Toxic")
    assert 2 == result.exit_code
    assert "TRAIT_NOT_ON_SHEET" == json.loads(result.stderr)["error"]["code"]


def test_undo_and_log_keep_the_whole_trail(table: Run) -> None:
    """Undo refuses while later rulings depend, then undoes them together; the log shows both."""
    table("test alice Legs Invulnerable --roll --dice 2,5")  # ruling 8
    table("adapt alice R1C1 R1C2")  # ruling 9
    refused = table('undo 8 --reason "wrong pair"')
    assert "LATER_RULINGS_DEPEND" in refused.stderr
    assert "9" in refused.stderr
    assert 0 == table('undo 8 --with-dependents --reason "wrong pair"').exit_code
    log = table("log").output
    assert "UNDONE by #10 (Rosa): wrong pair" in log
    shown = json.loads(table("--json character show alice").stdout)
    assert ["R1C1", "R2C2", "R3C3"] == shown["tokens"]
    then = json.loads(table("--json character show alice --at 9").stdout)
    assert ["R1C2", "R2C2", "R3C3"] == then["tokens"]
    corrected = json.loads(table("--json character show alice --at 9 --corrected").stdout)
    assert ["R1C1", "R2C2", "R3C3"] == corrected["tokens"]


def test_several_campaigns_in_one_store(run: Run) -> None:
    """`list` shows every campaign; --campaign picks one; `use` remembers it."""
    run("init One --system code-green --gm Rosa")
    run("init Two --system code-green --gm Rosa")
    listed = json.loads(run("--json list").stdout)
    assert ["One", "Two"] == [c["name"] for c in listed]
    assert 0 == run("--campaign One session start").exit_code
    assert "session 1" in run("--campaign One log").output
    assert 0 == run("use One").exit_code
    assert "session 1" in run("log").output


def test_house_rules_are_recorded_and_checked(run: Run) -> None:
    """Known house rules are recorded with the campaign; unknown ones are refused."""
    ok = run("init A --system code-green --gm Rosa --house-rule maxStrainPerTest=0")
    assert "maxStrainPerTest=0" in ok.output
    bad = run("init B --system code-green --gm Rosa --house-rule strainIsFun=yes")
    assert 2 == bad.exit_code
    assert "UNKNOWN_HOUSE_RULE" in bad.stderr


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append((f"{prefix}{name}", command))
        if isinstance(command, click.Group):
            found.extend(_commands(command, f"{prefix}{name} "))
    return found


EVERY_COMMAND = _commands(campaign) + [
    pair for group in all_verbs().values() for pair in _commands(group, f"[{group.name}] ")
]


@pytest.mark.parametrize(("name", "command"), EVERY_COMMAND)
def test_every_command_help_ends_with_an_example(name: str, command: click.Command) -> None:
    """Every command documents itself and ends its help with an example line."""
    help_text = (command.help or "").strip()
    assert "Example:" in help_text, name
    example = help_text.split("Example:")[-1].split("\n\n")[0].strip()
    assert example.startswith("campaign"), name


def test_amend_replaces_a_ruling_with_the_same_dice(table: Run, count: Callable[[], int]) -> None:
    """`amend` re-resolves with the recorded faces; the log shows original and correction."""
    table("test alice Legs Invulnerable --roll --dice 2,5")  # ruling 8
    result = table('amend 8 --set form=Tail --set function=Cryptic --reason "the tail"')
    assert 0 == result.exit_code, result.output
    assert "now 31415: test 1: pool 2 [2,5] -> 5: mostly human" in result.output
    log = table("log").output
    assert "AMENDED by #9 (Rosa): the tail" in log
    assert "> 31415: test 1: Cryptic Tail" in log
    before = count()
    refused = table('amend 8 --set colour=red --reason "x"')
    assert (2, before) == (refused.exit_code, count())
    assert refused.stderr.startswith("error: UNKNOWN_PARAMETER:")


def test_verify_reports_intact_and_tampered_logs(table: Run, db: Path) -> None:
    """`verify` exits 0 on an intact log and 1, naming the ruling, on an edited one."""
    table("test alice Legs Invulnerable --roll --dice 2,5")  # ruling 8
    assert 0 == table("verify").exit_code
    with sqlite3.connect(db) as connection:
        for rowid, state in connection.execute("SELECT rowid, state FROM stored_events"):
            if b'"result":5' in state:
                forged = state.replace(b'"result":5', b'"result":6')
                connection.execute(
                    "UPDATE stored_events SET state=? WHERE rowid=?", (forged, rowid)
                )
    result = table("verify")
    assert 1 == result.exit_code
    assert "(ruling 8): the event was changed or moved" in result.output


def test_dice_stats_counts_faces_by_source(table: Run) -> None:
    """Physical faces of the session are counted; the name dice came in by hand too."""
    table("test alice Legs Invulnerable --roll --dice 2,5")
    rows = json.loads(table("--json dice-stats --character alice").stdout)
    assert [(6, "physical", 7)] == [(r["sides"], r["source"], r["rolls"]) for r in rows]
    assert [2, 1, 1, 1, 2, 0] == rows[0]["counts"]  # name 3,1,4,1,5 then 2,5


def test_export_then_import_into_another_store(table: Run, tmp_path: Path) -> None:
    """`export --out` then `import` on another file: same digest; a damaged file exits 2."""
    exported = tmp_path / "night.jsonl"
    assert 0 == table(f"export --out {exported}").exit_code
    other = tmp_path / "other.db"
    runner_line = f"--db {other} import {exported}"
    imported = table(runner_line)
    assert 0 == imported.exit_code, imported.output
    digest = json.loads(table("--json verify").stdout)["digest"]
    assert digest in imported.output
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text(exported.read_text().replace('"result"', '"resu1t"', 1) + "{oops\n")
    result = table(f"--db {tmp_path / 'third.db'} import {damaged}")
    assert 2 == result.exit_code
    assert result.stderr.startswith("error: IMPORT_REFUSED: line ")


def test_amend_says_when_it_rolled_a_die_the_original_never_rolled(table: Run) -> None:
    """A bigger pool after the correction takes a new face, and the output says so."""
    table("test alice Legs Cryptic --roll --dice 4")  # ruling 8: only R1C1 counts
    result = table('amend 8 --set function=Invulnerable --reason "the wall" --dice 6')
    assert 0 == result.exit_code, result.output
    assert "pool 2 [4,6] -> 6: more than human" in result.output
    assert "1 die/dice the original never rolled were rolled for the correction" in result.output


def test_help_works_anywhere_and_writes_nothing(run: Run, db: Path) -> None:
    """Issue 22: `campaign --help` groups the verbs (shared, then each system's) and
    `campaign roll --help` shows every system's `roll`, with no store there and none made; a
    verb that needs a store says there is none (only init and import make one)."""
    listed = run("--help")
    assert 0 == listed.exit_code, listed.output
    titles = ["Shared verbs:", "Code Green's verbs:", "The Code's verbs:", "The Sims RPG's verbs:"]
    assert all(title in listed.output for title in titles)
    assert all(verb in listed.output for verb in ("adapt", "contest", "attack", "allocate"))
    roll = run("roll --help")
    assert 0 == roll.exit_code, roll.output
    assert all(f"--- {system} ---" in roll.output for system in ("code-green", "sims"))
    assert not db.exists()
    assert "NO_SUCH_STORE" in run("roll").stderr
    assert "NO_SUCH_STORE" in run("log").stderr
    assert not db.exists()
    assert 0 == run("init Lab --system code-green --gm Rosa").exit_code
    assert db.exists()
    assert "NOT_A_VERB_OF" not in run("roll --help").output


def test_a_verb_of_another_system_is_refused(run: Run) -> None:
    """`place` (Code Green) on a Sims campaign names the campaign's system; nothing recorded."""
    run("init Zion --system sims --gm Rosa")
    result = run("place Neo R1C1 R2C2 R3C3")
    assert 2 == result.exit_code
    assert result.stderr.startswith("error: NOT_A_VERB_OF: `place` is not a verb of sims")


def test_user_text_reaches_the_terminal_inert(run: Run) -> None:
    """A campaign name with rich markup (control characters are refused in names), a stage with
    escape sequences, a bell and a bidi isolate: `list`, `use`, `show` and `history` print them
    as plain text. (A player's name with a bidi isolate is refused: the GM's `character create
    --player` seats the player, and a member's name is printable.)"""
    name = "[red]Dockside"
    assert 0 == run(f"init '{name}' --system code-green --gm Rosa").exit_code
    assert 0 == run("session start").exit_code
    assert 0 == run("scene start 'The \x1b[31mcold\x1b[0m room\x07 \u2066'").exit_code
    create = "character create --player {} --form Legs,Tail,Teeth "
    create += "--function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5"
    bidi = run(create.format("'al\u2066ice'"))
    assert (2, "") == (bidi.exit_code, bidi.stdout)
    assert bidi.stderr.startswith("error: INVALID_MEMBER_NAME: ")
    assert 0 == run(create.format("alice")).exit_code
    shown = [run(line).output for line in ("list", f"use '{name}'", "show", "history 31415")]
    for output in shown:
        assert not any(c in output for c in "\x07\x1b\u202e\u2066"), output
    assert "[red]Dockside" in shown[0]


def test_numbers_are_ascii_digits(table: Run, count: Callable[[], int]) -> None:
    """`int()` reads `٣` and `３` as 3; a ruling number, a seed or a session is typed in 0-9."""
    before = count()
    for line in (
        "undo ٣ --reason x",
        "test alice Legs Invulnerable --roll --seed ３",
        "log --session ١",
    ):
        result = table(line)
        assert 2 == result.exit_code, line
        assert "is not a whole number in the digits 0-9" in result.stderr
    assert before == count()
