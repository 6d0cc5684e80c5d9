"""Commit-reveal from the command line: the GM commits, players add entropy, the dice roll,
the session ends, and a player checks the export with `verify-dice` alone."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path

from domain.table import RegisterKey
from engine import Engine
from tests.e2e.conftest import Run

WORDS = (("Bea", "pancakes at midnight"), ("Carl", "4471"))


def ok(run: Run, line: str) -> str:
    result = run(line)
    assert 0 == result.exit_code, (line, result.output, result.stderr)
    return result.stdout


def signing_line(started: str) -> str:
    """The command `session start` prints for the players to sign their words with."""
    return next(
        line.strip()
        for line in started.splitlines()
        if line.strip().startswith("campaign key sign")
    )


def from_the_table_page(store: Path, who: str, public_key: str) -> None:
    """``who`` puts ``public_key`` on their seat from their own signed-in client (the table
    page, on the same store): from protocol 3 only such a key's entropy counts."""
    with Engine(str(store)) as engine:
        register = RegisterKey(member=who, key=public_key)
        engine.execute("Night Shift", register, actor=who, signed_in=True)


def played(run: Run, keys: Path) -> str:
    """The session played: Bea and Carl make their keys on their own machines (a file each),
    put the public halves on their seats from the table page, sign their words for the
    commitment `session start` printed, and a character is created with five committed name
    dice (ruling 8). The commitment. (``keys`` is the test's folder, beside its store.)"""
    ok(
        run,
        'init "Night Shift" --system code-green --gm Rosa --member Bea:player --member Carl:player',
    )
    for who, _ in WORDS:
        made = json.loads(ok(run, f"--json key new --file {keys / who}.pem"))
        from_the_table_page(keys / "campaign.db", who, made["public_key"])  # 2, 3
    started = ok(run, "session start")  # 4: the commitment, printed
    commitment = started.split("seed hash ")[1].split()[0]
    printed = signing_line(started)
    for who, words in WORDS:  # 5, 6: the line `session start` printed, as printed
        line = printed.replace('"your words"', shlex.quote(words)).replace("NAME", who)
        signed = json.loads(
            ok(run, f"--json {line.removeprefix('campaign ')} --file {keys / who}.pem")
        )
        ok(
            run,
            f"--as {who} entropy {shlex.quote(words)} --by {who} --signature {signed['signature']}",
        )
    ok(run, 'scene start "The cold room"')  # 7
    ok(
        run,
        "character create --player alice --form Legs,Tail,Teeth "
        "--function Cryptic,Invulnerable,Phasing",
    )  # 8
    return commitment


def test_session_start_tells_the_players_how_to_sign_against_the_seed_hash(run: Run) -> None:
    """The hint after `session start` gives the seed hash the line above it printed as the
    commitment to sign against (not a placeholder named otherwise), and how a player without a
    key gets one onto their seat (issue 44)."""
    ok(run, 'init "Night Shift" --system code-green --gm Rosa --member Bea:player')
    started = ok(run, "session start")
    seed_hash = started.split("seed hash ")[1].split()[0]
    hint = started.split(seed_hash, 1)[1]
    assert "signed against the seed hash above" in hint
    assert signing_line(started).endswith(f"--commitment {seed_hash}")
    assert "COMMITMENT" not in started
    assert "`campaign key new`" in hint
    assert "`campaign member key NAME PUBLIC_KEY`" in hint


def test_players_add_entropy_and_check_the_session_from_the_export(
    run: Run, tmp_path: Path
) -> None:
    commitment = played(run, tmp_path)
    late = run('--as Bea entropy "too late" --by Bea')
    assert 2 == late.exit_code
    assert "ENTROPY_WINDOW_CLOSED" in late.stderr
    assert "ruling 8" in late.stderr
    assert 0 == run("scene end").exit_code
    assert 0 == run("session end").exit_code
    undo = run('undo 10 --reason "no"')
    assert 2 == undo.exit_code
    assert "CANNOT_UNDO" in undo.stderr
    out = tmp_path / "s.jsonl"
    assert 0 == run(f"export --out {out}").exit_code

    checked = run(f"verify-dice {out}")

    assert 0 == checked.exit_code, checked.output
    assert f"session 1: commitment {commitment}" in checked.output
    assert "entropy from Bea: 'pancakes at midnight' (signed, counted)" in checked.output
    assert "entropy from Carl: '4471' (signed, counted)" in checked.output
    assert "1 committed rulings: verified" in checked.output
    assert "the dice check out" in checked.output
    report = json.loads(run(f"--json verify-dice {out} --session 1").stdout)
    assert (True, commitment) == (report["intact"], report["dice"][0]["commitment"])
    mine = run(f"verify-dice {out} --key {tmp_path / 'Bea.pem'}")
    assert "your entropy: 'pancakes at midnight' counted" in mine.output
    stranger = tmp_path / "stranger.pem"
    ok(run, f"key new --file {stranger}")
    assert "your entropy: NOT included" in run(f"verify-dice {out} --key {stranger}").output


