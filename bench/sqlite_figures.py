"""The SQLite figures: command latency, append, bulk import, replay, snapshots, memory."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench import (
    copy_figures,
    dataset,
    import_floor,
    projection_figures,
    replay_figures,
    scale_figures,
    seal_figures,
    search_figures,
    streaming_figures,
    undo_figures,
    verify_figures,
    witness_figures,
    writer_figures,
)
from bench.common import (
    BIN,
    ROOT,
    Row,
    Stopwatch,
    median_of,
    paired,
    process,
    say,
    scratch,
    timed,
    timed_process,
)
from bench.sizes import Sizes
from domain.audience import GMS
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store.campaign_store import CampaignStore, environment_for
from engine.store.streams import Streams

RAW_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS stored_events (originator_id TEXT, originator_version INTEGER, "
    "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"
)


def raw_connection(path: Path) -> sqlite3.Connection:
    """A plain connection with the engine's durability: WAL, synchronous=FULL."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute(RAW_SCHEMA)
    return connection


def compiled() -> None:
    """Compile the project's modules, as `pip install` does for an installed tool (the peer's
    are): with PYTHONDONTWRITEBYTECODE set and no ``__pycache__``, every timed process would
    compile our sources again (a third of its time, measured) and the figure would be of that."""
    packages = [str(ROOT / name) for name in ("cli", "domain", "engine", "projections")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *packages], check=True)


def latency(work: Path, repeat: int) -> list[Row]:
    db = work / "latency.db"
    dataset.seed(str(db))
    compiled()
    roll = process([str(BIN / "campaign"), "--db", str(db), *dataset.ROLL])
    peer = sqlite_utils_insert(work / "peer.db")
    bare_code = (
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
        "c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA synchronous=FULL'); "
        "c.execute('CREATE TABLE IF NOT EXISTS t (a, b)'); "
        "c.execute('INSERT INTO t VALUES (?, ?)', (1, 'y' * 400)); c.commit()"
    )
    ours, baseline = against(roll, peer, repeat)
    bare = timed_process([sys.executable, "-c", bare_code, str(work / "bare.db")], repeat)
    floor = process([sys.executable, "-c", DEPENDENCIES + "; " + bare_code, str(work / "floor.db")])
    floor_time, peer_time = against(floor, peer, repeat)
    imports = process([sys.executable, "-c", DEPENDENCIES])
    help_time, imports_time = paired(process([str(BIN / "campaign"), "--help"]), imports, repeat)
    # In a campaign: `use` remembers it and its system beside the store, so `--help` lists that
    # system's verbs without opening the store (cli.in_context).
    current = [str(BIN / "campaign"), "--db", str(db)]
    subprocess.run([*current, "use", dataset.NAME], check=True, capture_output=True)
    inside_time, imports_inside = paired(process([*current, "--help"]), imports, repeat)
    version_time, imports_again = paired(
        process([str(BIN / "campaign"), "--version"]), imports, repeat
    )
    title = "command latency: `campaign roll` process"
    deps = "`python -c` importing our dependencies alone"
    peer_name = "`sqlite-utils insert` of one row"
    missing = "" if peer is not None else f"not measured against {peer_name}: {NO_SQLITE_UTILS}"
    return [
        Row("command latency: `campaign --help`", "s", help_time, imports_time, deps, "<= 1.3"),
        Row(
            "command latency: `campaign --help` in a campaign",
            "s",
            inside_time,
            imports_inside,
            deps,
            "<= 1.3",
        ),
        Row("command latency: `campaign --version`", "s", version_time, imports_again, deps),
        Row(title, "s", ours, baseline, peer_name, "<= 1.2", note=missing),
        Row(title, "s", ours, bare, "`python -c` one-row sqlite3 insert"),
        Row(  # the floor under the first row: what is left of 0.9x is for our own code
            "command latency floor: our dependencies' imports and a one-row insert",
            "s",
            floor_time,
            peer_time,
            peer_name,
            note=missing,
        ),
    ]


