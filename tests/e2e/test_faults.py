"""No input reaches a traceback: arbitrary bytes as arguments, store faults injected under a
command, a store file with a page overwritten by hand, a missing folder, an unreachable server.
Every run of `campaign` ends with exit 0, 1 (a fault) or 2 (a refusal), at most one line on
stderr (exactly one when it fails: `error: CODE: message`, or one JSON object under --json), no
"Traceback" anywhere, and nothing appended when it fails."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli.errors import global_options
from cli.main import campaign
from domain.limits import MAX_TEXT
from engine import Engine
from engine.store.recorders import BulkSQLiteRecorder
from tests.conftest import event_count, local_time_zone
from tests.e2e.conftest import SETUP

CODE = re.compile(r"[A-Z][A-Z_]+")
LINE = re.compile(r"\Aerror: ([A-Z][A-Z_]+): \S[^\n]*\n\Z")


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def events(db: Path) -> int | None:
    """The store's event count, or None when the file does not open as a store."""
    try:
        with Engine(str(db)) as engine:
            return event_count(engine)
    except Exception:
        return None


def invoke(db: Path, argv: list[str]) -> Result:
    return CliRunner().invoke(campaign, ["--db", str(db), *argv])


def ended_cleanly(result: Result, *, as_json: bool = False) -> str | None:
    """Assert the run's ending is one of the three promised; return its code (None on exit 0)."""
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    # Anything but SystemExit escaping `main` would be a traceback outside CliRunner.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        assert "" == result.stderr
        return None
    if result.exit_code == 1 and result.stdout.endswith("the log was tampered with\n"):
        assert "" == result.stderr  # `verify` found an edited row: its report is the output
        return None
    assert 1 == len(result.stderr.splitlines()), result.stderr
    assert result.stderr.endswith("\n")
    if as_json:
        error = json.loads(result.stderr)["error"]
        assert CODE.fullmatch(error["code"]), error
        assert error["message"].strip(), error
        assert "\n" not in error["message"], error
        assert isinstance(error["data"], dict), error
        assert " ".join(error["reason"].split()) == error["message"]  # deprecated: one release
        return str(error["code"])
    matched = LINE.match(result.stderr)
    assert matched, result.stderr
    return matched.group(1)


def play_setup(db: Path) -> None:
    for line in SETUP:
        result = CliRunner().invoke(campaign, ["--db", str(db), *_split(line)])
        assert 0 == result.exit_code, (line, result.output)


