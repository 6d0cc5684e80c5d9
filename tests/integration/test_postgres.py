"""PostgreSQL as a store: URLs, the CLI on a server, opening races, and psycopg kept off the
SQLite path. Tests that need a server use a schema of their own (see tests/postgres.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import campaign
from domain.errors import CodedError, DomainError, Fault
from engine import Engine
from engine.store import campaign_store as store
from tests.postgres import fresh_schema
from tests.stores import writer_processes

ROOT = Path(__file__).parents[2]


@pytest.fixture
def url() -> Iterator[str]:
    with fresh_schema() as fresh:
        yield fresh


def test_a_url_names_server_user_database_and_schema() -> None:
    """Each part of the URL lands in the library's setting; a password is unquoted."""
    env = store.environment_for("postgresql://gm:s%40cret@db.example:6543/tables?schema=lab")

    assert {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_HOST": "db.example",
        "POSTGRES_PORT": "6543",
        "POSTGRES_USER": "gm",
        "POSTGRES_PASSWORD": "s@cret",
        "POSTGRES_DBNAME": "tables",
        "POSTGRES_SCHEMA": "lab",
    }.items() <= env.items()


def test_missing_url_parts_default_as_libpq_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """No user: the login name; no host: localhost (or ?host= for a socket); no port: 5432."""
    monkeypatch.setattr(store.getpass, "getuser", lambda: "rosa")

    plain = store.environment_for("postgres:///tables")
    socket = store.environment_for("postgresql:///tables?host=/var/run/postgresql")

    assert ("rosa", "localhost", "5432", "", "") == (
        plain["POSTGRES_USER"],
        plain["POSTGRES_HOST"],
        plain["POSTGRES_PORT"],
        plain["POSTGRES_PASSWORD"],
        plain["POSTGRES_SCHEMA"],
    )
    assert "/var/run/postgresql" == socket["POSTGRES_HOST"]


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("postgresql://gm@localhost", "STORE_UNREADABLE"),
        ("mysql://gm@localhost/tables", "UNSUPPORTED_STORE"),
    ],
    ids=["no-database", "another-server"],
)
def test_a_url_this_version_cannot_use_is_refused(spec: str, code: str) -> None:
    """A typed refusal or fault with its code, not a stack trace."""
    with pytest.raises(CodedError) as refused:
        store.environment_for(spec)

    assert code == refused.value.code


def test_without_the_extra_a_postgres_url_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """POSTGRES_NOT_INSTALLED names the pip extra."""
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)

    with pytest.raises(DomainError) as refused:
        store.environment_for("postgresql://gm@localhost/tables")

    assert "POSTGRES_NOT_INSTALLED" == refused.value.code
    assert "campaign-log[postgres]" in refused.value.reason


def test_an_unreachable_server_is_a_one_line_refusal_without_the_password() -> None:
    """Nothing listens on port 1: STORE_UNREADABLE (a fault of the store, not a refusal), with
    the password masked."""
    spec = "postgresql://gm:hunter2@127.0.0.1:1/tables?connect_timeout=2"

    with pytest.raises(Fault) as refused:
        Engine(spec)

    assert "STORE_UNREADABLE" == refused.value.code
    assert "gm:***@127.0.0.1:1" in refused.value.reason
    assert "hunter2" not in refused.value.reason
    assert "\n" not in refused.value.reason


def test_the_sqlite_path_never_imports_psycopg(tmp_path: Path) -> None:
    """A whole CLI session on a SQLite file leaves psycopg out of sys.modules."""
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from cli.main import campaign\n"
        "db = sys.argv[1]\n"
        "init = ['init', 'Lab', '--system', 'code-green', '--gm', 'Rosa']\n"
        "for line in (init, ['session', 'start'], ['log']):\n"
        "    assert CliRunner().invoke(campaign, ['--db', db, *line]).exit_code == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "campaign.db")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )

    assert "[]" == done.stdout.strip()


def test_the_cli_plays_on_postgres_through_db_and_campaign_db(url: str) -> None:
    """--db and CAMPAIGN_DB both select the server; the log and verify read it back."""
    runner = CliRunner()
    lines = [
        ["--db", url, "init", "Lab", "--system", "code-green", "--gm", "Rosa"],
        ["--db", url, "session", "start"],
        ["note", "from the environment"],
        ["log"],
        ["verify"],
    ]
    results = [runner.invoke(campaign, line, env={"CAMPAIGN_DB": url}) for line in lines]

    assert [0, 0, 0, 0, 0] == [r.exit_code for r in results], [r.output for r in results]
    assert "from the environment" in results[3].output
    with Engine(url) as engine:
        assert 3 == engine.campaign("Lab").rulings


def _open(spec: str) -> None:
    Engine(spec).close()


def test_processes_opening_a_fresh_schema_at_once_all_succeed(url: str) -> None:
    """Four processes create the tables together: the advisory lock lets each open in turn."""
    context = writer_processes()
    processes = [context.Process(target=_open, args=(url,)) for _ in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=60)

    assert [0, 0, 0, 0] == [p.exitcode for p in processes]


def test_a_secret_seed_lives_in_the_schema_table(url: str) -> None:
    """A started session's seed is in campaignlog_dice_secrets, beside the events."""
    import psycopg

    with Engine(url) as engine:
        engine.create_campaign("Lab", "code-green")
        runner = CliRunner()
        assert 0 == runner.invoke(campaign, ["--db", url, "session", "start"]).exit_code
    schema = url.rpartition("schema=")[2]
    with psycopg.connect(url.partition("?")[0]) as connection:
        rows = connection.execute(
            f'SELECT session FROM "{schema}".campaignlog_dice_secrets'
        ).fetchall()

    assert [(1,)] == rows