def against(
    ours: Callable[[], None], peer: Callable[[], None] | None, repeat: int
) -> tuple[float, float | None]:
    """``ours`` and ``peer`` in turns (``bench.common.paired``), or ``ours`` alone without one."""
    if peer is None:
        return timed(ours, repeat), None
    return paired(ours, peer, repeat)


NO_SQLITE_UTILS = "sqlite-utils is not installed here (bench/requirements.txt: `make bench`)"


def sqlite_utils_insert(db: Path) -> Callable[[], None] | None:
    """The peer of a `campaign roll` process: `sqlite-utils insert` of one row into ``db``
    (warmed once); None where sqlite-utils is not installed (outside the bench's venv)."""
    command = BIN / "sqlite-utils"
    if not command.exists():
        say(f"  {NO_SQLITE_UTILS}: the rows against it are not measured")
        return None
    row = json.dumps({"stream": "x" * 32, "version": 1, "state": "y" * 400}).encode()
    return process([str(command), "insert", str(db), "events", "-"], row)


# What a `campaign roll` process imports of its dependencies (``python -X importtime``): the
# floor under the latency figure, before any of our own code.
DEPENDENCIES = (
    "import click, attrs, cattrs.preconf.json, orjson, hashlib, uuid, "
    "eventsourcing.application, eventsourcing.sqlite"
)


def append(work: Path, repeat: int) -> list[Row]:
    db = work / "append.db"
    dataset.seed(str(db))
    dice = DiceSpec(faces=(3, 3))
    command = dataset.command()
    connection = raw_connection(work / "append-raw.db")
    state = b"y" * 500
    counter = iter(range(1, 10**9))

    def raw_one() -> None:
        connection.execute("BEGIN")
        connection.execute(
            "INSERT INTO stored_events VALUES (?, ?, ?, ?)", ("x" * 32, next(counter), "t", state)
        )
        connection.execute("COMMIT")

    with Engine(str(db)) as engine:
        whole = timed(lambda: engine.execute(dataset.NAME, command, dice=dice), repeat)
        # The save alone: rulings drafted (numbered, chained) beforehand, one put each.
        drafted = iter(dataset.drafts(engine, repeat + 1))
        save, raw = paired(
            lambda: engine.store.recorder.insert_events(next(drafted)), raw_one, repeat
        )
    connection.close()
    return [
        Row(
            "append: one ruling's save (2 events, 1 put)",
            "s",
            save,
            raw,
            "one-row sqlite3 transaction, WAL + synchronous=FULL",
            "<= 2.5",
        ),
        Row(
            "append: a whole `roll` in-process (load, decide, save)",
            "s",
            whole,
            raw,
            "one-row sqlite3 transaction, WAL + synchronous=FULL",
            "<= 4",  # issue 45
        ),
    ]


def raw_insert(path: Path, rows: list[tuple[str, int, str, bytes]], per_transaction: int) -> None:
    """The bulk baselines: ``rows`` into a new plain store, ``per_transaction`` to a transaction
    (with the engine's durability settings)."""
    dataset.remove_db(path)
    connection = raw_connection(path)
    for start in range(0, len(rows), max(1, per_transaction)):
        connection.execute("BEGIN")
        insert = "INSERT INTO stored_events VALUES (?, ?, ?, ?)"
        connection.executemany(insert, rows[start : start + per_transaction])
        connection.execute("COMMIT")
    connection.close()


def _rows_of(db: Path, after: int) -> list[tuple[str, int, str, bytes]]:
    with sqlite3.connect(db) as connection:
        query = "SELECT originator_id, originator_version, topic, state FROM stored_events"
        return connection.execute(query + " WHERE rowid > ? ORDER BY rowid", (after,)).fetchall()