def _split(line: str) -> list[str]:
    import shlex

    return shlex.split(line)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The e2e table (Night Shift: alice and bob placed, scene 1 running) on a SQLite file."""
    db = tmp_path_factory.mktemp("faults") / "campaign.db"
    play_setup(db)
    return db


# --- Arbitrary bytes as arguments -------------------------------------------------------------

# What a shell hands over: any bytes but NUL, decoded as Python decodes argv (undecodable bytes
# become lone surrogates). Some are drawn from the bytes that break things most often.
TRICKY = [
    b"\xff",
    b"bad \xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\x1b[2J",
    b"\x07",
    b"\xe2\x80\xae",
    b"-",
    b"--",
    b"--help",
    b"-x",
    b"--json",
    b"",
    b"\xd9\xa3",
    b"3,\xd9\xa3",
    b"@everyone",
    b"<script>",
]
arg_bytes = st.one_of(
    st.binary(max_size=16),
    st.sampled_from(TRICKY),
    st.text(max_size=12).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.lists(st.sampled_from(TRICKY), min_size=2, max_size=3).map(b"".join),
)
args = arg_bytes.map(lambda b: b.replace(b"\x00", b"")).map(os.fsdecode)

VERBS: list[list[str]] = [
    ["note", "{}"],
    ["note", "{}", "--gm-only"],
    ["scene", "start", "{}"],
    ["character", "create", "--player", "{}", "--dice", "{}"],
    ["character", "show", "{}"],
    ["roll", "--dice", "{}"],
    ["test", "{}", "Legs", "{}"],
    ["place", "{}", "R1C1", "R2C2", "R3C3"],
    ["undo", "{}", "--reason", "{}"],
    ["amend", "{}", "--set", "{}", "--reason", "r"],
    ["use", "{}"],
    ["--campaign", "{}", "character", "show", "alice"],
    ["--actor", "{}", "note", "{}"],
    ["{}"],
]


def fill(template: list[str], values: list[str]) -> list[str]:
    out, supply = [], iter(values)
    for part in template:
        out.append(next(supply) if part == "{}" else part)
    return out


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[list[str], bool]:
    template = draw(st.sampled_from(VERBS))
    values = [draw(args) for _ in range(template.count("{}"))]
    as_json = draw(st.booleans())
    return (["--json"] if as_json else []) + fill(template, values), as_json


@fuzz(900)
@given(line=command_lines())
def test_arbitrary_argument_bytes_never_reach_a_traceback(
    table: Path, line: tuple[list[str], bool]
) -> None:
    """900 command lines with arbitrary bytes in their arguments, through click's runner."""
    argv, _ = line
    as_json = global_options(argv)[0]  # a drawn argument may itself be `--json`
    before = events(table)
    result = invoke(table, argv)
    code = ended_cleanly(result, as_json=as_json)
    event(f"exit {result.exit_code} {code or ''}")
    if code is not None:
        assert before == events(table), (argv, result.stderr)
    if any(not _utf8(a) for a in argv):
        assert (2, "UNREADABLE_ARGUMENT") == (result.exit_code, code), (argv, result.stderr)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def run_process(db: Path, argv: list[bytes], **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "cli", "--db", os.fsencode(db), *argv],
        capture_output=True,
        env={**os.environ, "PYTHONUTF8": "1", **env},
        cwd=db.parent,
        check=False,
        timeout=60,
    )


def process_ended_cleanly(done: subprocess.CompletedProcess[bytes]) -> str | None:
    assert done.returncode in (0, 1, 2), done
    assert b"Traceback" not in done.stdout + done.stderr, done.stderr
    if done.returncode == 0:
        assert b"" == done.stderr
        return None
    stderr = done.stderr.decode("utf-8")
    matched = LINE.match(stderr)
    assert matched, stderr
    return matched.group(1)


@fuzz(12)
@given(
    verb=st.sampled_from([["note"], ["scene", "start"], ["character", "show"]]),
    raw=arg_bytes.map(lambda b: b.replace(b"\x00", b"")),
)
def test_arbitrary_argument_bytes_in_a_real_process(
    table: Path, verb: list[str], raw: bytes
) -> None:
    """12 real `campaign` processes given raw bytes, as a shell passes them."""
    before = events(table)
    done = run_process(table, [*(v.encode() for v in verb), raw])
    code = process_ended_cleanly(done)
    if code is not None:
        assert before == events(table)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        assert (2, "UNREADABLE_ARGUMENT") == (done.returncode, code)


def test_the_note_from_the_issue_is_refused_in_one_line(table: Path) -> None:
    """`campaign note $'bad \\xff'`: exit 2, one line naming the bytes, nothing recorded."""
    before = events(table)
    done = run_process(table, [b"note", b"bad \xff"])
    assert 2 == done.returncode
    assert done.stderr.startswith(b"error: UNREADABLE_ARGUMENT: argument 4 is not UTF-8 text")
    assert b"'bad \\xff'" in done.stderr
    assert before == events(table)


# --- Moments at the calendar's ends ------------------------------------------------------------


