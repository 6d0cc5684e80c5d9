"""Witnesses from the command line (issue 43, item 1): a member's `thread` and `verify-dice`
keep, beside their key and signed by it, the head of the log they were shown; `campaign witness`
lists, exports and imports those statements; `verify --witness` (on SQLite and PostgreSQL) and
`verify-dice --witness` hold the log to every head a witness file holds, and name the first the
log no longer holds: each of the three rewrites `verify` cannot see is caught, exit 1."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import campaign
from tests.integration.test_tamper import Played, play
from tests.integration.witnesses import (
    REWRITES,
    Witness,
    copy_of,
    every_head,
    exported,
    imported,
    rewrite,
    store_of,
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory.mktemp("witness-cli") / "played.db")


def cli(db: str, line: str, key: Path | None = None) -> Result:
    env = {"CAMPAIGN_KEY": str(key)} if key is not None else {"CAMPAIGN_KEY": "/nonexistent/k"}
    return CliRunner().invoke(campaign, ["--db", db, *shlex.split(line)], env=env)


def ok(db: str, line: str, key: Path | None = None) -> str:
    result = cli(db, line, key)
    assert 0 == result.exit_code, (line, result.output)
    return result.output


def test_thread_and_verify_dice_keep_what_they_saw_beside_the_key(
    template: Played, tmp_path: Path
) -> None:
    db = str(copy_of(template, tmp_path / "store").db)
    key = tmp_path / "rosa.pem"
    ok(db, f"key new --file {key}")
    ok(db, "thread", key)
    listed = json.loads(ok(db, "--json witness list", key))
    assert str(key) + ".witness.jsonl" == listed["file"]
    (thread,) = listed["statements"]
    assert ("Rosa", "campaign thread", 21) == (
        thread["by"],
        thread["seen"],
        thread["head"]["ruling"],
    )
    export = tmp_path / "s.jsonl"
    ok(db, f"export --out {export}")
    said = ok(db, f"verify-dice {export} --key {key}", key)
    assert (
        "witnesses: the log holds every head of 1 statement (Rosa 1), of rulings 21 to 21" in said
    )
    assert "witnessed: ruling 21 (version 41" in said
    shown = ok(db, "witness list", key)
    assert "Docklands ruling 21 (version 41, digest " in shown
    assert "): seen by Rosa at " in shown
    assert " (campaign verify-dice), signature holds" in shown
    ok(db, "thread", key)  # the same head again: kept once
    out = tmp_path / "w.jsonl"
    ok(db, f"witness export --out {out}", key)
    lines = out.read_text().splitlines()
    assert 2 == len(lines)
    other = tmp_path / "bo.pem"
    assert "2 new statements kept, of 2 read" in ok(db, f"witness import {out} --file {other}")
    assert "0 new statements kept, of 2 read" in ok(db, f"witness import {out} --file {other}")
    forged = json.loads(lines[0]) | {"by": "Bo"}
    (tmp_path / "forged.jsonl").write_text(json.dumps(forged) + "\n")
    said = ok(db, f"witness import {tmp_path / 'forged.jsonl'} --file {other}")
    assert "WARNING: not kept, its signature does not hold: Bo at" in said


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("name", sorted(REWRITES))
def test_verify_with_a_witness_names_the_fork_of_each_rewrite(
    template: Played, tmp_path: Path, name: str, kind: str
) -> None:
    """The doctored store exported and imported into ``kind``: `verify` says intact; with
    ana's witness file (every head she was shown before the rewrite), it names the first head
    the log no longer holds, who saw it and when, and exits 1; so does `verify-dice` on the
    doctored export."""
    ana = Witness("ana")
    witnessed = tmp_path / "ana.witness.jsonl"
    heads = every_head(str(template.db))
    lines = [ana.saw(h, at=f"2026-11-29T20:{h.ruling:02}:00Z").line() for h in heads]
    witnessed.write_text("".join(f"{line}\n" for line in lines))
    doctored = copy_of(template, tmp_path / "doctored")
    rewrite(doctored, name)
    export = exported(str(doctored.db), tmp_path / "doctored.jsonl")
    first = REWRITES[name]
    fork = f"FORK: ruling {first} (version {heads[first - 1].version}), seen by ana at "
    fork += f"2026-11-29T20:{first:02}:00Z (the table page, signed), is not in the log: "
    with store_of(kind, tmp_path / "copy") as db:
        imported(export, db)
        assert "the log is intact" in ok(db, "verify")
        checked = cli(db, f"verify --witness {witnessed}")
        assert 1 == checked.exit_code, checked.output
        assert fork in checked.output
        assert f"and {21 - first} more heads" in checked.output or first == 21
        assert checked.output.rstrip().endswith("the log was tampered with")
        shown = json.loads(cli(db, f"--json verify --witness {witnessed}").output)
        assert first == shown["witnesses"]["fork"]["statement"]["head"]["ruling"]
    dice = cli(str(tmp_path / "none.db"), f"verify-dice {export} --witness {witnessed}")
    assert 1 == dice.exit_code, dice.output
    assert fork in dice.output


def test_a_witness_file_that_holds_no_statements_is_refused(
    template: Played, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"statement": "campaign-log witness 1", "campaign": "x"}\n')
    refused = cli(str(template.db), f"verify --witness {bad}")
    assert 2 == refused.exit_code
    assert f"WITNESS_UNREADABLE: {bad} line 1 is not a witness statement" in refused.stderr


@pytest.mark.parametrize("given", [None, "mine.pem"])
@pytest.mark.parametrize("variable", [None, "theirs.pem"])
def test_the_key_looked_for_is_the_engines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str | None, variable: str | None
) -> None:
    """A `thread` finds the key beside which it keeps what it saw without loading the key's
    module: where it looks is where ``engine.key_path`` does."""
    from cli.witness import DEFAULT_KEY, own_key
    from engine import key_path

    monkeypatch.setenv("HOME", str(tmp_path))
    if variable is None:
        monkeypatch.delenv("CAMPAIGN_KEY", raising=False)
    else:
        monkeypatch.setenv("CAMPAIGN_KEY", str(tmp_path / variable))
    chosen = str(tmp_path / given) if given else None
    assert own_key(chosen) is None
    expected = key_path(chosen)
    expected.parent.mkdir(parents=True, exist_ok=True)
    expected.write_text("a key")
    assert expected == own_key(chosen)
    assert Path(DEFAULT_KEY).expanduser() == tmp_path / ".config/campaign-log/player-key.pem"


def test_a_members_copy_is_held_to_a_witness_as_the_whole_log_is(
    template: Played, tmp_path: Path
) -> None:
    """ana's own copy (`export --for ana`) of the log she was shown holds every head her witness
    file holds; her copy of the whole log rewritten (everything recomputed) names the fork at
    the first head she saw that it no longer holds, and exits 1."""
    ana = Witness("ana")
    witnessed = tmp_path / "ana.witness.jsonl"
    heads = every_head(str(template.db))
    lines = [ana.saw(h, at=f"2026-11-29T20:{h.ruling:02}:00Z").line() for h in heads]
    witnessed.write_text("".join(f"{line}\n" for line in lines))
    intact = copy_of(template, tmp_path / "intact")
    ok(str(intact.db), "member add ana --role player")  # her seat, after every head she saw
    mine = tmp_path / "ana.jsonl"
    ok(str(intact.db), f"export --for ana --out {mine}")
    held = cli(str(tmp_path / "none.db"), f"verify-dice {mine} --witness {witnessed}")
    assert 0 == held.exit_code, held.output
    assert "ana's copy:" in held.output
    assert "witnesses: the log holds every head of" in held.output
    name = "rewrite the whole log consistently"
    doctored = copy_of(template, tmp_path / "doctored")
    rewrite(doctored, name)
    ok(str(doctored.db), "member add ana --role player")
    forged = tmp_path / "ana-forged.jsonl"
    ok(str(doctored.db), f"export --for ana --out {forged}")
    first = REWRITES[name]
    caught = cli(str(tmp_path / "none.db"), f"verify-dice {forged} --witness {witnessed}")
    assert 1 == caught.exit_code, caught.output
    assert f"FORK: ruling {first} (version {heads[first - 1].version}), seen by ana at " in (
        caught.output
    )
