"""A store damaged by hand (sqlite3 writing into its rows) ends every command in one line with
a code, never UNEXPECTED_ERROR: the corruptions the issue found (an empty stored event and bytes
that are not UTF-8 under `export`, a stream id that is not one under `log`, a campaign listed at
an empty stream under `recap`) and a ruling whose row is gone. A damaged store is a fault of the
store: exit 1 (docs/faults.md). And a refused `init` or `import` leaves no store
file behind."""

from __future__ import annotations

import json
import shlex
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner, Result

from cli.main import campaign
from tests.e2e.conftest import SETUP
from tests.e2e.test_faults import ended_cleanly

DIRECTORY_ROW = "domain.events:CampaignRegistered"
Damage = Callable[[sqlite3.Connection], None]


def run(db: Path, *argv: str) -> Result:
    return CliRunner().invoke(campaign, ["--db", str(db), *argv])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("played") / "campaign.db"
    for line in [*SETUP, "note 'the cold room hums'"]:
        result = run(db, *shlex.split(line))
        assert 0 == result.exit_code, (line, result.output)
    with sqlite3.connect(db) as store:  # into the main file, which the tests copy
        store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


@pytest.fixture
def copy(played: Path, tmp_path: Path) -> Path:
    db = tmp_path / "campaign.db"
    shutil.copy(played, db)
    shutil.copy(f"{played}.current", f"{db}.current")
    return db


def damaged(db: Path, damage: Damage) -> None:
    with sqlite3.connect(db) as store:
        damage(store)


def a_note(store: sqlite3.Connection) -> tuple[str, int, bytes]:
    found: tuple[str, int, bytes] = store.execute(
        "SELECT originator_id, originator_version, state FROM stored_events WHERE topic=?",
        ("domain.events:NoteAdded",),
    ).fetchone()
    return found


def set_state(store: sqlite3.Connection, row: tuple[str, int, bytes], state: bytes) -> None:
    store.execute(
        "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
        (state, row[0], row[1]),
    )


def empty_state(store: sqlite3.Connection) -> None:
    set_state(store, a_note(store), b"")


def not_utf8(store: sqlite3.Connection) -> None:
    row = a_note(store)
    state = row[2]
    set_state(store, row, state[:40] + b"\x82\xff" + state[42:])


def stream_id_not_a_uuid(store: sqlite3.Connection) -> None:
    stream, version, _ = a_note(store)
    bad = stream[:20] + "z" + stream[21:]
    store.execute(
        "UPDATE stored_events SET originator_id=? WHERE originator_id=? AND originator_version=?",
        (bad, stream, version),
    )


def campaign_listed_at_an_empty_stream(store: sqlite3.Connection) -> None:
    """One hex digit of the directory's campaign id rewritten: a valid id of no stream."""
    stream, version, state = store.execute(
        "SELECT originator_id, originator_version, state FROM stored_events WHERE topic=?",
        (DIRECTORY_ROW,),
    ).fetchone()
    body = json.loads(state)
    old = body["event"]["campaign_id"]
    body["event"]["campaign_id"] = old[:-1] + ("0" if old[-1] != "0" else "1")
    set_state(store, (stream, version, b""), json.dumps(body).encode())


def a_rulings_row_deleted(store: sqlite3.Connection) -> None:
    """A token's placement gone from its character's stream; the ruling's header still
    claims it."""
    stream, version = store.execute(
        "SELECT originator_id, MIN(originator_version) FROM stored_events WHERE topic=?",
        ("domain.rulesets.code_green.events:TokenPlaced",),
    ).fetchone()
    store.execute(
        "DELETE FROM stored_events WHERE originator_id=? AND originator_version=?",
        (stream, version),
    )


@pytest.mark.parametrize(
    ("damage", "verbs", "code", "said"),
    [
        (empty_state, ["export"], "STORED_EVENT_UNREADABLE", "Expecting value"),
        (not_utf8, ["export"], "STORED_EVENT_UNREADABLE", "utf-8"),
        (stream_id_not_a_uuid, ["log", "export", "recap"], "STORED_EVENT_UNREADABLE", "UUID"),
        (
            campaign_listed_at_an_empty_stream,
            ["recap", "history alice", "show"],
            "STORED_LOG_DAMAGED",
            "which holds no events",
        ),
        (a_rulings_row_deleted, ["log", "replay"], "STORED_LOG_DAMAGED", "not stored"),
    ],
    ids=["empty", "not-utf8", "stream-id", "empty-stream", "row-deleted"],
)
def test_a_damaged_store_is_one_line_naming_the_damage(
    copy: Path, damage: Damage, verbs: list[str], code: str, said: str
) -> None:
    damaged(copy, damage)
    out = copy.parent / "night-shift.jsonl"
    for verb in verbs:
        argv = shlex.split(verb) + (["--out", str(out)] if verb == "export" else [])
        result = run(copy, *argv)
        assert 1 == result.exit_code, (verb, result.output)
        assert code == ended_cleanly(result), (verb, result.stderr)
        assert said.lower() in result.stderr.lower(), (verb, result.stderr)
        assert not out.exists()  # no part of an export is left