@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo", "America/Los_Angeles"])
@pytest.mark.parametrize(
    ("moment", "code"),
    [
        ("0001-01-01", "NO_SUCH_POINT"),
        ("0001-01-01 00:00", "NO_SUCH_POINT"),
        ("0001-01-01T00:00:00+0100", "NO_SUCH_POINT"),
        ("9999-12-31", None),
        ("9999-12-31T23:59:59", None),
        ("9999-12-31T23:59:59-2359", None),
    ],
)
@pytest.mark.parametrize("read", [["show"], ["show", "alice"], ["--json", "show"]])
def test_a_moment_at_the_calendars_ends_is_answered(
    table: Path, zone: str, moment: str, code: str | None, read: list[str]
) -> None:
    """`show --time` in year 1 (local time east of UTC: year 0 in UTC) is before the campaign
    began, refused NO_SUCH_POINT appending nothing; in year 9999 (west of UTC: year 10000) it
    is after the last ruling: the state now."""
    before = events(table)
    with local_time_zone(zone):
        result = invoke(table, [*read, "--time", moment])
    assert code == ended_cleanly(result, as_json="--json" in read), result.output
    if code is None:
        assert invoke(table, read).stdout == result.stdout
    assert before == events(table)


# --- Usage errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["nosuch"], ["note"], ["note", "x", "--bogus"], ["session"], ["log", "--session", "one"]],
    ids=["unknown-verb", "missing-argument", "unknown-option", "missing-subcommand", "not-int"],
)
def test_usage_errors_under_json_are_one_json_object(table: Path, argv: list[str]) -> None:
    result = invoke(table, ["--json", *argv])
    assert 2 == result.exit_code
    assert "USAGE" == ended_cleanly(result, as_json=True)
    assert "" == result.stdout


def test_usage_errors_in_text_are_one_line_naming_the_help(table: Path) -> None:
    result = invoke(table, ["note", "x", "--bogus"])
    assert 2 == result.exit_code
    assert "error: USAGE: No such option '--bogus'. (see `campaign note --help`)\n" == (
        result.stderr
    )


# --- Faults injected under a command ---------------------------------------------------------