def test_a_forged_face_in_the_export_does_not_check_out(run: Run, tmp_path: Path) -> None:
    played(run, tmp_path)
    run("scene end")
    run("session end")
    out = tmp_path / "s.jsonl"
    run(f"export --out {out}")
    lines = out.read_text().splitlines()
    for number, line in enumerate(lines):
        row = json.loads(line)
        if (
            row.get("topic", "").endswith(":RulingMade")
            and row["event"]["event"].get("counter") == 0
        ):
            die = row["event"]["event"]["dice"][0]
            die["face"] = 7 - die["face"]
            lines[number] = json.dumps(row)
    out.write_text("\n".join(lines) + "\n")

    checked = run(f"verify-dice {out}")

    assert 1 == checked.exit_code
    assert "the dice do NOT check out" in checked.output


def test_a_key_is_made_once_and_only_a_players_seat_takes_one(run: Run, tmp_path: Path) -> None:
    key_file = tmp_path / "bea.pem"
    ok(run, f"key new --file {key_file}")
    assert 0o600 == key_file.stat().st_mode & 0o777
    again = run(f"key new --file {key_file}")
    assert (2, "KEY_FILE_EXISTS") == (again.exit_code, again.stderr.split(":")[1].strip())
    not_a_key = tmp_path / "notes.txt"
    not_a_key.write_text("hello")
    unreadable = run(f'key sign "words" --member Bea --commitment ab --file {not_a_key}')
    assert 2 == unreadable.exit_code
    assert "KEY_FILE_UNREADABLE" in unreadable.stderr
    ok(run, 'init "Night Shift" --system code-green --gm Rosa --member Bea:player')
    public = ok(run, f"key show --file {key_file}").split("your public key: ")[1].split()[0]
    before = len(json.loads(ok(run, "--json log")))
    for line, code in (
        ("member key Bea 1234", "INVALID_PUBLIC_KEY"),
        (f"member key Rosa {public}", "NO_KEY_FOR_GM"),
        (f"member key Dan {public}", "UNKNOWN_MEMBER"),
    ):
        refused = run(line)
        assert (2, code) == (refused.exit_code, refused.stderr.split(":")[1].strip()), line
    assert before == len(json.loads(ok(run, "--json log")))
    ok(run, f"--as Bea member key Bea {public}")


def test_entropy_takes_a_signature_as_printed_and_once(
    run: Run, tmp_path: Path, count: Callable[[], int]
) -> None:
    """The signature `key sign` printed, typed in upper case or with a space: exit 2, the
    refusal on stderr, nothing appended (the CLI does not rewrite it). As printed, it counts;
    given again, or with other words, it is refused."""
    ok(run, 'init "Night Shift" --system code-green --gm Rosa --member Bea:player')
    made = json.loads(ok(run, f"--json key new --file {tmp_path / 'Bea.pem'}"))
    from_the_table_page(tmp_path / "campaign.db", "Bea", made["public_key"])
    commitment = ok(run, "session start").split("seed hash ")[1].split()[0]

    def signed(words: str) -> str:
        line = f"--json key sign {shlex.quote(words)} --member Bea --commitment {commitment}"
        return str(json.loads(ok(run, f"{line} --file {tmp_path / 'Bea.pem'}"))["signature"])

    signature = signed("pancakes")
    before = count()
    for spelling in (signature.upper(), f"' {signature}'"):
        result = run(f"entropy pancakes --by Bea --signature {spelling}")
        assert 2 == result.exit_code, result.output
        assert result.stderr.startswith("error: ENTROPY_SIGNATURE_NOT_CANONICAL: ")
        assert "" == result.stdout
    assert before == count()
    ok(run, f"--as Bea entropy pancakes --by Bea --signature {signature}")
    before = count()
    for words, by_then in (("pancakes", signature), ("waffles", signed("waffles"))):
        result = run(f"--as Bea entropy {words} --by Bea --signature {by_then}")
        assert 2 == result.exit_code, result.output
        assert result.stderr.startswith("error: ENTROPY_ALREADY_COUNTED: ")
    assert before == count()