def test_an_unreadable_row_is_named_by_its_stream_and_version(copy: Path) -> None:
    with sqlite3.connect(copy) as store:
        stream, version, _ = a_note(store)
    damaged(copy, empty_state)
    result = run(copy, "export")
    assert f"stream {UUID(stream)} version {version}: " in result.stderr


def test_a_stopped_export_leaves_an_older_export_as_it_was(copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "night-shift.jsonl"
    assert 0 == run(copy, "export", "--out", str(out)).exit_code
    before = out.read_bytes()
    damaged(copy, empty_state)
    assert 1 == run(copy, "export", "--out", str(out)).exit_code
    assert before == out.read_bytes()
    assert [out] == list(tmp_path.glob("*night-shift*"))  # no partial file beside it


def test_a_verify_of_the_damage_names_it(copy: Path) -> None:
    """What the refusals point to: `verify` reads the same stores and says where."""
    damaged(copy, a_rulings_row_deleted)
    result = run(copy, "verify")
    assert 1 == result.exit_code
    assert "the log was tampered with" in result.stdout


# --- A refused `init` or `import` leaves no store -----------------------------------------------

SIDE_FILES = ("", "-wal", "-shm", "-journal", "-lock", ".current")


def store_files(db: Path) -> list[str]:
    return [db.name + suffix for suffix in SIDE_FILES if Path(f"{db}{suffix}").exists()]


@pytest.mark.parametrize(
    "content",
    [
        b'{"format": "nope"}\n',
        b"\xff\xfe not text\n",
        b'{"format": "campaign-log/1", "name": "X", "system": "code-green"}\n' + b"[" * 100,
    ],
    ids=["wrong-format", "not-utf8", "too-deep"],
)
def test_a_refused_import_leaves_no_store_file(tmp_path: Path, content: bytes) -> None:
    file = tmp_path / "bad.jsonl"
    file.write_bytes(content)
    db = tmp_path / "new.db"
    result = run(db, "import", str(file))
    assert 2 == result.exit_code
    assert ended_cleanly(result)
    assert [] == store_files(db)
    assert ["bad.jsonl"] == sorted(p.name for p in tmp_path.iterdir())


def test_a_refused_init_leaves_no_store_file(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    result = run(db, "init", "", "--system", "code-green", "--gm", "Rosa")
    assert (2, "INVALID_CAMPAIGN_NAME") == (result.exit_code, ended_cleanly(result))
    assert [] == store_files(db)


def test_a_refused_import_into_a_store_that_was_there_keeps_it(copy: Path, tmp_path: Path) -> None:
    file = tmp_path / "bad.jsonl"
    file.write_bytes(b'{"format": "nope"}\n')
    before = copy.read_bytes()
    result = run(copy, "import", str(file))
    assert 2 == result.exit_code
    assert copy.exists()
    assert 0 == run(copy, "log").exit_code
    assert len(before) <= len(copy.read_bytes())


def test_a_refused_import_leaves_the_files_another_process_keeps(
    copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files that appear beside an existing store while a refused import runs are the store's
    (another process's write-ahead log), never the import's to remove: removing a live WAL loses
    what it holds."""
    from engine import Engine

    file = tmp_path / "bad.jsonl"
    file.write_bytes(b'{"format": "nope"}\n')
    assert not Path(f"{copy}-wal").exists()
    other = sqlite3.connect(copy)  # another process's connection, writing as the import runs
    importing = Engine.import_campaign

    def meanwhile(self: Engine, *args: object, **kwargs: object) -> object:
        other.execute("PRAGMA journal_mode=WAL")
        other.execute("CREATE TABLE other_process (x)")
        other.execute("INSERT INTO other_process VALUES (1)")
        other.commit()
        return importing(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Engine, "import_campaign", meanwhile)
    try:
        assert 2 == run(copy, "import", str(file)).exit_code
        assert Path(f"{copy}-wal").exists()
        assert [(1,)] == other.execute("SELECT x FROM other_process").fetchall()
    finally:
        other.close()
    assert 0 == run(copy, "verify").exit_code


def test_an_import_into_a_new_store_that_works_keeps_it(played: Path, tmp_path: Path) -> None:
    file = tmp_path / "good.jsonl"
    assert 0 == run(played, "export", "--out", str(file)).exit_code
    db = tmp_path / "new.db"
    assert 0 == run(db, "import", str(file)).exit_code
    assert "new.db" in store_files(db)
    assert 0 == run(db, "log").exit_code


def test_verify_names_a_stream_id_that_is_no_uuid(copy: Path) -> None:
    """verify reads the row as a finding, never a traceback."""
    damaged(copy, stream_id_not_a_uuid)
    result = run(copy, "verify")
    assert 1 == result.exit_code, result.output
    assert "which is no UUID, does not decode" in result.output
