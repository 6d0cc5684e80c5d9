"""A player seals their own roll from the command line (protocol 3): the GM's CLI prints the
text (`--seal-text`), the player signs it on their own machine (`campaign key seal`, which
keeps what it sealed beside the key), the roll is recorded with the seal (`--seal`), and
`verify-dice` says which rolls their players sealed, which the GM's machine could foresee, and,
with the player's key, every sealed roll the log lacks."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import campaign
from tests.e2e.conftest import Run
from tests.e2e.test_dice_protocol import ok, played


def sealed(run: Run, keys: Path, line: str, who: str = "Bea") -> str:
    """``line`` sealed by ``who``: the text the GM's CLI prints, signed on their machine."""
    text = ok(run, f"--as {who} {line} --seal-text")
    (keys / "text").write_text(text, encoding="utf-8")
    signed = json.loads(ok(run, f"--json key seal {keys / 'text'} --file {keys / who}.pem"))
    return str(signed["seal"])


def test_a_roll_sealed_by_its_player_is_recorded_and_checks_out(run: Run, tmp_path: Path) -> None:
    played(run, tmp_path)
    line = 'dice 1d20 --why "the jump"'
    seal = sealed(run, tmp_path, line)
    said = ok(run, f"--as Bea {line} --seal {seal}")
    assert said.startswith("ruling 9: dice (digital-committed dice, sealed by Bea)")
    logged = json.loads(ok(run, "--json log"))
    assert [9] == [r["ruling"] for r in logged if r["ruling"] == 9]
    ok(run, "--as Bea dice 1d4 --why coin")  # not sealed: the GM's machine could foresee it
    dropped = sealed(run, tmp_path, "dice 1d6 --why never")  # sealed, never recorded
    assert dropped
    ok(run, "scene end")
    ok(run, "session end")
    out = tmp_path / "s.jsonl"
    ok(run, f"export --out {out}")
    checked = run(f"verify-dice {out} --key {tmp_path / 'Bea'}.pem")
    assert 0 == checked.exit_code, checked.output
    assert "sealed by their players (nobody could foresee them): Bea 1" in checked.output
    assert "foreseeable by the GM's machine" in checked.output
    assert "WARNING: your sealed roll is not in the log: sealed roll 1 of Bea: dice" in (
        checked.output
    )


def test_a_seal_of_another_roll_is_refused_on_stderr_and_nothing_is_appended(
    run: Run, tmp_path: Path
) -> None:
    played(run, tmp_path)
    seal = sealed(run, tmp_path, "dice 1d20")
    before = len(json.loads(ok(run, "--json log")))
    result = run(f"--as Bea dice 1d20+5 --seal {seal}")
    assert 2 == result.exit_code
    assert result.stderr.startswith("error: SEAL_DOES_NOT_HOLD: ")
    assert "" == result.stdout
    assert before == len(json.loads(ok(run, "--json log")))


def test_key_seal_signs_only_a_roll_to_seal(tmp_path: Path) -> None:
    runner = CliRunner()
    key = tmp_path / "k.pem"
    assert 0 == runner.invoke(campaign, ["key", "new", "--file", str(key)]).exit_code
    refused = runner.invoke(campaign, ["key", "seal", "--file", str(key)], input="hello\n")
    assert 2 == refused.exit_code
    assert "NOT_A_ROLL_TO_SEAL" in refused.stderr


def test_verify_dice_says_plainly_when_the_key_file_is_not_the_key_on_a_seat(
    run: Run, tmp_path: Path
) -> None:
    """The GM put a key of his own on Bea's seat: her own key file is on no seat, and
    `verify-dice --key` says so; the key that is on a seat draws no such line."""
    played(run, tmp_path)
    ok(run, "--as Bea dice 1d4 --why coin")
    ok(run, "scene end")
    ok(run, "session end")
    out = tmp_path / "s.jsonl"
    ok(run, f"export --out {out}")
    ok(run, f"key new --file {tmp_path / 'mine'}.pem")
    theirs = run(f"verify-dice {out} --key {tmp_path / 'mine'}.pem")
    assert "the key in your key file is on no seat of this log" in theirs.output
    assert (
        json.loads(run(f"--json verify-dice {out} --key {tmp_path / 'mine'}.pem").stdout)["dice"][
            0
        ]["key_on_a_seat"]
        is False
    )
    hers = run(f"verify-dice {out} --key {tmp_path / 'Bea'}.pem")
    assert "on no seat" not in hers.output