def test_an_amendments_re_draws_are_said_logged_and_listed(run: Run, tmp_path: Path) -> None:
    """The GM amends a free roll of Bea's to more dice, three times: each amendment says it
    drew its die from Bea's committed counters and how many times the roll's dice have been
    re-drawn; the log marks each amendment with the count so far; after the session,
    `verify-dice` on the export recomputes the new dice and lists the re-draws with their
    count."""
    played(run, tmp_path)
    ok(run, '--as Bea dice 1d6 --why "the jump"')  # 9
    said = [ok(run, f'amend 9 --set expression=2d6 --reason "try {n}"') for n in (1, 2, 3)]
    assert (
        "1 die/dice the original never rolled were drawn for the correction from Bea's "
        "committed dice (counters 1-1)" in said[0]
    )
    assert "ruling 9: dice re-drawn once (verify and verify-dice list every re-draw)" in said[0]
    assert "ruling 9: dice re-drawn 3 times" in said[2]
    log = ok(run, "log")
    assert "AMENDED by #11 (Rosa): try 2 (dice re-drawn 2 times so far)" in log
    ok(run, "scene end")
    ok(run, "session end")
    out = tmp_path / "s.jsonl"
    ok(run, f"export --out {out}")
    checked = run(f"verify-dice {out}")
    assert 0 == checked.exit_code, checked.output
    assert "5 committed rulings: verified" in checked.output
    listed = "WARNING: ruling 9 (by Bea): its dice were re-drawn 3 times, by amendments 10, 11, 12"
    assert listed in checked.output
    assert "the dice check out" in checked.output


def test_a_key_put_on_a_seat_at_the_gms_keyboard_signs_entropy_that_does_not_count(
    run: Run, tmp_path: Path
) -> None:
    """The attack of a puppet seat: a key put on Bea's seat from the GM's machine (`--as Bea`:
    a claim there) may be the GM's own. From protocol 3 the words it signs are recorded and
    listed, not counted; the first roll does not wait for that seat; `verify-dice` lists the
    key as put there at the GM's keyboard, and Bea's own key file, given with `--as Bea`, is
    said plainly not to be the key on her seat."""
    ok(run, 'init "Night Shift" --system code-green --gm Rosa --member Bea:player')
    puppet = json.loads(ok(run, f"--json key new --file {tmp_path / 'puppet.pem'}"))
    ok(run, f"--as Bea member key Bea {puppet['public_key']}")
    ok(run, "session start")
    ok(run, "dice 1d6 --why weather")  # the window waits for no seat keyed at the keyboard
    ok(run, "session end")
    commitment = ok(run, "session start").split("seed hash ")[1].split()[0]
    line = f"--json key sign mine --member Bea --commitment {commitment}"
    signature = json.loads(ok(run, f"{line} --file {tmp_path / 'puppet.pem'}"))["signature"]
    ok(run, f"--as Bea entropy mine --by Bea --signature {signature}")
    ok(run, f"--as Bea entropy mine --by Bea --signature {signature}")  # none counted: no refusal
    ok(run, "dice 1d6 --why weather")
    ok(run, "session end")
    out = tmp_path / "s.jsonl"
    ok(run, f"export --out {out}")
    checked = run(f"verify-dice {out}")
    assert 0 == checked.exit_code, checked.output
    assert "(signed, counted)" not in checked.output
    assert (
        "is signed by a key put on Bea's seat at the GM's keyboard (by Bea): not counted: key "
        "put on the seat at the GM's keyboard" in checked.output
    )
    assert (
        "the key on Bea's seat was put there at the GM's keyboard, not from Bea's own signed-in "
        "client (its entropy is not counted)" in checked.output
    )
    keys = json.loads(run(f"--json verify-dice {out}").stdout)["dice"][-1]["keys"]
    assert [{"member": "Bea", "key": puppet["public_key"], "from": "the GM's keyboard"}] == keys
    ok(run, f"key new --file {tmp_path / 'Bea.pem'}")
    hers = run(f"--as Bea verify-dice {out} --key {tmp_path / 'Bea.pem'}")
    assert (
        f"WARNING: the key in your key file is not the key on Bea's seat (Bea's seat holds "
        f"{puppet['public_key']})" in hers.output
    )