@pytest.fixture(scope="module")
def steady(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same table, for the fault tests only: a fault changes nothing, so every write below
    meets the table as set up."""
    db = tmp_path_factory.mktemp("steady") / "campaign.db"
    play_setup(db)
    return db


FAULTS = [
    (sqlite3.OperationalError("database or disk is full"), "STORE_FULL"),
    (sqlite3.OperationalError("database is locked"), "STORE_LOCKED"),
    (sqlite3.OperationalError("attempt to write a readonly database"), "STORE_READ_ONLY"),
    (sqlite3.DatabaseError("database disk image is malformed"), "STORE_CORRUPT"),
    (sqlite3.DatabaseError("file is not a database"), "STORE_CORRUPT"),
    (sqlite3.OperationalError("disk I/O error"), "STORE_FAULT"),
    (RuntimeError("a bug in the recorder"), "UNEXPECTED_ERROR"),
]
# Each would record a ruling at the table as set up (a fault keeps it as it is).
WRITES = [
    ["note", "--", "{}"],  # `--`: a note may begin with a dash
    ["test", "alice", "Legs", "Invulnerable"],
    [
        *("character", "create", "--player", "carol", "--form", "Legs,Tail,Teeth"),
        *("--function", "Cryptic,Invulnerable,Phasing", "--dice", "6,5,4,3,2"),
    ],
    ["undo", "--reason", "{}"],
    ["scene", "end"],
]
READS = [
    ["log"],
    ["character", "show", "alice"],
    ["verify"],
    ["list"],
    ["show"],
    ["history", "alice"],
    ["show", "bob", "--at", "5"],
    ["recap"],
    ["dice-stats"],
]
texts = st.text(min_size=1, max_size=40).filter(str.strip)


@contextmanager
def injected(where: str, error: BaseException, *, after: int = 0) -> Iterator[None]:
    """``error`` raised by the SQLite recorder: before its insert, after the rows are written
    in the save's transaction (which then rolls back), or at its ``after``-th read of a stream
    (the reads before it succeed)."""
    with pytest.MonkeyPatch.context() as patch:
        if where == "before-insert":

            def refuse(self: Any, *_: Any, **__: Any) -> Any:
                raise error

            patch.setattr(BulkSQLiteRecorder, "insert_events", refuse)
        elif where == "after-rows-written":
            original = BulkSQLiteRecorder._insert_events

            def half(self: Any, cursor: Any, stored: Any, **kwargs: Any) -> Any:
                original(self, cursor, stored, **kwargs)
                raise error

            patch.setattr(BulkSQLiteRecorder, "_insert_events", half)
        else:
            select = BulkSQLiteRecorder.select_events
            calls = [0]

            def unreadable(self: Any, *args: Any, **kwargs: Any) -> Any:
                calls[0] += 1
                if calls[0] > after:
                    raise error
                return select(self, *args, **kwargs)

            patch.setattr(BulkSQLiteRecorder, "select_events", unreadable)
        yield


@fuzz(300)
@given(
    fault=st.sampled_from(FAULTS),
    where=st.sampled_from(["before-insert", "after-rows-written"]),
    write=st.sampled_from(WRITES),
    text=texts,
    actor=st.none() | st.just("Rosa"),  # the GM; anyone else is refused before the store
    as_json=st.booleans(),
)
def test_a_store_fault_under_a_write_is_one_line_and_appends_nothing(
    steady: Path,
    fault: tuple[BaseException, str],
    where: str,
    write: list[str],
    text: str,
    actor: str | None,
    as_json: bool,
) -> None:
    """300 writes that meet a fault: exit 1, the fault's code in one line, 0 events appended
    (even when the rows were already written in the transaction)."""
    error, code = fault
    argv = (["--json"] if as_json else []) + (["--actor", actor] if actor else [])
    argv += [text if part == "{}" else part for part in write]
    before = events(steady)
    with injected(where, error):
        result = invoke(steady, argv)
    assert 1 == result.exit_code, (argv, result.output)
    assert code == ended_cleanly(result, as_json=as_json)
    assert before == events(steady)


@fuzz(200)
@given(
    fault=st.sampled_from(FAULTS),
    read=st.sampled_from(READS),
    after=st.integers(0, 12),
    as_json=st.booleans(),
)
def test_a_store_fault_under_a_read_is_one_line(
    steady: Path, fault: tuple[BaseException, str], read: list[str], after: int, as_json: bool
) -> None:
    """200 reads whose store fails at a drawn read of a stream: exit 1 with the fault's code
    (or 0 when the command read fewer streams than that, or 2 when a refusal came first)."""
    error, code = fault
    with injected("select", error, after=after):
        result = invoke(steady, ["--json", *read] if as_json else read)
    found = ended_cleanly(result, as_json=as_json)
    if result.exit_code == 1 and found is not None:
        assert code == found, (read, result.stderr)


def test_the_disk_really_fills_up_in_the_middle_of_a_save(tmp_path: Path) -> None:
    """SQLite itself says `database or disk is full` (no page may be added) while a save is
    writing: STORE_FULL, and the store holds what it held."""
    db = tmp_path / "campaign.db"
    play_setup(db)
    before = events(db)
    from engine.store.recorders import DurableSQLiteConnectionPool

    original = DurableSQLiteConnectionPool._create_connection

    def capped(self: Any) -> Any:
        connection = original(self)
        raw = connection._sqlite_conn
        pages = raw.execute("PRAGMA page_count").fetchone()[0]
        raw.execute(f"PRAGMA max_page_count={pages}")
        return connection

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DurableSQLiteConnectionPool, "_create_connection", capped)
        result = invoke(db, ["note", "x" * MAX_TEXT])  # the longest note: pages more
    assert (1, "STORE_FULL") == (result.exit_code, ended_cleanly(result))
    assert before == events(db)
    assert 0 == invoke(db, ["note", "after the disk was cleared"]).exit_code


def test_a_read_only_store_refuses_a_write_in_one_line(table: Path, tmp_path: Path) -> None:
    """A store opened read-only (SQLite's own mode=ro): STORE_READ_ONLY, exit 1; reads work."""
    copy = tmp_path / "copy.db"
    shutil.copy(table, copy)
    before = events(copy)
    spec = f"file:{copy}?mode=ro"
    result = CliRunner().invoke(campaign, ["--db", spec, "note", "hello"])
    assert (1, "STORE_READ_ONLY") == (result.exit_code, ended_cleanly(result))
    assert before == events(copy)
    assert 0 == CliRunner().invoke(campaign, ["--db", spec, "log"]).exit_code


def test_a_store_locked_past_the_timeout_is_one_line(table: Path, tmp_path: Path) -> None:
    """Another process holds the write lock past the wait: STORE_LOCKED, exit 1, nothing
    appended (the wait is cut to one second here; the product waits 30)."""
    import engine.store.campaign_store

    copy = tmp_path / "locked.db"
    shutil.copy(table, copy)
    before = events(copy)
    environment_for = engine.store.campaign_store.environment_for

    def quick(spec: str) -> dict[str, str]:
        return {**environment_for(spec), "SQLITE_LOCK_TIMEOUT": "1"}

    holder = sqlite3.connect(copy, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(engine.store.campaign_store, "environment_for", quick)
            result = invoke(copy, ["note", "while locked"])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (1, "STORE_LOCKED") == (result.exit_code, ended_cleanly(result))
    assert before == events(copy)


# --- Damaged files, missing folders, unreachable servers -------------------------------------


def test_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "campaign.db"
    result = invoke(db, ["init", "X", "--system", "code-green", "--gm", "Rosa"])
    assert (1, "STORE_UNREADABLE") == (result.exit_code, ended_cleanly(result))
    assert "does not exist" in result.stderr
    assert not db.parent.exists()


def test_a_file_that_is_not_a_database_is_one_line_in_a_real_process(tmp_path: Path) -> None:
    db = tmp_path / "campaign.db"
    db.write_bytes(b"this is a shopping list, not a campaign\n" * 200)
    done = run_process(db, [b"log"])
    assert (1, "STORE_CORRUPT") == (done.returncode, process_ended_cleanly(done))


def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    spec = "postgresql://gm:hunter2@127.0.0.1:1/tables?connect_timeout=2"
    for as_json in (False, True):
        result = CliRunner().invoke(
            campaign, [*(["--json"] if as_json else []), "--db", spec, "log"]
        )
        assert (1, "STORE_UNREADABLE") == (
            result.exit_code,
            ended_cleanly(result, as_json=as_json),
        )
        assert "hunter2" not in result.output


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    """A store with a few rulings, checkpointed into its main file: (path, page size, pages)."""
    db = tmp_path_factory.mktemp("pristine") / "campaign.db"
    play_setup(db)
    for n in range(5):
        assert 0 == invoke(db, ["note", f"note {n}: " + "words " * 40]).exit_code
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = connection.execute("PRAGMA page_size").fetchone()[0]
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
    return db, int(size), int(pages)


@fuzz(200)
@given(data=st.data())
def test_a_page_overwritten_by_hand_never_reaches_a_traceback(
    pristine: tuple[Path, int, int], data: st.DataObject
) -> None:
    """200 copies of a store with bytes of one page overwritten (the header, a b-tree page, a
    stored event): every command ends in 0, 1 or 2 with one line, and a failed write leaves
    the count it found."""
    source, size, pages = pristine
    page = data.draw(st.integers(1, pages), label="page")
    offset = data.draw(st.integers(0, size - 1), label="offset")
    garbage = data.draw(st.binary(min_size=1, max_size=64), label="bytes")
    verb = data.draw(st.sampled_from([*READS, *WRITES]), label="verb")
    verb = ["a note" if part == "{}" else part for part in verb]
    folder = Path(tempfile.mkdtemp(dir=source.parent))
    db = folder / "campaign.db"
    shutil.copy(source, db)
    shutil.copy(f"{source}.current", f"{db}.current")
    with db.open("r+b") as file:
        file.seek((page - 1) * size + offset)
        file.write(garbage[: size - offset])
    try:
        before = events(db)
        result = invoke(db, verb)
        code = ended_cleanly(result)
        event(f"exit {result.exit_code} {code or ''}")
        after = events(db)
        if code is not None and before is not None:
            assert before == after, (verb, result.stderr)
    finally:
        shutil.rmtree(folder)
