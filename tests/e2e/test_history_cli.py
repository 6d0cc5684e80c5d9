"""Looking back from the command line: show at a point, diff, history, replay."""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import shlex
import signal
import subprocess
import sys
import termios
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from cli import history
from cli.main import campaign
from tests.conftest import FROZEN_AT
from tests.e2e.conftest import SETUP, Run


def test_show_at_a_ruling_as_recorded_and_as_corrected(table: Run) -> None:
    """At ruling 9 the adaptation stands as recorded; corrected, the later undo removed it."""
    table("test alice Legs Invulnerable --roll --dice 2,5")  # 8
    table("adapt alice R1C1 R1C2")  # 9
    table('undo 9 --reason "wrong token"')  # 10
    then = json.loads(table("--json show alice --at 9").stdout)
    corrected = json.loads(table("--json show alice --at 9 --corrected").stdout)
    assert (["R1C2", "R2C2", "R3C3"], ["R1C1", "R2C2", "R3C3"]) == (
        then["tokens"],
        corrected["tokens"],
    )


def test_show_without_a_character_shows_the_campaign(table: Run) -> None:
    """The campaign view: rulings, session, scene, roster."""
    shown = table("show").output
    assert "Night Shift (code-green), GM Rosa: 7 rulings" in shown
    assert "scene 1: The cold room" in shown
    assert "31415 (alice)" in shown


def test_show_at_the_end_of_a_session_and_at_a_moment(table: Run) -> None:
    """--session N is the state when session N ended; --time the last ruling at that moment."""
    table("scene end")
    table("session end")
    with freeze_time(FROZEN_AT + timedelta(days=7)):
        table("session start")
        table('scene start "A week later"')
        table("place alice R1C3 R2C3 R3C3")
    at_session = json.loads(table("--json show alice --session 1").stdout)
    at_moment = json.loads(table(f"--json show alice --time {FROZEN_AT:%Y-%m-%dT%H:%M:%S}").stdout)
    now = json.loads(table("--json show alice").stdout)
    assert ([], [], ["R1C3", "R2C3", "R3C3"]) == (
        at_session["tokens"],
        at_moment["tokens"],
        now["tokens"],
    )
    assert "NO_SUCH_POINT" in table("show alice --session 9").stderr


def test_diff_between_rulings_and_between_views(table: Run) -> None:
    """A field-by-field diff between two rulings, and between the recorded and corrected past."""
    table("test alice Legs Invulnerable --roll --dice 2,5")  # 8
    table("adapt alice R1C1 R1C2")  # 9
    between = table("diff alice 7 9").output
    assert "tokens: ['R1C1', 'R2C2', 'R3C3'] -> ['R1C2', 'R2C2', 'R3C3']" in between
    assert "tests: 0 -> 1" in between
    table('undo 9 --reason "wrong token"')
    views = table("--json diff alice 9 --views").stdout
    assert [{"field": "test", "before": None}] == [
        {k: v for k, v in d.items() if k != "after"}
        for d in json.loads(views)
        if d["field"] == "test"
    ]


def test_history_lists_each_change_with_its_ruling(table: Run) -> None:
    """Creation, placement, the test and the undone adaptation, each under its ruling."""
    table("test alice Legs Invulnerable --roll --dice 2,5")  # 8
    table("adapt alice R1C1 R1C2")  # 9
    table('undo 9 --reason "wrong token"')  # 10
    rows = [line for line in table("history alice").output.splitlines() if line.startswith("#")]
    assert ["character create", "place", "test", "adapt (undone)"] == [
        row.split(": ", 1)[1] for row in rows
    ]


def test_replay_narrates_a_session_with_the_state_after_each_ruling(table: Run) -> None:
    """Each ruling, its lines, and the touched characters' state after it; --step pauses."""
    table("test alice Legs Invulnerable --roll --dice 2,5")
    output = table("replay --session 1").output
    assert "#8 Rosa: test [session 1, scene 1]" in output
    assert "after: 31415: must adapt after test 1; tokens R1C1, R2C2, R3C3" in output
    stepped = table("replay --step")
    assert 0 == stepped.exit_code


@pytest.mark.parametrize(
    ("key", "code"),
    [("q", 0), ("Q", 0), ("\x1b", 0), ("\x04", 0), ("\x03", 130)],
    ids=["q", "Q", "esc", "ctrl-d", "ctrl-c"],
)
def test_replay_step_stops_on_q_esc_and_ctrl_c(db: Path, key: str, code: int) -> None:
    """Issue 22: `replay --step` quits at once on q, Esc, Ctrl-C or Ctrl-D (and at the end of
    its input); any other key goes on to the next ruling. Ctrl-C exits 130, as an interrupted
    program does (issue 30)."""
    runner = CliRunner()
    for line in SETUP:
        runner.invoke(campaign, ["--db", str(db), *shlex.split(line)])
    stopped = runner.invoke(campaign, ["--db", str(db), "replay", "--step"], input=key)
    assert code == stopped.exit_code
    assert 1 == stopped.output.count("(any key: next ruling")
    assert "Traceback" not in stopped.output
    both = runner.invoke(campaign, ["--db", str(db), "replay", "--step"], input="x" + key)
    assert 2 == both.output.count("(any key: next ruling")