def bulk(work: Path, repeat: int, events: int) -> list[Row]:
    base = work / "bulk-base.db"
    dataset.seed(str(base))
    with sqlite3.connect(base) as connection:
        seeded = connection.execute("SELECT MAX(rowid) FROM stored_events").fetchone()[0]
    target = work / "bulk.db"
    opened: list[Engine] = []

    def fresh() -> None:
        for engine in opened:
            engine.close()
        dataset.copy_db(base, target)
        opened[:] = [Engine(str(target))]

    def ours() -> None:
        dataset.import_rulings(opened[0], events // 2)

    timed(ours, 1, setup=fresh)  # once first, for the rows the baseline writes
    rows = _rows_of(target, seeded)  # the very rows we wrote: same sizes, same keys

    def raw() -> None:
        raw_insert(work / "bulk-raw.db", rows, dataset.BATCH_EVENTS)

    took, baseline = paired(ours, raw, repeat, setup=fresh)
    opened[0].close()
    return [
        Row(
            f"bulk import of {len(rows):,} events (saves of 10k, chained, snapshots)",
            "events/s",
            len(rows) / took,
            len(rows) / baseline,
            "sqlite3 executemany of the same rows, 10k per transaction",
            ">= 0.25",
        ),
        *campaign_import(work, repeat, target),
    ]


def campaign_import(work: Path, repeat: int, source: Path) -> list[Row]:
    """`campaign import` of the bulk figure's campaign, exported: every line parsed, every
    chain and seal verified, then all rows written in one transaction (with a snapshot of each
    stream's head and the read models); and the first recap after it against the second."""
    with Engine(str(source)) as engine:
        lines = list(engine.export(dataset.NAME, audience=GMS))
    target = work / "import.db"
    opened: list[Engine] = []

    def fresh() -> None:
        for engine in opened:
            engine.close()
        dataset.remove_db(target)
        opened[:] = [Engine(str(target))]

    imported: list[int] = []

    def ours() -> None:
        imported.append(opened[0].import_campaign(lines).events)

    timed(ours, 1, fresh)  # once first, for the rows the baseline writes
    rows = _rows_of(target, 0)

    def raw() -> None:
        raw_insert(work / "import-raw.db", rows, len(rows))

    took, baseline = paired(ours, raw, repeat, setup=fresh)
    opened[0].close()
    count = imported[-1]
    return [
        Row(
            f"bulk import: `campaign import` of an export of {count:,} events (verified, one "
            "save, read models built)",
            "events/s",
            count / took,
            len(rows) / baseline,
            "sqlite3 executemany of the same rows, one transaction",
            ">= 0.25",
        ),
        *import_floor.floor_rows(rows, repeat, took, baseline, count),
        first_read(work, repeat, target, count),
    ]


def first_read(work: Path, repeat: int, imported: Path, count: int) -> Row:
    """The first recap of the imported campaign (its latest session, every ruling of it) in a
    fresh engine, against the second: an import leaves nothing for the first read to build."""
    copy = work / "first-read.db"
    firsts: list[float] = []
    seconds: list[float] = []
    for _ in range(repeat):
        dataset.copy_db(imported, copy)
        with Engine(str(copy)) as engine:
            recap = partial(engine.recap, dataset.NAME, None, audience=GMS)
            firsts.append(timed(recap, 1))
            seconds.append(timed(recap, 1))
    dataset.remove_db(copy)
    return Row(
        f"first `recap` after `campaign import` of {count:,} events",
        "s",
        median_of(firsts),
        median_of(seconds),
        "the second `recap`, the same engine",
        "<= 2",
    )


def without_snapshots(path: Path) -> Streams:
    env = {**environment_for(str(path)), "IS_SNAPSHOTTING_ENABLED": "n"}
    return Streams(CampaignStore(env=env))


def replay(work: Path, repeat: int, events: int) -> list[Row]:
    db = work / "replay.db"
    dataset.build(db, events)
    with Engine(str(db)) as engine:
        t = dataset.table(engine)
    streams = without_snapshots(db)
    count = streams.last_version(t.character_id)
    connection = sqlite3.connect(db)
    query = "SELECT state FROM stored_events WHERE originator_id=? ORDER BY originator_version"

    def raw() -> None:
        for (state,) in connection.execute(query, (t.character_id.hex,)):
            json.loads(state)

    ours, baseline = paired(lambda: streams.load(t.character_id, t.evolve_character), raw, repeat)
    streams.store.close()
    connection.close()
    return [
        Row(
            f"replay of a {count:,}-event character, no snapshot",
            "events/s",
            count / ours,
            count / baseline,
            "sqlite3 read + json.loads of the same rows",
            ">= 0.25",
        )
    ]


def snapshots(work: Path, repeat: int, events: int) -> list[Row]:
    """Load time with snapshots: a long history against a short one (one event after each
    snapshot, as after a real command)."""
    medians = {}
    counts = {}
    for size in (100, events):
        db = work / f"snapshots-{size}.db"
        dataset.build(db, size)
        with Engine(str(db)) as engine:
            engine.execute(dataset.NAME, dataset.command(), dice=DiceSpec(faces=(3, 3)))
            t = dataset.table(engine)
            counts[size] = engine.streams.last_version(t.character_id)
            load = partial(engine.streams.load, t.character_id, t.evolve_character)
            load()
            medians[size] = timed(load, repeat * 10)
    return [
        Row(
            f"load with snapshots: {counts[events]:,}-event character",
            "s",
            medians[events],
            medians[100],
            f"the same load of a {counts[100]}-event character",
            "<= 2",
        )
    ]


def memory(work: Path, small: int, large: int) -> list[Row]:
    """Peak RSS of a process that replays a character without snapshots (fresh process each)."""
    peaks = {}
    for size in (small, large):
        db = work / f"memory-{size}.db"
        say(f"  building {size:,} events for the memory figure")
        dataset.build(db, size, headers=False)
        probe = [sys.executable, "-m", "bench.probe", str(db)]
        out = subprocess.run(probe, check=True, capture_output=True, text=True).stdout
        peaks[size] = int(out.split()[0]) / 1024
        dataset.remove_db(db)
    return [
        Row(
            f"peak RSS, full replay of {large:,} events",
            "MiB",
            peaks[large],
            peaks[small],
            f"the same over {small:,} events",
            "<= 2",
        )
    ]


def everything(sizes: Sizes, watch: Stopwatch) -> list[Row]:
    work = scratch()
    repeat, events, large = sizes.repeat, sizes.events, sizes.memory_events
    figures: list[tuple[str, Callable[[], list[Row]]]] = [
        ("command latency", lambda: latency(work, repeat * 3)),
        ("append", lambda: append(work, repeat * 20)),
        ("sealed roll", lambda: seal_figures.figures(work, repeat * 20)),
        ("sealed roll through the API", lambda: seal_figures.api_figures(work, repeat * 40)),
        ("bulk import", lambda: bulk(work, repeat, events)),
        ("replay", lambda: replay(work, repeat, events)),
        ("snapshots", lambda: snapshots(work, repeat, events)),
        ("projection", lambda: projection_figures.figures(work, sizes)),
        ("undo", lambda: undo_figures.figures(work, sizes)),
        ("session replay", lambda: replay_figures.figures(work, sizes)),
        ("verify", lambda: verify_figures.figures(work, repeat, events)),
        ("witnesses", lambda: witness_figures.figures(work, repeat, events)),
        ("member's copy", lambda: copy_figures.figures(work, repeat, events)),
        ("memory", lambda: memory(work, sizes.memory_small, large)),
        ("streaming", lambda: streaming_figures.figures(work, sizes)),
        ("scale", lambda: scale_figures.figures(work, sizes)),
        ("search", lambda: search_figures.figures(work, sizes)),
        ("writers", lambda: [writer_figures.sqlite_row(work, sizes)]),
    ]
    rows: list[Row] = []
    for name, figure in figures:
        with watch.part(name):
            rows += figure()
    shutil.rmtree(work, ignore_errors=True)
    return rows
