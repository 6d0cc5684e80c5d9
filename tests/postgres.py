"""PostgreSQL for tests: a fresh schema per test, or a visible skip (a failure in CI).

The server is ``CAMPAIGN_TEST_POSTGRES`` (default: the local one, user ``postgres``, database
``test``). Without a reachable server the tests that need it skip with the reason, unless
``CAMPAIGN_REQUIRE_POSTGRES=1`` (set by ``.ci/run``): then they fail.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import uuid4

import pytest

SERVER = os.environ.get("CAMPAIGN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@functools.cache
def server_problem() -> str | None:
    """Why no PostgreSQL server can be used for tests (None when one answers)."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'campaign-log[postgres]')"
    try:
        with psycopg.connect(SERVER, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as error:
        return " ".join(str(error).split())
    return None


def require_postgres() -> None:
    """Skip (or, with CAMPAIGN_REQUIRE_POSTGRES=1, fail) when no server answers."""
    problem = server_problem()
    if problem is None:
        return
    message = f"no PostgreSQL server at {SERVER}: {problem}"
    if os.environ.get("CAMPAIGN_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{message} (CAMPAIGN_REQUIRE_POSTGRES=1)")
    pytest.skip(message)


def _execute(statement: str) -> None:
    import psycopg

    with psycopg.connect(SERVER, autocommit=True) as connection:
        connection.execute(statement)


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A store URL on a schema of its own, dropped afterwards (runs never see each other)."""
    require_postgres()
    schema = f"campaign_test_{uuid4().hex[:12]}"
    _execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{SERVER}{'&' if '?' in SERVER else '?'}schema={schema}"
    finally:
        _execute(f'DROP SCHEMA "{schema}" CASCADE')
