"""The limits through the `campaign` command: a text over them is one line and exit 2 with
nothing recorded, and the largest row they allow, made by real commands in the characters JSON
writes longest, is exported in lines that `import` and `verify-dice` read back."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from cli.main import campaign
from domain.limits import MAX_COMMAND_TEXT, MAX_LINE, MAX_TEXT
from engine import Engine
from tests.conftest import event_count

WORST = "\x01"  # \u0001 in JSON, and \\u0001 in JSON inside JSON: 7 bytes for one character


def run(db: Path, *argv: str) -> Result:
    return CliRunner().invoke(campaign, ["--db", str(db), *argv])


def events(db: Path) -> int:
    with Engine(str(db)) as engine:
        return event_count(engine)


def test_the_two_million_character_note_of_the_issue_is_one_line_and_exit_2(
    tmp_path: Path,
) -> None:
    db = tmp_path / "campaign.db"
    assert 0 == run(db, "init", "Night Shift", "--system", "code-green", "--gm", "Rosa").exit_code
    before = events(db)
    result = run(db, "note", "n" * 2_000_000)
    assert 2 == result.exit_code
    assert result.stderr == (
        "error: TEXT_TOO_LONG: text is 2,000,000 characters; a command's text is at most "
        "10,000 characters (see Limits in docs/dice-and-trust.md)\n"
    )
    assert before == events(db)


# The Code's hero takes the most text of any command: seven details and the player, together
# MAX_COMMAND_TEXT characters here (the code name is kept short: it names the hero). The first
# two details hold half of it: the amendment below gives them again, with a full reason.
PLAYER, CODE_NAME = "dana", "The Hawk"
HALF = (MAX_COMMAND_TEXT - MAX_TEXT) // 2
REST = ("--profession", "--advantage", "--weakness", "--objective", "--mo")
SHARE, EXTRA = divmod(MAX_COMMAND_TEXT - len(PLAYER) - len(CODE_NAME) - 2 * HALF, len(REST))


def hero_options() -> list[str]:
    options = ["--player", PLAYER, "--score", "6", "--exposure", "4"]
    options += ["--identity", WORST * HALF, "--description", WORST * HALF]
    for n, option in enumerate(REST):
        options += [option, WORST * (SHARE + (EXTRA if n == 0 else 0))]
    return options


def test_the_largest_row_the_limits_allow_is_exported_imported_and_read_by_verify_dice(
    tmp_path: Path,
) -> None:
    """The hero is created with all the text a command takes, then amended with all the text
    an amendment takes (two details and the reason): the amendment's header holds both, as
    JSON inside JSON, the largest row there is. Its line fits MAX_LINE; the copy imports with
    the same digest, and `verify-dice` reads the file."""
    db = tmp_path / "campaign.db"
    for argv in (
        ["init", "Gotham", "--system", "the-code", "--gm", "Rosa", "--member", f"{PLAYER}:player"],
        ["session", "start"],
        ["character", "create", CODE_NAME, *hero_options()],
    ):
        result = run(db, *argv)
        assert 0 == result.exit_code, (argv[:2], result.output[:300])
    created = json.loads(run(db, "--json", "log").stdout)[-1]["ruling"]
    changes = ["--set", "secret_identity=" + WORST * HALF]
    changes += ["--set", "physical_description=" + "\x02" * HALF]
    before = events(db)
    over = run(db, "amend", str(created), *changes, "--reason", WORST * (MAX_TEXT + 1))
    assert 2 == over.exit_code
    assert over.stderr.startswith("error: TEXT_TOO_LONG: reason is 10,001 characters")
    one_more = [*changes[:-1], changes[-1] + "x"]
    over = run(db, "amend", str(created), *one_more, "--reason", WORST * MAX_TEXT)
    assert 2 == over.exit_code
    assert over.stderr.startswith("error: COMMAND_TEXT_TOO_LONG: the text given to amend is")
    assert before == events(db)
    amended = run(db, "amend", str(created), *changes, "--reason", WORST * MAX_TEXT)
    assert 0 == amended.exit_code, amended.output[:300]
    rolled = run(db, "exposure", CODE_NAME)  # the session's committed dice, for verify-dice
    assert 0 == rolled.exit_code, rolled.output[:300]
    ended = run(db, "session", "end")
    assert 0 == ended.exit_code, ended.output[:300]

    export = tmp_path / "gotham.jsonl"
    assert 0 == run(db, "export", "--out", str(export)).exit_code
    lines = export.read_bytes().splitlines(keepends=True)
    longest = max(lines, key=len)
    assert 2 * MAX_COMMAND_TEXT * 7 <= len(longest) <= MAX_LINE  # the worst case, and it fits
    assert b'"command": "amend"' in longest

    copy = tmp_path / "copy.db"
    imported = run(copy, "import", str(export))
    assert 0 == imported.exit_code, imported.output[:300]
    digest = json.loads(lines[0])["digest"]
    assert digest in imported.stdout
    checked = run(copy, "--json", "verify")
    assert 0 == checked.exit_code
    assert digest in checked.stdout
    dice = CliRunner().invoke(campaign, ["verify-dice", str(export)])
    assert 0 == dice.exit_code, dice.output[:300]