PROMPT = b"(any key: next ruling"


def _stepping(db: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`campaign replay --step` in a process of its own, on a terminal (a pseudo-terminal we
    hold the other end of, its controlling terminal: Ctrl-C typed before the program reads
    keys one by one is SIGINT, as in a shell), once it waits for its first key."""
    for line in SETUP:
        assert 0 == CliRunner().invoke(campaign, ["--db", str(db), *shlex.split(line)]).exit_code
    ours, theirs = pty.openpty()
    argv = [sys.executable, "-m", "cli", "--db", str(db), "replay", "--step"]

    def as_a_shell_starts_it() -> None:
        """The terminal is its controlling terminal, and SIGINT does what it does by default,
        as a shell sets it for the command it runs in the foreground (a test run started in
        the background of a shell without job control inherits SIGINT ignored)."""
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    process = subprocess.Popen(
        argv,
        stdin=theirs,
        stdout=theirs,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=as_a_shell_starts_it,
    )
    os.close(theirs)
    seen = b""
    while PROMPT not in seen:
        seen += os.read(ours, 4096)
    return process, ours


@pytest.mark.parametrize("how", ["the key", "the signal"])
def test_ctrl_c_in_a_real_terminal_exits_130_quietly(db: Path, how: str) -> None:
    """Ctrl-C typed at the prompt (a raw terminal reads it as a key) or sent as SIGINT (the
    terminal's usual way): exit code 130, nothing on stderr, no traceback, no 'Aborted!'."""
    process, ours = _stepping(db)
    try:
        if how == "the key":
            os.write(ours, b"\x03")
        else:
            process.send_signal(signal.SIGINT)
        assert 130 == process.wait(timeout=60)
        assert process.stderr is not None
        assert b"" == process.stderr.read().strip()
    finally:
        process.kill()
        os.close(ours)


def test_undo_that_redecides_the_later_rulings(table: Run, count: Callable[[], int]) -> None:
    """Bob's assist undone: alone it is refused naming the roll (nothing appended; the
    adaptation stands on the roll decided again, so it does not depend on the assist); with
    --redecide the roll is decided again on two of its dice, and the log, `show --corrected`
    and `diff --views` say it was re-decided."""
    table("test alice Legs Invulnerable")  # 8
    table('assist bob R2C2 --why "his lungs"')  # 9
    table("roll --dice 2,5,4")  # 10
    table("adapt alice R1C1 R1C2")  # 11
    before = count()
    alone = table('undo 9 --reason "no help"')
    assert (2, before) == (alone.exit_code, count())
    assert "LATER_RULINGS_DEPEND" in alone.stderr
    assert "later rulings 10 depend" in alone.stderr
    both = table('undo 9 --reason "no help" --redecide --with-dependents')
    assert (2, before) == (both.exit_code, count())
    assert "REDECIDE_OR_WITH_DEPENDENTS" in both.stderr

    done = table('undo 9 --reason "no help" --redecide')  # 12

    assert 0 == done.exit_code, done.output
    assert "ruling 10 re-decided: no help" in done.output
    log = table("log").output
    assert "RE-DECIDED by #12 (Rosa): no help\n  > 31415: test 1: pool 2 [2,5] -> 5" in log
    corrected = "corrected since: #9 undone by #12; #10 re-decided by #12"
    assert corrected in table("show alice --at 10 --corrected").output
    assert corrected in table("diff alice 10 --views").output
    entry = next(r for r in json.loads(table("--json log").stdout) if r["ruling"] == 10)
    assert ["re-decided"] == [a["kind"] for a in entry["amended"]]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


def test_a_long_replay_into_a_file_shows_its_progress_on_the_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Narration to a file, stderr on a terminal: a progress line every 50 rulings of a
    session of 200 or more, ended with a newline; none for a shorter session, none when the
    narration is on the terminal itself."""
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(sys, "stdout", Pipe())
    show = history.progress_line("replaying session 1")
    assert show is not None
    for done in range(1, 121):
        show(done, 120)
    assert "" == terminal.getvalue()
    for done in range(1, 201):
        show(done, 200)
    shown = terminal.getvalue().split("\r")[1:]
    assert 4 == len(shown)
    assert "replaying session 1: 200 of 200 rulings\n" == shown[-1]
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert history.progress_line("replaying session 1") is None
