"""PostgreSQL figures, when a server answers: append, bulk import, replay vs raw psycopg.

The server is ``BENCH_POSTGRES_URL`` (default ``postgresql://postgres@localhost:5432/``); the
figures run in a database ``campaign_bench`` that is dropped and created anew for each import.
Every scratch database of the bench is named from ``BENCH_POSTGRES_PREFIX`` (default
``campaign_bench``), so that two runs on one server (the test suite's smallest run and someone's
`make bench`) never drop each other's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from bench import dataset, undo_figures, writer_figures
from bench.common import Row, paired, timed
from bench.sizes import Sizes
from engine import Engine
from engine.store.campaign_store import CampaignStore, environment_for
from engine.store.streams import Streams

SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@localhost:5432/")
PREFIX = os.environ.get("BENCH_POSTGRES_PREFIX", "campaign_bench")
DBNAME = PREFIX
RAW_DBNAME = PREFIX + "_raw"
URL = SERVER.rstrip("/") + "/" + DBNAME
# Saves of 10k events, as on SQLite: the store's recorder COPYs a large save (the library's
# pipelined insert hung here from 10k events, ENGINE-NOTES saw it from 20k).
BATCH = 10_000
RAW_SCHEMA = (
    "CREATE TABLE raw_events (originator_id uuid, originator_version integer, topic text, "
    "state bytea, PRIMARY KEY (originator_id, originator_version))"
)


def _admin() -> Any:
    import psycopg

    return psycopg.connect(SERVER.rstrip("/") + "/postgres", autocommit=True, connect_timeout=3)


def fresh_database() -> None:
    with _admin() as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DBNAME} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {DBNAME}")


def _seeded() -> str:
    fresh_database()
    dataset.seed(URL)
    return URL


def _connect(dbname: str = DBNAME) -> Any:
    import psycopg

    return psycopg.connect(SERVER.rstrip("/") + "/" + dbname)


def _raw_database() -> Any:
    """A connection to a database of the raw baselines' own (the store's is recreated between
    runs of a figure, so the baselines' table cannot live there)."""
    with _admin() as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {RAW_DBNAME} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {RAW_DBNAME}")
    return _connect(RAW_DBNAME)


def reachable() -> str:
    """Empty when a server answers, else why not."""
    try:
        with _admin():
            return ""
    except Exception as error:  # no psycopg, no server, no role: the figures are skipped
        return " ".join(str(error).split())[:120] or type(error).__name__


def everything(sizes: Sizes) -> list[Row]:
    problem = reachable()
    if problem:
        note = f"not measured: no PostgreSQL server answered at {SERVER} ({problem})"
        return [Row("PostgreSQL", "", None, None, "", note=note)]
    repeat = sizes.repeat
    rows = append(repeat) + bulk(repeat, sizes.events) + replay(repeat)
    rows.append(undo(repeat, sizes.back))
    rows.append(writer_figures.row("PostgreSQL", _seeded, sizes))
    with _admin() as admin:
        for name in (DBNAME, RAW_DBNAME):
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return rows


def append(repeat: int) -> list[Row]:
    fresh_database()
    dataset.seed(URL)
    with Engine(URL) as engine, _connect() as connection:
        connection.execute(RAW_SCHEMA)
        connection.commit()
        ids = iter(range(1, 10**9))
        stream = "00000000-0000-0000-0000-000000000001"

        def raw_one() -> None:
            insert = "INSERT INTO raw_events VALUES (%s, %s, %s, %s)"
            connection.execute(insert, (stream, next(ids), "t", b"y" * 500))
            connection.commit()

        drafted = iter(dataset.drafts(engine, repeat * 20 + 1))
        ours, raw = paired(
            lambda: engine.store.recorder.insert_events(next(drafted)), raw_one, repeat * 20
        )
    return [
        Row(
            "PostgreSQL append: one ruling's save (2 events, 1 put)",
            "s",
            ours,
            raw,
            "psycopg one-row insert + commit",
            "<= 2.5",
        )
    ]


def bulk(repeat: int, events: int) -> list[Row]:
    opened: list[Engine] = []

    def fresh() -> None:
        for engine in opened:
            engine.close()
        opened.clear()
        fresh_database()
        dataset.seed(URL)
        opened.append(Engine(URL))

    def ours() -> None:
        dataset.import_rulings(opened[0], events // 2, batch=BATCH)

    timed(ours, 1, setup=fresh)  # once first, for the rows the baselines write
    with _connect() as connection:
        rows = connection.execute(
            "SELECT originator_id, originator_version, topic, state FROM campaignlog_events "
            "ORDER BY notification_id"
        ).fetchall()
    with _raw_database() as connection:
        connection.execute(RAW_SCHEMA)
        connection.commit()

        def truncate() -> None:
            connection.execute("TRUNCATE raw_events")
            connection.commit()

        def many() -> None:
            with connection.cursor() as cursor:
                for start in range(0, len(rows), BATCH):
                    cursor.executemany(
                        "INSERT INTO raw_events VALUES (%s, %s, %s, %s)",
                        rows[start : start + BATCH],
                    )
                    connection.commit()

        def copy() -> None:
            with connection.cursor() as cursor:
                with cursor.copy("COPY raw_events FROM STDIN") as writer:
                    for row in rows:
                        writer.write_row(row)
                connection.commit()

        took, by_many = paired(ours, many, repeat, setup=fresh, baseline_setup=truncate)
        by_copy = timed(copy, repeat, setup=truncate)
    opened[0].close()
    n = len(rows)
    title = f"PostgreSQL bulk import of {n:,} events (saves of 10k)"
    return [
        Row(
            title,
            "events/s",
            n / took,
            n / by_many,
            "psycopg executemany of the same rows, 10k per commit",
            ">= 0.25",
        ),
        Row(title, "events/s", n / took, n / by_copy, "psycopg COPY of the same rows"),
    ]


def undo(repeat: int, back: int) -> Row:
    """An undo ``back`` rulings back on PostgreSQL: every later ruling decided again."""
    fresh_database()
    dataset.seed(URL)
    with Engine(URL) as engine:
        dataset.import_rulings(engine, back, batch=BATCH)
        took = undo_figures.undo_back(engine, repeat, back)
    return undo_figures.far_row(took, back, "PostgreSQL")


def replay(repeat: int) -> list[Row]:
    """Replays the character the last bulk import wrote (no snapshots)."""
    with Engine(URL) as engine:
        t = dataset.table(engine)
    env = {**environment_for(URL), "IS_SNAPSHOTTING_ENABLED": "n"}
    streams = Streams(CampaignStore(env=env))
    count = streams.last_version(t.character_id)
    load: Callable[[], object] = lambda: streams.load(t.character_id, t.evolve_character)  # noqa: E731
    with _connect() as connection:

        def raw() -> None:
            query = (
                "SELECT state FROM campaignlog_events WHERE originator_id = %s "
                "ORDER BY originator_version"
            )
            for (state,) in connection.execute(query, (t.character_id,)):
                json.loads(state)

        ours, baseline = paired(load, raw, repeat)
    streams.store.close()
    return [
        Row(
            f"PostgreSQL replay of a {count:,}-event character, no snapshot",
            "events/s",
            count / ours,
            count / baseline,
            "psycopg read + json.loads of the same rows",
            ">= 0.25",
        )
    ]
